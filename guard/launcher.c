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

#ifdef __ELF__
/* The mark guarded-bash and the launchers look for in a file's first 64 KiB to tell a guard
 * launcher (guard/entry/shim/launcher.py is_guard_shim): a static build keeps its strings far beyond
 * that, so the mark is also an ELF note, which linkers put right after the headers. */
static const struct {
    unsigned int namesz, descsz, type;
    char name[8], desc[12];
} guard_note __attribute__((section(".note.guard"), used, aligned(4))) = {
    6, 12, 1, "guard", "GUARD_ARGV0",
};
#endif

int main(int argc, char **argv) {
    resident_fast_path(argc, argv); /* launcher_resident.c: returns unless it ran bash */
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
    /* Python settings would let a directory an agent can write run code inside guard (a
     * sitecustomize.py on PYTHONPATH, say): guard's Python starts without them, and
     * guarded-bash gives them back to the bash it starts (GUARD_KEPT_<name>). */
    extern char **environ;
    char *moved[64];
    int count = 0;
    for (char **e = environ; *e != NULL && count < 64; e++) {
        if (strncmp(*e, "PYTHON", 6) == 0 && strchr(*e, '=') != NULL) {
            moved[count++] = strdup(*e);
        }
    }
    for (int i = 0; i < count; i++) {
        char *entry = moved[i];
        if (entry == NULL) {
            fputs("guard: the bash launcher is out of memory; nothing ran\n", stderr);
            return FAILED;
        }
        char *eq = strchr(entry, '=');
        *eq = '\0';
        size_t kept_size = strlen(entry) + 12;
        char *kept = malloc(kept_size);
        if (kept == NULL) {
            fputs("guard: the bash launcher is out of memory; nothing ran\n", stderr);
            return FAILED;
        }
        snprintf(kept, kept_size, "GUARD_KEPT_%s", entry);
        if (setenv(kept, eq + 1, 1) != 0 || unsetenv(entry) != 0) {
            fputs("guard: the bash launcher cannot move Python settings aside; nothing ran\n",
                  stderr);
            return FAILED;
        }
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
