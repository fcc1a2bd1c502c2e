/* guard's shell launcher: keeps argv[0] for guarded-bash.
 *
 * sshd, login and `su -` ask for a login shell by a leading "-" in argv[0] alone. guarded-bash
 * is a Python console script (a #! file), and the kernel replaces argv[0] with the script's path
 * when it starts the interpreter, so the "-" would be lost. This launcher, installed by
 * `guard install-shell` under the name `bash`, puts its argv[0] into the environment as
 * GUARD_ARGV0=<pid>:<argv0> and execs guarded-bash with the rest of its arguments. exec keeps
 * the pid, so guarded-bash accepts the value only when the pid is its own, and removes it.
 *
 * Built with -DGUARD_TARGET='"/absolute/path/to/guarded-bash"' (guard install-shell does it).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef GUARD_TARGET
#error "build with -DGUARD_TARGET='\"/absolute/path/to/guarded-bash\"'"
#endif

#define FAILED 126

int main(int argc, char **argv) {
    const char *arg0 = (argc > 0 && argv[0] != NULL) ? argv[0] : "";
    size_t size = strlen(arg0) + 32;
    char *value = malloc(size);
    char **args = calloc((size_t)(argc > 1 ? argc : 1) + 1, sizeof *args);
    if (value == NULL || args == NULL) {
        fputs("guard: the bash launcher is out of memory; nothing ran\n", stderr);
        return FAILED;
    }
    snprintf(value, size, "%ld:%s", (long)getpid(), arg0);
    if (setenv("GUARD_ARGV0", value, 1) != 0) {
        fprintf(stderr, "guard: the bash launcher cannot set GUARD_ARGV0 (%s); nothing ran\n",
                strerror(errno));
        return FAILED;
    }
    args[0] = GUARD_TARGET;
    for (int i = 1; i < argc; i++) {
        args[i] = argv[i];
    }
    execv(GUARD_TARGET, args);
    fprintf(stderr,
            "guard: the bash launcher cannot start %s (%s); nothing ran. "
            "Run `guard install-shell` again.\n",
            GUARD_TARGET, strerror(errno));
    return FAILED;
}
