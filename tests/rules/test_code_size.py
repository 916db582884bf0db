"""CONTRIBUTING's limits on the referee and the trainer: no function over 100 lines (the physics has its own
test in tests/test_architecture.py)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("package", ["rules", "scenes/trainer"])
def test_no_function_is_over_100_lines(package: str) -> None:
    for f in sorted((ROOT / package).rglob("*.py")):
        tree = ast.parse(f.read_text(encoding="utf-8"), filename=str(f))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                assert node.end_lineno is not None
                n = node.end_lineno - node.lineno + 1
                assert n <= 100, f"{f.relative_to(ROOT)}:{node.lineno}: {node.name} is {n} lines"
