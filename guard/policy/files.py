"""Policy files: read and layer the shipped default, the user's and the project's file.

Loading never raises and never loosens on error: every problem found (bad TOML, unknown keys,
an unreadable file) is kept in `Policy.problems`, and `decide` turns what would have been
allowed into `ask` while there are any. The format is described in docs/policy.md; the
records are in guard/policy/rules.py, one file's parsing in guard/policy/parse.py.
"""

from __future__ import annotations

import os

from guard.policy.parse import parse_policy
from guard.policy.policy_settings import combine_settings
from guard.policy.rules import (
    DEFAULT_SOURCE,
    PROJECT_FILE,
    SECRET_ACCESS,
    EnforceSettings,
    Kind,
    Policy,
    PolicyFile,
    Rule,
)
from guard.policy.toml_problems import quote
from guard.projection import SURFACES, Decision, ProtectedPath, Surface


def load_policy(
    workspace: str | None = None,
    *,
    home: str | None = None,
    user_file: str | None = None,
    trust_project: bool = True,
) -> Policy:
    """The shipped default, the managed file, the user's file, then `<workspace>/.guard.toml`.

    With `trust_project=False` the project file may only tighten: its allow rules, allow
    defaults and extra roots are left out and listed in `Policy.ignored`."""
    home = home if home is not None else os.path.expanduser("~")
    from guard.policy.managed import read_managed_layer
    from guard.policy.shipped_policy import default_layer

    layers = [default_layer()]
    managed = read_managed_layer(home)
    if managed is not None:
        layers.append(managed)
    user = read_policy_file(user_file or user_policy_path(), kind="user", workspace=None, home=home)
    if user is not None:
        layers.append(user)
    ignored: tuple[str, ...] = ()
    if workspace:
        path = os.path.join(workspace, PROJECT_FILE)
        project = read_policy_file(path, kind="project", workspace=workspace, home=home)
        if project is not None and not trust_project:
            project, ignored = _tighten_only(project)
            if project.enforce is not None:  # [enforce] may only tighten too
                from guard.policy.enforce_policy import combine_enforce, tighten_enforce

                below = combine_enforce([la.enforce for la in layers if la.enforce]).mode
                kept, dropped = tighten_enforce(project.enforce, below)
                project = project._replace(enforce=kept)
                if dropped:
                    ignored += (f"{project.source}: {dropped} ignored: the project is not trusted",)
        if project is not None:
            layers.append(project)
    return combine(layers, ignored=ignored)


def user_policy_path() -> str:
    """`GUARD_CONFIG`, else `policy.toml` in the platform's user config dir for guard."""
    given = os.environ.get("GUARD_CONFIG")
    if given:
        return given
    from guard.dirs import user_config_dir

    return os.path.join(user_config_dir(), "policy.toml")


def read_policy_file(
    path: str, *, kind: Kind, workspace: str | None, home: str, source: str | None = None
) -> PolicyFile | None:
    """One file, parsed; None when it does not exist (a missing file is no problem)."""
    source = source if source is not None else display_path(path, home)
    try:
        with open(path, "rb") as handle:
            data = handle.read()
        text = data.decode("utf-8")
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        problem = f"{source}: is a directory, not a policy file; remove it or point to a file"
        return PolicyFile(source, problems=(problem,), kind=kind)
    except OSError as error:
        problem = f"{source}: cannot read ({error.strerror}); fix its permissions or remove it"
        return PolicyFile(source, problems=(problem,), kind=kind)
    except UnicodeDecodeError:
        problem = f"{source}: not UTF-8 text; save it as UTF-8"
        return PolicyFile(source, problems=(problem,), kind=kind)
    return parse_policy(text, source=source, kind=kind, workspace=workspace, home=home)


def check_policy_file(
    path: str, *, project: bool | None = None, home: str | None = None
) -> list[str]:
    """One `file:line: what is wrong, what to write instead` message per problem in `path`.

    A file named `.guard.toml` is checked as a project file (relative paths allowed)."""
    project = os.path.basename(path) == PROJECT_FILE if project is None else project
    workspace = os.path.dirname(os.path.abspath(path)) if project else None
    home = home if home is not None else os.path.expanduser("~")
    kind: Kind = "project" if project else "user"
    layer = read_policy_file(path, kind=kind, workspace=workspace, home=home, source=path)
    if layer is None:
        return [f"{path}: no such file; check the path"]
    return list(layer.problems)


def combine(layers: list[PolicyFile], *, ignored: tuple[str, ...] = ()) -> Policy:
    """Layer files lowest first: rules concatenate, the last `[defaults]` per surface wins.
    A surface no file sets asks."""
    kinds = [layer.kind or ("default" if layer.source == DEFAULT_SOURCE else "user")
             for layer in layers]
    layered = combine_settings(
        [(kind, layer.source, layer.settings) for kind, layer in zip(kinds, layers, strict=True)]
    )
    managed = [layer for kind, layer in zip(kinds, layers, strict=True) if kind == "managed"]
    defaults: dict[Surface, Decision] = dict.fromkeys(SURFACES, "ask")
    sources: dict[Surface, str] = dict.fromkeys(SURFACES, "guard (no file sets it)")
    roots: dict[str, str] = {}
    for layer in layers:
        for surface, action, line in layer.defaults:
            defaults[surface], sources[surface] = action, f"{layer.source}:{line}"
        for root, line in layer.roots:
            roots.setdefault(root, f"{layer.source}:{line}")
    return Policy(
        rules=tuple(rule for layer in layers for rule in layer.rules),
        defaults=defaults,
        default_sources=sources,
        roots=tuple(roots),
        root_sources=tuple(roots.values()),
        problems=tuple(problem for layer in layers for problem in layer.problems),
        files=tuple(layer.source for layer in layers),
        ignored=ignored + layered.overridden,
        protected=tuple(
            ProtectedPath(pattern, access, f"{layer.source}:{line}", access == SECRET_ACCESS)
            for layer in layers
            for pattern, access, line in layer.protected
        ),
        managed_rules=tuple(rule for layer in managed for rule in _managed_rules(layer)),
        settings=layered.settings,
        fixed=layered.fixed,
        kinds=tuple(kinds),
        enforce=_combine_enforce(layers),
    )


def _managed_rules(layer: PolicyFile) -> tuple[Rule, ...]:
    """The managed layer's rules, and an ask rule for each protected path it adds: like its
    own ask rules, no lower layer's rule or approval may relax them."""
    if not layer.protected:
        return layer.rules
    from guard.projection import covered_pattern

    added = tuple(
        Rule("protected", covered_pattern(pattern), "ask", access,
             reason="protected by the machine's managed policy", source=layer.source, line=line,
             session="agent" if access == SECRET_ACCESS else "")
        for pattern, access, line in layer.protected
        if not pattern.startswith("!")
    )
    return layer.rules + added
def _combine_enforce(layers: list[PolicyFile]) -> EnforceSettings:
    if not any(layer.enforce for layer in layers):
        return EnforceSettings()
    from guard.policy.enforce_policy import combine_enforce

    return combine_enforce([layer.enforce for layer in layers if layer.enforce])


def _tighten_only(layer: PolicyFile) -> tuple[PolicyFile, tuple[str, ...]]:
    src = layer.source
    dropped = [f"{src}:{r.line}: allow rule" for r in layer.rules if r.action == "allow"]
    dropped += [f"{src}:{line}: {s} = allow" for s, a, line in layer.defaults if a == "allow"]
    dropped += [f"{src}:{line}: workspace root {root}" for root, line in layer.roots]
    kept = PolicyFile(
        src,
        rules=tuple(r for r in layer.rules if r.action != "allow"),
        defaults=tuple(d for d in layer.defaults if d[1] != "allow"),
        problems=layer.problems,
        protected=layer.protected,  # more protected paths only tighten
        settings=layer.settings,
        kind=layer.kind,
        enforce=layer.enforce,
    )
    return kept, tuple(f"{d} ignored: the project file is not trusted" for d in dropped)


def display_path(path: str, home: str) -> str:
    """`path` with the home directory written as `~`."""
    home = home.rstrip("/")
    if home and (path == home or path.startswith(home + "/")):
        return "~" + path[len(home) :]
    return path


def render_policy(policy: Policy) -> str:
    """The effective policy as text for `guard policy show`: where each part came from."""
    kinds = dict(zip(policy.files, policy.kinds, strict=False))
    out = ["files read, lowest first:"]
    out += [f"  [{kinds.get(f, 'user')}] {f}" for f in policy.files]
    out.append("defaults:")
    for surface in SURFACES:
        action, source = policy.defaults[surface], policy.default_sources[surface]
        out.append(f"  {surface:<20} {action:<6} {source}")
    if policy.roots:
        out.append("extra workspace roots:")
        out += [f"  {r}  ({s})" for r, s in zip(policy.roots, policy.root_sources, strict=True)]
    if policy.protected:
        out.append("protected paths (any access unless marked):")
        for entry in policy.protected:
            only = f" [{', '.join(entry.access)}]" if entry.access else ""
            if entry.agent_only:
                excepted = entry.pattern.startswith("!")
                only = " [secrets: not a secret]" if excepted else " [secrets: agents' reads]"
            layer = kinds.get(entry.source.rpartition(":")[0], "user")
            final = "[managed final] " if layer == "managed" else ""
            out.append(f"  {entry.pattern}{only}  ({final}{entry.source})")
    if policy.enforce != EnforceSettings():
        e = policy.enforce
        where = f"  ({e.mode_source})" if e.mode else ""
        out.append(f"enforce: mode {e.mode or 'default (on for agents, off for people)'}{where}")
        out += [f"  write {p}" for p in e.write] + [f"  read  {p}" for p in e.read]
    out.append("rules (within a surface the last matching rule wins):")
    for surface in SURFACES:
        rules = [rule for rule in policy.rules if rule.surface == surface]
        if rules:
            out.append(f"  {surface}:")
        for rule in rules:
            only = ", ".join(rule.access + rule.role + ((rule.session,) if rule.session else ()))
            extra = (f" [{only}]" if only else "") + (f" — {rule.reason}" if rule.reason else "")
            layer = kinds.get(rule.source, "user")
            final = " final" if layer == "managed" and rule.action != "allow" else ""
            where = f"[{layer}{final}] {rule.source}:{rule.line}"
            out.append(f"    {rule.action:<6} {rule.pattern}{extra}  ({where})")
    out += render_settings(policy)
    for title, items in (("ignored", policy.ignored), ("problems", policy.problems)):
        if items:
            out += [f"{title}:", *(f"  {item}" for item in items)]
    if policy.problems:
        out.append("  while there are problems, everything that would be allowed asks instead")
    from guard.printable import escaped  # a policy file may hold any text: show it safely

    return "\n".join(map(escaped, out)) + "\n"


def render_settings(policy: Policy) -> list[str]:
    """The settings in effect, each with its file and whether the managed layer fixed it."""
    if not policy.settings:
        return []
    out = ["settings:"]
    for key, value, where in policy.settings:
        if isinstance(value, tuple):
            shown = "[" + ", ".join(quote(v) for v in value) + "]"
        else:
            shown = quote(value) if isinstance(value, str) else str(value).lower()
        fixed = " [managed, fixed]" if key in policy.fixed else ""
        out.append(f"  {key} = {shown}  ({where}){fixed}")
    return out
