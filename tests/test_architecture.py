"""The layers are one-way (docs/architecture.md §Layers): rules/ imports no Panda3D; physics/ imports no direct.*;
only scenes/ and main.py touch ShowBase. The referee's core modules import each other one way (no
circle), and physics knows no game: the registry is the one list of games."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _imports(path: Path) -> list[str]:
    """Every module a file imports, at the top or inside a function."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append(node.module)
            out += [f"{node.module}.{a.name}" for a in node.names]
    return out


def _files(pkg: str) -> list[Path]:
    return sorted((ROOT / pkg).rglob("*.py"))


def test_rules_import_no_panda3d_and_only_plain_physics_types() -> None:
    # physics.limits: the bounds files are written and read with; physics.files: the atomic writer (both plain,
    # no Panda3D).
    # physics.racks: the plain rack description a game declares and the pure geometry that lays it out.
    # physics.cues and physics.tip: the cues' plain data and the tip's geometry, for the scoop call.
    # physics.objects: the room's extra objects (SceneObject) and their plain boxes, for a touch by one.
    allowed_physics = {
        "physics.record",
        "physics.tables",
        "physics.errors",
        "physics.scenario",
        "physics.limits",
        "physics.racks",
        "physics.files",
        "physics.cues",
        "physics.tip",
        "physics.objects",
    }
    for f in _files("rules"):
        for mod in _imports(f):
            assert not mod.startswith(("panda3d", "direct", "scenes")), f"{f}: imports {mod}"
            if mod.startswith("physics.") and mod.count(".") >= 1:
                base = ".".join(mod.split(".")[:2])
                assert base in allowed_physics, f"{f}: imports {mod}; rules may use only {allowed_physics}"


def test_physics_imports_no_direct_and_no_upper_layers() -> None:
    for f in _files("physics"):
        for mod in _imports(f):
            assert not mod.startswith("direct"), f"{f}: imports {mod}"
            assert not mod.startswith(("scenes", "rules")), f"{f}: imports {mod}"


def test_the_application_layer_imports_no_panda3d_and_no_window() -> None:
    """scenes/core is what the window and the command line share: it may run in a worker process or a test,
    so it imports neither Panda3D nor direct, nor a window module of scenes/ (its physics comes through
    physics.simulate)."""
    files = _files("scenes/core")
    assert files
    for f in files:
        for mod in _imports(f):
            assert not mod.startswith(("panda3d", "direct")), f"{f}: imports {mod}"
            if mod.startswith("scenes.") or mod == "scenes":
                assert mod.startswith("scenes.core"), f"{f}: imports {mod}, a module of the window's layer"


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_every_window_free_module_of_scenes_is_in_the_application_layer() -> None:
    """The view is what draws: a module of scenes/ outside scenes/core that reaches neither Panda3D nor direct
    (through any import of the project, in a function or not) is application code and belongs in scenes/core."""
    files = {_module(f): f for f in _files("scenes")}
    edges = {m: _imports(f) for m, f in files.items()}
    drawing: dict[str, bool] = {}

    def draws(m: str, path: tuple[str, ...] = ()) -> bool:
        if m not in drawing:
            drawing[m] = False  # a circle reaches nothing new
            drawing[m] = any(i.startswith(("panda3d", "direct", "simplepbr")) for i in edges[m]) or any(
                draws(i, (*path, m)) for i in edges[m] if i in files and i != m and i not in path
            )
        return drawing[m]

    # Package markers hold no code; the screens registry names its screens by string (importlib).
    markers = {"scenes", "scenes.trainer", "scenes.trainer.phases", "scenes.screens"}
    strays = [m for m in files if not m.startswith("scenes.core") and m not in markers and not draws(m)]
    assert not strays, f"window-free modules outside scenes/core: {strays}"


def test_physics_and_rules_draw_nothing() -> None:
    """``validate`` measures in physics/ and plots in scenes/: matplotlib stays out of the pure packages."""
    for pkg in ("physics", "rules"):
        for f in _files(pkg):
            for mod in _imports(f):
                assert not mod.startswith(("matplotlib", "PIL")), f"{f}: imports {mod}"


def test_only_scenes_and_main_touch_showbase() -> None:
    for pkg in ("physics", "rules", "tests"):
        for f in _files(pkg):
            if f.name == "test_architecture.py":
                continue
            text = f.read_text(encoding="utf-8")
            if pkg == "tests" and "/scenes/" in str(f):
                continue
            assert "ShowBase" not in text, f"{f} mentions ShowBase"


def test_main_runs_nothing_at_import() -> None:
    tree = ast.parse((ROOT / "main.py").read_text(encoding="utf-8"))
    for node in tree.body:
        assert isinstance(
            node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef, ast.Assign, ast.If, ast.Expr)
        ), node


def _module(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def test_the_referee_core_imports_in_one_direction() -> None:
    """No circle among rules' modules (lazy imports inside functions count too): the match state builds on
    the contract, the referee on the state, the registry on the referee; game modules register themselves
    through rules.registration, which imports no game."""
    mods = {_module(f): f for f in _files("rules")}
    graph = {
        m: {
            i
            for i in _imports(f)
            if i in mods and i != m and not (m.startswith(i + ".") and i == "rules.games")
        }
        for m, f in mods.items()
    }
    for m in graph:
        # rules.games (the package) imports its game modules, and they import helpers from the package.
        if m.startswith("rules.games."):
            graph[m].discard("rules.games")
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        path.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                raise AssertionError("import circle: " + " -> ".join(path[path.index(n) :] + [n]))
            if n not in state:
                visit(n)
        path.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)
    assert "rules.registry" not in graph["rules.state"]
    assert "rules.base" not in graph["rules.state"]


def test_physics_knows_no_game() -> None:
    """No game id appears in physics' code: a game's table, balls and rack come from its referee."""
    import re

    from rules.registry import game_ids

    for f in _files("physics"):
        text = f.read_text(encoding="utf-8")
        for gid in game_ids():
            # ``startswith("snooker")`` asks about a table id (snooker-12ft, snooker-10ft), not the game.
            hits = re.findall(rf'(startswith\()?"{re.escape(gid)}"', text)
            assert all(h for h in hits), f"{f} names the game {gid}"


def test_the_plan_view_pulls_no_panda3d() -> None:
    """Scenes draw the table from physics.plan without building a Bullet world (or importing one)."""
    import subprocess
    import sys

    code = "import sys, physics.plan; print(sorted(m for m in sys.modules if m.split('.')[0] in ('panda3d', 'direct')))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-500:]
    assert out.stdout.strip() == "[]"


_PACKAGES = ("physics", "rules", "scenes", "tools")


def _project_modules() -> dict[str, Path]:
    mods = {_module(f): f for pkg in _PACKAGES for f in _files(pkg)}
    mods["main"] = ROOT / "main.py"
    return mods


def _edges(name: str, path: Path, mods: dict[str, Path]) -> set[str]:
    """The project modules ``name`` imports: every statement, at the top, inside a function or under
    ``if TYPE_CHECKING:`` (a type is a dependency). ``from pkg import mod`` leads to the module, ``from pkg
    import name`` to the package; relative imports are resolved against ``name``'s package. A script of
    tools/ runs with its folder on ``sys.path``, so its bare ``import x`` may mean ``tools.x``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out: set[str] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and node.args[0].value in mods
        ):
            out.add(str(node.args[0].value))
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in mods}
            if name.startswith("tools."):
                out |= {f"tools.{a.name}" for a in node.names if f"tools.{a.name}" in mods}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if name.startswith("tools.") and f"tools.{target}" in mods:
                target = f"tools.{target}"
            for a in node.names:
                sub = f"{target}.{a.name}"
                if sub in mods:
                    out.add(sub)
                elif target in mods:
                    out.add(target)
    out.discard(name)
    return out


def _circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(m: str) -> None:
        index[m] = low[m] = len(index)
        stack.append(m)
        on_stack.add(m)
        for n in sorted(graph[m]):
            if n not in index:
                visit(n)
                low[m] = min(low[m], low[n])
            elif n in on_stack:
                low[m] = min(low[m], index[n])
        if low[m] == index[m]:
            comp = set()
            while True:
                n = stack.pop()
                on_stack.discard(n)
                comp.add(n)
                if n == m:
                    break
            if len(comp) > 1:
                found.append(frozenset(comp))

    for m in sorted(graph):
        if m not in index:
            visit(m)
    return found


def _one_circle(graph: dict[str, set[str]], comp: frozenset[str]) -> str:
    """A readable path around one circle inside ``comp``: the shortest way back to its first module."""
    start = min(comp)
    paths = {start: [start]}
    queue = [start]
    while queue:
        m = queue.pop(0)
        for n in sorted(graph[m] & comp):
            if n == start:
                return " -> ".join(paths[m] + [start])
            if n not in paths:
                paths[n] = paths[m] + [n]
                queue.append(n)
    return ", ".join(sorted(comp))


# Circles not yet broken, each named by all its modules; the list only shrinks (issue 27 §2).
_ALLOWED_CIRCLES: set[frozenset[str]] = {
    # The trainer screen and its eight phase views (issue 27 §1 gives each phase a narrow interface).
    frozenset(
        {"scenes.trainer.screen"}
        | {
            f"scenes.trainer.phases.{p}"
            for p in ("answer", "exam", "history", "layout", "pick", "score", "verdict", "watch")
        }
    ),
}


def test_no_import_circles_among_the_project_modules() -> None:
    """No module of physics, rules, scenes, tools or main reaches itself through its imports."""
    mods = _project_modules()
    graph = {m: _edges(m, f, mods) for m, f in mods.items()}
    circles = [c for c in _circles(graph) if c not in _ALLOWED_CIRCLES]
    shown = [f"{_one_circle(graph, c)}  (all: {', '.join(sorted(c))})" for c in circles]
    assert not circles, "import circles:\n" + "\n".join(shown)
