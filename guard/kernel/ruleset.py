"""The ruleset an enforced line runs under: what it may read and write, as data.

Pure: paths and patterns in, grants out. The machine is asked through functions passed in
(`children` lists a directory, `exists`, `resolve` follows symlinks), as in
`guard.projection.paths`.

Landlock grants rights on a path and everything below it, and has no rule that takes a right
away. So "home minus the protected paths" is a cover: a grant on a directory that holds a
protected path is replaced by grants on each of its children, recursively, leaving the
protected ones out. A directory split that way can no longer have entries created in it.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Literal, NamedTuple

from guard.projection import Decided, inside_any

Access = Literal["read", "write"]  # read: read files, list directories, run; write: everything

SYSTEM_DIRS: tuple[str, ...] = (
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt",
    "/nix", "/snap", "/proc", "/sys", "/dev", "/run", "/var",
)  # fmt: skip
DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/pts", "/dev/ptmx", "/dev/shm")
# Caches build tools write (pip, npm, cargo, maven, gradle, go, pnpm, bun, nuget); the policy's
# `[enforce] write` adds more. $XDG_CACHE_HOME (default ~/.cache) comes first.
DEFAULT_CACHES: tuple[str, ...] = (
    "~/.cache/pip", "~/.npm", "~/.cargo/registry", "~/.cargo/git", "~/.m2/repository",
    "~/.gradle", "~/go/pkg/mod", "~/.pnpm-store", "~/.bun/install/cache", "~/.nuget/packages",
)  # fmt: skip
# What version managers write while a login shell starts (its profile runs `pyenv init`, `rbenv
# init`, `mise activate` …): their shims, rebuilt by a rehash, and their state. Data, not start-up
# files or secrets; each is granted only where it exists. Each entry: the variable that moves the
# tool's directory, where it is by default, and the part below it that the tool writes.
TOOL_STATE: tuple[tuple[str, str, str], ...] = (
    ("PYENV_ROOT", "~/.pyenv", "shims"),
    ("RBENV_ROOT", "~/.rbenv", "shims"),
    ("NODENV_ROOT", "~/.nodenv", "shims"),
    ("GOENV_ROOT", "~/.goenv", "shims"),
    ("", "~/.jenv", "shims"),
    ("ASDF_DATA_DIR", "~/.asdf", "shims"),
    ("MISE_DATA_DIR", "~/.local/share/mise", "shims"),
    ("MISE_STATE_DIR", "~/.local/state/mise", ""),
    ("NVM_DIR", "~/.nvm", ".cache"),
    ("VOLTA_HOME", "~/.volta", "tmp"),
    ("VOLTA_HOME", "~/.volta", "log"),
    ("SDKMAN_DIR", "~/.sdkman", "tmp"),
    ("SDKMAN_DIR", "~/.sdkman", "var"),
)
# Start-up files are protected (never written), yet stay readable: `bash -l` reads them itself.
SHELL_STARTUP: tuple[str, ...] = (
    "~/.bashrc", "~/.bash_profile", "~/.bash_login", "~/.bash_logout", "~/.profile",
    "~/.zshrc", "~/.zshenv", "~/.zprofile", "~/.zlogin", "~/.zlogout",
)  # fmt: skip
# Until the policy carries a protected list: secrets, credentials, shell start-up files.
FALLBACK_PROTECTED: tuple[str, ...] = (
    "~/.ssh", "~/.gnupg", "~/.aws", "~/.azure", "~/.config/gcloud", "~/.kube",
    "~/.docker/config.json", "~/.netrc", "~/.git-credentials", "~/.config/gh", "~/.npmrc",
    "~/.pypirc", "~/.cargo/credentials", "~/.cargo/credentials.toml", "~/.password-store",
    "~/.local/share/keyrings", "~/.*_history", *SHELL_STARTUP,
)  # fmt: skip
MAX_CHILDREN = 4096  # a directory with more entries on the way to a protected path is withheld


class Grant(NamedTuple):
    path: str
    access: Access
    why: str  # "workspace", "system", "home", "temp dir", "cache", "approved write (cp)" …


class Ruleset(NamedTuple):
    grants: tuple[Grant, ...]
    withheld: tuple[str, ...] = ()  # protected paths a grant around them leaves out
    static_only: tuple[str, ...] = ()  # protected patterns the kernel cannot hold
    missing: tuple[str, ...] = ()  # caches and approved reads that do not exist (not granted)


def build_ruleset(
    *,
    roots: Sequence[str],
    home: str,
    tmp: str,
    caches: Sequence[str],
    protected: Sequence[str],
    reads: Sequence[tuple[str, str]] = (),
    writes: Sequence[tuple[str, str]] = (),
    extra_reads: Sequence[str] = (),
    extra_writes: Sequence[str] = (),
    tool_state: Sequence[str] = (),
    program: Sequence[str] = (),
    children: Callable[[str], Sequence[str] | None],
    exists: Callable[[str], bool],
    resolve: Callable[[str], str] = str,
    system: Sequence[str] = SYSTEM_DIRS,
    readable: Sequence[str] = SHELL_STARTUP,
) -> Ruleset:
    """The grants for one line. `reads` and `writes` are the (path, via) pairs outside the
    workspace that the line's projection names and the human (or the policy) allowed; a
    protected path is granted only when one of them names it (or a path below it), or, for
    reading, when `readable` names it (the shell's start-up files, guard's own policy)."""
    home = home.rstrip("/") or "/"
    guarded = _Protected(protected, home, resolve)
    out = _Out(guarded, children, exists, resolve, {expand_home(p, home) for p in readable})
    for path in system:
        out.cover(path, "read", "system")
    for path in DEVICES:
        out.grant(path, "write", "device")
    out.cover(home, "read", "home")
    for path in program:
        out.cover(path, "read", "guard and its Python")
    for path in extra_reads:
        out.cover(expand_home(path, home), "read", "policy read", report=True)
    for root in roots:
        out.cover(root, "write", "workspace")
    out.cover(tmp, "write", "temp dir")
    for path in caches:
        out.cover(expand_home(path, home), "write", "cache")
    for path in tool_state:
        out.cover(expand_home(path, home), "write", "tool state")
    for path in extra_writes:
        out.cover(expand_home(path, home), "write", "policy write", report=True)
    for path, via in reads:
        out.approved(path, "read", f"approved read ({via})")
    for path, via in writes:
        target = path
        while not exists(target) and target != "/":
            target = target.rsplit("/", 1)[0] or "/"  # a new file: its nearest directory
        if target != path and (target == "/" or guarded.holds(target)):
            out.missing.append(path)  # creating it would need all of a directory with secrets
        else:
            out.approved(target, "write", f"approved write ({via})")
    once = dict.fromkeys  # a path two grants reach (home inside the temp dir …) is said once
    return Ruleset(
        tuple(once(out.grants)), tuple(once(out.withheld)), guarded.static_only,
        tuple(once(out.missing)),
    )  # fmt: skip


def approved_accesses(
    decided: Iterable[Decided], roots: Sequence[str]
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The (path, via) reads and writes outside the workspace of a line that was allowed: every
    request it holds was allowed by the policy or by the human, so each is consented to."""
    reads: list[tuple[str, str]] = []
    writes: list[tuple[str, str]] = []
    for d in decided:
        r = d.request
        if not r.path or r.access is None or inside_any(r.path, tuple(roots)):
            continue
        (writes if r.access == "write" else reads).append((r.path, r.via or r.surface))
    return reads, writes


def expand_home(path: str, home: str) -> str:
    if path == "~" or path.startswith("~/"):
        return home.rstrip("/") + path[1:] if home != "/" else path[1:] or "/"
    return path


def tool_state_dirs(env: Mapping[str, str], home: str) -> tuple[str, ...]:
    """Where the version managers keep what their start-up writes (enforcement.TOOL_STATE):
    each tool's default directory, and the one its variable names (an absolute path: the
    profile may set it again, so both count)."""
    key = (home, *(env.get(v, "") for v in _TOOL_VARIABLES))
    kept = _TOOL_DIRS.get(key)
    if kept is not None:
        return kept
    found = []
    for variable, default, below in TOOL_STATE:
        given = env.get(variable, "").strip() if variable else ""
        if variable.startswith("MISE_") and not given:  # mise follows the XDG variables
            xdg = env.get("XDG_STATE_HOME" if "STATE" in variable else "XDG_DATA_HOME", "")
            given = posixpath.join(xdg, "mise") if posixpath.isabs(xdg) else ""
        for base in (expand_home(default, home), given):
            if not posixpath.isabs(base):
                continue
            path = posixpath.normpath(posixpath.join(base, below) if below else base)
            if _narrow(path, home):
                found.append(path)
    if len(_TOOL_DIRS) > 16:
        _TOOL_DIRS.clear()
    kept = _TOOL_DIRS[key] = tuple(dict.fromkeys(found))
    return kept


_TOOL_VARIABLES = (
    *dict.fromkeys(v for v, _, _ in TOOL_STATE if v), "XDG_STATE_HOME", "XDG_DATA_HOME"
)
_TOOL_DIRS: dict[tuple[str, ...], tuple[str, ...]] = {}  # a pure function's answers, kept


def _narrow(path: str, home: str) -> bool:
    """A directory of one tool's: not `/`, home or above it, nor a system directory itself (a
    variable set to one of those must not open it to every line)."""
    home = posixpath.normpath(home)
    above_home = home == path or home.startswith(path.rstrip("/") + "/")
    return path.count("/") >= 2 and not above_home and path not in SYSTEM_DIRS


class _Protected:
    """Protected path patterns: which paths they protect, which paths hold one. Asked for every
    path the cover visits, so literal patterns (most) are looked up as strings, and the ones
    with wildcards are matched component by component (no regex: compiling costs more)."""

    def __init__(self, patterns: Sequence[str], home: str, resolve: Callable[[str], str]) -> None:
        literals: list[str] = []
        self.globs: list[tuple[str, tuple[str, ...]]] = []  # (literal directory, the rest)
        static: list[str] = []
        for pattern in patterns:
            parts = _components(pattern, home)
            if parts is None:
                static.append(pattern)
            elif any(c in part for part in parts for c in "*?\\"):
                cut = next(i for i, part in enumerate(parts) if any(c in part for c in "*?\\"))
                self.globs.append(("/" + "/".join(parts[:cut]), parts[cut:]))
            else:
                literal = "/" + "/".join(parts)
                real = resolve(literal)  # a protected symlink: its target is protected too
                literals += [literal, real] if real != literal and real[:1] == "/" else [literal]
        self.static_only = tuple(static)
        self.any = bool(literals or self.globs)
        self.literals = set(literals)
        self.above = {lit[:i] for lit in literals for i in range(1, len(lit)) if lit[i] == "/"}

    def protects(self, path: str) -> bool:
        if "/" in self.literals or path in self.literals:
            return True
        at = path.find("/", 1)
        while at > 0:  # each directory above `path`
            if path[:at] in self.literals:
                return True
            at = path.find("/", at + 1)
        for head, rest in self.globs:
            below = _below(path, head)
            if below is not None and len(below) >= len(rest) and _match(rest, below):
                return True
        return False

    def holds(self, path: str) -> bool:
        if path == "/":
            return self.any
        if path in self.above:
            return True
        for head, rest in self.globs:
            if head == path or head.startswith(path + "/"):
                return True
            below = _below(path, head)
            if below is not None and len(below) < len(rest) and _match(rest, below):
                return True
        return False


class _Out:
    def __init__(
        self,
        guarded: _Protected,
        children: Callable[[str], Sequence[str] | None],
        exists: Callable[[str], bool],
        resolve: Callable[[str], str],
        readable: set[str],
    ) -> None:
        self.guarded, self.children, self.exists, self.resolve = guarded, children, exists, resolve
        self.readable = readable
        self.grants: list[Grant] = []
        self.withheld: list[str] = []
        self.missing: list[str] = []

    def grant(self, path: str, access: Access, why: str) -> None:
        self.grants.append(Grant(path, access, why))

    def approved(self, path: str, access: Access, why: str) -> None:
        if self.guarded.protects(path) or self.guarded.protects(self.resolve(path)):
            self.grant(path, access, why)  # the approval names it
        else:
            self.cover(path, access, why, report=True)

    def cover(self, path: str, access: Access, why: str, *, report: bool = False) -> None:
        """Grant `path` and below, leaving out the protected paths (explicit stack)."""
        if not self.exists(path):
            if report:
                self.missing.append(path)
            return
        stack = [path]
        while stack:
            here = stack.pop()
            real = self.resolve(here)
            linked = real != here
            guarded = self.guarded
            if guarded.protects(here) or (linked and guarded.protects(real)):
                if here in self.readable:
                    self.grant(here, "read", "protected, readable")
                else:
                    self.withheld.append(here)
            elif guarded.holds(here):  # below `here`, patterns match by its own name
                names = self.children(here)
                if names == UNLISTABLE:  # the ruleset around this process holds it already
                    self.grant(here, access, why)
                elif names is None or len(names) > MAX_CHILDREN:
                    self.withheld.append(here)
                else:
                    stack.extend(f"{here.rstrip('/')}/{n}" for n in sorted(names, reverse=True))
            elif linked and guarded.holds(real):  # a link into a directory that holds some:
                self.withheld.append(here)  # its children would not match by their names
            else:
                self.grant(here, access, why)


# What `children` gives for a directory this process may not list: inside an enforced line the
# outer ruleset is what forbids it, and it keeps withholding what it withholds (rulesets stack).
UNLISTABLE: tuple[str, ...] = ("",)

def _components(pattern: str, home: str) -> tuple[str, ...] | None:
    """An absolute pattern's components (`/**` at the end dropped: the rule covers below);
    None for what the kernel cannot hold: a relative pattern, `**` before the last part."""
    pattern = pattern.strip()
    if pattern == "~" or pattern.startswith("~/"):
        escaped = home.rstrip("/").replace("\\", "\\\\").replace("*", "\\*").replace("?", "\\?")
        pattern = escaped + pattern[1:]
    if not pattern.startswith("/"):
        return None
    pattern = pattern.rstrip("/")
    while pattern.endswith("/**"):
        pattern = pattern[:-3]
    parts = tuple(c for c in pattern.split("/") if c and c != ".")
    return None if any("**" in c or c == ".." for c in parts) else parts


def _below(path: str, head: str) -> list[str] | None:
    """`path`'s components below the directory `head`, or None when it is not below it."""
    if head == "/":
        return [c for c in path.split("/") if c]
    if path.startswith(head + "/"):
        return path[len(head) + 1 :].split("/")
    return None


def _match(pattern: tuple[str, ...], path: list[str]) -> bool:
    """Whether the first components of `path` match `pattern`'s, as far as both go."""
    return all(_glob(p, c) for p, c in zip(pattern, path, strict=False))


def _glob(pattern: str, name: str) -> bool:
    """One component against one name: `*` any run, `?` one character, `\\` escapes."""
    p = n = 0
    star, mark = -1, 0
    while n < len(name):
        if p < len(pattern) and pattern[p] == "*":
            star, mark, p = p, n, p + 1
            continue
        if p < len(pattern):
            literal = pattern[p] == "\\" and p + 1 < len(pattern)
            want = pattern[p + 1] if literal else pattern[p]
            if (want == name[n] and (literal or want != "?")) or (want == "?" and not literal):
                p, n = p + (2 if literal else 1), n + 1
                continue
        if star < 0:
            return False
        p, mark = star + 1, mark + 1
        n = mark
    while p < len(pattern) and pattern[p] == "*":
        p += 1
    return p == len(pattern)


def render_ruleset(ruleset: Ruleset, home: str, *, shown: int = 6) -> list[str]:
    """The ruleset as lines for `guard explain --enforce`: grants grouped by access and why."""
    from guard.projection import display

    groups: dict[tuple[Access, str], list[str]] = {}
    for g in ruleset.grants:
        groups.setdefault((g.access, g.why), []).append(display(g.path, home))
    lines = []
    for (access, why), paths in groups.items():
        more = f" … ({len(paths)} in all)" if len(paths) > shown else ""
        lines.append(f"  {access:<6} {' '.join(paths[:shown])}{more}   [{why}]")
    for title, items in (
        ("withheld (protected)", ruleset.withheld),
        ("checked statically only (the kernel cannot hold these patterns)", ruleset.static_only),
        ("not granted (missing, or creating it needs a directory that holds secrets)",
         ruleset.missing),
    ):  # fmt: skip
        if items:
            lines.append(f"  {title}: " + ", ".join(display(p, home) for p in items))
    return lines
