"""What environment variables make programs do, as data: which name files they read or write,
which name programs or libraries they execute, which carry code or options, which are harmless.

Read by `guard/projection/variables.py` whenever a variable reaches a program's environment (`VAR=v
cmd`,
`env VAR=v cmd`, `export VAR=v`) or is one the shell itself acts on (`PROMPT_COMMAND`, `PATH`).
A variable this table does not name is judged by its value: one that looks like a path is a
read, since some program may open it. Add knowledge here, one row per variable.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from guard.knowledge.commands import OPTION_VARIABLES as _CARRY_OPTIONS

EnvRole = Literal[
    "read",  # names files or directories a program reads (a list: `:` or space separated)
    "write",  # names files or directories a program writes (GIT_TRACE=/x, TMPDIR)
    "execute",  # names programs or libraries that run (PATH, LD_PRELOAD, MAKEFILES)
    "code",  # shell code a tool runs (EDITOR, GIT_SSH_COMMAND)
    "options",  # options or settings passed into a tool, and options can run programs
    "prompt",  # a prompt string: its $( ) run every time a prompt shows
    "written",  # a file the shell itself writes later (HISTFILE)
    "guard",  # where guard finds its own policy, store and sockets
    "meaning",  # changes what later commands mean (IFS, CDPATH)
    "harmless",  # a setting that names no file and runs nothing
]

ENVIRONMENT: dict[str, EnvRole] = {
    # shell code run later by the shell or by tools through `sh -c`
    **dict.fromkeys(
        (
            "PROMPT_COMMAND",
            "GIT_SSH_COMMAND",
            "GIT_EDITOR",
            "GIT_SEQUENCE_EDITOR",
            "GIT_PAGER",
            "GIT_EXTERNAL_DIFF",
            "GIT_ASKPASS",
            "SSH_ASKPASS",
            "SUDO_ASKPASS",
            "EDITOR",
            "VISUAL",
            "PAGER",
            "MANPAGER",
            # a tool's own pager, a command line it pipes its output through
            *("GH_PAGER", "BAT_PAGER", "DELTA_PAGER", "SYSTEMD_PAGER", "AWS_PAGER"),
            *("PSQL_PAGER", "GLAB_PAGER", "JJ_PAGER"),
            "LESSOPEN",
            "LESSCLOSE",
            "BROWSER",
            "FCEDIT",
            "RSYNC_RSH",
            "CVS_RSH",
            # the programs a build runs by name: make runs `$(CC) …` through sh, configure,
            # cmake, cgo and the cc crate run them too (CC='ccache gcc' is a command line)
            *("CC", "CXX", "CPP", "LD", "AR", "AS", "FC", "F77", "NM", "RANLIB", "STRIP"),
            *("OBJCOPY", "OBJDUMP", "HOSTCC", "HOSTCXX", "CC_FOR_BUILD", "CXX_FOR_BUILD"),
            *("YACC", "LEX", "PKG_CONFIG", "MAKE"),
        ),
        "code",
    ),
    **dict.fromkeys(("PS0", "PS1", "PS2", "PS3", "PS4"), "prompt"),
    # programs and libraries that will be executed from there
    **dict.fromkeys(
        (
            "PATH",
            "LD_PRELOAD",
            "LD_LIBRARY_PATH",
            "LD_AUDIT",
            # macOS's dynamic loader: libraries loaded into every program it starts
            *("DYLD_INSERT_LIBRARIES", "DYLD_LIBRARY_PATH", "DYLD_FRAMEWORK_PATH"),
            *("DYLD_FALLBACK_LIBRARY_PATH", "DYLD_FALLBACK_FRAMEWORK_PATH"),
            # .NET's: assemblies and profilers loaded into every program it starts
            *("DOTNET_STARTUP_HOOKS", "CORECLR_PROFILER_PATH", "COR_PROFILER_PATH"),
            *("CORECLR_PROFILER_PATH_64", "CORECLR_PROFILER_PATH_32", "DOTNET_ADDITIONAL_DEPS"),
            "BASH_ENV",
            "ENV",
            "ZDOTDIR",
            "PYTHONPATH",
            "PYTHONSTARTUP",
            "PYTHONHOME",
            "PERL5LIB",
            "PERLLIB",
            "RUBYLIB",
            "NODE_PATH",
            "GIT_EXEC_PATH",
            "GIT_TEMPLATE_DIR",
            "GIT_SSH",
            "MAKEFILES",  # makefiles make reads before the others: their recipes run
            "OPENSSL_ENGINES",
            "OPENSSL_MODULES",
            "RUSTC_WRAPPER",
            "RUSTC",
            "CARGO_BUILD_RUSTC_WRAPPER",
            *("RUSTC_WORKSPACE_WRAPPER", "CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER", "RUSTDOC"),
            *("CARGO_BUILD_RUSTC", "CARGO_BUILD_RUSTDOC"),
            "GOROOT",  # the go command runs the compiler and tools found there
            "GIT_EXTERNAL_FILTER",
            "CLASSPATH",  # classes the JVM loads
            "GEM_HOME",
            "GEM_PATH",
            "BUNDLE_GEMFILE",  # a Gemfile is Ruby code
            "LUA_PATH",
            "LUA_CPATH",
            "R_PROFILE",
            "R_PROFILE_USER",
            "R_ENVIRON_USER",
            "IRBRC",
            "PSQLRC",  # psql runs its commands (`\!` too)
            "MYVIMRC",
            "NODE_REPL_EXTERNAL_MODULE",
        ),
        "execute",
    ),
    # options and settings carried into tools; options can name files and run programs
    **dict.fromkeys(
        (
            "TAR_OPTIONS",
            "GZIP",
            "XZ_OPT",
            "ZSTD_CLEVEL",
            "ZIPOPT",
            "UNZIP",
            "MANOPT",
            "LESS",
            "GIT_DIR",
            "GIT_ALLOW_PROTOCOL",
            "GIT_PROXY_COMMAND",
            "GREP_OPTIONS",
            "PERL5OPT",
            "RUBYOPT",
            "NODE_OPTIONS",
            "JAVA_TOOL_OPTIONS",
            "_JAVA_OPTIONS",
            "JDK_JAVA_OPTIONS",
            "JAVA_OPTS",
            "MAKEFLAGS",
            "MFLAGS",
            "GNUMAKEFLAGS",
            "GOFLAGS",
            "RUSTFLAGS",
            "RUSTDOCFLAGS",
            "CARGO_ENCODED_RUSTFLAGS",
            "PYTEST_ADDOPTS",
            "CURL_HOME",  # its .curlrc holds curl options (`output`, `config` …)
            "WGETRC",
            "GIT_CONFIG_GLOBAL",
            "GIT_CONFIG_SYSTEM",
            "GIT_CONFIG_PARAMETERS",
            "GIT_CONFIG_COUNT",
            "SCREENRC",
            "INPUTRC",
            "VIMINIT",  # Ex commands, `:!` runs shell
            "EXINIT",
            "GVIMINIT",
            "PERL5DB",  # code perl -d runs
            "PERL_MB_OPT",
            "PERL_MM_OPT",
            "PYTEST_PLUGINS",
            "NPM_CONFIG_SCRIPT_SHELL",
            "npm_config_script_shell",
            "NPM_CONFIG_NODE_OPTIONS",
            "npm_config_node_options",
            "BUNDLE_CONFIG",
            "CARGO_BUILD_RUSTFLAGS",
            "CMAKE_TOOLCHAIN_FILE",
        ),
        "options",
    ),
    # files and directories programs read
    **dict.fromkeys(
        (
            "GIT_ALTERNATE_OBJECT_DIRECTORIES",
            "OPENSSL_CONF",
            "TZ",  # TZ=/path or TZ=:/path names a zone file
            "TZDIR",
            "SSL_CERT_FILE",
            "SSL_CERT_DIR",
            "CURL_CA_BUNDLE",
            "REQUESTS_CA_BUNDLE",
            "NODE_EXTRA_CA_CERTS",
            "GIT_SSL_CAINFO",
            "GIT_SSL_CAPATH",
            "GIT_SSL_CERT",
            "GIT_SSL_KEY",
            "KUBECONFIG",
            "DOCKER_CONFIG",
            "DOCKER_CERT_PATH",
            "AWS_CONFIG_FILE",
            "AWS_SHARED_CREDENTIALS_FILE",
            "GOOGLE_APPLICATION_CREDENTIALS",
            "SSH_AUTH_SOCK",
            "XAUTHORITY",
            "NPM_CONFIG_USERCONFIG",
            "PIP_CONFIG_FILE",
            "TERMINFO",
            "MAGIC",
            "LOCPATH",
            "GCONV_PATH",
            "NETRC",
            "TERMINFO_DIRS",
            "MANPATH",
            "INFOPATH",
            "XDG_DATA_DIRS",
            "XDG_CONFIG_DIRS",
            "GEMRC",
            "YARN_RC_FILENAME",
            "NPM_CONFIG_GLOBALCONFIG",
            "CURL_CA_PATH",
        ),
        "read",
    ),
    # files and directories programs write
    **dict.fromkeys(
        (
            "GIT_INDEX_FILE",
            "GIT_WORK_TREE",
            "GIT_OBJECT_DIRECTORY",
            "GIT_COMMON_DIR",
            "LD_DEBUG_OUTPUT",
            "MALLOC_TRACE",
            "SSLKEYLOGFILE",
            "TMPDIR",
            "GNUPGHOME",
            "CARGO_HOME",
            "CARGO_TARGET_DIR",
            "GOBIN",  # where go install puts the programs it builds
            "RUSTUP_HOME",
            "GOPATH",
            "GOCACHE",
            "GOMODCACHE",
            "PIP_CACHE_DIR",
            "npm_config_cache",
            "COVERAGE_FILE",
            "NPM_CONFIG_PREFIX",
            "npm_config_prefix",
            "NPM_CONFIG_CACHE",
            "PIP_TARGET",
            "PIP_PREFIX",
            "DENO_DIR",
            "BUN_INSTALL",
            "MYSQL_HISTFILE",
            "PSQL_HISTORY",
            "SQLITE_HISTORY",
            "LESSHISTFILE",
            "NODE_REPL_HISTORY",
            "DESTDIR",  # `make install` writes under it
        ),
        "write",
    ),
    "HISTFILE": "written",
    **dict.fromkeys(
        ("HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "XDG_DATA_HOME"),
        "guard",
    ),
    "XDG_CACHE_HOME": "guard",
    "CLAUDE_PROJECT_DIR": "guard",  # the Claude Code adapter takes the workspace from it
    **dict.fromkeys(("IFS", "CDPATH", "DIRSTACK"), "meaning"),
    **dict.fromkeys(
        (
            "LANG",
            "LANGUAGE",
            "TERM",
            "COLORTERM",
            "COLUMNS",
            "LINES",
            "NO_COLOR",
            "FORCE_COLOR",
            "CLICOLOR",
            "CI",
            "DEBUG",
            "VERBOSE",
            "NODE_ENV",
            "RUST_LOG",
            "RUST_BACKTRACE",
            "GOOS",
            "GOARCH",
            "CGO_ENABLED",
            "GIT_CEILING_DIRECTORIES",  # stops git's search; opens nothing there
            "GIT_TERMINAL_PROMPT",
            "GIT_AUTHOR_NAME",
            "GIT_AUTHOR_EMAIL",
            "GIT_AUTHOR_DATE",
            "GIT_COMMITTER_NAME",
            "GIT_COMMITTER_EMAIL",
            "GIT_COMMITTER_DATE",
            "SOURCE_DATE_EPOCH",
            "DISPLAY",
            "PWD",
            "OLDPWD",
            "USER",
            "LOGNAME",
            "RUSTUP_TOOLCHAIN",
            "GIT_SSH_VARIANT",
            "GIT_NAMESPACE",
            "LD_BIND_NOW",
            "PIP_INDEX_URL",
            "PIP_NO_CACHE_DIR",
            "PIP_DISABLE_PIP_VERSION_CHECK",
            "NPM_CONFIG_LOGLEVEL",
            "npm_config_loglevel",
            "HOSTNAME",
            "SHLVL",
        ),
        "harmless",
    ),
}

# Families named by how they start: GIT_TRACE2_EVENT=/tmp/t writes there (a number or `true`
# means standard error); GIT_CONFIG_KEY_0 … carry settings; LC_* are locale names.
# guard is a Python program: PYTHON* (PYTHONPATH, PYTHONSTARTUP …) change how guard itself runs,
# so they count before the table.
GUARD_PREFIXES = ("GUARD_", "__guard_", "PYTHON")
PREFIXES: tuple[tuple[str, EnvRole], ...] = (
    ("GIT_TRACE", "write"),
    ("GIT_CONFIG_", "options"),
    ("LC_", "harmless"),
)


# Python's settings that change no code it loads (what it runs stays the same)
_PYTHON_HARMLESS = frozenset(
    {
        "PYTHONDONTWRITEBYTECODE",
        "PYTHONUNBUFFERED",
        "PYTHONHASHSEED",
        "PYTHONIOENCODING",
        "PYTHONUTF8",
        "PYTHONFAULTHANDLER",
        "PYTHONDEVMODE",
        "PYTHONTRACEMALLOC",
        "PYTHONASYNCIODEBUG",
        "PYTHONCOERCECLOCALE",
        "PYTHONLEGACYWINDOWSSTDIO",
        "PYTHONNOUSERSITE",
        "PYTHONSAFEPATH",
    }
)


# Python's settings that load no code with these values: warning filters whose categories are
# built in (a dotted category, `ignore::pkg.Warning`, is imported), breakpoints off or pdb's
_PYTHON_HARMLESS_VALUES: dict[str, Callable[[str], bool]] = {
    "PYTHONWARNINGS": lambda value: all(
        "." not in (*item.split(":"), "", "", "")[2] for item in value.split(",")
    ),
    "PYTHONBREAKPOINT": lambda value: value in ("", "0", "pdb.set_trace"),
}

# Families named by how they start and end: cargo's settings for one target
# (CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER=/x is the linker it runs, _RUNNER what runs the
# programs it builds, _RUSTFLAGS rustc's options, read as RUSTFLAGS is)
AFFIXES: tuple[tuple[str, str, EnvRole], ...] = (
    ("CARGO_TARGET_", "_LINKER", "execute"),
    ("CARGO_TARGET_", "_RUNNER", "execute"),
    ("CARGO_TARGET_", "_RUSTFLAGS", "options"),
)
_OPTIONS_READ_AS = {"_RUSTFLAGS": "RUSTFLAGS"}  # a family's options, by the variable they are


def env_role(name: str, value: str | None = None) -> EnvRole | None:
    """What setting `name` (to `value`, when known) means, or None for a variable nobody
    described."""
    if name in _PYTHON_HARMLESS:
        return "harmless"
    harmless = _PYTHON_HARMLESS_VALUES.get(name)
    if harmless is not None and value is not None and harmless(value):
        return "harmless"
    if name == "PYTHONPATH":
        return "execute"  # its entries are read for modules (guard's own: see PYTHON_PATHS)
    if name.startswith(GUARD_PREFIXES):
        return "guard"
    found = ENVIRONMENT.get(name)
    if found is not None:
        return found
    if name in _CARRY_OPTIONS:  # NODE_OPTIONS, RUSTFLAGS …: the `env` of a command's record
        return "options"
    for prefix, role in PREFIXES:
        if name.startswith(prefix):
            return role
    for prefix, suffix, role in AFFIXES:
        if name.startswith(prefix) and name.endswith(suffix):
            return role
    return None


def options_read_as(name: str) -> str:
    """The variable whose option table reads `name`'s options (itself, or its family's)."""
    for suffix, table in _OPTIONS_READ_AS.items():
        if name.endswith(suffix):
            return table
    return name


def named(*roles: EnvRole) -> frozenset[str]:
    """The variables described with one of `roles`."""
    return frozenset(n for n, r in ENVIRONMENT.items() if r in roles)


# Words in a variable's name that say it names files, for variables nobody described (a name
# alone, such as DEST or FOO, says nothing: `DEST=/opt/app make` is a make variable).
_FILE_WORDS = (
    "FILE",
    "PATH",
    "DIR",
    "HOME",
    "CONF",
    "CONFIG",
    "RC",
    "LOG",
    "OUTPUT",
    "CERT",
    "KEY",
    "SOCK",
    "SOCKET",
    "CACHE",
    "ROOT",
    "LIB",
    "DB",
    "TRACE",
    "DUMP",
    "PROFILE",
)


def names_files(name: str) -> bool:
    """Whether a variable nobody described says, by a word of its name, that it names files
    (`APP_CONFIG`, `FOO_LOG_FILE`, `XYZRC`)."""
    words = [w for w in name.upper().split("_") if w]
    return any(w in _FILE_WORDS for w in words) or name.upper().endswith(("RC", "FILE", "DIR"))


# ---- variables that carry a tool's options, read with that tool's option table --------------


# Python's own path list: its entries in the workspace are ordinary, unless one holds a module
# guard itself (a Python program) would load from there instead of its own.
PYTHON_PATHS = frozenset({"PYTHONPATH"})
GUARDS_MODULES = frozenset(
    {
        *("guard", "tree_sitter", "tree_sitter_bash", "platformdirs", "prompt_toolkit"),
        *("wcwidth", "sitecustomize", "usercustomize"),
    }
)
