"""The layers are one-way (design.md): rules/ imports no Panda3D; physics/ imports no direct.*;
only scenes/ and main.py touch ShowBase."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _imports(path: Path) -> list[str]:
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
    # physics.limits: the bounds files are written and read with (plain constants, no Panda3D).
    allowed_physics = {
        "physics.record",
        "physics.tables",
        "physics.errors",
        "physics.scenario",
        "physics.limits",
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
            node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.Assign, ast.If, ast.Expr)
        ), node
