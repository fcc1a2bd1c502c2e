"""The layout: one subpackage per stage, imports pointing only down the pipeline, no circles.

Every `import guard.…` and `from guard… import …` in guard/ is read with `ast`, those inside
functions and under TYPE_CHECKING too: a circle that only closes late is still a circle for a
reader. A module may import its own stage and the stages before it; the base modules at the
package's top (`guard.errors`, `guard.dirs`, `guard.printable`) come before everything.
docs/architecture.md says what each stage holds.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "guard"
# earliest first: a stage may import itself and the stages before it
STAGES = (
    "base",
    "knowledge",
    "languages",
    "projection",
    "policy",
    "approvals",
    "verdict",
    "asking",
    "kernel",
    "entry",
    "cli",
)
BASE = frozenset({"guard", "guard.errors", "guard.dirs", "guard.printable"})
LIMIT = 80  # lines of one function or method


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = _modules()


def _imports(path: Path) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{a.name}" for a in node.names] or [node.module]
        for name in names:
            while name and name not in MODULES:
                name = name.rpartition(".")[0]
            if name.startswith("guard"):
                out.add(name)
    return out


GRAPH = {m: _imports(p) - {m} for m, p in MODULES.items()}


def stage(module: str) -> str:
    if module in BASE or module == "guard.__main__":
        return "base" if module in BASE else "cli"
    head = module.split(".")[1]
    where = ",".join(STAGES[1:])
    assert head in STAGES, f"{module} is in no stage: move it into guard/{{{where}}}/"
    return head


def test_every_module_belongs_to_a_stage() -> None:
    for module in MODULES:
        stage(module)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_point_down_the_pipeline(module: str) -> None:
    mine = STAGES.index(stage(module))
    later = sorted(t for t in GRAPH[module] if STAGES.index(stage(t)) > mine)
    assert not later, f"{module} ({stage(module)}) imports a later stage: {later}"


# guard/entry/: one subpackage per product; only what every product shares sits at its top
ENTRY_PRODUCTS = frozenset({"shim", "shell_hooks", "resident", "agents"})
ENTRY_SHARED = frozenset({"check", "judgement_json"})


def test_entry_is_one_subpackage_per_product() -> None:
    stray = sorted(
        m
        for m in MODULES
        if m.startswith("guard.entry.") and m.split(".")[2] not in ENTRY_PRODUCTS | ENTRY_SHARED
    )
    assert not stray, (
        f"put {stray} into its product's guard/entry/<product>/ ({sorted(ENTRY_PRODUCTS)})"
    )


# the one place a line is judged: every entry point goes through it (guard/entry/check.py)
ONE_JUDGE = ("guard.entry.check", "decide_line")


def _judge_calls(module: str, path: Path) -> list[tuple[str, str, int]]:
    """Where `module` calls `judge` (by that name, an alias of it, or as an attribute), or
    imports it: (module, the function it is in, line)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {"judge"}
    found: list[tuple[str, str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("guard.verdict"):
            for alias in node.names:
                if alias.name == "judge":
                    names.add(alias.asname or alias.name)

    def visit(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            inside = where
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inside = child.name
            if isinstance(child, ast.Call):
                func = child.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                if name in names:
                    found.append((module, where, child.lineno))
            visit(child, inside)

    visit(tree, "<module>")
    return found


def test_one_function_judges_a_line() -> None:
    """`judge` (guard/verdict/judgement.py) is called from `decide_line` alone: a new entry
    point that judged a line itself would skip what every edge does alike."""
    calls = [c for m, p in MODULES.items() if m != "guard.verdict.judgement"
             for c in _judge_calls(m, p)]  # fmt: skip
    stray = [f"{m}:{line} (in {where})" for m, where, line in calls if (m, where) != ONE_JUDGE]
    assert not stray, (
        f"judge() is called at {stray}: have the line judged through "
        "guard.entry.check.decide_line(LineRequest(...)), the one path every entry point takes"
    )
    assert [(m, where) for m, where, _ in calls] == [ONE_JUDGE]


def test_the_judge_check_sees_another_caller(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        "from guard.verdict.judgement import judge as j\n"
        "def f() -> None:\n    j('ls')\n",
        encoding="utf-8",
    )
    assert _judge_calls("m", tmp_path / "m.py") == [("m", "f", 3)]


def test_asking_only_renders_what_an_ask_offers() -> None:
    """What an ask offers is built in guard/verdict/offers.py; asking renders it and never
    reaches back into the approvals stage (guard/approvals/arity.py) itself."""
    reaching = sorted(
        m
        for m in MODULES
        if m.startswith("guard.asking") and any(t.startswith("guard.approvals") for t in GRAPH[m])
    )
    assert not reaching, f"{reaching} import guard.approvals: use guard.verdict.offers"


def _circle() -> list[str] | None:
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(GRAPH[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for module in sorted(GRAPH):
        if module not in state and (found := visit(module)):
            return found
    return None


def test_no_import_circles() -> None:
    circle = _circle()
    assert circle is None, "import circle: " + " -> ".join(circle or ())


def test_the_circle_check_finds_a_circle() -> None:
    """The check itself: a graph with a circle in it is caught."""
    saved = dict(GRAPH)
    try:
        GRAPH["guard.errors"] = GRAPH["guard.errors"] | {"guard.projection.requests"}
        GRAPH["guard.projection.requests"] = GRAPH["guard.projection.requests"] | {"guard.errors"}
        assert _circle() is not None
    finally:
        GRAPH.clear()
        GRAPH.update(saved)


def _long_functions(path: Path) -> list[tuple[str, int]]:
    """Functions and methods (nested ones counted inside their parent too) over the cap."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            if lines > LIMIT:
                out.append((node.name, lines))
    return out


@pytest.mark.parametrize("module", sorted(MODULES))
def test_functions_fit_in_a_readers_head(module: str) -> None:
    """A function cap, not a module cap: a module is as long as what it holds needs."""
    path = MODULES[module]
    long = _long_functions(path)
    assert not long, f"{path.relative_to(ROOT.parent)}: {long} over {LIMIT} lines; split them"


def test_the_function_cap_sees_a_long_function(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(LIMIT + 1))
    (tmp_path / "m.py").write_text(f"def f() -> None:\n{body}\n", encoding="utf-8")
    assert _long_functions(tmp_path / "m.py") == [("f", LIMIT + 2)]


def test_every_folder_of_modules_is_a_package_an_install_ships() -> None:
    """pyproject finds packages (`guard`, `guard.*`): a folder of modules without __init__.py
    would run from a checkout and be missing from an installed guard."""
    folders = {p.parent for p in ROOT.rglob("*.py") if "__pycache__" not in p.parts}
    missing = sorted(
        str(f.relative_to(ROOT.parent)) for f in folders if not (f / "__init__.py").exists()
    )
    assert not missing, f"add an __init__.py (a docstring saying what it holds) to {missing}"
