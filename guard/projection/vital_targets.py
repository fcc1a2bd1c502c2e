"""What a destroying command reaches that cannot be lost: `/`, a top-level system directory,
a home directory, a disk. Each such target is one more `effect` request, `destroy:system`,
`destroy:home` or `destroy:disk`, which the shipped policy denies.

Read from the projection itself, not from the line's text: the accesses module calls `reached`
for every path a command touches (after variables, quoting, `~`, `cd`, links and globs are
resolved, inside a `-c` string, behind `sudo`, `env` or `xargs` too), and the effects module
has said which commands destroy what they touch (`w.destroys`: `rm -r`, `find -delete`, `chmod
-R`, `chown -R`, `rsync --delete`, `shred`, `dd of=`, `mkfs` …). Writing a disk raw destroys it
whoever writes (`cat img > /dev/sda`, `tee /dev/nvme0n1`). The tables are
guard/knowledge/vital_paths.py.
"""

from __future__ import annotations

from guard.knowledge import DISK, EVERY_NAME, HOME_PARENTS, SYSTEM_DIRS
from guard.projection import paths
from guard.projection.patterns import render_argv
from guard.projection.requests import Access, Request
from guard.projection.walk_records import Arg
from guard.projection.walker import Walker

# the effect targets a command's own paths are what it destroys (not `files@host`, `aws` …)
LOCAL_TARGETS = frozenset({"files", "file-modes", "file-owners", "device"})
_MATCHES = 64  # a glob's current matches looked at


def vital(path: str, home: str) -> tuple[str, str] | None:
    """`(target, what)` when `path` (absolute, normal) is one that cannot be lost."""
    if DISK.fullmatch(path):
        return "disk", f"the disk {path}"
    if home and home != "/" and path != "/" and paths.inside(home, path):
        if path == home:
            return "home", "your home directory"
        return "home", f"{path}, which holds your home directory"
    if path in SYSTEM_DIRS:
        if path == "/":
            return "system", "/, the whole file system"
        return "system", f"{path}, a top-level system directory"
    if path.rpartition("/")[0] in HOME_PARENTS:
        return "home", f"{path}, a home directory"
    return None


def vital_glob(w: Walker, pattern: str, home: str) -> tuple[str, str] | None:
    """A glob that matches a vital path now, or every name in a vital directory (`~/*`)."""
    directory, _, last = pattern.rpartition("/")
    if EVERY_NAME.fullmatch(last):
        hit = vital(directory or "/", home)
        if hit is not None:
            return hit[0], f"everything in {hit[1]}"
    for match in w.ctx.expand(pattern)[:_MATCHES]:
        hit = vital(paths.normalise(match), home)
        if hit is not None:
            return hit
    return None


def reached(w: Walker, arg: Arg, path: str, resolved: str, mode: Access, via: str) -> None:
    """One path a command touches: a `destroy:…` effect when it destroys a vital one."""
    effect = w.destroys.get(via)
    device = effect is not None and effect.target == "device"
    if mode != "write" and not (device and mode == "read"):
        return  # `dd if=/dev/sda of=x` reads the disk; `wipefs /dev/sda` names it as an operand
    home = w.ctx.home
    hit = vital(resolved, home) or (vital(path, home) if path != resolved else None)
    if hit is None and arg.glob:
        hit = vital_glob(w, path, home)
    if hit is None:
        return
    target, what = hit
    if effect is None and target != "disk":
        return  # writing into ~ or /etc (`cp x ~/`, `touch /etc/x`) destroys nothing of it
    seen = (effect.span if effect is not None else arg.span, target)
    if seen in w.vital_seen:
        return
    w.vital_seen.add(seen)
    if effect is not None:
        reason = f"{effect.reason}: reaches {what}"
        argv, text, span = effect.argv, effect.text, effect.span
    else:
        reason = f"writes {what} raw: what it held is gone"
        shown = f"> {arg.shown}" if via == "redirect" else render_argv((via, arg.shown))
        argv, text, span = (via,), shown, arg.span
    where = w.fixed_span or span
    w.out.append(
        Request("effect", where, reason, argv=argv, text=text, kind="destroy", target=target)
    )
