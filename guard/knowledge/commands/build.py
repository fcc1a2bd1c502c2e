"""Build and package tools: make, compilers and linkers, npm, pip, cargo, go, runners, package
managers."""

from __future__ import annotations

from guard.knowledge.commands.command import EXACT, Command, Runner, arity, home_files
from guard.knowledge.commands.effect import E, Tool
from guard.knowledge.commands.option_table import OptionTable
from guard.knowledge.commands.spec import Spec, opts

# Compilers and linkers, read word by word (`-fno-omit-frame-pointer` is one option, not a
# cluster); `@FILE` reads more arguments from FILE.
COMPILER = Spec(
    kind="compiler",
    operands="read",
    values=opts(
        "-x",
        "-D",
        "-U",
        "-l",
        "-MT",
        "-MQ",
        "-Xassembler",
        "-Xpreprocessor",
        "-Xclang",
        "-arch",
        "-target",
        "--target",
        "-std",
        "-e",
    ),
    text=opts("-D", "-U", "-x", "-l", "-MT", "-MQ", "-arch", "-target", "--target", "-std", "-e"),
    options={
        "-aux-info": "write",
        "-o": "write",
        "--output": "write",
        "-MF": "write",
        "-dumpdir": "write",
        "-I": "read",
        "-L": "read",
        "-isystem": "read",
        "-iquote": "read",
        "-idirafter": "read",
        "-include": "read",
        "-imacros": "read",
        "-T": "read",
        "--sysroot": "read",
        "-isysroot": "read",
        "-specs": "read",
        "-B": "execute",  # gcc runs its programs from there
        "-fplugin": "execute",
        "-fuse-ld": "execute",  # a name (lld, mold) or, for clang, the linker's path
        "--ld-path": "execute",
    },
)


LINKER = Spec(
    kind="compiler",
    operands="read",
    values=opts("-l", "-e", "--entry", "-soname", "-rpath", "-m", "-z", "-u", "-h", "--hash-style"),
    options={
        "-o": "write",
        "--output": "write",
        "-Map": "write",
        "--dependency-file": "write",
        "-T": "read",
        "--script": "read",
        "-L": "read",
        "--library-path": "read",
        "--version-script": "read",
        "-plugin": "execute",
        "--plugin": "execute",
        "--dynamic-linker": "data",
    },
)


# Options of `-Wl,…` and `-Xlinker …` are the linker's.
COMPILER_LINKER = LINKER


# pip: package names are data; a path operand is a project whose build code runs
PIP = Spec(
    operands="path",
    subcommands=True,
    options={
        "-r": "read",
        "--requirement": "read",
        "-t": "write",
        "--target": "write",
        "-c": "read",
        "--constraint": "read",
        "-e": "read",
        "--editable": "read",
        "-d": "write",
        "--dest": "write",
        "--prefix": "write",
        "--root": "write",
        "--src": "write",
        "--report": "write",
        "--log": "write",
        "-f": "read",
        "--find-links": "read",
    },
    values=opts("-i", "--index-url", "--extra-index-url", "--python-version", "--platform"),
)


PY_RUN_VALUES = opts(
    "--with",
    "-w",
    "--with-requirements",
    "--with-editable",
    "--python",
    "-p",
    "--package",
    "--extra",
    "--group",
    "--only-group",
    "--env-file",
    "--directory",
    "--project",
    "--index",
    "--default-index",
    "--index-url",
    "--extra-index-url",
    "--find-links",
    "-f",
    "--script",
    "--cache-dir",
    "--config-file",
    "--color",
    "-e",
    "--environment",
    "--env",
    "--name",
    "-n",
    "--prefix",
)


PY_RUN_FLAGS = opts(
    "--no-sync",
    "--frozen",
    "--locked",
    "--isolated",
    "--no-project",
    "--all-extras",
    "--all-packages",
    "--no-dev",
    "--dev",
    "--active",
    "--offline",
    "-q",
    "--quiet",
    "-v",
    "--verbose",
    "--no-cache",
    "--no-capture-output",
    "--live-stream",
    "--no-env-file",
    "--exact",
    "--inexact",
    "--all-groups",
    "--no-default-groups",
    "--no-editable",
)


_BLACK_PATTERNS = opts("--exclude", "--extend-exclude", "--force-exclude", "--include")
_JEST_PATTERNS = opts(
    *("-t", "--testNamePattern", "--testPathPattern", "--testPathIgnorePatterns"),
    *("--coveragePathIgnorePatterns", "--modulePathIgnorePatterns", "--watchPathIgnorePatterns"),
    *("--testRegex", "--selectProjects", "--shard", "--maxWorkers"),  # not --reporters: code
)

# what runs the command it is given (uv run CMD …, bundle exec CMD …): each record's `runner`
_PY_RUNNER = Runner(opts("run"), PY_RUN_VALUES, PY_RUN_FLAGS)
_UVX_RUNNER = Runner(opts(), PY_RUN_VALUES, PY_RUN_FLAGS)  # uvx TOOL …: the first operand runs
_NPX_RUNNER = Runner(opts(), opts("--package", "-p"), opts("--yes", "-y", "--no", "-q", "--quiet"))
_BUNDLE_RUNNER = Runner(opts("exec"), opts("--gemfile"), opts("--keep-file-descriptors"))
_NODE_RUNNER = Runner(  # npm, pnpm, yarn
    opts("exec", "x", "dlx"),
    opts("--package", "-p", "--workspace", "-w", "-C", "--dir"),
    opts("--yes", "-y", "--no", "--recursive", "-r", "--parallel", "--silent"),
)
_VERSIONS_RUNNER = Runner(  # the version managers: pyenv, rbenv, asdf, mise …
    opts("exec", "x"), opts("--switch", "--tool", "-t", "-C", "--cd"), opts("--yes", "-y")
)
_STACK_RUNNER = Runner(
    opts("exec"),
    opts("--stack-yaml", "--resolver", "--snapshot", "--compiler", "--package", "--cwd"),
    opts("--silent", "--verbose", "--no-terminal"),
    commands={
        **{name: (name,) for name in ("runghc", "runhaskell", "ghc", "ghci")},
        "repl": ("ghci",),
        "eval": ("ghc", "-e"),
        "script": ("runghc",),
    },
    own_dashdash=True,
)
_DIRENV_RUNNER = Runner(opts("exec"), skip=1)


DEPENDENCY = "removes a dependency of this project; installing brings it back from the registry"

_LOCAL_PACKAGE = "removes a package from this machine; installing brings it back"

NPM_QUIET = (
    (("uninstall|remove|rm|r|un|unlink",), DEPENDENCY),
    (("prune",), "removes packages package.json does not list from node_modules"),
    (("cache", "clean|rm|remove|delete|prune"), "empties a download cache"),
    (("store", "prune"), "empties a download cache"),
)

_NPM_TOOL = Tool(
    values=opts("--tag", "--access", "--otp", "--registry", "-w", "--workspace", "-C", "--prefix"),
    effects=(
        E(
            "publish",
            "npm",
            "publishes a package to the npm registry",
            sub=("publish",),
            without=("--dry-run",),
        ),
        E(
            "destroy",
            "npm",
            "removes a published package from the registry",
            sub=("unpublish",),
        ),
    ),
)

_UV = Spec(kind="runner", operands="data")
# the files and directories their options name (a requirements file names packages whose
# build code runs; a project directory's config and scripts run)
_UV_ITSELF = _UV._replace(
    options={
        **dict.fromkeys(("-r", "--requirement", "-c", "--constraint", "--overrides"), "read"),
        **dict.fromkeys(("--with-requirements", "--env-file", "--config-file"), "read"),
        **dict.fromkeys(("--directory", "--project"), "chdir"),
    }
)
_BUNDLE = _UV._replace(options={"--gemfile": "read"})  # a Gemfile is Ruby code
_PNPM = _UV._replace(options={"-C": "chdir", "--dir": "chdir"})
_YARN = _UV._replace(options={"--cwd": "chdir"})

_POETRY_TOOL = Tool(
    values=opts("-r", "--repository", "--index", "--publish-url", "-u", "-p", "--token"),
    effects=(
        E(
            "publish",
            "pypi",
            "publishes packages to PyPI",
            sub=("publish",),
            without=("--dry-run",),
        ),
    ),
)

_POETRY_QUIET = ((("remove",), DEPENDENCY),)

_CONDA_QUIET = ((("remove|uninstall",), _LOCAL_PACKAGE),)

_PIP_QUIET = (
    (("uninstall",), _LOCAL_PACKAGE),
    (("cache", "remove|purge"), "empties a download cache"),
)

_GRADLE_TOOL = Tool(
    values=opts(
        "-p",
        "--project-dir",
        "-b",
        "--build-file",
        "-x",
        "--exclude-task",
        "-P",
        "-D",
        "-c",
        "-I",
        "--init-script",
    ),
    effects=(
        E(
            "publish",
            "maven",
            "publishes artifacts to a repository",
            word="publish|publishTo*Repository|publishToMavenCentral|publishToSonatype|"
            "publishAllPublicationsTo*|publishPlugins|*:publish|uploadArchives",
        ),
    ),
)

_MVN_TOOL = Tool(
    values=opts("-f", "--file", "-s", "--settings", "-P", "-pl", "--projects", "-D", "-T"),
    effects=(
        E(
            "publish",
            "maven",
            "deploys artifacts to a Maven repository",
            word="deploy|deploy:*|release:perform|release:*",
        ),
        # the exec plugin runs the program its properties name, with their arguments
        E("remote", "maven", "", check="maven-exec"),
    ),
)


# the variables that carry a tool's options, and how each is read (its record's `env`)
JVM_OPTIONS = OptionTable(
    "java",
    code=(
        *("-javaagent:", "-agentpath:", "-agentlib:", "-Xrunjdwp", "-Xdebug", "-Xbootclasspath"),
        *("-XX:OnOutOfMemoryError", "-XX:OnError", "-XX:CompileCommandFile", "-XX:Flags="),
        *("-XX:VMOptionsFile", "-cp", "-classpath", "--class-path", "--module-path", "-p"),
        *("-Djava.system.class.loader", "-Djava.security.manager", "-Djava.library.path"),
        *("-Djava.class.path", "-Djava.ext.dirs", "-Djava.endorsed.dirs", "-Dloader.path"),
        *("--patch-module", "--upgrade-module-path", "@"),
    ),
)
_RUST_OPTIONS = OptionTable(
    "rustc",
    code=(
        *("-Clinker=", "-Clink-arg", "-Clink-args", "-Cllvm-args", "-Cprofile-use"),
        *("-Cprofile-generate", "-Cincremental", "-Clinker-flavor", "-Z", "--extern", "@"),
        "-Cpasses",
    ),
    split="space",
    joined=frozenset({"-C", "--codegen", "-Z", "--extern", "-L", "--cfg", "-W", "-A", "-D"}),
)
_GO_OPTIONS = OptionTable(
    "go",
    code=(
        *("-toolexec", "-exec", "-overlay", "-modfile", "-compiler", "-gccgoflags", "-C"),
        *("-ldflags=-extld", "-debug-actiongraph", "-debug-trace"),
    ),
    split="space",
)
# CFLAGS, LDFLAGS …: options of the C compiler (and the linker it runs) a build passes on
_CC_OPTIONS = OptionTable(
    "cc",
    code=(
        *("-fplugin", "-fpass-plugin", "-B", "-specs", "--specs", "-wrapper", "-Xclang"),
        *("-load", "--ld-path", "-fuse-ld=/", "-Wl,--plugin", "-Wl,-plugin", "-Xlinker", "@"),
    ),
    split="space",
)
_CC_VARIABLES = (
    *("CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "OBJCFLAGS", "FFLAGS", "FCFLAGS"),
    *("CGO_CFLAGS", "CGO_CXXFLAGS", "CGO_CPPFLAGS", "CGO_LDFLAGS", "CGO_FFLAGS"),
)
_MAKE_OPTIONS = OptionTable(
    "make",
    code=(
        *("--eval", "-f", "--file", "--makefile", "-I", "--include-dir", "-C", "--directory"),
        *("-E", "-W", "--what-if", "--new-file", "-o", "--old-file", "--assume-old"),
    ),
    split="space",
    assignments=True,
)
_PYTEST_OPTIONS = OptionTable(
    "pytest",
    code=(
        *("-p", "-c", "--config-file", "-o", "--override-ini", "--confcutdir", "--rootdir"),
        "--pyargs",
    ),
    joined=frozenset({"-p", "-c", "-o"}),
)


# `pip config set|unset|edit` changes the user's pip.conf (where packages come from, too);
# `--site` and `--global` write elsewhere: the write is then to a file guard does not name
_PIP_CONFIG_WRITES = home_files(
    ".config/pip/pip.conf", "write", ("config", "set"), ("config", "unset"), ("config", "edit")
)

# apt and apt-get only show what they would do with these
_APT_DRY_RUN = opts("-s", "--simulate", "--just-print", "--dry-run", "--recon", "--no-act")

# `cmake -E SUB ARGS…` runs as the command it names: the argv it stands for, ARGS after it.
# A SUB not here (sha256sum, compare_files, capabilities …) reads its operands as paths.
CMAKE_COMMANDS: dict[str, tuple[str, ...]] = {
    "rm": ("rm",),
    "remove": ("rm", "-f"),
    "remove_directory": ("rm", "-rf"),
    "make_directory": ("mkdir", "-p"),
    "copy": ("cp",),
    "copy_if_different": ("cp",),
    "copy_if_newer": ("cp",),
    "copy_directory": ("cp", "-r"),
    "copy_directory_if_different": ("cp", "-r"),
    "copy_directory_if_newer": ("cp", "-r"),
    "rename": ("mv",),
    "touch": ("touch",),
    "touch_nocreate": ("touch", "-c"),
    "create_symlink": ("ln", "-s"),
    "create_hardlink": ("ln",),
    "cat": ("cat",),
    "echo": ("echo",),
    "echo_append": ("echo",),
    "tar": ("tar",),
    "env": ("env",),
    "chdir": ("env", "-C"),  # chdir DIR CMD…: CMD runs in DIR
    "time": ("time",),
    "true": ("true",),
    "false": ("false",),
    "sleep": ("sleep",),
}

# autoconf's configure: where `make install` will put things, which configure only writes down
_INSTALL_DIRS = opts(
    *("--prefix", "--exec-prefix", "--bindir", "--sbindir", "--libexecdir", "--sysconfdir"),
    *("--sharedstatedir", "--localstatedir", "--runstatedir", "--libdir", "--includedir"),
    *("--oldincludedir", "--datarootdir", "--datadir", "--infodir", "--localedir", "--mandir"),
    *("--docdir", "--htmldir", "--dvidir", "--pdfdir", "--psdir"),
)

COMMANDS: dict[str, Command] = {
    "configure": Command(  # ./configure --prefix=/usr/local: VAR=value operands are still read
        spec=Spec(
            operands="path",
            values=_INSTALL_DIRS,
            text=_INSTALL_DIRS,
            options={"--srcdir": "read", "--cache-file": "write"},
        ),
    ),
    "make": Command(
        env=(
            ("MAKEFLAGS", _MAKE_OPTIONS),
            ("MFLAGS", _MAKE_OPTIONS),
            ("GNUMAKEFLAGS", _MAKE_OPTIONS),
        ),
        spec=Spec(
            operands="make-operand",
            values=opts(
                "-j", "--jobs", "-l", "-o", "-W", "--old-file", "--what-if", "--assume-old"
            ),
            options={
                "-E": "make-code",
                "--eval": "make-code",
                "-C": "chdir",
                "--directory": "chdir",
                "-f": "code-file",
                "--file": "code-file",
                "--makefile": "code-file",
                "-I": "read",
                "--include-dir": "read",
            },
        ),
        arity=arity(1),
    ),
    "cmake": Command(
        spec=Spec(
            kind="cmake",  # cmake -E SUB …: the command SUB is (CMAKE_COMMANDS)
            operands="path",
            values=opts("-G", "-D", "-T", "-A", "--target", "-j", "--parallel", "--config"),
            options={"-S": "read", "-B": "write", "--build": "write", "-C": "read"},
        )
    ),
    "npm": Command(
        runner=_NODE_RUNNER,
        home=home_files(".npmrc", "write", ("login",), ("adduser",)),
        home_elsewhere=frozenset({"--userconfig"}),
        dry_run=opts("--dry-run"),
        spec=Spec(
            kind="runner",
            operands="path",  # npm install PATH; scripts and packages are plain names
            subcommands=True,
            options={
                "--prefix": "write",
                "-C": "chdir",
                "-c": "code",
                "--call": "code",
                "--userconfig": "read",
                "--globalconfig": "read",
                "--cache": "write",
            },
        ),
        effects=_NPM_TOOL,
        subcommands=True,
        quiet=NPM_QUIET,
        arity=arity(2, ("run", 3), ("x", EXACT), ("exec", EXACT)),
    ),
    "npx": Command(
        runner=_NPX_RUNNER,
        spec=Spec(kind="runner", operands="data", options={"-c": "code", "--call": "code"}),
        arity=arity(EXACT),
    ),
    "uv": Command(
        runner=_PY_RUNNER,
        spec=_UV_ITSELF,
        effects=_POETRY_TOOL,
        subcommands=True,
        quiet=(
            (("remove",), DEPENDENCY),
            (("pip", "uninstall"), _LOCAL_PACKAGE),
            (("cache", "clean|prune"), "empties a download cache"),
            (("tool|python", "uninstall"), _LOCAL_PACKAGE),
        ),
        arity=arity(2, ("pip", 3), ("run", EXACT)),
    ),
    "poetry": Command(
        runner=_PY_RUNNER,
        spec=_UV,
        effects=_POETRY_TOOL,
        subcommands=True,
        quiet=_POETRY_QUIET,
        arity=arity(2, ("run", EXACT)),
    ),
    "pipenv": Command(runner=_PY_RUNNER, spec=_UV, arity=arity(None, ("run", EXACT))),
    "pdm": Command(
        runner=_PY_RUNNER,
        spec=_UV,
        effects=_POETRY_TOOL,
        subcommands=True,
        quiet=_POETRY_QUIET,
        arity=arity(None, ("run", EXACT)),
    ),
    "hatch": Command(
        runner=_PY_RUNNER,
        spec=_UV,
        effects=_POETRY_TOOL,
        subcommands=True,
        quiet=_POETRY_QUIET,
        arity=arity(None, ("run", EXACT)),
    ),
    "rye": Command(runner=_PY_RUNNER, spec=_UV, arity=arity(None, ("run", EXACT))),
    "conda": Command(
        runner=_PY_RUNNER,
        spec=_UV, subcommands=True, quiet=_CONDA_QUIET, arity=arity(2, ("run", EXACT))
    ),
    "mamba": Command(
        runner=_PY_RUNNER,
        spec=_UV, subcommands=True, quiet=_CONDA_QUIET, arity=arity(None, ("run", EXACT))
    ),
    "micromamba": Command(runner=_PY_RUNNER, spec=_UV, arity=arity(None, ("run", EXACT))),
    "pixi": Command(runner=_PY_RUNNER, spec=_UV, arity=arity(None, ("run", EXACT))),
    "uvx": Command(runner=_UVX_RUNNER, spec=_UV, arity=arity(EXACT)),
    "bundle": Command(
        runner=_BUNDLE_RUNNER,
        spec=_BUNDLE,
        subcommands=True,
        quiet=((("remove",), DEPENDENCY),),
        arity=arity(2, ("exec", EXACT)),
    ),
    "pnpm": Command(
        runner=_NODE_RUNNER,
        spec=_PNPM,
        effects=_NPM_TOOL,
        subcommands=True,
        quiet=NPM_QUIET,
        arity=arity(2, ("run", 3), ("exec", EXACT), ("dlx", EXACT)),
    ),
    "yarn": Command(
        runner=_NODE_RUNNER,
        home=home_files(".yarnrc", "write", ("config", "set"), ("config", "delete")),
        spec=_YARN,
        effects=Tool(
            values=opts("--tag", "--access", "--otp", "--registry", "--new-version"),
            effects=(
                E("publish", "npm", "publishes a package to the npm registry", sub=("publish",)),
                E(
                    "publish",
                    "npm",
                    "publishes a package to the npm registry",
                    sub=("npm", "publish"),
                ),
            ),
        ),
        subcommands=True,
        quiet=NPM_QUIET,
        arity=arity(2, ("run", 3), ("dlx", EXACT), ("exec", EXACT)),
    ),
    "pyenv": Command(runner=_VERSIONS_RUNNER, spec=_UV, arity=arity(None, ("exec", EXACT))),
    "rbenv": Command(runner=_VERSIONS_RUNNER, spec=_UV, arity=arity(None, ("exec", EXACT))),
    "nodenv": Command(runner=_VERSIONS_RUNNER, spec=_UV),
    "asdf": Command(runner=_VERSIONS_RUNNER, spec=_UV, arity=arity(None, ("exec", EXACT))),
    "stack": Command(runner=_STACK_RUNNER, spec=_UV, arity=arity(None, ("exec", EXACT))),
    "opam": Command(runner=_VERSIONS_RUNNER, spec=_UV, arity=arity(None, ("exec", EXACT))),
    "mise": Command(
        runner=_VERSIONS_RUNNER, spec=_UV, arity=arity(None, ("x", EXACT), ("exec", EXACT))
    ),
    "rtx": Command(runner=_VERSIONS_RUNNER, spec=_UV),
    "direnv": Command(runner=_DIRENV_RUNNER, spec=_UV, arity=arity(None, ("exec", EXACT))),
    "pip": Command(
        spec=PIP, subcommands=True, quiet=_PIP_QUIET, arity=arity(2), home=_PIP_CONFIG_WRITES
    ),
    "pip3": Command(
        spec=PIP, subcommands=True, quiet=_PIP_QUIET, arity=arity(2), home=_PIP_CONFIG_WRITES
    ),
    "cargo": Command(
        # cargo login saves the registry token there (cargo logout removes it)
        home=home_files(".cargo/credentials.toml", "write", ("login",), ("logout",)),
        env=(
            ("RUSTFLAGS", _RUST_OPTIONS),
            ("RUSTDOCFLAGS", _RUST_OPTIONS),
            ("CARGO_BUILD_RUSTFLAGS", _RUST_OPTIONS),
            ("CARGO_ENCODED_RUSTFLAGS", _RUST_OPTIONS._replace(split="unit")),
        ),
        spec=Spec(
            operands="path",  # cargo new PATH, cargo init PATH; subcommands are plain names
            options={
                "--manifest-path": "read",
                "--target-dir": "write",
                "--path": "read",
                "--config": "tool-setting",  # cargo --config 'build.rustc-wrapper="x"'
            },
        ),
        effects=Tool(
            values=opts(
                "--registry",
                "--index",
                "--token",
                "-p",
                "--package",
                "--manifest-path",
                "--target-dir",
            ),
            effects=(
                E(
                    "publish",
                    "crates-io",
                    "publishes a crate to crates.io",
                    sub=("publish",),
                    without=("--dry-run", "-n"),
                ),
                E("destroy", "crates-io", "yanks a published crate version", sub=("yank",)),
            ),
        ),
        subcommands=True,
        quiet=((("remove|rm|uninstall",), DEPENDENCY),),
        arity=arity(2),
    ),
    "go": Command(
        env=(("GOFLAGS", _GO_OPTIONS),),
        spec=Spec(
            kind="compiler",
            operands="path",
            subcommands=True,
            values=opts(
                "-p",
                "-tags",
                "-ldflags",
                "-gcflags",
                "-asmflags",
                "-mod",
                "-run",
                "-bench",
                "-count",
                "-timeout",
                "-covermode",
                "-coverpkg",
                "-cpu",
                "-parallel",
                "-skip",
                "-benchtime",
                "-buildmode",
                "-compiler",
                "-gccgoflags",
                "-installsuffix",
                "-pgo",
            ),
            # regular expressions and names, not paths (-ldflags and -gcflags stay read: they
            # can name a linker or a file)
            text=opts(
                "-run",
                "-bench",
                "-skip",
                "-tags",
                "-count",
                "-timeout",
                "-covermode",
                "-cpu",
                "-parallel",
                "-benchtime",
                "-mod",
                "-p",
            ),
            options={
                "-C": "chdir",
                "-o": "write",
                "-modfile": "read",
                "-overlay": "read",
                "-toolexec": "code",
                "-exec": "code",
                "-coverprofile": "write",
                "-cpuprofile": "write",
                "-memprofile": "write",
                "-blockprofile": "write",
                "-mutexprofile": "write",
                "-trace": "write",
                "-outputdir": "write",
                "-pkgdir": "write",
            },
        ),
        subcommands=True,
        quiet=((("clean",), "empties build caches"),),
        arity=arity(2, ("mod", 3)),
    ),
    "gcc": Command(spec=COMPILER, at_files=True),
    "cc": Command(  # the variables a build passes to every C and C++ compiler it runs
        env=tuple((variable, _CC_OPTIONS) for variable in _CC_VARIABLES),
        spec=COMPILER,
        at_files=True,
    ),
    "c++": Command(spec=COMPILER),
    "g++": Command(spec=COMPILER, at_files=True),
    "clang": Command(spec=COMPILER, at_files=True),
    "clang++": Command(spec=COMPILER, at_files=True),
    "c99": Command(spec=COMPILER),
    "c89": Command(spec=COMPILER),
    "ld": Command(spec=LINKER, at_files=True),
    # binutils read more arguments from `@FILE`, as the compilers and ld do
    **dict.fromkeys(
        ("nm", "objdump", "size", "readelf", "ar", "objcopy", "strip", "c++filt", "addr2line"),
        Command(at_files=True),
    ),
    "as": Command(at_files=True),
    "ld.bfd": Command(spec=LINKER),
    "ld.gold": Command(spec=LINKER),
    "ld.lld": Command(spec=LINKER),
    "lld": Command(spec=LINKER),
    "mold": Command(spec=LINKER),
    "rustc": Command(
        spec=Spec(
            kind="compiler",
            operands="read",
            values=opts(
                "--edition",
                "--crate-type",
                "--crate-name",
                "--emit",
                "--cfg",
                "--target",
                "--cap-lints",
                "-l",
                "-A",
                "-W",
                "-D",
                "-F",
                "--extern",
                "--print",
                "--explain",
                "-C",
                "--codegen",
                "-Z",
            ),
            options={"-o": "write", "--out-dir": "write", "-L": "read", "--sysroot": "read"},
        )
    ),
    "javac": Command(
        spec=Spec(
            kind="compiler",
            operands="read",
            values=opts(
                "-cp",
                "-classpath",
                "--class-path",
                "-sourcepath",
                "--source-path",
                "-p",
                "--module-path",
                "-encoding",
                "-source",
                "--source",
                "-target",
                "--target",
                "--release",
                "-bootclasspath",
                "--module",
                "-m",
                "--add-modules",
                "--limit-modules",
                "--module-source-path",
                "--upgrade-module-path",
                "--system",
                "-A",
            ),
            options={
                "-d": "write",
                "-s": "write",
                "-h": "write",
                "-processorpath": "execute",
                "--processor-path": "execute",
                "--processor-module-path": "execute",
            },
        )
    ),
    "tsc": Command(
        spec=Spec(
            kind="compiler",
            operands="read",
            values=opts(
                "-t",
                "--target",
                "-m",
                "--module",
                "--lib",
                "--jsx",
                "--moduleresolution",
                "--baseurl",
                "--types",
                "--locale",
            ),
            options={
                "--outdir": "write",
                "--outfile": "write",
                "--out": "write",
                "--declarationdir": "write",
                "--tsbuildinfofile": "write",
                "-p": "read",
                "--project": "read",
                "--rootdir": "read",
            },
        ),
        arity=arity(1),
    ),
    "apt": Command(
        dry_run=_APT_DRY_RUN,
        spec=Spec(operands="path", options={"-o": "path", "--option": "path", "-c": "read"}),
        subcommands=True,
        arity=arity(2),
    ),
    "apt-get": Command(
        dry_run=_APT_DRY_RUN,
        spec=Spec(operands="path", options={"-o": "path", "--option": "path", "-c": "read"}),
        subcommands=True,
        arity=arity(2),
    ),
    "brew": Command(
        spec=Spec(operands="path"),
        subcommands=True,
        quiet=(
            (("uninstall|remove|rm|unlink",), _LOCAL_PACKAGE),
            (("cleanup|autoremove",), "removes old versions of installed packages"),
        ),
        arity=arity(2),
    ),
    "pytest": Command(
        env=(("PYTEST_ADDOPTS", _PYTEST_OPTIONS),),
        spec=Spec(operands="path", values=opts("-k", "-m", "-p", "-n", "--tb", "-o", "-W")),
        arity=arity(1),
    ),
    "black": Command(  # its --exclude family takes regular expressions, not paths
        spec=Spec(
            operands="path",
            values=_BLACK_PATTERNS | opts("-l", "--line-length", "-t", "--target-version"),
            text=_BLACK_PATTERNS,
            options={"--config": "read"},
        ),
        arity=arity(1),
    ),
    "eslint": Command(
        spec=Spec(
            operands="path",
            values=opts(
                *("--ignore-pattern", "--rule", "--ext", "-f", "--format", "--parser"),
                *("--plugin", "--env", "--global", "--max-warnings", "-o", "--output-file"),
                *("-c", "--config", "--rulesdir", "--resolve-plugins-relative-to"),
            ),
            # a formatter, parser or plugin given as a path is code it loads: read
            text=opts("--ignore-pattern", "--rule", "--ext", "--env", "--global"),
            options={"-o": "write", "--output-file": "write", "-c": "read", "--config": "read"},
        ),
        arity=arity(1),
    ),
    # jest's operands, and its --test…Pattern options, are regular expressions over test paths
    "jest": Command(
        spec=Spec(
            operands="data",
            values=_JEST_PATTERNS | opts("-c", "--config", "--rootDir", "--roots", "-w"),
            text=_JEST_PATTERNS,
            options={"-c": "read", "--config": "read", "--rootDir": "chdir"},
        ),
        arity=arity(1),
    ),
    "mocha": Command(
        spec=Spec(
            operands="path",
            values=opts(
                *("-g", "--grep", "-f", "--fgrep", "-R", "--reporter", "-t", "--timeout"),
                *("--ignore", "--exclude", "--extension", "--ui", "-u", "--config", "-r"),
                *("--require", "--file", "--spec"),
            ),
            text=opts("-g", "-f", "--fgrep", "-t", "--timeout"),  # a reporter or ui: code
            options={"--config": "read", "-r": "read", "--require": "read", "--file": "read"},
        ),
        arity=arity(1),
    ),
    "mypy": Command(arity=arity(1)),
    "prettier": Command(arity=arity(1)),
    "ruff": Command(arity=arity(1)),
    "vitest": Command(arity=arity(1)),
    "rails": Command(arity=arity(2)),
    "rake": Command(arity=arity(2)),
    "mix": Command(arity=arity(2)),
    "gradle": Command(env=(("GRADLE_OPTS", JVM_OPTIONS),), effects=_GRADLE_TOOL, arity=arity(2)),
    "gradlew": Command(effects=_GRADLE_TOOL, arity=arity(2)),
    "mvn": Command(env=(("MAVEN_OPTS", JVM_OPTIONS),), effects=_MVN_TOOL, arity=arity(2)),
    "mvnw": Command(effects=_MVN_TOOL),
    "flit": Command(effects=_POETRY_TOOL, subcommands=True),
    "twine": Command(
        effects=Tool(
            values=opts("-r", "--repository", "--repository-url", "-u", "-p"),
            effects=(E("publish", "pypi", "uploads packages to PyPI", sub=("upload",)),),
        ),
        subcommands=True,
    ),
    "composer": Command(subcommands=True, quiet=((("remove",), DEPENDENCY),), arity=arity(2)),
    "dotnet": Command(subcommands=True, quiet=((("remove",), DEPENDENCY),), arity=arity(2)),
    "gem": Command(
        effects=Tool(
            values=opts("--host", "-k", "--key", "--otp"),
            effects=(
                E("publish", "rubygems", "pushes a gem to rubygems.org", sub=("push",)),
                E("destroy", "rubygems", "yanks a published gem", sub=("yank",)),
            ),
        ),
        subcommands=True,
        quiet=((("uninstall",), _LOCAL_PACKAGE),),
        arity=arity(2),
    ),
    "pipx": Command(arity=arity(2, ("run", EXACT))),
    "bunx": Command(arity=arity(EXACT)),
    "rustup": Command(
        subcommands=True,
        quiet=((("toolchain|component|target", "uninstall|remove"), _LOCAL_PACKAGE),),
        arity=arity(2, ("toolchain", 3)),
    ),
    "java": Command(
        env=(
            ("JAVA_TOOL_OPTIONS", JVM_OPTIONS),
            ("_JAVA_OPTIONS", JVM_OPTIONS),
            ("JDK_JAVA_OPTIONS", JVM_OPTIONS),
            ("JAVA_OPTS", JVM_OPTIONS),
        )
    ),
    "sbt": Command(env=(("SBT_OPTS", JVM_OPTIONS),)),
    "ant": Command(env=(("ANT_OPTS", JVM_OPTIONS),)),
}
