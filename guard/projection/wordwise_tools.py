"""Commands whose arguments no spec can describe: watch, git's subcommands and config, runuser,
bwrap, compilers read word by word, and tar. Each is a command kind added to
`TOOL_KINDS`, which `guard.projection.invocation` adds to its table."""

from __future__ import annotations

import re

from guard.knowledge import (
    BWRAP_OPTIONS,
    CMAKE_COMMANDS,
    COMPILER_LINKER,
    GIT,
    GIT_CONFIG_READS,
    GIT_GLOBAL_VALUES,
    GIT_OTHER,
    GIT_SUBCOMMANDS,
    RUNNERS,
    RUNUSER_AS_WRAPPER,
    SCHEDULER_READ_ONLY,
    SU,
    TEXT_VALUES,
    Spec,
)
from guard.languages import looks_like_path
from guard.projection.option_values import file_list, git_config, use
from guard.projection.plain_commands import plain
from guard.projection.walk_records import Arg
from guard.projection.walker import Call, KindHandler, Walker, dynamic, run_code

# commands no spec can describe ---------------------------------------------------------------


def _watch(c: Call) -> None:
    """watch joins its operands and runs them with `sh -c`; with -x it runs them as argv."""
    w, argv = c.w, c.argv
    execs = False
    i = 1
    while i < len(argv):
        value = argv[i].value
        if value is None or not value.startswith("-") or value == "-":
            break
        i += 1
        if value == "--":
            break
        if value.startswith("--"):
            execs = execs or value == "--exec"
            if value in ("--interval", "--equexit", "--shotsfile"):
                i += 1
            continue
        for j, letter in enumerate(value[1:], 2):
            execs = execs or letter == "x"
            if letter in "nqd":
                i += letter != "d" and j == len(value)
                break
    operands = argv[i:]
    if not operands:
        return
    if execs:
        w.calls.run_argv(w, operands, None, c.span, c.depth)
        return
    unknown = next((a for a in operands if a.value is None), None)
    text = None if unknown else " ".join(a.value or "" for a in operands)
    where = unknown or Arg(
        text,
        (operands[0].span[0], operands[-1].span[1]),
        " ".join(a.source for a in operands),
    )
    run_code(w, text, where, c.depth, new_process=True, via="watch")


def _git(c: Call) -> None:
    """git's own options, then the subcommand's."""
    argv = c.argv
    i = 1
    while i < len(argv):
        value = argv[i].value
        if value is None or not value.startswith("-"):
            break
        i += 2 if value in GIT_GLOBAL_VALUES else 1
    plain(c._replace(spec=GIT, argv=argv[: i + 1]))
    if i >= len(argv):
        return
    sub = argv[i].value or ""
    rest = [argv[0], *argv[i + 1 :]]
    if sub == "config":
        _git_config_command(c, rest)
        return
    plain(c._replace(spec=GIT_SUBCOMMANDS.get(sub, GIT_OTHER), argv=rest))
    ops = [a for a in rest[1:] if a.value is None or not a.value.startswith("-")]
    verb = ops[0].value if ops else None
    if sub == "bundle" and len(ops) >= 2:
        use(c, ops[1], ops[1].value, "write" if verb == "create" else "read", "git bundle")
    elif sub == "submodule" and verb == "foreach":
        _watch(c._replace(argv=[argv[0], *rest[rest.index(ops[0]) + 1 :]]))
    elif sub == "bisect" and verb == "run":
        c.w.calls.run_argv(c.w, rest[rest.index(ops[0]) + 1 :], None, c.span, c.depth)


_GIT_CONFIG_SETS = frozenset(
    {"--unset", "--unset-all", "--add", "--replace-all", "--rename-section", "--remove-section"}
)
_GIT_CONFIG_VERBS = frozenset(
    {"set", "get", "list", "unset", "rename-section", "remove-section", "edit", "get-color"}
)


def _git_config_command(c: Call, rest: list[Arg]) -> None:
    """`git config [--global|--system|--file F] KEY VALUE`: where it writes, and values that
    run programs later (`alias.x '!…'`, `core.sshCommand` …)."""
    w = c.w
    files: list[tuple[Arg, str | None]] = []
    reads = sets = False
    ops: list[Arg] = []
    j = 1
    while j < len(rest):
        a = rest[j]
        v = a.value
        if v in ("--global", "--system"):
            files.append((a, _config_file(w, v)))
        elif v in ("-f", "--file") and j + 1 < len(rest):
            j += 1
            files.append((rest[j], rest[j].value))
        elif v is not None and v.startswith("--file="):
            files.append((a, v[7:]))
        elif v in ("--type", "--default", "--comment", "--blob", "--value"):
            j += 1
        elif v is not None and v.startswith("-"):
            reads = reads or v in GIT_CONFIG_READS
            sets = sets or v in _GIT_CONFIG_SETS
        else:
            ops.append(a)
        j += 1
    if ops and ops[0].value in _GIT_CONFIG_VERBS:
        verb = ops.pop(0).value or ""
        reads = reads or verb in GIT_CONFIG_READS or verb == "get-color"
        sets = sets or not reads
    sets = not reads and (sets or len(ops) >= 2)
    for arg, path in files:
        use(c, arg, path, "write" if sets else "read", "git config")
    if not sets or len(ops) < 2:
        return
    key, value = ops[0], ops[1]
    if key.value is None:
        dynamic(w, key, "code", f"a git setting's name is not known: {key.reason}")
    else:  # every key: settings not known to be harmless ask
        setting = None if value.value is None else f"{key.value}={value.value}"
        git_config(w, value, setting, c.depth, "git config")


def _config_file(w: Walker, scope: str) -> str | None:
    if scope == "--system":
        return "/etc/gitconfig"
    home = w.scope.lookup("HOME").options
    return f"{home[0].rstrip('/')}/.gitconfig" if home and len(home) == 1 else None


def _runuser(c: Call) -> None:
    """`runuser -u USER cmd…` runs a command; without -u it takes su's arguments."""
    as_wrapper = any(
        a.value is not None and (a.value in ("-u", "--user") or a.value.startswith("--user="))
        for a in c.argv[1:]
    )
    plain(c._replace(spec=RUNUSER_AS_WRAPPER if as_wrapper else SU))


def _bwrap(c: Call) -> None:
    """bwrap's options take one to three words each; host paths bound in are reached."""
    argv = c.argv
    i = 1
    while i < len(argv):
        value = argv[i].value
        if value is None or not value.startswith("-"):
            break
        i += 1
        if value == "--":
            break
        roles = BWRAP_OPTIONS.get(value, ())
        for k, role in enumerate(roles):
            if i + k < len(argv):
                use(c, argv[i + k], argv[i + k].value, role, "bwrap")
        i += len(roles)
    c.w.calls.run_argv(c.w, argv[i:], c.stdin, c.span, c.depth)


def _compiler(c: Call) -> None:
    via = (c.argv[0].value or "cc").rsplit("/", 1)[-1]
    _compiler_words(c, c.spec, [(a, a.value) for a in c.argv[1:]], via)


def _compiler_words(c: Call, spec: Spec, words: list[tuple[Arg, str | None]], via: str) -> None:
    """Arguments read word by word: `-fno-omit-frame-pointer` is one option, `-oFILE` and
    `-o=FILE` carry their value, `@FILE` holds more arguments, `-Wl,…` are the linker's."""
    skip_subcommand = spec.subcommands
    i = 0
    while i < len(words):
        arg, value = words[i]
        nxt = words[i + 1] if i + 1 < len(words) else None
        i += 1
        if value is None or not value.startswith("-") or value == "-":
            if value is not None and value.startswith("@") and len(value) > 1:
                file_list(c.w, arg, value[1:], c.depth, via)
            elif skip_subcommand:
                skip_subcommand = False
            else:
                use(c, arg, value, spec.operands, via)
            continue
        if value.startswith("-Wl,"):
            _compiler_words(c, COMPILER_LINKER, [(arg, p) for p in value[4:].split(",")], via)
            continue
        if value == "-Xlinker" and nxt is not None:
            _compiler_words(c, COMPILER_LINKER, [nxt], via)
            i += 1
            continue
        name, eq, attached = value.partition("=")
        role = spec.options.get(name) or spec.options.get(name.lower())
        if role is not None or name in spec.values or name.lower() in spec.values:
            if role is None and name not in spec.text and name not in TEXT_VALUES:
                role = "path"  # a value nobody declared data: a read when it looks like a path
            if eq and role is not None:
                use(c, arg, attached, role, via)
            elif not eq:
                if role is not None and nxt is not None:
                    use(c, nxt[0], nxt[1], role, via)
                i += 1
            continue
        short = value[:2]
        if len(value) > 2 and not value.startswith("--"):
            role = spec.options.get(short)
            if role is not None:
                use(c, arg, value[2:], role, via)
                continue
            if short in spec.text:  # -DCONFIG=/etc/app.conf defines a string
                continue
        if eq and looks_like_path(attached):
            use(c, arg, attached, "path", via)


_TAR_VALUE_LETTERS = frozenset("fCTXbFIKNgLVH")


def _tar(c: Call) -> None:
    """tar as its spec says; `-x` with `-P` writes the absolute paths the archive holds."""
    plain(c)
    extracts = absolute = False
    for index, arg in enumerate(c.argv[1:], 1):
        value = arg.value or ""
        if value in ("--extract", "--get"):
            extracts = True
        elif value == "--absolute-names":
            absolute = True
        elif (value.startswith("-") and not value.startswith("--")) or index == 1:
            for letter in value.lstrip("-"):
                extracts = extracts or letter == "x"
                absolute = absolute or letter == "P"
                if letter in _TAR_VALUE_LETTERS and value.startswith("-"):
                    break
    if extracts and absolute:
        dynamic(
            c.w,
            c.argv[0],
            "path",
            "tar -P writes the absolute paths the archive holds, not known before it runs",
        )


def _runner(c: Call) -> None:
    """`uv run CMD …`, `bundle exec CMD …`, `npx CMD …`: CMD runs as a command of its own. An
    option guard does not know could take a value, so then the command is not known."""
    argv = c.argv
    name = (argv[0].value or "").rsplit("/", 1)[-1]
    runner = RUNNERS.get(name)
    start = 1
    if runner is not None and (runner.subcommands or runner.commands):
        start = _subcommand_end(argv, runner.subcommands | runner.commands.keys())
    if runner is None or not start:
        plain(c)
        if name in ("npm", "pnpm"):
            _npm_config(c, name)
            _npm_scripts(c, name)
        return
    i, skip = start, runner.skip
    while i < len(argv):
        value = argv[i].value
        if value is None:
            break
        if value == "--":
            i += 1
            break
        if not value.startswith("-") or value == "-":
            if skip:
                use(c, argv[i], value, "chdir", name)
                skip -= 1
                i += 1
                continue
            break
        if "=" in value or value in runner.flags:
            i += 1
        elif value in runner.values or value in c.spec.options or value in c.spec.values:
            if value in runner.values and value not in TEXT_VALUES and i + 1 < len(argv):
                use(c, argv[i + 1], argv[i + 1].value, "path", name)  # uv run --env-file F
            i += 2
        else:
            dynamic(
                c.w,
                argv[i],
                "command_name",
                f"guard does not know whether {name}'s option {value} takes a value, so the "
                "command it runs is not known",
            )
            plain(c._replace(argv=argv[:i]))
            return
    plain(c._replace(argv=argv[:i]))
    inner = argv[i:]
    if start > 1 and argv[start - 1].value in runner.commands:  # `stack eval CODE`: ghc -e CODE
        word = argv[start - 1]
        inner = [word._replace(value=v) for v in runner.commands[word.value or ""]] + inner
    if runner.own_dashdash:
        dashdash = next((k for k, a in enumerate(inner) if k and a.value == "--"), None)
        if dashdash is not None:
            inner = inner[:dashdash] + inner[dashdash + 1 :]
    if len(inner) == 1 and inner[0].value is not None and _SHELL_LINE.search(inner[0].value):
        # `yarn exec 'a && b'`, `bun run 'x | y'`: one word that is a line, which they run
        # through a shell (yarn 2+, bun): read as that line, the strict reading
        run_code(c.w, inner[0].value, inner[0], c.depth, new_process=True, via=name)
        return
    c.w.calls.run_argv(c.w, inner, c.stdin, c.span, c.depth)


_SHELL_LINE = re.compile(r"\s|[;&|<>$`]")


def _subcommand_end(argv: list[Arg], subcommands: frozenset[str]) -> int:
    """The index after the runner's subcommand (`run` in `uv --directory d run …`), or 0 when
    the subcommand is another. A word after an option may be that option's value."""
    after_option = False
    for i in range(1, len(argv)):
        value = argv[i].value
        if value is not None and value.startswith("-") and value != "-":
            after_option = "=" not in value
            continue
        if value in subcommands:
            return i + 1
        if not after_option:
            return 0
        after_option = False
    return 0


_NPM_CONFIG_CHANGES = frozenset({"set", "delete", "rm", "edit", "fix"})
# npm settings that name a program npm runs later (`npm run` uses script-shell)
_NPM_CODE_KEYS = frozenset(
    {"script-shell", "shell", "git", "node-options", "editor", "browser", "viewer", "prefix"}
)


def _npm_config(c: Call, name: str) -> None:
    """`npm config set KEY VALUE`, `npm set …`: the change lands in ~/.npmrc (in ./.npmrc with
    `--location=project`, in npm's global file with `-g`), and some settings run programs."""
    words = [a.value for a in c.argv[1:]]
    ops = [(a, a.value) for a in c.argv[1:] if a.value is None or not a.value.startswith("-")]
    if ops and ops[0][1] in ("config", "c"):
        ops = ops[1:]
    elif not ops or ops[0][1] != "set":
        return
    if not ops or ops[0][1] not in _NPM_CONFIG_CHANGES:
        return
    verb, rest = ops[0], ops[1:]
    joined = " ".join(w or "" for w in words)
    if "--location=project" in joined or "--location project" in joined or "-L project" in joined:
        use(c, verb[0], ".npmrc", "write", f"{name} config")
    elif "-g" in words or "--global" in words or "--location=global" in joined:
        dynamic(c.w, verb[0], "path", f"{name} config -g writes npm's global settings file")
    else:
        home = c.w.scope.lookup("HOME").options
        if home and len(home) == 1:
            use(c, verb[0], f"{home[0].rstrip('/')}/.npmrc", "write", f"{name} config")
        else:
            dynamic(c.w, verb[0], "path", f"{name} config writes ~/.npmrc, and $HOME is not known")
    for arg, value in rest:
        key = None if value is None else value.split("=", 1)[0]
        if key is None or key in _NPM_CODE_KEYS:
            dynamic(c.w, arg, "code", f"the npm setting {value} names a program npm runs later")


def _npm_scripts(c: Call, name: str) -> None:
    """`npm pkg set scripts.test='…'`, `npm set-script test '…'`: shell code `npm run` runs
    later, read now as the code it is."""
    ops = [a for a in c.argv[1:] if a.value is None or not a.value.startswith("-")]
    if len(ops) >= 3 and ops[0].value == "set-script":
        scripts = [(ops[1].value, ops[2])]
    elif len(ops) >= 3 and ops[0].value == "pkg" and ops[1].value == "set":
        scripts = []
        for arg in ops[2:]:
            key, eq, value = (arg.value or "").partition("=")
            if arg.value is None or (eq and key.startswith("scripts.")):
                scripts.append((key or None, arg._replace(value=value if eq else None)))
    else:
        return
    for script, arg in scripts:
        via = f"{name} script {script}" if script else f"{name} pkg set"
        run_code(c.w, arg.value, arg, c.depth, new_process=True, via=via)


def _scheduler(c: Call) -> None:
    """at, batch and crontab keep commands to run later, where guard does not see them;
    listing what is kept is quiet."""
    words = [a.value for a in c.argv[1:]]
    if words and all(w in SCHEDULER_READ_ONLY or (w or "").isdigit() for w in words):
        return
    dynamic(
        c.w,
        c.argv[0],
        "code",
        f"{c.argv[0].value} keeps commands to run later, outside the shell guard watches",
    )


def _cmake(c: Call) -> None:
    """`cmake -E SUB ARGS…` is the command SUB names (`rm -rf`, `env`, `chdir DIR CMD` …),
    read as that command; anything else is cmake's own arguments."""
    argv = c.argv
    sub = argv[2].value if len(argv) > 2 and argv[1].value == "-E" else None
    head = CMAKE_COMMANDS.get(sub or "")
    if head is None:
        plain(c)
        return
    at = argv[2]
    words = [Arg(word, at.span, at.source) for word in head]
    c.w.calls.run_argv(c.w, [*words, *argv[3:]], c.stdin, c.span, c.depth)


TOOL_KINDS: dict[str, KindHandler] = {
    "cmake": _cmake,
    "watch": _watch,
    "git": _git,
    "runuser": _runuser,
    "bwrap": _bwrap,
    "compiler": _compiler,
    "tar": _tar,
    "runner": _runner,
    "scheduler": _scheduler,
}
