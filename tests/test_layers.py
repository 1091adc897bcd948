"""The package's modules import each other in layers, without a cycle. The import graph of borabora_sim is read
from the source with ast: every import statement, at module level, in functions and under TYPE_CHECKING. It has
no strongly connected component of more than one module, no module imports from a layer above its own
(LAYERS, lowest first), no shared module imports a game's package or compiled engine (GAME_MODULE_IMPORTERS
names those that may), and no module under games/ imports the viewer or the learning environments (a game's
picture, click targets and encoder plug into the kits, below the games). A compiled module (`_engine`, `_bamboo`,
`_pig`, `_search`: a stub and no source here) is a leaf of the graph: its source is Cython in cext/, read apart for
the one rule of the engines (they import no game's package and not the viewer, even inside a function). Importing
the package, the protocol or the specs in a fresh process loads no game and no compiled engine.

An import of `borabora_sim.a.b` is an edge to that module only (the packages Python imports on the way are not
edges); `from borabora_sim.a import name` is an edge to the submodule `borabora_sim.a.name` when there is one, else
to `borabora_sim.a`. Modules imported by a name in a string (`import_module`: the game registry, the renderers)
are not edges. Run this file as a script to print the cycles, the imports from a higher layer or above an engine,
and each layer's modules.
"""

from __future__ import annotations

import ast
import fnmatch
import re
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "borabora_sim"
ROOT = PACKAGE.name
CEXT = PACKAGE.parent / "cext"

# The layers of the package by job, lowest first: a module imports from its own layer and the layers below. A name
# stands for that module and, for a package, every module in it ("" for the package's own __init__ only); `*`
# stands for any one part of a name, so that "games.*.questions" is every game's questions. A module is in the
# layer of the longest name that matches it: a game's package holds modules of several layers (its component data
# in the foundation, its studies with the experiments), and the rest of it with the games: its picture, click
# targets and observation encoder too, which plug into the kits below them.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("foundation: errors, files, specs, the protocol, component data",
     ("errors", "files", "provenance", "specs", "records", "protocol", "vocabulary", "component_files",
      "games.*.components")),
    ("the kits a game plugs into: picture primitives, the house style, click-target rules, encoder helpers",
     ("kits",)),
    ("compiled engines and what wraps them", ("_[!_]*", "learned")),
    ("games and their registry", ("games", "bamboo", "")),
    ("players, their networks and one game between them", ("players", "network", "match")),
    ("tables: statistics, ratings, verdicts, plots, a run on disk, its report",
     ("stats", "ratings", "verdicts", "plots", "runs", "report")),
    ("the batch simulator", ("simulate",)),
    ("pictures, replays, the web game and the learning environments", ("viewer", "envs")),
    ("experiments, studies, questions, tuning, training and benchmarks",
     ("experiments", "counterfactual", "studies", "questions", "games.*.*_study", "games.*.situations",
      "games.*.questions", "tune", "train", "expert_iteration", "bench")),
    ("the command line and the terminal game", ("cli", "terminal", "__main__")),
]


def module_files() -> dict[str, Path]:
    """The package's modules by dotted name (packages by the name of the package) and their source; a compiled
    module is found by its stub (`_engine.pyi`) and has no source here (cext/ holds it)."""
    modules: dict[str, Path] = {}
    for path in sorted([*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.pyi")]):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules.setdefault(".".join(parts), path)
    return modules


def _absolute(module: str, is_package: bool, level: int, target: str | None) -> str:
    """The absolute name of a relative import `from <level dots><target> import ...` in `module`."""
    if level == 0:
        return target or ""
    base = module.split(".")
    base = base[:len(base) - level + (1 if is_package else 0)]
    return ".".join([*base, target] if target else base)


def imports_of(module: str, path: Path, modules: set[str]) -> set[str]:
    """The package's modules that `module` imports anywhere in its source."""
    found: set[str] = set()
    if path.suffix == ".pyi":
        return found                        # a compiled module: a leaf of the graph
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.split(".")[0] == ROOT)
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(module, path.name == "__init__.py", node.level, node.module)
            if source.split(".")[0] != ROOT:
                continue
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                found.add(submodule if submodule in modules else source)
    return {name for name in found if name in modules and name != module}


def import_graph() -> dict[str, set[str]]:
    """Every module of the package and the package's modules it imports."""
    files = module_files()
    return {module: imports_of(module, path, set(files)) for module, path in files.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(graph)))
    try:
        for node in sorted(graph):
            if node not in index:
                visit(node)
    finally:
        sys.setrecursionlimit(limit)
    return sorted(components)


def layer_of(module: str) -> int | None:
    """The index in LAYERS of `module`'s layer, or None for a module no layer names."""
    parts = module.split(".")
    best: tuple[int, int] | None = None            # (parts the name matched, layer)
    for index, (_, names) in enumerate(LAYERS):
        for name in names:
            pattern = [ROOT, *name.split(".")] if name else [ROOT]
            matches = fnmatch.fnmatchcase(".".join(parts[:len(pattern)]), ".".join(pattern)) and \
                len(parts) >= len(pattern) and (name != "" or len(parts) == 1)
            if matches and (best is None or len(pattern) > best[0]):
                best = (len(pattern), index)
    return None if best is None else best[1]


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import from a module to one in a higher layer, as text."""
    found = []
    for module, targets in sorted(graph.items()):
        for target in sorted(targets):
            low, high = layer_of(module), layer_of(target)
            if low is not None and high is not None and high > low:
                found.append(f"{module} ({LAYERS[low][0]}) imports {target} ({LAYERS[high][0]})")
    return found


def test_the_graph_sees_the_package() -> None:
    graph = import_graph()
    assert "borabora_sim.stats" in graph and "borabora_sim.viewer.png" in graph
    assert "borabora_sim.games" in graph["borabora_sim.simulate"]


def test_a_cycle_is_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_an_upward_import_is_found() -> None:
    graph = {f"{ROOT}.stats": {f"{ROOT}.simulate"}, f"{ROOT}.simulate": {f"{ROOT}.stats"}}
    assert upward_imports(graph) == [f"{ROOT}.stats (tables: statistics, ratings, verdicts, plots, a run on disk, "
                                     f"its report) imports {ROOT}.simulate (the batch simulator)"]


def test_no_import_cycle() -> None:
    found = cycles(import_graph())
    assert not found, "import cycles: " + "; ".join(" <-> ".join(component) for component in found)


def test_every_module_has_a_layer() -> None:
    missing = [module for module in import_graph() if layer_of(module) is None]
    assert not missing, f"modules in no layer (add them to LAYERS in {Path(__file__).name}): {', '.join(missing)}"


def test_no_module_imports_from_a_higher_layer() -> None:
    found = upward_imports(import_graph())
    assert not found, "imports from a higher layer:\n" + "\n".join(found)


# Shared modules that may import a game's modules: the front doors (`borabora_sim.new_game` and the rest are the
# default game's, `borabora_sim.bamboo` holds Bamboo's public names under a short path), and training, which learns
# Bora Bora's evaluation (the only game with one so far).
GAME_MODULE_IMPORTERS = {ROOT, f"{ROOT}.bamboo", f"{ROOT}.train"}


def game_engines() -> dict[str, str]:
    """Each game's compiled engine and the game: the compiled modules (a stub, no source here) that the game's
    `game` module imports."""
    files = module_files()
    graph = import_graph()
    return {target: module.split(".")[2] for module in sorted(graph)
            if fnmatch.fnmatchcase(module, f"{ROOT}.games.*.game")
            for target in graph[module] if files[target].suffix == ".pyi"}


def game_module_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a game's module (its package under games/, or its compiled engine) from a module outside
    that game's package, as text; the registry reaches the games through their records only."""
    engines = game_engines()
    found = []
    for module, targets in sorted(graph.items()):
        if module in GAME_MODULE_IMPORTERS:
            continue
        for target in sorted(targets):
            parts = target.split(".")
            in_a_game = len(parts) > 2 and parts[1] == "games" and (PACKAGE / "games" / parts[2]).is_dir()
            game = parts[2] if in_a_game else engines.get(target)
            if game is not None and not module.startswith(f"{ROOT}.games.{game}"):
                found.append(f"{module} imports {target}")
    return found


def test_each_games_compiled_engine_is_found() -> None:
    assert {f"{ROOT}._engine": "bora_bora", f"{ROOT}._bamboo": "bamboo"}.items() <= game_engines().items()
    assert f"{ROOT}._search" not in game_engines() and f"{ROOT}._compiled_game" not in game_engines()


def test_no_shared_module_imports_a_game() -> None:
    found = game_module_imports(import_graph())
    assert not found, "shared modules importing a game's module:\n" + "\n".join(found)


def test_an_import_of_a_game_from_a_shared_module_is_found() -> None:
    """A kit that names a game is found too, though a game's component data is in a layer below the kits."""
    graph = {f"{ROOT}.stats": {f"{ROOT}.games.bamboo.game"}, f"{ROOT}.games.bamboo.game": {f"{ROOT}._bamboo"},
             f"{ROOT}.games.bora_bora.game": {f"{ROOT}._bamboo"},
             f"{ROOT}.kits.svg": {f"{ROOT}.games.pig.components", f"{ROOT}.kits.house_style"}}
    assert upward_imports(graph) == []
    assert game_module_imports(graph) == [f"{ROOT}.games.bora_bora.game imports {ROOT}._bamboo",
                                          f"{ROOT}.kits.svg imports {ROOT}.games.pig.components",
                                          f"{ROOT}.stats imports {ROOT}.games.bamboo.game"]


# What a game's picture, click targets and encoder need of the layers that show and serve it is in the kits, so that
# no module under games/ imports those layers, even one of a layer above them (a game's questions).
SERVING_LAYERS = (f"{ROOT}.viewer", f"{ROOT}.envs")


def serving_layer_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import of the viewer or the learning environments from a module under games/, as text."""
    return [f"{module} imports {target}" for module, targets in sorted(graph.items())
            if module == f"{ROOT}.games" or module.startswith(f"{ROOT}.games.")
            for target in sorted(targets)
            if any(target == name or target.startswith(f"{name}.") for name in SERVING_LAYERS)]


def test_an_import_of_the_viewer_from_a_game_is_found() -> None:
    graph = {f"{ROOT}.games.pig.questions": {f"{ROOT}.viewer.replay", f"{ROOT}.kits.svg"},
             f"{ROOT}.games": {f"{ROOT}.envs"}, f"{ROOT}.games.pig.observation": {f"{ROOT}.kits.encoding"},
             f"{ROOT}.viewer.replay": {f"{ROOT}.games"}}
    assert serving_layer_imports(graph) == [f"{ROOT}.games imports {ROOT}.envs",
                                            f"{ROOT}.games.pig.questions imports {ROOT}.viewer.replay"]


def test_no_game_imports_the_viewer_or_the_environments() -> None:
    found = serving_layer_imports(import_graph())
    assert not found, "modules under games/ importing the viewer or the environments (use the kits):\n" + \
        "\n".join(found)


# ---- the compiled engines' sources, and what importing the layers below the games loads ------------------------------
# An import statement of Cython source (ast cannot read it): `from a.b import (c, d)`, `import a.b, c` or `cimport`,
# at any indentation (inside a function too)
_CYTHON_FROM = re.compile(r"^[ \t]*from[ \t]+([\w.]+)[ \t]+c?import[ \t]+(\([^)]*\)|[^\n#]*)", re.MULTILINE)
_CYTHON_IMPORT = re.compile(r"^[ \t]*c?import[ \t]+([^\n#]+)", re.MULTILINE)
ABOVE_THE_ENGINES = (f"{ROOT}.games", f"{ROOT}.viewer")


def cython_imports(source: str) -> set[str]:
    """The modules a Cython source imports: `from a import b` counts as a.b (b may be a module) and as a."""
    found = set()
    for module, names in _CYTHON_FROM.findall(source):
        found.add(module)
        found.update(f"{module}.{name.split()[0]}" for name in names.strip("()").split(",") if name.strip())
    for names in _CYTHON_IMPORT.findall(source):
        found.update(name.split()[0] for name in names.split(",") if name.strip())
    return found


def engine_imports_from_above() -> list[str]:
    """Every import of a game's package or of the viewer in the compiled engines' sources (cext/), as text."""
    found = []
    for path in sorted([*CEXT.glob("*.pyx"), *CEXT.glob("*.pxi"), *CEXT.glob("*.pxd")]):
        for module in sorted(cython_imports(path.read_text(encoding="utf-8"))):
            if any(module == name or module.startswith(f"{name}.") for name in ABOVE_THE_ENGINES):
                found.append(f"cext/{path.name} imports {module}")
    return found


def test_the_cython_imports_are_found() -> None:
    source = ("from libc.string cimport memcpy\nimport numpy as np\n\ndef f():\n    from borabora_sim import (errors,\n"
              "        viewer)\n    import borabora_sim.games.pig.game, os  # a comment\n")
    assert cython_imports(source) == {"libc.string", "libc.string.memcpy", "numpy", "borabora_sim",
                                      "borabora_sim.errors", "borabora_sim.viewer", "borabora_sim.games.pig.game",
                                      "os"}


def test_no_compiled_engine_imports_a_game_or_the_viewer() -> None:
    """The engines sit below the games: what they need of a game (its component tables, compiled by its Rules)
    comes from the game's package, which imports the engine, never the other way."""
    assert list(CEXT.glob("*.pyx")), "the Cython sources are read from cext/"
    found = engine_imports_from_above()
    assert not found, "compiled engines importing from above them:\n" + "\n".join(found)


def test_the_package_and_the_layers_below_the_games_load_no_game() -> None:
    """`import borabora_sim` gives Bora Bora's names (new_game, State, ...) on first use only, so that importing the
    package, the protocol or the specs in a fresh process loads no game's module and no compiled engine."""
    engines = sorted(game_engines())
    code = ("import sys, borabora_sim, borabora_sim.protocol, borabora_sim.specs\n"
            f"print(sorted(m for m in sys.modules if m.startswith('{ROOT}.games') or m in {engines!r}))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]", f"loaded on import: {loaded}"
    assert {f"{ROOT}._engine", f"{ROOT}._bamboo", f"{ROOT}._pig"} <= set(engines)


def test_the_engines_name_the_component_kinds_in_the_component_datas_order() -> None:
    """An engine names the numbered kinds of its action names itself, in its C enums' order, which the component
    data's name tables keep."""
    from borabora_sim import _bamboo, _engine
    from borabora_sim.games.bamboo import components as bamboo
    from borabora_sim.games.bora_bora import components as bora_bora

    assert (_engine.MATERIALS, _engine.PERSON_TYPES) == (bora_bora.MATERIALS, bora_bora.PERSON_TYPES)
    assert (_bamboo.ACTIONS, _bamboo.COLOURS, _bamboo.HOME_CATEGORIES, _bamboo.SIDES) == \
        (bamboo.ACTIONS, bamboo.COLOURS, bamboo.HOME_CATEGORIES, bamboo.SIDES)


if __name__ == "__main__":
    graph = import_graph()
    for component in cycles(graph):
        print("cycle:", " <-> ".join(component))
    for line in upward_imports(graph):
        print("upward:", line)
    for line in game_module_imports(graph):
        print("a game's module imported by:", line)
    for line in serving_layer_imports(graph):
        print("a game importing the viewer or the environments:", line)
    for line in engine_imports_from_above():
        print("from above an engine:", line)
    for index, (job, _) in enumerate(LAYERS):
        members = sorted(module.removeprefix(ROOT + ".") for module in graph if layer_of(module) == index)
        print(f"{index} {job}: {', '.join(members)}")
