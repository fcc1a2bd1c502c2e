"""What a command reaches, as requests: the paths it reads, writes, runs or enters (outside the
workspace, or protected), and the effects it has.

Every handler records what it finds through these functions, so the rules of a path access (links
resolved before `..`, globs matched now and later, links the line makes, protected paths) live in
one place. Words nobody can know are `walker.dynamic`.
"""

from __future__ import annotations

import re

from guard.knowledge import BUILDERS, METADATA_ONLY, NAMES_ONLY, SYSTEM_BIN_DIRS
from guard.languages import is_local_path
from guard.projection import paths
from guard.projection.patterns import render_argv
from guard.projection.protected import ProtectedPath
from guard.projection.requests import Access, Request
from guard.projection.vital_targets import reached
from guard.projection.walk_records import Arg
from guard.projection.walker import Walker, dynamic


def access(w: Walker, arg: Arg, text: str, mode: Access, via: str) -> None:
    """A path the command would touch: a request when it lies outside the workspace."""
    if not is_local_path(text):
        return
    if text.startswith("/"):
        _access_at(w, arg, text, mode, via)
        return
    for fallback in w.scope.fallback_cwds:  # where the shell is if a `cd` failed
        _access_at(w, arg, _joined(fallback, text), mode, via)
    cwd = w.scope.cwd
    if cwd is None:
        reason = f"{text} is relative to a directory that is not known: {w.scope.cwd_reason}"
        dynamic(w, arg, "path", reason)
        return
    _access_at(w, arg, _joined(cwd, text), mode, via)


def _joined(directory: str, path: str) -> str:
    return f"{directory}/{path}" if directory != "/" else f"/{path}"


def _access_at(w: Walker, arg: Arg, raw: str, mode: Access, via: str) -> None:
    path = paths.normalise(raw)
    if paths.is_plumbing(path):
        return
    if mode == "execute" and paths.normalise(path.rsplit("/", 1)[0] or "/") in SYSTEM_BIN_DIRS:
        return  # the system's own programs (su -s /bin/bash, git --exec-path=/usr/lib/git-core)
    if mode == "execute" and path in SYSTEM_BIN_DIRS:
        return
    # symlinks resolve before `..`, as the kernel does (`link/../x` is next to link's target);
    # a path through a link made earlier in this line is not known
    made = w.scope.made_links
    if made:
        lexical = "/" + "/".join(p for p in raw.split("/") if p not in ("", "."))
        if any(
            form == link or form.startswith(link + "/") for link in made for form in (lexical, path)
        ):
            dynamic(w, arg, "path", f"{raw} goes through a link this line makes")
            return
    if mode == "write" and via not in METADATA_ONLY and via not in BUILDERS:
        count = w.scope.written.get(path, (0, None))[0]
        w.scope.written[path] = (count + 1, None)  # what it holds now: not known (yet)
    elif mode == "execute" and path in w.scope.written:
        _written_code(w, arg, raw, path, via)
    # resolvers return normal paths; only `..` read before links needs normalising again
    resolved = _resolved(w, arg, raw) if ".." in raw else _resolved(w, arg, path, normal=True)
    if arg.glob:  # what the pattern matches now: a match may be a link that leads out
        for match in w.ctx.expand(path):
            found = paths.normalise(match)
            if not paths.inside_any(found, w.ctx.workspace) and not paths.is_plumbing(found):
                resolved = found
                break
    if mode == "write" or w.destroys:
        reached(w, arg, path, resolved, mode, via)
    if w.ctx.protected is not None:
        _protected(w, arg, raw, path, resolved, mode, via)
    if paths.inside_any(resolved, w.ctx.workspace) or (
        resolved != path and paths.is_plumbing(resolved)
    ):
        if arg.glob and ".." not in raw and _skipdots_off(w) and _glob_may_climb(path):
            resolved = _resolved(w, arg, _climbing(path))
            if paths.inside_any(resolved, w.ctx.workspace):
                return
        else:
            return
    shown = paths.display(resolved, w.ctx.home)
    w.out.append(
        Request(
            "external_directory",
            arg.span,
            f"{mode} {shown} ({via}) is outside the workspace",
            path=resolved,
            access=mode,
            via=via,
        )
    )


_SHELL_SHEBANG = re.compile(r"#!\s*(?:\S*/)?(?:env\s+(?:-\S+\s+)*)?(?:ba|da|k|z|mk|a)?sh\b")


def written_path(w: Walker, text: str) -> str | None:
    """The key `text` has in the line's table of written files: its normal absolute path."""
    if text.startswith("/"):
        return paths.normalise(text)
    cwd = w.scope.cwd
    return None if cwd is None else paths.normalise(_joined(cwd, text))


def wrote_text(w: Walker, text: str, content: str) -> None:
    """The file `text` holds `content` now, when this line wrote it once and knows what with
    (`echo … > f`, `cat > f <<EOF`): a later run of it reads that code."""
    key = written_path(w, text)
    if key is not None and w.scope.written.get(key, (0, None))[0] == 1:
        w.scope.written[key] = (1, content)


def written_code(w: Walker, path: str) -> tuple[bool, str | None]:
    """Whether the line wrote `path` (a normal absolute path) before now, and what it holds
    when that is known."""
    found = w.scope.written.get(path)
    return (False, None) if found is None else (True, found[1])


def _written_code(w: Walker, arg: Arg, raw: str, path: str, via: str) -> None:
    """A file this line wrote is run (`bash x.sh`, `source x.sh`, `./x.sh`): its code is what
    the line put there, read as the shell code it is; what else is not known, and asks."""
    from guard.knowledge import is_shell
    from guard.projection.walker import run_code

    content = w.scope.written[path][1]
    shell = True  # a shell's script, sourced, or run by its name with no #! (sh runs it then)
    if not is_shell(via) and via not in ("source", ".") and (content or "").startswith("#!"):
        shell = _SHELL_SHEBANG.match(content or "") is not None  # its #! says what runs it
    name = paths.display(path, w.ctx.home)
    if content is None or not shell:
        why = "what it holds is not known" if content is None else "its language is not read"
        dynamic(w, arg, "code", f"{via} runs {name}, which this line writes: {why}")
        return
    run_code(
        w,
        content,
        arg._replace(value=content, reason=""),
        0,
        new_process=via not in ("source", "."),
        via=f"{name}, which this line writes",
    )


def _protected(
    w: Walker, arg: Arg, raw: str, path: str, resolved: str, mode: Access, via: str
) -> None:
    """A `protected` request when the access reaches a protected path: as written, after
    symlinks, through what a glob matches now, or through what it could match later. Running
    a file reads it (`source .env`, `bash .env`): a secret run is a secret read."""
    hit, where = _protected_hit(w, arg, path, resolved, mode)
    how = via
    if hit is None and mode == "execute":
        hit, where = _protected_hit(w, arg, path, resolved, "read")
        if hit is None or not hit.agent_only:
            return
        mode, how = "read", f"{via}, to run it"
    if hit is None or (hit.agent_only and via in NAMES_ONLY):
        return  # `ls .env`, `test -f key.pem`: naming a secret reads nothing of it
    shown = paths.display(where, w.ctx.home)
    w.out.append(
        Request(
            "protected",
            arg.span,
            f"{mode} {shown} ({how}) is a protected path ({hit.pattern})",
            path=where,
            access=mode,
            via=via,
        )
    )


def _protected_hit(
    w: Walker, arg: Arg, path: str, resolved: str, mode: Access
) -> tuple[ProtectedPath | None, str]:
    """The protected entry `mode` access to the path reaches, and where it reaches it."""
    assert w.ctx.protected is not None
    match = w.ctx.protected.match
    hit = match(resolved, mode) or (match(path, mode) if path != resolved else None)
    where = resolved if hit is not None and match(resolved, mode) else path
    if hit is None and arg.glob:
        for found in w.ctx.expand(path):
            hit = match(paths.normalise(found), mode)
            if hit is not None:
                return hit, paths.normalise(found)
        return w.ctx.protected.may_match(path, mode), path
    return hit, where




def _resolved(w: Walker, arg: Arg, raw: str, *, normal: bool = False) -> str:
    """`raw` with its existing links resolved (resolvers return normal paths: only `..` read
    before links needs normalising again); a path guard may not look through
    (`/proc/1/root/…`) stays as written, and where it leads is not known."""
    try:
        return w.ctx.resolve(raw) if normal else paths.normalise(w.ctx.resolve(raw))
    except (OSError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else type(exc).__name__
        dynamic(w, arg, "path", f"guard cannot follow the links of {raw}: {why}")
        return paths.normalise(raw)


def _skipdots_off(w: Walker) -> bool:
    """Whether the line turned `globskipdots` off. With it on (bash 5.2's default; zsh never
    matches them) no glob matches `.` or `..`: `ls -d */`, `du -s .[^.]* *` stay inside."""
    return any(r.reason == SHOPT_REASON for r in w.out)


SHOPT_REASON = "this shell option changes where cd goes or what globs match"


def _glob_may_climb(path: str) -> bool:
    """A glob component that can match `..` once `globskipdots` is off (`.[.]`, `.?`): one
    starting with a literal dot (bash's dot rule; `[^…]` negates as `[!…]` does)."""
    import fnmatch

    return any(
        part[:1] == "." and any(c in part for c in "*?[") and fnmatch.fnmatchcase("..", part)
        for part in path.replace("[^", "[!").split("/")
    )


def _climbing(path: str) -> str:
    import fnmatch

    return "/".join(
        ".." if any(c in part for c in "*?[") and fnmatch.fnmatchcase("..", part) else part
        for part in path.split("/")
    )


def add_effect(
    w: Walker, span: tuple[int, int], kind: str, target: str, reason: str, argv: tuple[str, ...]
) -> Request:
    where = w.fixed_span or span
    text = render_argv(argv)
    request = Request("effect", where, reason, argv=argv, text=text, kind=kind, target=target)
    w.out.append(request)
    return request
