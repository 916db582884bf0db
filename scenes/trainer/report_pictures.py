"""The deciding moment of each exam case as a picture for the report (issue 26 §5).

Each case's stroke is drawn offscreen (``scenes.render.draw_scenario``, a scene of its own, nothing left behind)
at the moment that decides its call (``moments.deciding_moment``), from the camera made for that call: the side
view at ball height for jumps, scoops and balls meeting things above the bed, the top view for balls leaving the
table, pockets and hanging balls. The report carries the PNG bytes as data URIs, so it stays one file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scenes.core.trainer.moments import camera_for, deciding_moment

SIZE = (640, 360)  # small enough that a 20-case report stays a few megabytes


@dataclass(frozen=True)
class MomentPicture:
    png: bytes
    t: float  # seconds after the strike
    what: str  # the moment's catalog name (``trainer.moment.<what>``); "" = the stroke's end (no moment)


def png_bytes(image: Any) -> bytes:
    from panda3d.core import StringStream

    encoded = StringStream()
    if not image.write(encoded, "picture.png"):
        raise RuntimeError("Panda3D could not encode the picture as PNG")
    return bytes(encoded.getData())


def moment_pictures(session: Any, base: Any, lamp: tuple[float, float, float]) -> dict[int, MomentPicture]:
    """Case index -> its deciding moment drawn (the end of the stroke when the stroke has no such moment)."""
    from scenes.render import draw_scenario

    out: dict[int, MomentPicture] = {}
    for i in range(len(session.items)):
        run = session.run(i)
        moment = deciding_moment(run.case.topic, run.record)
        t = moment.t if moment is not None else float(run.record.duration)
        # The trainer's follow camera (lamp, chalk, person, rail top) moves with the ball; a still picture takes the
        # top view, which holds a ball off the bed, and rings the ball (or, once it is gone, the place).
        camera = "side" if camera_for(run.case.topic) == "side" else "top"
        focus = moment.ball if moment is not None else None
        mark = moment.pos if moment is not None else None
        drawn = draw_scenario(
            base, run.case.scenario, run.record, t, camera, SIZE, lamp, focus=focus, mark=mark
        )
        out[i] = MomentPicture(png_bytes(drawn.image), t, moment.what if moment is not None else "")
    return out
