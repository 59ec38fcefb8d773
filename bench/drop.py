#!/usr/bin/env python3
"""Writes the drop recording for the settled pit of N balls (docs/benchmarks.md,
"Waking in part"): eight balls of radius 4 to 12 px made, one every half
second, above the pile at eight places along it, each let fall onto it.
bench/drop-10000.rec is its output for 10,000 balls.

Replay it with the pit it was made for, settled:

    ballpit --pit N --solver soft --settle 1200 --replay drop.rec --headless --stats

usage: drop.py N [> FILE]
"""
import math
import sys

HZ = 120.0
PIT_R = 5.0         # px, the pit's balls (spawn.h: BP_PIT_RADIUS)
PIT_COVER = 0.35    # the pit's balls cover this much of the arena ...
PIT_ASPECT = 1.6    # ... that is this many times as wide as high
DROPS = 8
EVERY_S = 0.5       # seconds between drops
AFTER_S = 2.0       # seconds run on after the last


def pit_size(n):
    """The pit's arena (spawn.c: bp_pit_params_shaped)."""
    area = n * math.pi * PIT_R * PIT_R / PIT_COVER
    h = math.sqrt(area / PIT_ASPECT)
    return PIT_ASPECT * h, h


def main():
    if len(sys.argv) != 2 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        sys.stderr.write("usage: drop.py N\n")
        return 2
    n = int(sys.argv[1])
    w, h = pit_size(n)
    # A settled pit fills its lower 45% (the pile's top lies at 0.55 h):
    # each ball starts at 0.3 h, a quarter of the height above it.
    out = ["ballpit-input 1",
           "# drop.py %d: %d balls dropped on the settled pit of %d balls" % (n, DROPS, n)]
    step = int(round(EVERY_S * HZ))
    for k in range(DROPS):
        x = w * (0.15 + 0.7 * k / (DROPS - 1))
        r = 4 + (7 * k) % 9
        out.append("%d spawn %.6f %.6f %d" % (k * step, x, 0.3 * h, r))
    out.append("end %d" % ((DROPS - 1) * step + int(round(AFTER_S * HZ))))
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
