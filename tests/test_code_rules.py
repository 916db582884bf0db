"""The code's own rules (CONTRIBUTING.md, issue 17 §4), read from the source with ``ast``.

- No function over 100 lines and no class over 700 in physics/, rules/, scenes/, tools/ and main.py (tools/
  since issue 27 §3): a longer one does several things, and its parts are what a reader and a test want to name. The ones over it when this test came were
  listed in KNOWN_LONG until they were split; none is left, and a new one fails.
- No import fallbacks that hide errors: no ``except ImportError`` stand-in (a missing part is an error someone
  must see), no ``except Exception: pass``, no ``pytest.importorskip`` (every dependency is installed, and a
  test that skips when our own module fails to import hides the failure).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("physics", "rules", "scenes")
MAX_FUNCTION = 100
MAX_CLASS = 700
# Over the limit when the test came, each in a file other work was changing at the time; all since split by
# concern (the referee's Pyramid and SnookerBase, the table view, the trainer screen). A class that must stay
# over the limit meanwhile is named here with the most lines it may have; none is now.
KNOWN_LONG: dict[tuple[str, str], int] = {}


def _files(*folders: str) -> Iterator[Path]:
    for folder in folders:
        yield from sorted((ROOT / folder).rglob("*.py"))


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}"


def _lines(node: ast.stmt) -> int:
    assert node.end_lineno is not None
    return node.end_lineno - node.lineno + 1


def test_no_function_over_100_lines_and_no_class_over_700() -> None:
    long = []
    for f in [*_files(*PACKAGES, "tools"), ROOT / "main.py"]:
        rel = f.relative_to(ROOT).as_posix()
        for node in ast.walk(_tree(f)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                kind, limit = "function", MAX_FUNCTION
            elif isinstance(node, ast.ClassDef):
                kind, limit = "class", MAX_CLASS
            else:
                continue
            n = _lines(node)
            if n > KNOWN_LONG.get((rel, node.name), limit):
                long.append(f"{rel}:{node.lineno}: {kind} {node.name} is {n} lines (at most {limit})")
    assert not long, "\n".join(long)


def _names(node: ast.expr | None) -> set[str]:
    if node is None:
        return {"<bare>"}
    if isinstance(node, ast.Tuple):
        return set().union(*(_names(e) for e in node.elts))
    if isinstance(node, ast.Name):
        return {node.id}
    if isinstance(node, ast.Attribute):
        return {node.attr}
    return set()


def test_no_import_fallback_and_no_swallowed_error() -> None:
    found = []
    for f in [*_files(*PACKAGES, "tools", "tests"), ROOT / "main.py"]:
        for node in ast.walk(_tree(f)):
            if not isinstance(node, ast.ExceptHandler):
                continue
            names = _names(node.type)
            if names & {"ImportError", "ModuleNotFoundError"}:
                found.append(f"{_where(f, node)}: except {', '.join(sorted(names))}")
            quiet = all(
                isinstance(s, ast.Pass) or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
                for s in node.body
            )
            if names & {"Exception", "BaseException", "<bare>"} and quiet:
                found.append(f"{_where(f, node)}: except {', '.join(sorted(names))}: pass")
    assert not found, "\n".join(found)


def test_no_test_skips_on_a_failed_import() -> None:
    found = [
        _where(f, node)
        for f in _files("tests")
        for node in ast.walk(_tree(f))
        if isinstance(node, ast.Attribute) and node.attr == "importorskip"
    ]
    assert not found, "pytest.importorskip: " + ", ".join(found)
