"""The package reads in the order data flows (README "How it works"): each layer imports only
from the layers below it, and no modules import each other in a circle.

Every import statement counts, those inside functions and under ``TYPE_CHECKING`` too (a
deferred import is still a dependency); each failure names the import as ``file:line``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "uno_stats"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors",),  # the one-line errors
    ("limits",),  # input limits: what a file, a manifest or an option may ask for
    ("engine",),  # the compiled game and its tables
    ("check", "help_text"),  # the replay referee; the words for the engine's tables
    ("scenario",),  # load, check and expand a scenario file
    ("store",),  # the results folder: parts, manifest, verify, lock
    ("run",),  # plan, backends, runner
    ("analysis", "bench"),  # numbers from results; the benchmark (neither imports the other)
    ("debates",),  # the commands that run and analyse: settle, effects
    ("present",),  # words and pictures
    ("cli",),  # the uno-stats command
    ("api",),  # the library API
    ("__init__",),  # the package top, which exports it
)
"""Lowest first. A module may import its own package's modules and any lower layer's."""

TOLERATED = {
    ("uno_stats/engine/jit.py", "uno_stats.engine"): "the engine as it is: jit reads the "
    "engine package's folder (its hashed sources) from inside it",
}
"""Imports of the package as it is that break a rule, each with why; an entry that no import
matches any more fails :func:`test_every_tolerated_import_still_exists` (delete it)."""


@dataclass(frozen=True)
class Import:
    """One import statement's target, as a module of the package."""

    source: str  # the importing module, dotted
    file: str  # its path from the project root
    line: int
    target: str  # the imported module, dotted (a package's ``__init__`` is the package)

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def package_imports(root: Path, package: str = PACKAGE) -> tuple[set[str], list[Import]]:
    """Every module of ``package`` under ``root``, and every import of one of them."""
    files = sorted((root / package).rglob("*.py"))
    modules = {module_name(f, root): f for f in files}
    found: list[Import] = []
    for name, path in modules.items():
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        rel = path.relative_to(root).as_posix()
        for node in ast.walk(ast.parse(path.read_text(), filename=rel)):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = here.split(".")[: len(here.split(".")) - node.level + 1]
                    base = ".".join([*up, *([base] if base else [])])
                # ``from pkg import mod`` imports the module pkg.mod; ``from mod import name``, mod
                targets = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                    for a in node.names
                ]
            for target in targets:
                if target == package or target.startswith(package + "."):
                    found.append(Import(name, rel, node.lineno, target))
    return set(modules), found


def layer_of(module: str, package: str = PACKAGE) -> tuple[int, str]:
    """The layer index of ``module`` and its top-level part (``scenario`` for
    ``uno_stats.scenario.load``, ``__init__`` for the package itself)."""
    top = module.split(".")[1] if "." in module else "__init__"
    for index, layer in enumerate(LAYERS):
        if top in layer:
            return index, top
    raise AssertionError(f"{module}: in no layer of LAYERS (add its package there)")


def layer_errors(modules: set[str], imports: list[Import]) -> list[str]:
    """One line per import of a module that does not exist, or of a layer not below."""
    errors: list[str] = []
    for imp in dict.fromkeys(imports):  # one line for ``from m import a, b``
        if imp.target not in modules:
            errors.append(f"{imp.where}: imports {imp.target}, which does not exist")
            continue
        (low, own), (high, other) = layer_of(imp.source), layer_of(imp.target)
        if own != other and high >= low:
            how = "beside" if high == low else "above"
            errors.append(
                f"{imp.where}: {imp.source} imports {imp.target}, a layer {how} it "
                f"({other} is not below {own})"
            )
    return errors


def circles(imports: list[Import]) -> list[list[Import]]:
    """Each circle of modules that import each other, as the imports that close it
    (Tarjan's strongly connected components; a circle is reported by one loop through it)."""
    graph: dict[str, dict[str, Import]] = {}
    for imp in imports:
        if imp.target != imp.source:
            graph.setdefault(imp.source, {}).setdefault(imp.target, imp)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    components: list[set[str]] = []

    def visit(node: str) -> None:  # recursion depth: the package's import depth (tens)
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, {}):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [_loop(graph, component) for component in components]


def _loop(graph: dict[str, dict[str, Import]], component: set[str]) -> list[Import]:
    """One loop of imports through ``component``, from its first module back to it."""
    start = min(component)
    paths: dict[str, list[Import]] = {start: []}
    queue = [start]
    while queue:  # breadth first: the shortest loop back to start
        node = queue.pop(0)
        for nxt, imp in sorted(graph.get(node, {}).items()):
            if nxt == start:
                return [*paths[node], imp]
            if nxt in component and nxt not in paths:
                paths[nxt] = [*paths[node], imp]
                queue.append(nxt)
    raise AssertionError(f"no loop through {sorted(component)}")


def circle_errors(imports: list[Import]) -> list[str]:
    return [
        "import circle: "
        + " -> ".join(f"{i.source} ({i.where})" for i in loop)
        + f" -> {loop[0].source}"
        for loop in circles(imports)
    ]


def _checked(imports: list[Import]) -> list[Import]:
    return [i for i in imports if (i.file, i.target) not in TOLERATED]


def test_every_layer_imports_only_from_layers_below() -> None:
    modules, imports = package_imports(ROOT)
    errors = layer_errors(modules, _checked(imports))
    assert not errors, "imports against the layering (tests/test_layers.py LAYERS):\n" + "\n".join(
        errors
    )


def test_no_import_circles() -> None:
    _, imports = package_imports(ROOT)
    errors = circle_errors(_checked(imports))
    assert not errors, "\n".join(errors)


def test_every_tolerated_import_still_exists() -> None:
    _, imports = package_imports(ROOT)
    seen = {(i.file, i.target) for i in imports}
    assert not set(TOLERATED) - seen, "no longer imported: delete from TOLERATED"


def test_every_package_and_top_module_has_a_layer() -> None:
    modules, _ = package_imports(ROOT)
    for module in modules:
        layer_of(module)


# --- the checks themselves, on a small package written for each test -------------------------


def write_package(root: Path, files: dict[str, str]) -> None:
    for name, text in {"__init__.py": "", **files}.items():
        path = root / PACKAGE / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_an_upward_import_is_named_with_its_file_and_line(tmp_path: Path) -> None:
    write_package(
        tmp_path,
        {
            "scenario/__init__.py": "",
            "scenario/load.py": "import os\n\n\ndef f():\n    from uno_stats.store.parts import Run\n",
            "store/__init__.py": "",
            "store/parts.py": "from uno_stats.scenario.load import f\n",
        },
    )
    errors = layer_errors(*package_imports(tmp_path))
    assert errors == [
        "uno_stats/scenario/load.py:5: uno_stats.scenario.load imports uno_stats.store.parts, "
        "a layer above it (store is not below scenario)"
    ]


def test_type_checking_imports_sibling_layers_and_missing_modules_count(tmp_path: Path) -> None:
    write_package(
        tmp_path,
        {
            "analysis/__init__.py": "",
            "analysis/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
            "    from uno_stats.bench import b\n",
            "bench/__init__.py": "",
            "bench/b.py": "from .. import errors\nfrom uno_stats.run import gone\n",
            "errors.py": "",
        },
    )
    errors = layer_errors(*package_imports(tmp_path))
    assert errors == [
        "uno_stats/analysis/a.py:3: uno_stats.analysis.a imports uno_stats.bench.b, "
        "a layer beside it (bench is not below analysis)",
        "uno_stats/bench/b.py:2: imports uno_stats.run, which does not exist",
    ]


def test_a_circle_inside_one_package_is_named_import_by_import(tmp_path: Path) -> None:
    write_package(
        tmp_path,
        {
            "store/__init__.py": "",
            "store/parts.py": "from uno_stats.store.verify import check\n",
            "store/verify.py": "import json\n\n\ndef check():\n    from . import parts\n",
            "store/lock.py": "from uno_stats.store import parts\n",
        },
    )
    modules, imports = package_imports(tmp_path)
    assert layer_errors(modules, imports) == []
    assert circle_errors(imports) == [
        "import circle: uno_stats.store.parts (uno_stats/store/parts.py:1) -> "
        "uno_stats.store.verify (uno_stats/store/verify.py:5) -> uno_stats.store.parts"
    ]


@pytest.mark.parametrize("top", ["errors", "cli", "api"])
def test_layer_of_reads_the_top_level_part(top: str) -> None:
    assert layer_of(f"{PACKAGE}.{top}")[1] == top
