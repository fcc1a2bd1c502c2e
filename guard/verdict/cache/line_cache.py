"""What a long-lived process keeps between the lines it judges, so each line costs only itself.

The shell hooks' checker (`guard serve`), `guard explain --jsonl`, `guard watch` and the agent
adapters judge many lines in one process. A `LineCache` passed to `judge(..., cache=…)` keeps:

- the policy, per workspace, home and trust: read again as soon as the user's or the project's
  policy file changes (its mtime, ctime, size or inode; a file that appears or goes counts);
- the project file's trust: its hash is kept while the file is unchanged, and the store is asked
  on every line whether that hash is trusted (one indexed read), so `guard policy trust` in
  another terminal counts at once;
- one open store connection, opened again when `GUARD_STATE_DIR` names another file, the file
  is replaced, or its or its directory's owner or mode changed (the open checks them again);
- an agent session's workspace as the store keeps it: decided once, it never changes in that
  store file, so it is kept while the store is the same file;
- the approvals as an `ApprovalIndex`, read again only when the store's approvals counter says
  they changed, or the session went idle or came back;
- projections, each with the questions its walk asked the world, used again for the same line
  in an equal context while every answer is the same (kept_projections.py);
- verdicts, for the same policy, projection and approvals (the same objects: each is kept
  only while nothing it stands for changed, and `decide` is pure);
- where paths lead, symlinks resolved (resolved_paths.py): each answer with the links it went
  through, used again only while every one of them is as it was (an `lstat`, and a `readlink` for a
  link, each path at most once per line);
- a line's surroundings (`surroundings`): the workspace, context, trust, policy, protected
  list and the approver page's port, the same for every line of a session until one of the
  things they were built from changes. They are kept with every question their building asked
  of the file system (each policy file, the page's port file, where home and the workspace
  lead, guard's own directories, the store's inode),
  the environment given and this process's own; the next line asks those questions again in
  one loop and builds them again on any other answer. The store's answer on a project file's
  trust is asked again on every line.

A stamp (mtime, ctime, size, inode) younger than a second proves nothing (the kernel's clock
moves once a tick, and a file changed twice within one shows one stamp): what was read at such
a moment is not kept, and is read again on the next line.

Nothing here is ever stale: every line pays a few `stat` calls and two indexed reads to know.
From the `WATCH_AFTER`th line on, the kernel tells of changes to names (disk_changes.py), and
the questions on names it would tell of are not asked again while it tells of none.
`judge` brackets each line with `begin_line` and `end_line`: within them a path is looked at
once and the store checked once. The interface is `policy`, `context`, `trusted`, `store`,
`session_workspace`, `approvals`, `decide`, `projections`, `links`, `surroundings` and
`close`.
"""

from __future__ import annotations

import os
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from stat import S_ISLNK
from typing import TYPE_CHECKING, Any

from guard.dirs import environ_get
from guard.policy import PROJECT_FILE, Policy, load_policy, user_policy_path
from guard.projection import Context, Projection, Verdict
from guard.verdict.cache.judging_inputs import Surroundings
from guard.verdict.cache.kept_projections import KeptProjections
from guard.verdict.cache.path_questions import RACY_NS, Answered, settled, stamp_of
from guard.verdict.cache.resolved_paths import Links
from guard.verdict.decision import decide
from guard.verdict.store.session import idle_seconds
from guard.verdict.workspace import build_context

if TYPE_CHECKING:
    from pathlib import Path

    from guard.verdict.approval_index import ApprovalIndex
    from guard.verdict.store.store import Store

# what build_context reads of the environment besides passing it on
_CONTEXT_ENV = ("GUARD_WORKSPACE", "HOME", "PWD")


def stamp(path: str, links: Links | None = None) -> object:
    """What changes when the file at `path` does: None for no file, an errno when unreadable.
    With `links`, its look at the path (once per line)."""
    if links is not None:
        return stamp_of(links.stat(path))
    try:
        return stamp_of(os.stat(path))
    except OSError as exc:
        return stamp_of(exc)


def _environ() -> dict[Any, Any]:
    """This process's environment, as cheaply as it can be compared (os.environ's own dict:
    compare it, copy it to keep it)."""
    data = getattr(os.environ, "_data", None)
    return data if isinstance(data, dict) else dict(os.environ)


_LINES = [0]  # lines this process has judged with a LineCache
_FREEZE_AT = frozenset({1, 16, 256})
FREEZE_EVERY = 256  # lines, after the first 256
COLLECT_EVERY = 65_536  # lines
WATCH_AFTER = 16  # lines judged before the kernel is asked to tell of changes (disk_changes.py):
# a process that judges one line or a few does not pay for setting it up
YOUNG_THRESHOLD = 10_000  # the collector's first threshold in a long-lived process (gc)


def _freeze() -> None:
    """After a long-lived process's first lines: what it holds for its whole life (guard's
    modules and those the first lines imported, the knowledge tables, compiled patterns, the
    surroundings) is moved out of the garbage collector's sight, so that its collections walk
    what later lines made, not all of that again each time (gc.freeze, after the 1st, 16th
    and 256th line; collected first, so nothing is kept that is already garbage). The youngest
    generation is collected after `YOUNG_THRESHOLD` new objects instead of 700."""
    import gc

    gc.collect()
    gc.freeze()
    if gc.get_threshold()[0] < YOUNG_THRESHOLD:
        gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])


def _settle(lines: int) -> None:
    """What the caches kept of the last `FREEZE_EVERY` lines is moved out of the collector's
    sight too (gc.freeze moves lists: no walk), before a collection would walk it: a line
    makes no cycles (every collection of new lines found none), so walking what they kept
    only ever found it alive, some 6 µs a line in all (a third in the second generation's
    walks). What a cache lets go of is still freed by its count of references. A cycle
    some rare line did make is freed every `COLLECT_EVERY` lines, when everything is
    walked once (a few tens of milliseconds) and frozen again: what such cycles hold is
    bounded by what that many lines make."""
    import gc

    if lines % COLLECT_EVERY == 0:
        gc.unfreeze()
        _freeze()
    else:
        gc.freeze()


class LineCache:
    """Policies, trust, a store connection and approvals, kept between lines (see above); one
    thread's, as its store connection is."""

    def __init__(self) -> None:
        self.links = Links()
        self.projections = KeptProjections()
        self._policies: dict[tuple[object, ...], tuple[object, Policy]] = {}
        self._digests: dict[str, tuple[object, str | None]] = {}
        self._store: Store | None = None
        self._store_key: tuple[str, object] | None = None
        self._store_path: tuple[tuple[str | None, ...], Path, str] | None = None
        self._contexts: dict[tuple[object, ...], tuple[object, Context]] = {}
        self._approvals: dict[tuple[str, str, int], tuple[tuple[int, bool], ApprovalIndex]] = {}
        self._workspaces: dict[tuple[object, str], str] = {}
        self._verdicts: OrderedDict[tuple[object, ...], tuple[object, object, object, Verdict]] = (
            OrderedDict()
        )
        self._surroundings: dict[
            tuple[object, ...], tuple[Answered, dict[Any, Any], Surroundings, int]
        ] = {}
        self._in_line = self._store_checked = False
        self._lines = 0

    def begin_line(self) -> None:
        """A line's judging starts: from here to `end_line` each path is looked at once, and
        the store is checked once."""
        self._lines += 1
        if self._lines == WATCH_AFTER:
            self.links.watch_disk()
        self.links.begin()
        self._in_line = True
        self._store_checked = False

    def end_line(self) -> None:
        self.links.end()
        self._in_line = self._store_checked = False
        _LINES[0] += 1
        lines = _LINES[0]
        if lines in _FREEZE_AT:
            _freeze()
        elif lines % FREEZE_EVERY == 0:
            _settle(lines)

    # -- surroundings -----------------------------------------------------------------------
    def surroundings(
        self,
        key: tuple[object, ...],
        env: Mapping[str, str],
        build: Callable[[], tuple[Surroundings, bool]],
    ) -> Surroundings:
        """`build()`'s surroundings for a line, kept for `key` and `env` while every question
        its building asked gets the same answer and this process's environment is the same.
        `build` says whether they may be kept (not when a store failed). Call it first in a
        line: the line's looks start with its questions."""
        kept = self._surroundings.get(key)
        if kept is not None:
            answered, environ, value, again = kept
            if (
                (not again or time.time_ns() < again)
                and environ == _environ()
                and value.context.env == env
                and self.links.still(answered)
                and (
                    not value.trust_asked
                    or self.trusted(value.trust_asked) == (value.trusted, value.trust_note)
                )
            ):
                return value
            del self._surroundings[key]
        self.links.record()
        value, keep = build()
        recorded = self.links.recorded()
        if keep and recorded is not None:
            if len(self._surroundings) >= 64:
                self._surroundings.clear()
            # recorded while a directory was too young to stand for its entries: recorded
            # again once it has settled, so that the next lines ask less
            again = time.time_ns() + RACY_NS if self.links.young else 0
            self._surroundings[key] = (recorded, dict(_environ()), value, again)
        return value

    # -- verdicts ---------------------------------------------------------------------------
    def decide(
        self,
        policy: Policy,
        projection: Projection,
        approvals: tuple[()] | ApprovalIndex,
        *,
        home: str,
        agent: bool,
    ) -> Verdict:
        """`decide`, kept for the same policy, projection and approvals (the same objects:
        all three are kept only while nothing they stand for changed). decide is pure."""
        key = (id(policy), id(projection), id(approvals), home, agent)
        kept = self._verdicts.get(key)
        if (
            kept is not None
            and kept[0] is policy
            and kept[1] is projection
            and kept[2] is approvals
        ):
            return kept[3]
        verdict = decide(policy, projection, approvals, home=home, agent=agent)
        if len(self._verdicts) >= 4096:
            self._verdicts.popitem(last=False)  # the oldest
        self._verdicts[key] = (policy, projection, approvals, verdict)
        return verdict

    # -- policy -----------------------------------------------------------------------------
    def policy(
        self, workspace: str | None, *, home: str | None = None, trust_project: bool = True
    ) -> Policy:
        """`load_policy`, kept until one of its files changes (the `policy_loader` of judge).
        Every file load_policy reads must be stamped here: a new layer (a managed policy) adds
        its path to `now`, or an edit to it would go unseen."""
        user = user_policy_path()
        project = os.path.join(workspace, PROJECT_FILE) if workspace else ""
        key = (workspace, home, user, trust_project)
        from guard.policy import managed_policy_path

        links = self.links
        # the machine's file: an edit or a chmod counts too, and a chmod of a directory above
        managed = managed_policy_path(lstat=links.lstat)
        now = (
            stamp(user, links),
            stamp(project, links) if project else None,
            stamp(managed, links),
        )
        above = (
            managed,
            environ_get("GUARD_MANAGED_OWNER"),  # whom it may belong to (tests' root)
            *(links.owners(d) for d in _managed_dirs(managed, links)),
        )
        kept = self._policies.get(key)
        if kept is not None and kept[0] == (*now, above):
            return kept[1]
        policy = load_policy(workspace, home=home, trust_project=trust_project)
        if len(self._policies) > 64:
            self._policies.clear()
        if settled(now):  # else read again on the next line
            self._policies[key] = ((*now, above), policy)
        return policy

    # -- context ---------------------------------------------------------------------------
    def context(
        self,
        cwd: str | None,
        env: Mapping[str, str],
        *,
        workspace: tuple[str, ...] | None = None,
        extra_roots: tuple[str, ...] = (),
        positional: tuple[str, ...] | None = None,
        arg0: str | None = None,
    ) -> Context:
        """`build_context`, kept while every directory from `cwd` up is unchanged (see
        `_dirs_stamp`). The environment is always the one given (not copied: judge copies)."""
        if cwd is None:  # as build_context: $PWD when it is this directory (it keeps links)
            here = os.getcwd()
            pwd = env.get("PWD")
            cwd = pwd if pwd and pwd != here and stamp(pwd) == stamp(here) else here
        real = self.links.real
        roots = tuple(real(r) for r in extra_roots)  # where they lead now
        key = (cwd, workspace, roots, positional, arg0, *(env.get(n) for n in _CONTEXT_ENV))
        # Given the workspace and an absolute directory, build_context reads nothing of the
        # file system but the extra roots' links (in the key); else it looks for a .git above.
        looks = workspace is None or cwd[:1] != "/"
        kept = self._contexts.get(key)
        if kept is not None and (not looks or kept[0] == self._dirs_stamp(kept[1].cwd)):
            return kept[1]._replace(env=env)
        ctx = build_context(
            cwd, env, workspace=workspace, extra_roots=extra_roots, positional=positional, arg0=arg0
        )._replace(resolve=real, expand=self.links.matches)
        if len(self._contexts) > 256:
            self._contexts.clear()
        self._contexts[key] = (self._dirs_stamp(ctx.cwd) if looks else None, ctx)
        return ctx

    # -- trust ------------------------------------------------------------------------------
    def trusted(self, path: str) -> tuple[bool, str]:
        """`guard.verdict.project_trust.is_trusted`, hashing the file only when it changed."""
        from guard.verdict.project_trust import is_trusted

        st = self.links.lstat(path)
        if isinstance(st, FileNotFoundError):
            return True, ""  # nothing there to trust; a missing file loosens nothing
        if isinstance(st, OSError):
            return is_trusted(path)
        if S_ISLNK(st.st_mode):
            return is_trusted(path)  # a link: the plain answer says why it is not trusted
        now = stamp_of(st)
        kept = self._digests.get(path)
        if kept is None or kept[0] != now:
            from guard.verdict.project_trust import digest

            kept = (now, digest(path))
            if settled((now,)):  # else hashed again on the next line
                self._digests[path] = kept
        if kept[1] is None:
            return is_trusted(path)
        from guard.errors import GuardError

        try:
            trusted = self.store().trusted_policy(os.path.realpath(path))
        except GuardError as exc:
            return False, f"{exc} (so {path} may only tighten the policy)"
        if trusted == kept[1]:
            return True, ""
        what = "has changed since it was trusted" if trusted else "is not trusted yet"
        return False, (
            f"guard: {path} {what}: its allow rules and roots are ignored; read it, then "
            f"run `guard policy trust` to use them"
        )

    # -- store ------------------------------------------------------------------------------
    def store(self) -> Store:
        """The open store for this process's `GUARD_STATE_DIR`; raises GuardError."""
        if self._store_checked and self._store is not None:
            return self._store  # checked already in this line
        # what it follows (unset and empty are one to it; not to $HOME)
        names = (environ_get("GUARD_STATE_DIR"), environ_get("XDG_STATE_HOME"),
                 os.environ.get("HOME"))  # fmt: skip
        kept = self._store_path
        if kept is None or kept[0] != names:
            from guard.verdict.store.file import default_store_path

            found = default_store_path()
            kept = self._store_path = (names, found, str(found))
        path = kept[2]
        key = (path, self._identity(path))
        if self._store is None or self._store_key != key:
            from guard.verdict.store.store import Store

            self._close_store()
            self._store = Store.open(kept[1])
            self.links.forget(path)  # it may have been made just now,
            self.links.forget(os.path.dirname(path))  # and its directory tightened
            self._store_key = (path, self._identity(path))
        self._store_checked = self._in_line
        return self._store

    def session_workspace(self, session: str, now: float, decided: str) -> str:
        """`Store.session_workspace` of the open store; raises GuardError. Once a session's
        workspace is kept, the store never changes it, so it is asked once per store file."""
        store = self.store()
        key = (self._store_key, session)
        kept = self._workspaces.get(key)
        if kept is None:
            kept = store.session_workspace(session, now, decided)
            if len(self._workspaces) > 64:
                self._workspaces.clear()
            self._workspaces[key] = kept
        return kept

    def approvals(
        self,
        session: str,
        env: Mapping[str, str],
        now: float,
        home: str,
        *,
        store: Store | None = None,
    ) -> ApprovalIndex:
        """The approvals that count for `session` at `now`, indexed; raises GuardError. From
        `store` when given (a process that holds its own), else from `store()`."""
        store = store if store is not None else self.store()
        idle = idle_seconds(env)
        version, last = store.approvals_state(session)
        state = (version, last is not None and now - last <= idle)
        key = (session, home, id(store))
        kept = self._approvals.get(key)
        if kept is not None and kept[0] == state:
            return kept[1]
        from guard.verdict.approval_index import ApprovalIndex

        index = ApprovalIndex(store.approvals(session, now, idle), home)
        if len(self._approvals) > 16:
            self._approvals.clear()
        self._approvals[key] = (state, index)
        return index

    def close(self) -> None:
        self.links.close()
        self._close_store()

    def _close_store(self) -> None:
        if self._store is not None:
            self._store.close()
        self._store = None
        self._store_key = None
        self._approvals.clear()
        self._workspaces.clear()

    def _identity(self, path: str) -> object:
        """The file's device and inode, or None, and who may change it and its directory
        (looked at once per line): a store a fresh open would refuse is opened again."""
        links = self.links
        return (links.identity(path), links.owners(path), links.owners(os.path.dirname(path)))

    def _dirs_stamp(self, path: str) -> tuple[object, ...]:
        """The stamps of `path` and every directory above it, symlinks followed: a `.git`
        made or removed changes a directory's mtime, a link pointed elsewhere changes what
        it stamps."""
        stamps: list[object] = []
        probe = path
        while True:
            stamps.append(stamp(probe, self.links))
            parent = os.path.dirname(probe)
            if parent == probe:
                return tuple(stamps)
            probe = parent


def _managed_dirs(path: str, links: Links) -> tuple[str, ...]:
    """The directories the managed policy's check looks at (guard/policy/managed.py): a file
    that is there is used only while no user can change them."""
    if not links.exists(path):
        return ()
    from guard.policy import checked_directories

    return checked_directories(path, links.realpath)
