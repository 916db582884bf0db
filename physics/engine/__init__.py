"""The stroke engine: a hybrid of exact cloth motion, analytic impulses and Bullet.

How a stroke is advanced (why: docs/physics.md §Bullet and the measurements in collide.py):

* Balls on the cloth, away from pockets, are advanced with the exact slide/roll/spin solution
  (``physics.cloth``); steps are as long as nothing can happen (bounded by the gaps to other
  balls, the cushions and the pocket zones divided by each ball's greatest possible speed), and
  shrink to the substep (1/substep_hz) when a contact may occur inside one.
* Ball-ball contacts are always ours: the earliest contact in a step is found by a swept-sphere
  test (on the exact cloth paths where a path leaves its chord by more than CHORD_TOL), time is
  advanced to it and the TP A.14 impulse (restitution + speed-dependent friction) is applied.
  Cushion hits of balls on the cloth are the cushion-and-slate impact of ``physics.cushion`` (Mathavan et al.
  2010, with a deforming cushion above its rigid range). A pair that closes
  slower than the cloth's friction can push it in one substep (a spinning ball driven into a
  touching ball) is a sustained contact: plastic, kept at contact distance and solved every
  substep (``Resolver.sustain``) instead of a Zeno series of ever smaller bounces. While nothing but
  such pushes happens off Bullet, the substeps are taken as a run in plain floats (``pushes``), the
  same model without the general step's per-step work; anything else ends the run. Inside a step with
  Bullet balls, a ball an impulse sends on has its contacts found again on its new path.
  A ball on the slate that a ball-ball impulse drives into it (an airborne ball coming down on it
  above its equator) gets the slate's reaction with restitution e_table for the normal impulse's
  share (``collide.slate_reaction``) and flies off as a Bullet ball; a hard cushion impact may send a ball up
  off the slate too (the cushion's answer has v_z > 0), and it flies off the same way.
* Balls that fly, or are near a pocket, or off the bed, are *Bullet balls*: Bullet integrates
  them at the fixed substep (a fraction of it while a ball is fast) against the table geometry
  (jaws, pocket wells, cushions, rail tops, frame, floor, lamp, objects). Landing on the open
  slate is resolved analytically (Bullet's penetration recovery adds energy there), and a Bullet
  ball found sunk into the slate after a step is put back on it; rolling resistance and spin
  decay of the supporting surface (cloth, wood, floor), which Panda3D's Bullet does not expose,
  are applied per step. Two
  of Bullet's solver habits are put right after every substep (tick callback, ``BulletHooks.tick``): its
  warm-started friction, which kept kicking a ball after a contact had ended, is cleared, and its
  contacts are made plastic while the engine adds each impact's rebound with the surface's
  restitution (Bullet alone lost nearly all of it below ~1 m/s). An energy guard removes any energy
  a Bullet contact created, every substep and against the true positions at the step's end.
  A step with Bullet balls ends at the first substep in which a cloth ball meets a ball or a
  cushion, a Bullet ball lands on the open slate, or (one substep at a time) a ball flying below
  the cushion's nose may meet a cushion (which drives it into the slate).
* Samples observe a stroke and never change it: steps are never cut for them; cloth balls are
  sampled on their closed form inside a step, Bullet balls at the substep next to each instant
  (Bullet calls leave no time over, so splitting a step's substeps into several calls integrates
  bit for bit alike).
* Balls at rest cost nothing: they are out of the Bullet world and out of every step's work
  except the pair test against moving balls. Nor do balls whose motion is known in closed form while
  nothing is near them: a ball in the air (flying, falling off an edge or bouncing on the floor) is flown
  on its parabola (``freeflight``), one rolling on the floor is rolled on its straight line (``freeroll``),
  and a ball left spinning in place on the slate, in a pocket zone or against a cushion, goes back to the
  cloth path, whose spin decay is exact (``Transitions._bullet_rest``). A stroke's cost thus follows its
  events, not how long it lasts (issue 13: the costliest campaign strokes take 4-5x the CPU of the pyramid
  break, about 2x that of the pool break).

The package, the way a stroke flows through it:

* ``state``: the balls' arrays and modes (:class:`Mode`) and their per-ball bookkeeping;
* ``loop``: :class:`Engine`, the stroke loop and one step;
* ``stepsize``: the step's length;
* ``contacts``: contacts found in a step (:class:`Contact`);
* ``resolve``: ball-ball impulses, sustained pushes, the cushion impulse, the slate's answer after an impulse;
* ``pushes``: runs of substeps in which nothing but sustained pushes happens (a frozen cluster pushed slowly);
* ``transitions``: cloth to Bullet and back, take-off and landing, pockets, leaving and returning, rest,
  and the stroke's end;
* ``bullet`` and ``hooks``: the Bullet world, the balls' bodies, stepping, and the per-substep callbacks;
* ``freeflight`` and ``freeroll``: balls in the air or rolling on the floor, far from everything, moved in
  closed form out of Bullet;
* ``surfaces``: what the Bullet balls' contacts with the table mean (events, rolling resistance);
* ``zones``: the table as the cloth path sees it (contact lines, pocket zones, lines);
* ``events`` and ``observe``: the event log with one emitter per event type, and the events motion makes
  without changing it (lines crossed, jumps over a ball);
* ``sampling``: samples, which observe a stroke and never change it.

Event definitions (docs/formats.md §Events, made precise):

* ``ball_ball``: a contact impulse between a pair that was not already touching (a frozen pair
  pushed along gives one event); ``cushion`` likewise per ball and cushion.
* ``airborne``: the ball rises off the bed (a slate bounce higher than ``min_bounce``, a launch
  from a cushion or jaw); a ball falling into a pocket or bouncing on the floor is not a flight.
  ``landed`` (on = bed, rail, frame, floor) ends the flight at its first supporting contact.
* ``jumped_over``: while airborne, the ball's outline passed over another ball's outline seen from
  above (horizontal centre distance < 2R with the flier's centre higher) and left it again
  without touching that ball; the event is timed when the outlines separate.
* ``left_table`` / ``returned``: the centre leaves / re-enters the bed outline
  (``TableGeometry.in_bed_outline``), except over a pocket's opening on the way in.
* ``hanging``: at the end, a ball on the slate whose centre is within R of a pocket's drop edge
  (its footprint overhangs the drop).
* ``rest``: linear and angular velocity both zero (a ball spinning in place is still moving), except
  a ball out of play on a level surface (the floor, the wooden rail top, the frame) whose only motion
  left is a spin about the vertical: it moves nowhere and rests where it is.
"""

from physics.engine.bullet import MICRO_TRAVEL
from physics.engine.contacts import Contact, ContactKind
from physics.engine.loop import Engine
from physics.engine.state import BULLET, CLOTH, GONE, REST, Mode
from physics.engine.transitions import REST_V, REST_W

__all__ = [
    "BULLET",
    "CLOTH",
    "GONE",
    "MICRO_TRAVEL",
    "REST",
    "REST_V",
    "REST_W",
    "Contact",
    "ContactKind",
    "Engine",
    "Mode",
]
