"""Tools that read every file below a directory (`grep -r`, `rg`, `ag`): a secret below it is
read as surely as one named. In an agent's session the secrets a project keeps are looked
for below each directory such a tool is given (or the current one, when it is given none);
the first one found asks, as `cat` of it would.
"""

from __future__ import annotations

from guard.knowledge import NAMES_ONLY, RECURSIVE_READS
from guard.languages import Reading
from guard.projection import paths
from guard.projection.budget import OverBudget
from guard.projection.protected import ProtectedPath
from guard.projection.requests import Request
from guard.projection.walk_records import Arg
from guard.projection.walker import Walker


def _included(argv: list[Arg], options: frozenset[str]) -> tuple[str, ...] | None:
    """The globs every file read matches (`--include='*.py'`, rg's `-g '*.py'`), or None: any
    name. A glob that excludes (rg's `!x`) says nothing of what is read, and counts as none."""
    found: list[str] = []
    words = [a.value for a in argv]
    for at, word in enumerate(words):
        if word is None:
            continue
        name, eq, value = word.partition("=")
        if name in options:
            glob = value if eq else (words[at + 1] if at + 1 < len(words) else None)
            if glob is None or glob.startswith("!"):
                return None
            found.append(glob.rsplit("/", 1)[-1])
    return tuple(found) or None


def _named(name: str, patterns: tuple[str, ...]) -> bool:
    """Whether a file name matches one of find's `-name`/`-iname` patterns (either case)."""
    import fnmatch

    return any(fnmatch.fnmatchcase(name.lower(), p.lower()) for p in patterns)


def recursive_reads(w: Walker, via: str, argv: list[Arg], reading: Reading) -> None:
    """The protected files below the directories `via` reads through, when it recurses."""
    tool = RECURSIVE_READS.get(via)
    protected = w.ctx.protected
    if tool is None or protected is None:
        return
    given = reading.options  # as read_argv read them: bundled, attached, `--opt=value`
    first = argv[1].value or "" if len(argv) > 1 else ""
    letters = {f"-{c}" for c in first} if tool.old_style and first[:1] not in ("", "-") else set()
    recurses = not tool.flags or any(f in given or f in letters for f in tool.flags)
    if any(f in given for f in tool.lists):
        return  # rg --files: the names below, nothing read
    names = _included(argv, tool.includes)
    if not (recurses or any(given.get(v) == "recurse" for v in tool.values)):
        return
    hidden = tool.hidden or any(f in given for f in tool.hidden_flags)
    follows = any(f in given for f in tool.follows)
    operands = [
        (argv[u.at], u.value if u.value is not None else argv[u.at].value)
        for u in reading.uses
        if u.role == "read" and u.at < len(argv) and not (argv[u.at].value or "").startswith("-")
    ]
    given_dirs = [(arg, text) for arg, text in operands if text]
    for arg, text in given_dirs or ([(argv[0], ".")] if tool.here else []):
        root = _root(w, text)
        if root is None:
            continue
        found = _secret_below(w, root, hidden, follows, names=names)
        if found is not None:
            how = f"{via}, which reads below {paths.display(root, w.ctx.home)}"
            _secret_read(w, arg, found[0], found[1], how, via)


def listed_secrets(w: Walker, argv: list[str], roots: tuple[str, ...]) -> tuple[str, ...]:
    """The protected files below `roots` that the producer `argv` (find, fd, rg -l …) may
    print, in an agent's session: a command that reads what it prints reads those
    (`find . -name .env -exec cat {} +`, `cat $(find . -name '.env*')`)."""
    from guard.languages import printed_files

    protected = w.ctx.protected
    listed = printed_files(argv) if protected is not None and w.ctx.agent else None
    if listed is None or listed.tracked:
        return ()  # git ls-files: what git tracks, where secrets are not kept
    found: list[str] = []
    for text in roots:
        root = _root(w, text)
        if root is None:
            continue
        hit = _secret_below(w, root, listed.hidden, False, names=listed.names)
        if hit is not None:
            found.append(hit[0])
    return tuple(found)


def _root(w: Walker, text: str) -> str | None:
    """Where a directory a tool reads through leads, or None: relative to a directory not known
    (its read asks, accesses.py), or a path guard cannot follow (asked as that read)."""
    cwd = w.scope.cwd
    if not text.startswith("/") and cwd is None:
        return None
    start = text if text.startswith("/") else f"{(cwd or '').rstrip('/')}/{text}"
    try:
        return paths.normalise(w.ctx.resolve(paths.normalise(start)))
    except (OSError, ValueError):
        return None


def read_listed(w: Walker, arg: Arg, secrets: tuple[str, ...], via: str) -> None:
    """`arg` stands for the paths a producer prints, `secrets` among them, and `via` reads
    them: the first asks, as `cat` of it would (naming one reads nothing: `ls`, `stat`)."""
    protected = w.ctx.protected
    if not secrets or protected is None or via in NAMES_ONLY:
        return
    hit = protected.match(secrets[0], "read")
    if hit is not None:
        _secret_read(w, arg, secrets[0], hit, f"{via}, given the paths a command prints", via)


def _secret_read(w: Walker, arg: Arg, path: str, hit: ProtectedPath, how: str, via: str) -> None:
    """The `protected` request of a secret read through a directory or a listing."""
    shown = paths.display(path, w.ctx.home)
    reason = f"read {shown} ({how}) is a protected path ({hit.pattern})"
    w.out.append(Request("protected", arg.span, reason, path=path, access="read", via=via))


def _secret_below(
    w: Walker,
    root: str,
    hidden: bool,
    follows: bool,
    *,
    depth: int = 0,
    names: tuple[str, ...] | None = None,
) -> tuple[str, ProtectedPath] | None:
    """The first protected file below `root` (whose name matches one of `names`, when given);
    with `follows`, through the links below it to where they lead (links in what they lead
    to are followed three deep, then it asks)."""
    assert w.ctx.protected is not None
    for found in w.ctx.below(root):
        if not hidden and any(p.startswith(".") for p in found[len(root) :].split("/")):
            continue
        if names is not None and not _named(found.rsplit("/", 1)[-1], names):
            continue
        hit = w.ctx.protected.match(found, "read")
        if hit is not None:
            return found, hit
        if not follows:
            continue
        try:
            led = paths.normalise(w.ctx.resolve(found))
        except (OSError, ValueError):
            continue
        if led == found:
            continue
        hit = w.ctx.protected.match(led, "read")
        if hit is not None:
            return led, hit
        if depth >= 3:
            raise OverBudget(f"following the links below {root} goes deeper than guard looks")
        deeper = _secret_below(w, led, hidden, follows, depth=depth + 1)
        if deeper is not None:
            return deeper
    return None
