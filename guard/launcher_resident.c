/* guard's shell launcher, fast path: `bash -c CMD [$0 ARGS…]` asked of the resident checker.
 *
 * Compiled in front of launcher.c by `guard install-shell`. When the per-user checker (`guard
 * serve --user`, guard/entry/resident/server.py) is running and allows the line, the launcher execs
 * the real bash itself, with its argv unchanged, and no Python starts at all. It speaks the
 * checker's protocol (guard/entry/resident/protocol.py, version 1) and sends what guarded-bash would:
 * the text, $0 and the arguments, the directory, the session, the whole environment.
 *
 * Anything else — another form of argv, a login shell, GUARD_RESIDENT off, GUARD_REAL_SHELL
 * set, a parent that is sshd, no checker, a directory or socket that is not the user's own and
 * private, a peer of another uid, a protocol error, an answer other than allow — returns, and
 * the launcher starts guarded-bash as always, which checks again (and prompts, or refuses, with
 * its own messages). The checker writes the audit row only after this launcher took its answer.
 */
#ifdef __linux__
#define _GNU_SOURCE /* struct ucred, memmem */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#define REAL_BASH "/bin/bash"
#ifndef GUARD_PACKAGE
#error "build with -DGUARD_PACKAGE='\"/absolute/path/to/the/guard/package\"'"
#endif
#define SNIFF 65536

/* Landlock (guard/kernel/landlock.py has the same numbers): an enforced line's grants, as the checker
 * planned them, held by the kernel before bash starts. */
#define LL_CREATE 444
#define LL_ADD 445
#define LL_RESTRICT 446
#define LL_READ ((1ULL << 0) | (1ULL << 2) | (1ULL << 3))
#define LL_FILE_RIGHTS ((1ULL << 0) | (1ULL << 1) | (1ULL << 2) | (1ULL << 14) | (1ULL << 15))

static unsigned long long ll_handled(long abi) {
    unsigned long long basic = (1ULL << 13) - 1;
    if (abi <= 1) return basic;
    if (abi == 2) return basic | (1ULL << 13);
    if (abi <= 4) return basic | (1ULL << 13) | (1ULL << 14);
    return basic | (1ULL << 13) | (1ULL << 14) | (1ULL << 15);
}

/* Give the kernel the grants ("read PATH" / "write PATH", `len` bytes each) and restrict this
 * process. 0: held (or nothing to hold and not required); -1: not held, and guarded-bash must
 * take the line (it checks again, holds it or refuses it with its own message). */
static int ll_hold(const char *mode, size_t mode_len, const char **grants, const size_t *lens,
                   size_t count) {
    int required = mode_len == 7 && memcmp(mode, "require", 7) == 0;
    long abi = syscall(LL_CREATE, NULL, 0, 1UL);
    if (abi < 1 || count == 0) return required ? -1 : 0;
    unsigned long long handled = ll_handled(abi);
    int ruleset = (int)syscall(LL_CREATE, &handled, sizeof handled, 0UL);
    if (ruleset < 0) return -1;
    for (size_t i = 0; i < count; i++) {
        char path[8192];
        const char *space = memchr(grants[i], ' ', lens[i]);
        if (space == NULL || (size_t)(grants[i] + lens[i] - space) >= sizeof path) continue;
        size_t plen = (size_t)(grants[i] + lens[i] - space - 1);
        memcpy(path, space + 1, plen);
        path[plen] = '\0';
        int write_ = space - grants[i] == 5 && memcmp(grants[i], "write", 5) == 0;
        int fd = open(path, O_PATH | O_CLOEXEC);
        if (fd < 0) continue; /* less is granted, never more */
        struct stat st;
        unsigned long long rights = write_ ? handled : LL_READ;
        if (fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode)) rights &= LL_FILE_RIGHTS;
        rights &= handled;
        struct __attribute__((packed)) { unsigned long long allowed; int parent; } rule = {rights, fd};
        if (rights) syscall(LL_ADD, ruleset, 1, &rule, 0UL);
        close(fd);
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || syscall(LL_RESTRICT, ruleset, 0UL) != 0) {
        int nested = errno == E2BIG; /* 16 rulesets already: the lines around hold it */
        close(ruleset);
        return nested ? 0 : -1;
    }
    close(ruleset);
    return 0;
}

struct buf {
    char *data;
    size_t len, cap;
    int failed;
};

static void put(struct buf *b, const void *data, size_t size) {
    if (b->failed) return;
    if (b->len + size > b->cap) {
        size_t cap = (b->cap ? b->cap * 2 : 65536);
        while (cap < b->len + size) cap *= 2;
        char *grown = realloc(b->data, cap);
        if (grown == NULL) {
            b->failed = 1;
            return;
        }
        b->data = grown;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, size);
    b->len += size;
}

static void field(struct buf *b, const char *data, size_t size) {
    unsigned char head[4] = {(unsigned char)(size >> 24), (unsigned char)(size >> 16),
                             (unsigned char)(size >> 8), (unsigned char)size};
    put(b, head, 4);
    put(b, data, size);
}

static void pair(struct buf *b, const char *key, const char *value) {
    field(b, key, strlen(key));
    field(b, value, strlen(value));
}

static const char *env_or_empty(const char *name) {
    const char *value = getenv(name);
    return value ? value : "";
}

static int is_dir(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The socket's path as guard/entry/resident/protocol.py socket_path finds it; 0 when this launcher
 * cannot tell (the Python path then decides). */
static int socket_path(char *out, size_t size) {
    const char *runtime = env_or_empty("XDG_RUNTIME_DIR");
    const char *state = env_or_empty("GUARD_STATE_DIR");
    const char *xdg = env_or_empty("XDG_STATE_HOME");
    const char *home = getenv("HOME");
    int n;
    if (isspace((unsigned char)runtime[0]) || isspace((unsigned char)xdg[0])) return 0;
    if (runtime[0] == '/' && is_dir(runtime)) {
        n = snprintf(out, size, "%s/guard/checker.sock", runtime);
    } else if (state[0] == '/') {
        n = snprintf(out, size, "%s/run/checker.sock", state);
    } else if (xdg[0] == '/') {
        n = snprintf(out, size, "%s/guard/run/checker.sock", xdg);
    } else if (home != NULL && home[0] != '\0') {
        n = snprintf(out, size, "%s/.local/state/guard/run/checker.sock", home);
    } else {
        return 0;
    }
    return n > 0 && (size_t)n < size;
}

static int private_to_us(const char *path, int directory) {
    struct stat st;
    if (lstat(path, &st) != 0 || st.st_uid != getuid()) return 0;
    if (directory) return S_ISDIR(st.st_mode) && (st.st_mode & 077) == 0;
    return S_ISSOCK(st.st_mode);
}

/* guard/verdict/store/session.py current_session: GUARD_SESSION, else the parent and when it started. */
static void session_id(char *out, size_t size) {
    const char *given = env_or_empty("GUARD_SESSION");
    if (given[0]) {
        snprintf(out, size, "%s", given);
        return;
    }
    long ppid = (long)getppid();
    char path[64], stat_line[4096] = "", boot[64] = "";
    snprintf(path, sizeof path, "/proc/%ld/stat", ppid);
    FILE *f = fopen(path, "r");
    if (f != NULL) {
        size_t got = fread(stat_line, 1, sizeof stat_line - 1, f);
        stat_line[got] = '\0';
        fclose(f);
    }
    char start[32] = "";
    char *close = strrchr(stat_line, ')');
    if (close != NULL) {
        int index = 0;
        for (char *word = strtok(close + 1, " \n"); word != NULL; word = strtok(NULL, " \n")) {
            if (index++ == 19) {
                int digits = word[0] != '\0' && strlen(word) < sizeof start;
                for (char *c = word; *c && digits; c++) digits = isdigit((unsigned char)*c);
                if (digits) snprintf(start, sizeof start, "%s", word);
                break;
            }
        }
    }
    f = start[0] ? fopen("/proc/sys/kernel/random/boot_id", "r") : NULL;
    if (f != NULL) {
        char raw[64] = "";
        if (fgets(raw, sizeof raw, f) != NULL) {
            size_t k = 0;
            for (char *c = raw; *c && k < 8; c++) {
                if (*c != '-' && !isspace((unsigned char)*c)) boot[k++] = *c;
            }
            boot[k] = '\0';
        }
        fclose(f);
    }
    if (start[0] && boot[0]) {
        snprintf(out, size, "ppid-%ld-%s-%s", ppid, start, boot);
    } else if (start[0]) {
        snprintf(out, size, "ppid-%ld-%s", ppid, start);
    } else {
        snprintf(out, size, "ppid-%ld", ppid);
    }
}

/* guard/entry/shim/guarded_bash.py stdin_may_carry_code: not a terminal, not /dev/null, and there. */
static int stdin_may_carry_code(void) {
    struct stat st, null;
    if (fstat(0, &st) != 0 || isatty(0)) return 0;
    if (S_ISCHR(st.st_mode)) return stat("/dev/null", &null) != 0 || st.st_rdev != null.st_rdev;
    return 1;
}

static int parent_is_sshd(void) {
    char path[64], exe[4096];
    snprintf(path, sizeof path, "/proc/%ld/exe", (long)getppid());
    ssize_t n = readlink(path, exe, sizeof exe - 1);
    if (n < 0) return 0;
    exe[n] = '\0';
    const char *name = strrchr(exe, '/');
    return strstr(name ? name : exe, "sshd") != NULL;
}

/* Whether REAL_BASH is a guard launcher or guarded-bash (exec would come back here). */
static int bash_is_guard(void) {
    static char head[SNIFF];
    FILE *f = fopen(REAL_BASH, "rb");
    if (f == NULL) return 1;
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    const char *marks[] = {"GUARD_ARGV0", "guard.entry.shim", "guarded-bash"};
    size_t count = (n >= 2 && head[0] == '#' && head[1] == '!') ? 3 : 1;
    for (size_t m = 0; m < count; m++) {
        if (memmem(head, n, marks[m], strlen(marks[m])) != NULL) return 1;
    }
    return 0;
}

static int wanted(int argc, char **argv) {
    extern char **environ;
    const char *on = env_or_empty("GUARD_RESIDENT");
    if (argc < 3 || strcmp(argv[1], "-c") != 0 || argv[0][0] == '-') return 0;
    if (argv[2][0] == '-' || argv[2][0] == '+') return 0;
    if (on[0] && strcmp(on, "1") != 0) return 0;  /* off, or a value Python reads */
    if (env_or_empty("GUARD_REAL_SHELL")[0]) return 0;
    for (char **e = environ; *e != NULL; e++) {
        if (strncmp(*e, "GUARD_KEPT_", 11) == 0 || strncmp(*e, "GUARD_ARGV0=", 12) == 0) return 0;
    }
    return !parent_is_sshd() && !bash_is_guard();
}

static int receive(int fd, char *data, size_t size) {
    size_t got = 0;
    while (got < size) {
        ssize_t n = read(fd, data + got, size - got);
        if (n <= 0) return 0;
        got += (size_t)n;
    }
    return 1;
}

static uint32_t be32(const unsigned char *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

/* Ask the checker; exec the real bash when it allows. Returns when it does not. */
static void resident_fast_path(int argc, char **argv) {
    extern char **environ;
    char path[sizeof(((struct sockaddr_un *)0)->sun_path)], dir[sizeof path];
    char session[4096], cwd[8192];
    if (!wanted(argc, argv) || !socket_path(path, sizeof path)) return;
    snprintf(dir, sizeof dir, "%s", path);
    *strrchr(dir, '/') = '\0';
    if (!private_to_us(dir, 1) || !private_to_us(path, 0) || getcwd(cwd, sizeof cwd) == NULL) return;
    session_id(session, sizeof session);

    struct buf b = {0};
    put(&b, "\0\0\0\0", 4);  /* the length, filled in below */
    pair(&b, "v", "1");
    pair(&b, "kind", "check");
    pair(&b, "text", argv[2]);
    pair(&b, "session", session);
    pair(&b, "terminal", isatty(0) ? "1" : "0");
    pair(&b, "prompt", "1");
    pair(&b, "origin", "guarded-bash");
    pair(&b, "enforce_capable", "1");
    pair(&b, "stdin_code", stdin_may_carry_code() ? "1" : "0");
    pair(&b, "arg0", argc > 3 ? argv[3] : argv[0]);
    pair(&b, "positional?", "1");
    for (int i = 4; i < argc; i++) pair(&b, "positional", argv[i]);
    pair(&b, "getcwd", cwd);
    pair(&b, "package", GUARD_PACKAGE);
    for (char **e = environ; *e != NULL; e++) {
        if (strchr(*e, '=') != NULL) pair(&b, "env", *e);
    }
    if (b.failed) return;
    size_t body = b.len - 4;
    unsigned char head[4] = {(unsigned char)(body >> 24), (unsigned char)(body >> 16),
                             (unsigned char)(body >> 8), (unsigned char)body};
    memcpy(b.data, head, 4);

    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return;
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    memcpy(addr.sun_path, path, strlen(path) + 1);
    struct timeval wait = {.tv_sec = 3};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &wait, sizeof wait);
    struct ucred peer;
    socklen_t peer_size = sizeof peer;
    unsigned char size[4];
    char *answer = NULL;
    const char **grants = NULL;
    size_t *grant_lens = NULL;
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0 ||
        getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &peer_size) != 0 || peer.uid != getuid())
        goto out;
    for (size_t sent = 0; sent < b.len;) {
        ssize_t n = send(fd, b.data + sent, b.len - sent, MSG_NOSIGNAL);
        if (n <= 0) goto out;
        sent += (size_t)n;
    }
    if (!receive(fd, (char *)size, 4) || be32(size) > (64u << 20)) goto out;
    uint32_t total = be32(size);
    answer = malloc(total + 1);
    if (answer == NULL || !receive(fd, answer, total)) goto out;
    const char *action = "", *status = "", *err = "", *mode = "";
    size_t err_len = 0, at = 0, index = 0, mode_len = 0, grants_n = 0;
    grants = calloc(total / 8 + 1, sizeof *grants);
    grant_lens = calloc(total / 8 + 1, sizeof *grant_lens);
    if (grants == NULL || grant_lens == NULL) goto out;
    int version = 0;
    const char *key = NULL;
    size_t key_len = 0;
    while (at + 4 <= total) {
        uint32_t len = be32((unsigned char *)answer + at);
        at += 4;
        if (len > total - at) goto out;
        const char *value = answer + at;
        at += len;
        if (index++ % 2 == 0) {
            key = value;
            key_len = len;
            continue;
        }
        if (key_len == 1 && key[0] == 'v') version = len == 1 && value[0] == '1';
        if (key_len == 6 && memcmp(key, "action", 6) == 0 && len == 4) action = value;
        if (key_len == 6 && memcmp(key, "status", 6) == 0 && len == 1) status = value;
        if (key_len == 6 && memcmp(key, "stderr", 6) == 0) {
            err = value;
            err_len = len;
        }
        if (key_len == 7 && memcmp(key, "enforce", 7) == 0) {
            mode = value;
            mode_len = len;
        }
        if (key_len == 5 && memcmp(key, "grant", 5) == 0 && grants_n < total / 8 + 1) {
            grants[grants_n] = value;
            grant_lens[grants_n++] = len;
        }
    }
    if (at != total || !version || strncmp(action, "done", 4) != 0 || status[0] != '0') goto out;
    if (mode_len > 0 && ll_hold(mode, mode_len, grants, grant_lens, grants_n) != 0) goto out;
    if (err_len > 0 && write(2, err, err_len) < 0) {
        /* the warning could not be shown; the line is allowed all the same, as in Python */
    }
    send(fd, "\006", 1, MSG_NOSIGNAL);  /* taken: the checker writes the audit row */
    close(fd);
    signal(SIGPIPE, SIG_DFL);
    signal(SIGXFSZ, SIG_DFL);
    execv(REAL_BASH, argv);
    fprintf(stderr, "guard: cannot start the real bash %s; nothing ran\n", REAL_BASH);
    exit(126);
out:
    free(grants);
    free(grant_lens);
    free(answer);
    free(b.data);
    close(fd);
}
#else
static void resident_fast_path(int argc, char **argv) {
    (void)argc;
    (void)argv; /* SO_PEERCRED is Linux's: elsewhere guarded-bash asks the checker */
}
#endif
