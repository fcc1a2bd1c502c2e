"""Commands that are more than argument lists: cd, pushd, popd, test, find, read and mapfile,
printf -v, set and shift.

Each kind is one function with the same signature; `KINDS` maps a spec's kind to it.
"""

from __future__ import annotations

from guard.knowledge import FILE_TEST_OPERATORS, Spec, find_deleter
from guard.projection.accesses import access
from guard.projection.plain_commands import plain, substituted
from guard.projection.requests import Access
from guard.projection.variables import set_variable
from guard.projection.walk_records import Arg
from guard.projection.walker import Call, KindHandler, Walker, dynamic

_TEST_PAIR_OPS = frozenset({"-nt", "-ot", "-ef"})


def _cd(c: Call) -> None:
    w, argv = c.w, c.argv
    operands = [
        a for a in argv[1:] if a.value is None or not a.value.startswith("-") or a.value == "-"
    ]
    if not operands:
        home = w.scope.lookup("HOME")
        target = home.options[0] if home.options and len(home.options) == 1 else None
        if target is None:
            w.scope.change_dir(None, "cd went to $HOME, which is not known")
            return
        _enter(w, Arg(target, argv[0].span, argv[0].source), target)
        return
    arg = operands[0]
    if len(operands) > 1 and argv[0].value == "cd":
        access(w, arg, arg.value or ".", "chdir", "cd")  # bash: too many arguments; stays
        return
    if arg.value is None:
        dynamic(w, arg, "chdir", f"cd goes to a directory that is not known: {arg.reason}")
        w.scope.change_dir(None, f"cd {arg.source} went somewhere not known")
        return
    if arg.value == "-":
        old = w.scope.oldpwd
        if old is None:
            w.scope.change_dir(None, "cd - went to $OLDPWD, which is not known")
            return
        _enter(w, arg, old)
        return
    if arg.glob:
        dynamic(w, arg, "chdir", f"cd goes to a pattern: {arg.value}")
        w.scope.change_dir(None, f"cd {arg.source} went to a pattern")
        return
    cdpath = w.scope.lookup("CDPATH")
    searched = cdpath.options != ("",) and not (
        cdpath.options is None and cdpath.reason.endswith("is not set")
    )
    if searched and not arg.value.startswith(("/", "./", "../")) and arg.value not in (".", ".."):
        dynamic(w, arg, "chdir", f"cd {arg.value} searches $CDPATH, so where it goes is not known")
        w.scope.change_dir(None, f"cd {arg.source} searched $CDPATH")
        return
    _enter(w, arg, arg.value)


def _enter(w: Walker, arg: Arg, target: str) -> None:
    from guard.projection import paths

    access(w, arg, target, "chdir", "cd")
    if target.startswith("/"):
        w.scope.change_dir(paths.normalise(target), may_fail=True)
    elif w.scope.cwd is not None:
        w.scope.change_dir(paths.absolute(target, w.scope.cwd), may_fail=True)
    else:
        w.scope.change_dir(None, w.scope.cwd_reason)


def _pushd(c: Call) -> None:
    w, argv = c.w, c.argv
    before = w.scope.cwd
    operands = [a for a in argv[1:] if a.value is None or not a.value.startswith(("-", "+"))]
    if not operands:
        w.scope.change_dir(None, "pushd swapped directories")
        return
    _cd(c)
    w.scope.dirstack.append(before)


def _popd(c: Call) -> None:
    w, argv = c.w, c.argv
    if len(argv) > 1 or not w.scope.dirstack:
        w.scope.change_dir(None, "popd went to a directory that is not known")
        return
    target = w.scope.dirstack.pop()
    w.scope.change_dir(target, "" if target is not None else "popd went somewhere not known")


def _test(c: Call) -> None:
    w, argv = c.w, c.argv
    args = argv[1:-1] if argv[0].value == "[" and argv and argv[-1].value == "]" else argv[1:]
    for i, arg in enumerate(args):
        if arg.value in FILE_TEST_OPERATORS and i + 1 < len(args):
            _test_path(w, args[i + 1])
        elif arg.value in _TEST_PAIR_OPS and 0 < i < len(args) - 1:
            _test_path(w, args[i - 1])
            _test_path(w, args[i + 1])


def _test_path(w: Walker, arg: Arg) -> None:
    if arg.value is None:
        dynamic(w, arg, "path", f"a path tested is not known: {arg.reason}")
    else:
        access(w, arg, arg.value, "read", "test")


def _found_secrets(w: Walker, argv: list[Arg], roots: list[Arg]) -> tuple[str, ...]:
    """The protected files below find's roots its tests before the first action let through
    (`find . -name .env -exec cat {} +`): what the action is given."""
    from guard.projection.recursive_reads import listed_secrets

    words: list[str] = []
    for arg in argv:
        if arg.value is None:
            return ()
        if arg.value in _FIND_ACTIONS:
            break
        words.append(arg.value)
    given = tuple(r.value for r in roots if r.value is not None) or (".",)
    return listed_secrets(w, words, given)


_FIND_ACTIONS = frozenset({"-exec", "-execdir", "-ok", "-okdir"})


def _find(c: Call) -> None:
    w, argv, span, depth = c.w, c.argv, c.span, c.depth
    i = 1
    roots: list[Arg] = []
    while i < len(argv) and argv[i].value in ("-H", "-L", "-P", "-O0", "-O1", "-O2", "-O3"):
        i += 1
    while i < len(argv):
        value = argv[i].value
        if value is not None and (value.startswith("-") or value in ("(", "!", ")", ",")):
            break
        roots.append(argv[i])
        i += 1
    rest = [a.value for a in argv[i:]]
    writes = "-delete" in rest or find_deleter(rest) is not None  # what it finds, it deletes
    for root in roots or [Arg(".", argv[0].span, argv[0].source)]:
        if root.value is None:
            dynamic(w, root, "path", f"a directory find searches is not known: {root.reason}")
        else:
            access(w, root, root.value, "write" if writes else "read", "find")
    while i < len(argv):
        value = argv[i].value
        if value in ("-exec", "-execdir", "-ok", "-okdir"):
            end = i + 1
            while end < len(argv) and argv[end].value not in (";", "+"):
                end += 1
            found = roots[0].value if roots and roots[0].value is not None else "."
            secrets = _found_secrets(w, argv, roots)
            inner = [
                substituted(
                    a,
                    "{}",
                    f"{found.rstrip('/') or '/'}/{{}}",
                    "a file name find puts there",
                    secrets,
                )
                for a in argv[i + 1 : end]
            ]
            w.calls.run_argv(w, inner, None, span, depth)
            i = end + 1
            continue
        if value == "-files0-from" and i + 1 < len(argv):  # roots read from a list file
            listed = argv[i + 1]
            if listed.value is not None and listed.value != "-":
                access(w, listed, listed.value, "read", "find")
            dynamic(w, listed, "path", "find searches directories named in a list")
            i += 2
            continue
        mode = _FIND_PATH_OPTIONS.get(value or "")
        if mode is not None and i + 1 < len(argv):
            target = argv[i + 1]
            if target.value is not None:
                access(w, target, target.value, mode, "find")
            i += 2
            continue
        i += 1


_FIND_PATH_OPTIONS: dict[str, Access] = {
    **dict.fromkeys(("-fprint", "-fprint0", "-fprintf", "-fls"), "write"),
    **dict.fromkeys(("-newer", "-anewer", "-cnewer", "-samefile"), "read"),
}


def _assigns(c: Call) -> None:
    """`read x`, `mapfile arr`, `getopts o name`: variables set from input nobody can know."""
    from guard.projection.shell_state import Var
    w, spec, argv = c.w, c.spec, c.argv
    plain(c)  # options that carry code (mapfile -C)
    via = argv[0].value or "read"
    names: list[str] = []
    i = 1
    while i < len(argv):
        value = argv[i].value
        if value is not None and value.startswith("-") and len(value) > 1:
            i += 1 + _takes_next(value, spec)
            continue
        if value is not None:
            names.append(value)
        i += 1
    if via == "getopts":
        names = names[1:2]
    for name in names:
        set_variable(w, name, Var(None, f"${name} is set by {via} from input"), argv[0], c.depth)
    if via == "read" and not names:
        w.scope.assign("REPLY", Var(None, "$REPLY is set by read from input"))
    if via in ("mapfile", "readarray") and not names:
        w.scope.assign("MAPFILE", Var(None, "$MAPFILE is set from input"))
    for i, arg in enumerate(argv[1:], 1):  # `read -a arr`
        if arg.value == "-a" and i + 1 < len(argv) and argv[i + 1].value:
            name = argv[i + 1].value or ""
            set_variable(
                w, name, Var(None, f"${name} is set by {via} from input"), argv[0], c.depth
            )


def _takes_next(cluster: str, spec: Spec) -> int:
    """1 when the last option of a cluster like `-rp` takes the next argument as its value."""
    for j, letter in enumerate(cluster[1:], 1):
        if "-" + letter in spec.values:
            return 1 if j == len(cluster) - 1 else 0
    return 0


def _printf(c: Call) -> None:
    """`printf -v name FORMAT …` sets a variable; otherwise printf only prints."""
    from guard.projection.shell_state import Var
    w, argv = c.w, c.argv
    for i, arg in enumerate(argv[1:], 1):
        if arg.value == "-v" and i + 1 < len(argv):
            name = argv[i + 1].value or ""
            set_variable(w, name, Var(None, f"${name} is set by printf -v"), arg, c.depth)
        elif arg.value is not None and arg.value.startswith("-v") and len(arg.value) > 2:
            name = arg.value[2:]
            set_variable(w, name, Var(None, f"${name} is set by printf -v"), arg, c.depth)


def _positional(c: Call) -> None:
    """`shift [n]` and `set -- …` change $1 …: followed when known, else unknown from here."""
    w, argv = c.w, c.argv
    pos = w.scope.positional
    if argv[0].value == "shift":
        count = argv[1].value if len(argv) > 1 else "1"
        if pos is not None and count is not None and count.isdigit():
            w.scope.positional = pos[int(count) :]
        else:
            w.scope.positional = None
        return
    rest = argv[1:]
    for i, arg in enumerate(rest):
        if arg.value == "--" or arg.value is None or not arg.value.startswith(("-", "+")):
            new = rest[i + 1 :] if arg.value == "--" else rest[i:]
            values = tuple(a.value for a in new)
            w.scope.positional = None if None in values else tuple(v or "" for v in values)
            return


KINDS: dict[str, KindHandler] = {
    "plain": plain,
    "wrapper": plain,
    "xargs": plain,
    "cd": _cd,
    "pushd": _pushd,
    "popd": _popd,
    "test": _test,
    "find": _find,
    "assigns": _assigns,
    "printf": _printf,
    "positional": _positional,
}
