"""The layout: one subpackage per stage, imports pointing only down the pipeline, no circles.

Every `import guard.…` and `from guard… import …` in guard/ is read with `ast`, those inside
functions and under TYPE_CHECKING too: a circle that only closes late is still a circle for a
reader. A module may import its own stage and the stages before it; the base modules at the
package's top (`guard.errors`, `guard.dirs`, `guard.printable`) come before everything. A
stage's `__init__` lists what it offers (`__all__`); the stages after it import only those names.
docs/architecture.md says what each stage holds; its lists of modules are generated from here.
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
BASE = frozenset({"guard", "guard.errors", "guard.dirs", "guard.printable", "guard.stage_front"})
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


# Each stage says what it offers: its __init__ lists the public names (`__all__`), each with the
# module it lives in, and the stages after it import those names from the stage, never from its
# modules, so a module can move inside its stage without touching its importers.
OFFERING = tuple(s for s in STAGES if s not in ("base", "cli"))


def _stage_package(module: str) -> str:
    return "guard" if stage(module) == "base" else f"guard.{stage(module)}"


def _reached_past_the_front(path: Path, me: str) -> list[str]:
    """`from guard.<stage>.<module> import …` (or `import guard.<stage>.<module>`) in `path`
    for a stage other than `me`'s: what should come from `guard.<stage>` itself."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            targets = [node.module]
        elif isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        else:
            continue
        for target in targets:
            parts = target.split(".")
            if parts[0] != "guard" or len(parts) < 3 or parts[1] not in OFFERING:
                continue
            if parts[1] != me:
                out.append(f"line {node.lineno}: {target}")
    return out


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_across_stages_go_through_the_stage(module: str) -> None:
    path = MODULES[module]
    if path.name == "__init__.py" and module.count(".") == 1:
        return  # a stage's front names where each of its names lives
    wrong = _reached_past_the_front(path, stage(module))
    assert not wrong, (
        f"{path.relative_to(ROOT.parent)} reaches into another stage: {wrong}; import the name "
        "from the stage (`from guard.<stage> import name`) and list it in that stage's "
        "__init__ (_WHERE, the TYPE_CHECKING block)"
    )


def test_the_front_check_sees_a_reach_past_it(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        "from guard.verdict import judge\nfrom guard.verdict.judgement import Judgement\n",
        encoding="utf-8",
    )
    assert _reached_past_the_front(tmp_path / "m.py", "entry") == [
        "line 2: guard.verdict.judgement"
    ]
    assert _reached_past_the_front(tmp_path / "m.py", "verdict") == []


def _front(stage_name: str) -> tuple[dict[str, str], dict[str, str], frozenset[str]]:
    """A stage's __init__: its `_WHERE`, the TYPE_CHECKING imports (name → module) and
    `_MODULES`, read with ast."""
    tree = ast.parse(MODULES[f"guard.{stage_name}"].read_text(encoding="utf-8"))
    where: dict[str, str] = {}
    typed: dict[str, str] = {}
    modules: frozenset[str] = frozenset()
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
        if isinstance(target, ast.Name) and target.id == "_WHERE":
            where = ast.literal_eval(node.value)  # type: ignore[union-attr, arg-type]
        if isinstance(target, ast.Name) and target.id == "_MODULES":
            call = node.value
            assert isinstance(call, ast.Call)
            modules = frozenset(ast.literal_eval(call.args[0])) if call.args else frozenset()
        if isinstance(node, ast.If):  # if TYPE_CHECKING:
            for inner in node.body:
                if isinstance(inner, ast.ImportFrom) and inner.module:
                    for a in inner.names:
                        is_module = f"{inner.module}.{a.name}" in MODULES
                        typed[a.asname or a.name] = (
                            f"{inner.module}.{a.name}" if is_module else inner.module
                        )
    return where, typed, modules


@pytest.mark.parametrize("stage_name", OFFERING)
def test_each_stage_lists_what_it_offers(stage_name: str) -> None:
    import importlib

    where, typed, modules = _front(stage_name)
    package = importlib.import_module(f"guard.{stage_name}")
    assert package.__all__ == sorted(where), "__all__ is sorted(_WHERE)"
    assert typed == where, (
        f"guard/{stage_name}/__init__.py: the TYPE_CHECKING imports (what mypy reads) and "
        "_WHERE (what an import gets) must name the same places"
    )
    for name, module in where.items():
        assert name in modules or f"guard.{stage_name}.{name}" not in MODULES, (
            f"guard.{stage_name}.{name} is a module too: once imported it would hide the name "
            f"{name}; rename the module"
        )
        assert (name in modules) == (module in MODULES and module.endswith(f".{name}")), name
        found = getattr(package, name)
        if name in modules:
            assert found is importlib.import_module(module)
        else:
            assert found is getattr(importlib.import_module(module), name), name


@pytest.mark.parametrize("stage_name", OFFERING)
def test_a_stage_offers_only_what_later_stages_use(stage_name: str) -> None:
    """No dead fronts: every name a stage lists is imported from it somewhere after it."""
    used: set[str] = set()
    for module, path in MODULES.items():
        if stage(module) == stage_name:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == f"guard.{stage_name}":
                used.update(a.name for a in node.names)
    unused = sorted(set(_front(stage_name)[0]) - used)
    assert not unused, f"guard/{stage_name}/__init__.py offers {unused}, which nothing imports"


# docs/architecture.md's lists of modules are made from this graph, so they cannot drift: run
# `python tests/architecture_test.py --write` after adding, moving or renaming a module.
DOC = ROOT.parent / "docs" / "architecture.md"
BEGIN = "<!-- modules: generated by `python tests/architecture_test.py --write` -->"
END = "<!-- end of generated modules -->"


def _summary(path: Path) -> str:
    """A module's docstring, its first sentence, on one line."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    first = " ".join(doc.split("\n\n", 1)[0].split())
    cut = first.find(". ")
    return (first[: cut + 1] if cut > 0 else first).replace("|", "\\|")


def _in_import_order(modules: list[str]) -> list[list[str]]:
    """`modules` (one stage's, without its front) in layers: each imports only modules of
    earlier layers."""
    left, layers = set(modules), []
    while left:
        layer = sorted(m for m in left if not GRAPH[m] & left)
        assert layer, f"a circle among {sorted(left)}"
        layers.append(layer)
        left -= set(layer)
    return layers


def module_lists() -> str:
    """The generated part of docs/architecture.md: per stage, what it offers and its modules in
    import order (a module imports only the rows above it), each with its docstring's first
    sentence."""
    out = [BEGIN, ""]
    for name in STAGES:
        members = sorted(m for m in MODULES if stage(m) == name)
        where = "guard/" if name == "base" else f"guard/{name}/"
        out += [f"### `{where}`", ""]
        if name in OFFERING:
            offers = ", ".join(f"`{n}`" for n in sorted(_front(name)[0]))
            out += [f"Offers the stages after it: {offers}.", ""]
        out += ["| layer | module | holds |", "|---|---|---|"]
        front = "guard" if name == "base" else f"guard.{name}"
        path = MODULES[front].relative_to(ROOT.parent)
        out.append(f"| front | `{path}` | {_summary(MODULES[front])} |")
        members.remove(front)
        for depth, layer in enumerate(_in_import_order(members), start=1):
            for module in layer:
                path = MODULES[module].relative_to(ROOT.parent)
                out.append(f"| {depth} | `{path}` | {_summary(MODULES[module])} |")
        out.append("")
    out.append(END)
    return "\n".join(out)


def _doc_with_lists() -> str:
    text = DOC.read_text(encoding="utf-8")
    head, found, rest = text.partition(BEGIN)
    assert found, f"docs/architecture.md lost its marker {BEGIN!r}"
    return head + module_lists() + rest.partition(END)[2]


def test_the_docs_list_every_module_as_the_graph_has_it() -> None:
    assert DOC.read_text(encoding="utf-8") == _doc_with_lists(), (
        "docs/architecture.md's module lists are out of date: run "
        "`python tests/architecture_test.py --write`"
    )


def test_every_module_says_what_it_holds() -> None:
    silent = sorted(str(p.relative_to(ROOT.parent)) for p in MODULES.values() if not _summary(p))
    assert not silent, f"give {silent} a docstring: its first sentence goes into the docs"


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["--write"]:
        DOC.write_text(_doc_with_lists(), encoding="utf-8")
    else:
        print(module_lists())
