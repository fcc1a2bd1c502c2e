"""A command read by its spec alone: each argument's role (a path read or written, code, an
option's value, the command it runs), and the corners where arguments mean more than the spec
says (`@FILE` lists, `ext::`, container powers, default writes under home, `ln -s`, xargs -I).
"""

from __future__ import annotations

import re

from guard.knowledge import (
    AT_FILE_COMMANDS,
    CONTAINER_COMMANDS,
    CONTAINER_HOST_POWERS,
    COPIERS,
    CORNERS,
    CPIO_EXTRACTS,
    HOME_COMMANDS,
    RECURSIVE_READS,
    STDIN_FILE_LISTS,
    command_for,
)
from guard.languages import ACCESS_ROLES, Reading, path_part, read_argv
from guard.projection import paths
from guard.projection.accesses import access, wrote_text
from guard.projection.option_values import OPTION_VALUE_ROLES, file_list, option_value
from guard.projection.recursive_reads import read_listed, recursive_reads
from guard.projection.requests import Access
from guard.projection.variables import assigned
from guard.projection.walk_records import Arg
from guard.projection.walker import Call, Walker, dynamic, run_code


def plain(c: Call) -> None:
    w, spec, argv, stdin, span, depth, extra_unknown = (
        c.w,
        c.spec,
        c.argv,
        c.stdin,
        c.span,
        c.depth,
        c.extra,
    )
    via = argv[0].value or ""
    via = via.rsplit("/", 1)[-1]
    if via == "dd":
        _dd(w, argv)
        return
    if via == "env":  # `env - cmd` is `env -i cmd`: the lone `-` is an option, not the command
        argv = [argv[0], *_env_options(argv[1:])]
    reading = read_argv(spec, [a.value for a in argv])
    if via in _CORNER_COMMANDS:
        own = command_for(via).spec  # git's subcommand words are read again with their spec
        _argument_corners(w, via, argv, own=own is None or own is spec)
    symbolic = via == "ln" and any(
        (a.value or "").startswith("-") and ("s" in (a.value or "")[1:] or a.value == "--symbolic")
        for a in argv[1:]
    )
    if symbolic:
        _link_targets(w, reading, argv)
    _argument_uses(w, reading, argv, depth, via)
    if via == "tee" and len(argv) == 2 and stdin is not None and stdin.kind == "text":
        target, text = argv[1].value, stdin.text
        if target and target[:1] != "-" and text is not None:
            wrote_text(w, target, text)  # tee FILE <<'EOF': FILE holds the text
    for arg in argv[1:]:  # a loop, not any(): every command of every line comes here
        if arg.glob:
            listed_directories(w, argv, reading, via)
            break
    if via in RECURSIVE_READS and w.ctx.agent:  # the secrets kept below it: an agent's only
        recursive_reads(w, via, argv, reading)
    if symbolic:
        _made_link(w, reading, argv)
    if reading.run is not None:
        inner = argv[reading.run :]
        if spec.assignments:  # `env NAME=value cmd`: the command's environment
            _environment(w, argv[1 : reading.run], depth)
        if via == "xargs":
            given = stdin.roots if stdin is not None else None
            only = given[0] if given and len(given) == 1 else None
            inner = _xargs_replaced(
                argv[: reading.run], inner, only, stdin.secrets if stdin is not None else ()
            )
        w.calls.run_argv(w, inner, stdin, span, depth, extra_unknown=reading.unknown_args)
    elif spec.bare_reads_cwd and not any(u.role in ACCESS_ROLES for u in reading.uses):
        access(w, argv[0], ".", "read", via)
    files = spec.operands in ("read", "write", "edit", "path", "miller", "miller-edit")
    if extra_unknown and files and spec.kind == "plain":
        roots = stdin.roots if stdin is not None else None
        if roots is None:
            dynamic(w, argv[0], "path", f"{via} is given arguments read from standard input")
        for root in roots or ():  # paths a known producer printed: under the roots it was given
            for mode in _MODES[spec.operands]:
                access(w, argv[0], root, mode, via)
        if roots and stdin is not None and spec.operands in ("read", "path", "edit"):
            read_listed(w, argv[0], stdin.secrets, via)


def _argument_uses(w: Walker, reading: Reading, argv: list[Arg], depth: int, via: str) -> None:
    """What each argument the spec names is: code run, an option's value, a path accessed."""
    for use in reading.uses:
        if use.at >= len(argv):
            continue
        arg = argv[use.at]
        if use.role == "code":
            run_code(
                w,
                arg.value if use.value is None else use.value,
                arg,
                depth,
                new_process=True,
                via=via,
            )
            continue
        if use.role in OPTION_VALUE_ROLES:
            option_value(
                w, use.role, arg, use.value if use.value is not None else arg.value, depth, via
            )
            continue
        if use.role not in ACCESS_ROLES:
            continue
        text = use.value if use.value is not None else arg.value
        if text is None and arg.under is not None:  # what a known producer printed
            for root in arg.under:
                for mode in _MODES[use.role]:
                    access(w, arg, root, mode, via)
            if use.role in ("path", "read", "edit"):
                read_listed(w, arg, arg.secrets, via)
            continue
        if text is None:
            dynamic(w, arg, "path", f"an argument of {via} is not known: {arg.reason}")
            continue
        if use.role == "path":
            part = path_part(text)
            if part is None and _names_something(w, text):
                part = text  # a bare name that exists here: a file (or a link out) it may read
            if part is None:
                continue
            access(w, arg, part, "read", via)
        else:
            for mode in _MODES[use.role]:
                access(w, arg, text, mode, via)
        if arg.secrets and use.role in ("path", "read", "edit"):  # `find … -exec cat {} +`
            read_listed(w, arg, arg.secrets, via)


# what each access role does to the path: an editor's file is read, then written
_MODES: dict[str, tuple[Access, ...]] = {
    "read": ("read",),
    "path": ("read",),
    "write": ("write",),
    "edit": ("read", "write"),
    "execute": ("execute",),
    "chdir": ("chdir",),
}

_BARE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.@%+,-]*")


def _names_something(w: Walker, text: str) -> bool:
    """Whether a word that does not look like a path names something in the directory."""
    cwd = w.scope.cwd
    return (
        cwd is not None
        and _BARE_NAME.fullmatch(text) is not None
        and bool(w.ctx.expand(f"{cwd}/{text}" if cwd != "/" else f"/{text}"))
    )


def listed_directories(w: Walker, argv: list[Arg], reading: Reading, via: str) -> None:
    """A glob is expanded by bash before any command sees it: `echo /srv/data/*` lists
    /srv/data, a read of that directory, even where the command takes its words as data."""
    accessed = {u.at for u in reading.uses if u.role in ACCESS_ROLES or u.role in _READING}
    for index, arg in enumerate(argv[1:], 1):
        if not arg.glob or arg.value is None or index in accessed:
            continue
        head = re.split(r"[*?\[]", arg.value, maxsplit=1)[0]
        directory = head.rpartition("/")[0] if "/" in head else "."
        access(w, arg, directory or "/", "read", f"{via} (a glob)")


_READING = frozenset({"sed-script", "awk-program", "file-list", "url", "sql", "sql-file"})


def _env_options(args: list[Arg]) -> list[Arg]:
    """env's arguments without a lone `-` among its options (before the command)."""
    for i, arg in enumerate(args):
        value = arg.value
        if value == "-":
            return args[:i] + _env_options(args[i + 1 :])
        if value is None or not value.startswith("-") or value == "--":
            break
    return args


def _link_targets(w: Walker, reading: Reading, argv: list[Arg]) -> None:
    """`ln -s TARGET LINK`: a relative TARGET is where the link leads from LINK's directory
    (`ln -s ../README.md docs/README.md` leads to README.md), not from here; the reading's uses
    of the targets say so. LINK is a directory when it ends in `/`, exists as one, or is given
    with -t; a lone TARGET makes its link here."""
    reads = [u for u in reading.uses if u.role == "read" and u.at < len(argv)]
    writes = [u for u in reading.uses if u.role == "write" and u.at < len(argv)]
    if not reads or len(writes) != 1:
        return
    link = argv[writes[0].at].value
    if link is None:
        return
    into = "-t" in reading.options or "--target-directory" in reading.options
    if not into and not link.endswith("/"):
        cwd = w.scope.cwd
        where = link if link.startswith("/") or cwd is None else f"{cwd.rstrip('/')}/{link}"
        quoted = "".join(f"[{c}]" if c in "*?[" else c for c in where)
        into = bool(w.ctx.expand(quoted + "/"))  # a directory: the link is made inside it
    base = link.rstrip("/") if into else link.rpartition("/")[0]
    if not base:
        return  # the link is made here: its target is read from here too
    moved = {
        u.at: u._replace(value=f"{base}/{target}")
        for u in reads
        if (target := u.value if u.value is not None else argv[u.at].value) is not None
        and not target.startswith(("/", "~"))
    }
    reading.uses = [moved.get(u.at, u) if u.role == "read" else u for u in reading.uses]


def _made_link(w: Walker, reading: Reading, argv: list[Arg]) -> None:
    """`ln -s TARGET LINK`: paths through LINK later in the line lead somewhere not known."""
    operands = [u.at for u in reading.uses if u.role in ("read", "write")]
    if not operands or w.scope.cwd is None:
        return
    link = argv[operands[-1]].value
    target = argv[operands[0]].value
    if not link:
        return
    where = paths.absolute(link, w.scope.cwd)
    made = [where]
    name = (target or "").rstrip("/").rsplit("/", 1)[-1]
    if name not in ("", ".", ".."):  # `ln -s TARGET DIR` makes DIR/name
        made.append(f"{where}/{name}")
    w.scope.made_links = tuple(dict.fromkeys((*w.scope.made_links, *made)))


_CORNER_COMMANDS = (
    AT_FILE_COMMANDS
    | STDIN_FILE_LISTS.keys()
    | CONTAINER_COMMANDS
    | COPIERS
    | HOME_COMMANDS
    | CORNERS.keys()
)


def _argument_corners(w: Walker, via: str, argv: list[Arg], *, own: bool = True) -> None:
    """Arguments that mean more than their command's spec says: `@FILE` lists for binutils,
    file lists read from standard input, git's `ext::` transport (a shell command), containers
    given the host's powers (`--privileged`, `--pid=host`)."""
    stdin_lists = STDIN_FILE_LISTS.get(via, frozenset())
    corners = CORNERS.get(via, frozenset())
    for arg in argv[1:]:
        value = arg.value
        if value is None:
            continue
        if value.startswith("@") and len(value) > 1 and via in AT_FILE_COMMANDS:
            file_list(w, arg, value[1:], 0, via)
        elif value in stdin_lists:
            dynamic(w, arg, "path", f"{via} {value} reads the names of files from its input")
        elif value.startswith("ext::") and "git-transports" in corners:
            dynamic(w, arg, "code", "git's ext:: transport runs a shell command")
        elif via in CONTAINER_COMMANDS and CONTAINER_HOST_POWERS.match(value):
            dynamic(
                w,
                arg,
                "code",
                f"{value} gives the container the host's powers, "
                "and guard does not see what runs in it",
            )
    if via in COPIERS:
        _copies(w, via, argv)
    if via in HOME_COMMANDS and own:  # not again for a subcommand's own words (git's)
        _home_files(w, via, argv)
    if "downloads" in corners:
        _downloads(w, via, argv)
    if "pager-commands" in corners:
        for arg in argv[1:]:
            value = arg.value
            if value is not None and value[:1] == "+" and not _PAGER_QUIET.fullmatch(value):
                why = "a command it runs first, which may run a shell (`!cmd`, `|cmd`)"
                dynamic(w, arg, "code", f"{via} is given {why}")
    if "absolute-extracts" in corners:
        words = [a.value or "" for a in argv[1:]]
        extracts = any(
            v in CPIO_EXTRACTS or (v[:1] == "-" and v[1:2] != "-" and "i" in v) for v in words
        )
        if extracts and "--no-absolute-filenames" not in words:
            dynamic(
                w,
                argv[0],
                "path",
                "cpio -i writes the paths the archive holds, absolute ones too, "
                "not known before it runs",
            )


# less's (and more's) +COMMAND forms that only move or search: a line, the end, follow, /re
_PAGER_QUIET = re.compile(r"\+(?:\d+[gGpP%]?|[GgFpP]|/[^!|]*|\?[^!|]*)")
_URL_PATH = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*(/[^?#]*)?")


def _downloads(w: Walker, via: str, argv: list[Arg]) -> None:
    """The file a download is saved in when no option names it: `wget URL` saves the last
    part of URL's path (index.html for none) here or under -P DIR, `curl -O URL` here; a
    later run of it reads what nobody knows (accesses.py)."""
    words = [a.value or "" for a in argv[1:]]
    if via == "wget":
        if any(v.startswith(("-O", "--output-document")) or v == "--spider" for v in words):
            return
        into = "."
        for i, v in enumerate(words):
            if v in ("-P", "--directory-prefix") and i + 1 < len(words):
                into = words[i + 1]
            elif v.startswith(("-P", "--directory-prefix=")) and len(v) > 2:
                into = v.split("=", 1)[1] if v.startswith("--") else v[2:]
    elif not any(
        v in ("--remote-name", "--remote-name-all")
        or (v[:1] == "-" and v[1:2] != "-" and "O" in v[1:])
        for v in words
    ):
        return
    else:
        into = "."
    for arg in argv[1:]:
        match = _URL_PATH.match(arg.value or "")
        if match is not None:
            name = (match.group(1) or "").rstrip("/").rsplit("/", 1)[-1] or "index.html"
            access(w, arg, f"{into.rstrip('/') or '.'}/{name}", "write", via)


def _home_files(w: Walker, via: str, argv: list[Arg]) -> None:
    """The files under home the command reads or writes of its own accord (its record's
    `home`): `ssh-keygen` with no -f writes ~/.ssh, `gpg --import` ~/.gnupg, `aws configure`
    ~/.aws, `docker login` ~/.docker; `gh auth token`, `pass show`, `gpg --export-secret-keys`
    print a secret kept there (a read). The first row of each mode that matches counts; an
    option of `home_elsewhere` points it elsewhere (`--homedir`, `ssh-keygen -f`)."""
    record = command_for(via)
    words = [a.value or "" for a in argv[1:]]
    for v in words:
        if v.split("=", 1)[0] in record.home_elsewhere:
            return
        if v[:1] == "-" and v[1:2] != "-" and any(c in record.home_elsewhere for c in v[1:]):
            return
    named = {v.split("=", 1)[0] for v in words if v[:1] == "-"}
    operands = tuple(v for v in words if not v.startswith("-"))
    done: set[str] = set()
    for row in record.home:
        if row.mode in done or not _home_row(row.words, named, operands):
            continue
        done.add(row.mode)
        home = w.scope.lookup("HOME").options
        if home and len(home) == 1:
            access(w, argv[0], f"{home[0].rstrip('/')}/{row.under}", row.mode, via)
        else:
            verb = "writes under" if row.mode == "write" else "reads"
            dynamic(w, argv[0], "path", f"{via} {verb} ~/{row.under}, and $HOME is not known")


def _home_row(words: tuple[str, ...], named: set[str], operands: tuple[str, ...]) -> bool:
    """Whether a `HomeFile` row's words are the argv's: none (always), one option given
    anywhere, subcommand words leading the operands (a last "": and nothing after them; a
    last option: and that option given, `config view --raw`)."""
    if not words:
        return True
    if words[-1].startswith("-"):
        return words[-1] in named and operands[: len(words) - 1] == words[:-1]
    if words[-1] == "":
        return operands == words[:-1]
    return operands[: len(words)] == words


def _copies(w: Walker, via: str, argv: list[Arg]) -> None:
    """`docker cp SRC DEST`, `kubectl cp SRC DEST` (the record's `copies`): each side that is
    not `NAME:path` is a path here, read (a source) or written (the destination). Every word
    that is not an option is taken as an operand: an option's value (`-n ns`) is read as a
    path too, the strong reading."""
    operands = [a for a in argv[1:] if a.value is None or not a.value.startswith("-")]
    values = tuple(a.value for a in operands)
    for copy in command_for(via).copies:
        size = len(copy.words)
        if values[:size] != copy.words or len(operands) < size + 2:
            continue
        rest = operands[size:]
        modes = [(arg, "read") for arg in rest[:-1]] + [(rest[-1], "write")]
        for arg, mode in modes:
            value = arg.value
            if value is None:
                dynamic(w, arg, "path", f"a path {via} copies is not known: {arg.reason}")
            elif value != "-" and not _OTHER_PLACE.match(value):
                access(w, arg, value, mode, via)  # type: ignore[arg-type]
        return


_OTHER_PLACE = re.compile(r"[A-Za-z0-9][\w.-]*(?:/[\w.-]+)?:")  # web:/a, ns/pod:/a


def _environment(w: Walker, args: list[Arg], depth: int) -> None:
    for arg in args:
        name, eq, value = (arg.value or "").partition("=")
        if eq and name.startswith("BASH_FUNC_"):  # env 'BASH_FUNC_f%%=() { …; }' bash -c f
            dynamic(w, arg, "code", f"{name} gives the bash it starts a function to run")
        elif eq and name.replace("_", "a").isalnum() and not name[:1].isdigit():
            assigned(
                w, name, value, arg._replace(value=value), depth, exported=True, for_command=True
            )


def _xargs_replaced(
    options: list[Arg], inner: list[Arg], root: str | None = None, secrets: tuple[str, ...] = ()
) -> list[Arg]:
    """`xargs -I X cmd … X …`: every argument holding X is filled from input nobody knows."""
    marker: str | None = None
    for i, arg in enumerate(options):
        value = arg.value or ""
        if value in ("-I", "--replace") and i + 1 < len(options):
            marker = options[i + 1].value
        elif value.startswith("-I") and len(value) > 2:
            marker = value[2:]
        elif value.startswith("--replace="):
            marker = value.split("=", 1)[1]
        elif value in ("-i", "--replace"):
            marker = "{}"
        elif value.startswith("-i") and len(value) > 2:
            marker = value[2:]
    if not marker:
        return inner
    # a producer's output (`find src | xargs -I{} …`): a lone marker is a path under its root
    return [substituted(a, marker, root, "input xargs puts there", secrets) for a in inner]


def _dd(w: Walker, argv: list[Arg]) -> None:
    for arg in argv[1:]:
        if arg.value is None:
            dynamic(w, arg, "path", f"an argument of dd is not known: {arg.reason}")
        elif arg.value.startswith("if="):
            access(w, arg, arg.value[3:], "read", "dd")
        elif arg.value.startswith("of="):
            access(w, arg, arg.value[3:], "write", "dd")


def substituted(
    arg: Arg, marker: str, path: str | None, what: str, secrets: tuple[str, ...] = ()
) -> Arg:
    """An argument a command fills in later (`find -exec … {}`, `xargs -I X`): a lone marker is
    a path under `path` when that is known, `secrets` among what it stands for; text around a
    marker (`sh -c 'rm {}'`) is unknown."""
    if arg.value is None or marker not in arg.value:
        return arg
    if arg.value == marker and path is not None:  # known as a path only
        return arg._replace(value=path, reason=f"{arg.source} is {what}", secrets=secrets)
    return arg._replace(value=None, reason=f"{arg.source} holds {what}")
