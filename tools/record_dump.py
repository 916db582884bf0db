"""Dump shot records to compare the physics before and after a change that must not alter them.

    python -m tools.record_dump --out DIR [--strokes N] [--seed S] [--sample-hz HZ] [--no-cases] [--no-bench]
    python -m tools.record_dump --compare DIR_BEFORE DIR_AFTER

What is dumped: the campaign's strokes ``S .. S+N-1`` (tests.hardening.strategies.draw_stroke, every table),
every trainer case in assets/cases that has a stroke to simulate, and the bench's breaks (physics.bench
CASES, as bench runs them), all with samples at ``HZ``. Each record is written as its JSON
(``ShotRecord.to_json``) to ``DIR/<name>.json``, and ``DIR/manifest.json`` holds, per record, the sha256 of
that JSON and of the engine's raw end state (positions, velocities, spins, modes and every event time as
the engine holds them, before the record's rounding to 6 decimals), so a change far below the record's
precision is still seen. ``--compare`` reads two manifests and prints how many records are identical; it
exits 1 if any differs or is missing.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import physics.simulate as simulate_module
from physics.engine import Engine

_RAW: list[str] = []


class _Capturing(Engine):
    """The engine as ``simulate`` uses it, keeping a digest of its raw state when it is closed."""

    def close(self) -> None:
        super().close()
        h = hashlib.sha256()
        for a in (self.pos, self.vel, self.omg, self.mode):
            h.update(a.tobytes())
        h.update(repr(float(self.t)).encode())
        h.update(repr([float(e.t) for e in self.events]).encode())
        _RAW[:] = [h.hexdigest()]


def _cases() -> Iterator[tuple[str, Any]]:
    from rules.scenarios import load_scenario

    for path in sorted(Path("assets/cases").glob("*.toml")):
        sc = load_scenario(path)
        if sc.shot is not None and not sc.is_recorded:
            yield f"case-{path.stem}", sc


def _records(args: argparse.Namespace) -> Iterator[tuple[str, Any]]:
    from physics.params import PhysicsParams
    from physics.record import ShotParams
    from physics.simulate import simulate
    from physics.tables import load_table
    from tests.hardening.checks import run
    from tests.hardening.strategies import draw_stroke

    hz = args.sample_hz or None
    for seed in range(args.seed, args.seed + args.strokes):
        stroke = draw_stroke(seed)
        yield f"stroke-{seed}-{stroke.table}", run(stroke, hz)
    if args.cases:
        for name, sc in _cases():
            yield name, simulate(sc.table, sc.balls, sc.shot, None, sc.objects, sample_hz=hz)
    if args.bench:
        from physics.bench import CASES, SLOW_CASES, break_layout, slow_layout

        for name, table, _rack, speed in CASES:
            spec = load_table(table)
            params = PhysicsParams.for_table(spec)
            yield (
                f"bench-{name}-warmup",
                simulate(spec, {"cue": (0.0, 0.0)}, ShotParams(cue_speed=1.0), params),
            )
            shot = ShotParams(ball="cue", cue_speed=speed, direction=0.0)
            layout = break_layout(name, spec)
            yield f"bench-{name}", simulate(spec, layout, shot, params)
            yield f"bench-{name}-samples", simulate(spec, layout, shot, params, sample_hz=hz)
            for slow, base, s_speed, tip, _frozen in SLOW_CASES:
                if base == name:
                    s_shot = ShotParams(ball="cue", cue_speed=s_speed, direction=0.0, tip=tip)
                    yield (
                        f"bench-{slow}",
                        simulate(spec, slow_layout(slow, spec), s_shot, params, sample_hz=hz),
                    )


def dump(args: argparse.Namespace) -> int:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    simulate_module.Engine = _Capturing  # type: ignore[attr-defined]
    manifest: dict[str, dict[str, str]] = {}
    for k, (name, rec) in enumerate(_records(args)):
        text = rec.to_json()
        (out / f"{name}.json").write_text(text, encoding="utf-8")
        manifest[name] = {"record": hashlib.sha256(text.encode()).hexdigest(), "raw": _RAW[0]}
        if (k + 1) % 50 == 0:
            print(f"{k + 1} records", file=sys.stderr, flush=True)
            _write_manifest(out, manifest)  # a dump stopped early keeps what it has
    _write_manifest(out, manifest)
    print(f"{len(manifest)} records in {out}")
    return 0


def _write_manifest(out: Path, manifest: dict[str, dict[str, str]]) -> None:
    (out / "manifest.json").write_text(
        json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )


def compare(a: str, b: str) -> int:
    ma = json.loads((Path(a) / "manifest.json").read_text(encoding="utf-8"))
    mb = json.loads((Path(b) / "manifest.json").read_text(encoding="utf-8"))
    same = [n for n in ma if mb.get(n) == ma[n]]
    differ = [n for n in ma if n in mb and mb[n] != ma[n]]
    missing = sorted(set(ma) ^ set(mb))
    kinds: dict[str, int] = {}
    for n in ma:
        kind = n.split("-")[0]
        kinds[kind] = kinds.get(kind, 0) + 1
    print(
        f"{len(ma)} records ({', '.join(f'{v} {k}' for k, v in sorted(kinds.items()))}): "
        f"{len(same)} identical (record JSON and raw engine state), {len(differ)} differ, {len(missing)} missing"
    )
    for n in differ[:20]:
        what = [k for k in ("record", "raw") if ma[n][k] != mb[n][k]]
        print(f"  differs: {n} ({', '.join(what)})")
    for n in missing[:20]:
        print(f"  only in one: {n}")
    return 0 if not differ and not missing else 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.record_dump", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", help="folder for the records and manifest.json")
    ap.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"), help="compare two dumps' manifests")
    ap.add_argument("--strokes", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--sample-hz", type=float, default=100.0)
    ap.add_argument("--no-cases", dest="cases", action="store_false")
    ap.add_argument("--no-bench", dest="bench", action="store_false")
    args = ap.parse_args(argv)
    if args.compare:
        return compare(*args.compare)
    if not args.out:
        print("record_dump: --out DIR or --compare BEFORE AFTER", file=sys.stderr)
        return 2
    return dump(args)


if __name__ == "__main__":
    raise SystemExit(main())
