#!/usr/bin/env python3
"""Writes the stir recording for the settled pit of N balls (docs/benchmarks.md,
"The stirred pile"): a hand of radius 20 px made above the pile, dragged in
from above at 1,000 px/s, then round in circles inside the pile, then let go
at rest. The path is drawn in the pit's own proportions, so one script serves
every N; bench/stir-100000.rec is its output for 100,000 balls.

Replay it with the pit it was made for, settled as the benchmark settles it:

    ballpit --pit N --settle 600 --history 0 --replay stir.rec --headless --stats

usage: stir.py N [> FILE]
"""
import math
import sys

HZ = 120.0
SPEED = 1000.0      # px/s, the hand's speed all the way
HAND_R = 20.0       # px
PIT_R = 5.0         # px, the pit's balls (spawn.h: BP_PIT_RADIUS)
PIT_COVER = 0.35    # the pit's balls cover this much of the arena ...
PIT_ASPECT = 1.6    # ... that is this many times as wide as high
CIRCLE_S = 3.5      # seconds of circling
AFTER_S = 0.5       # seconds run on after the hand lets go


def pit_size(n):
    """The pit's arena (spawn.c: bp_pit_params_shaped)."""
    area = n * math.pi * PIT_R * PIT_R / PIT_COVER
    h = math.sqrt(area / PIT_ASPECT)
    return PIT_ASPECT * h, h


def path(n):
    """The hand's position before every step, from step 1 on: in from
    above, then round a circle counter-clockwise on screen."""
    w, h = pit_size(n)
    step = SPEED / HZ
    # A settled pit fills its lower 45% (the pile's top lies at 0.55 h):
    # the hand starts in the air above it and circles well inside it.
    x0, y0 = 0.5 * w, 0.45 * h
    radius = 0.1 * h
    cx, cy = x0, 0.76 * h
    top = cy - radius
    points = []
    y = y0
    while y + step < top:
        y += step
        points.append((x0, y))
    turn = step / radius  # radians per step at SPEED along the circle
    angle = -0.5 * math.pi  # the top of the circle, y down
    for _ in range(int(round(CIRCLE_S * HZ))):
        angle -= turn
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return (x0, y0), points


def main():
    if len(sys.argv) != 2 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        sys.stderr.write("usage: stir.py N\n")
        return 2
    n = int(sys.argv[1])
    (x0, y0), points = path(n)
    out = ["ballpit-input 1",
           "# stir.py %d: the settled pit of %d balls stirred by a hand of r=%g px at %g px/s"
           % (n, n, HAND_R, SPEED),
           "0 spawn %.6f %.6f %g" % (x0, y0, HAND_R),
           "0 grab %.6f %.6f" % (x0, y0)]
    for k, (x, y) in enumerate(points, start=1):
        out.append("%d move %.6f %.6f" % (k, x, y))
    release = len(points) + 1
    out.append("%d release 0 0" % release)
    out.append("end %d" % (release + int(round(AFTER_S * HZ))))
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
