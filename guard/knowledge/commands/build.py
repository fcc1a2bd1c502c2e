"""Build and package tools: make, compilers and linkers, npm, pip, cargo, go, runners, package
managers."""

from __future__ import annotations

from typing import NamedTuple

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
        "-fuse-ld": "data",
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


class Runner(NamedTuple):
    """A tool whose subcommand runs any command: `uv run CMD …`, `bundle exec CMD …`."""

    subcommands: frozenset[str]
    values: frozenset[str] = frozenset()  # the subcommand's options that take a value
    flags: frozenset[str] = frozenset()  # … and those that do not
    skip: int = 0  # operands before the command (direnv exec DIR)


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


RUNNERS: dict[str, Runner] = {
    **dict.fromkeys(
        ("uv", "poetry", "pipenv", "pdm", "hatch", "rye", "conda", "mamba", "micromamba", "pixi"),
        Runner(opts("run"), PY_RUN_VALUES, PY_RUN_FLAGS),
    ),
    "uvx": Runner(opts(), PY_RUN_VALUES, PY_RUN_FLAGS),  # uvx TOOL …: the first operand runs
    "npx": Runner(opts(), opts("--package", "-p"), opts("--yes", "-y", "--no", "-q", "--quiet")),
    "bundle": Runner(opts("exec"), opts("--gemfile"), opts("--keep-file-descriptors")),
    **dict.fromkeys(
        ("npm", "pnpm", "yarn"),
        Runner(
            opts("exec", "x", "dlx"),
            opts("--package", "-p", "--workspace", "-w", "-C", "--dir"),
            opts("--yes", "-y", "--no", "--recursive", "-r", "--parallel", "--silent"),
        ),
    ),
    **dict.fromkeys(
        ("pyenv", "rbenv", "nodenv", "asdf", "stack", "opam", "mise", "rtx"),
        Runner(
            opts("exec", "x"), opts("--switch", "--tool", "-t", "-C", "--cd"), opts("--yes", "-y")
        ),
    ),
    "direnv": Runner(opts("exec"), skip=1),
}


SPECS: dict[str, Spec] = {
    "make": Spec(
        operands="make-operand",
        values=opts("-j", "--jobs", "-l", "-o", "-W", "--old-file", "--what-if", "--assume-old"),
        options={
            "-E": "make-code",
            "--eval": "make-code",
            "-C": "chdir",
            "--directory": "chdir",
            "-f": "read",
            "--file": "read",
            "--makefile": "read",
            "-I": "read",
            "--include-dir": "read",
        },
    ),
    "cmake": Spec(
        operands="path",
        values=opts("-G", "-D", "-T", "-A", "--target", "-j", "--parallel", "--config"),
        options={"-S": "read", "-B": "write", "--build": "write", "-C": "read"},
    ),
    "npm": Spec(
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
    "npx": Spec(kind="runner", operands="data", options={"-c": "code", "--call": "code"}),
    # npm and npx have options of their own, above
    **{n: Spec(kind="runner", operands="data") for n in RUNNERS if n not in ("npm", "npx")},
    **dict.fromkeys(("pip", "pip3"), PIP),
    "cargo": Spec(
        operands="path",  # cargo new PATH, cargo init PATH; subcommands are plain names
        options={
            "--manifest-path": "read",
            "--target-dir": "write",
            "--path": "read",
            "--config": "tool-setting",  # cargo --config 'build.rustc-wrapper="x"'
        },
    ),
    "go": Spec(
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
    **dict.fromkeys(("gcc", "cc", "c++", "g++", "clang", "clang++", "c99", "c89"), COMPILER),
    "ld": LINKER,
    "ld.bfd": LINKER,
    "ld.gold": LINKER,
    "ld.lld": LINKER,
    "lld": LINKER,
    "mold": LINKER,
    "rustc": Spec(
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
    ),
    "javac": Spec(
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
    ),
    "tsc": Spec(
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
    "apt": Spec(operands="path", options={"-o": "path", "--option": "path", "-c": "read"}),
    "apt-get": Spec(operands="path", options={"-o": "path", "--option": "path", "-c": "read"}),
    "brew": Spec(operands="path"),
    "pytest": Spec(operands="path", values=opts("-k", "-m", "-p", "-n", "--tb", "-o", "-W")),
}
