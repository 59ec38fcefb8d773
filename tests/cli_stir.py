#!/usr/bin/env python3
"""The stirred pile, small: the benchmark pit of 10,000 balls settled by
--settle, then stirred by the recording bench/stir.py writes for it (a hand
of radius 20 px dragged in from above at 1,000 px/s, round in circles, let
go at rest), on two threads. The pile stays sound: no ball leaves the arena
or sinks into a side, no ball is flung faster than the hand can fling it,
and the pile ends without deep overlaps. No timing is judged here: the
100,000-ball case is a benchmark (`meson test --benchmark`).

usage: cli_stir.py PATH/TO/ballpit PATH/TO/bench/stir.py   (TAP on stdout)
"""
import csv
import math
import os
import subprocess
import sys
import tempfile

from taplib import check, done

BALLPIT = os.path.abspath(sys.argv[1])
STIR = os.path.abspath(sys.argv[2])
N = 10000
SETTLE = 600       # steps: the 10k pit is asleep well before (the 100k one by 600)
EVERY = 10         # steps between dumped frames
HAND_V = 1000.0    # px/s (stir.py)
HAND_R = 20.0      # px
R = 5.0            # px, the pit's balls
FRICTION = 0.2     # the pit's
GRAVITY = 1000.0   # px/s^2, the pit's


def pit_size(n):
    h = math.sqrt(n * math.pi * R * R / 0.35 / 1.6)
    return 1.6 * h, h


def run(args, cwd):
    return subprocess.run([BALLPIT] + args, cwd=cwd, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=600)


def deepest_overlap(balls):
    """Deepest overlap between two balls, over the smaller radius (a grid of
    cells one largest diameter wide: touching balls sit in adjacent cells)."""
    cell = 2.0 * max(r for _, _, r in balls)
    grid = {}
    for k, (x, y, _) in enumerate(balls):
        grid.setdefault((int(x // cell), int(y // cell)), []).append(k)
    deepest = 0.0
    for (cx, cy), here in grid.items():
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for j in grid.get((cx + dx, cy + dy), ()):
                    for i in here:
                        if i < j:
                            (xi, yi, ri), (xj, yj, rj) = balls[i], balls[j]
                            o = ri + rj - math.hypot(xi - xj, yi - yj)
                            deepest = max(deepest, o / min(ri, rj))
    return deepest


def main():
    w, h = pit_size(N)
    with tempfile.TemporaryDirectory() as tmp:
        rec = os.path.join(tmp, "stir.rec")
        with open(rec, "w") as f:
            p = subprocess.run([sys.executable, STIR, str(N)], stdout=f, timeout=60)
        check(p.returncode == 0, "stir.py writes the recording for %d balls" % N)
        p = run(["--pit", str(N), "--settle", str(SETTLE), "--history", "0", "--replay", rec,
                 "--headless", "--threads", "2", "--dump", "d", "--dump-every", str(EVERY)], tmp)
        check(p.returncode == 0 and p.stderr == "", "the stir replays on the settled pit",
              "exit %d stderr %r" % (p.returncode, p.stderr))
        if p.returncode != 0:
            return done()

        frames = {}
        with open(os.path.join(tmp, "d", "frames.csv")) as f:
            for row in csv.DictReader(f):
                frames.setdefault(int(row["frame"]), []).append(row)
        first, last = min(frames), max(frames)
        hand = str(N)  # the pit's balls are ids 0 .. N-1; the hand is spawned next
        start = frames[first]
        check(len(start) == N and all(float(r["vx"]) == 0.0 and float(r["vy"]) == 0.0
                                      for r in start),
              "after --settle %d the pit's %d balls lie still (asleep)" % (SETTLE, N))
        check(all(len(frames[k]) == N + 1 and any(r["id"] == hand for r in frames[k])
                  for k in frames if k > first),
              "the hand is ball %s, made at the first step" % hand)

        # The sides are contacts that put a ball back at every pass: none
        # ends a step further into one than the clean-up's tolerance
        # (BP_CLEANUP_OVER_R, 0.01 of the radius).
        worst = 0.0
        for rows in frames.values():
            for r in rows:
                x, y, rad = float(r["x"]), float(r["y"]), float(r["r"])
                worst = max(worst, (rad - x) / rad, (x - (w - rad)) / rad,
                            (rad - y) / rad, (y - (h - rad)) / rad)
        check(worst <= 0.01, "no ball leaves the arena or sinks into a side by 0.01 r",
              "deepest: %.4f r" % worst)

        # The hand shoves (restitution 0 against it): a ball it hits leaves
        # with at most the hand's speed along the normal, and friction adds
        # at most FRICTION times that across it, so sqrt(1 + mu^2) V. Ball-
        # ball hits (restitution 0.5) pass speed on but do not add any.
        # Gravity adds what a ball gains by falling below where it was hit:
        # in a pile, at most into the hole the hand leaves behind, its
        # diameter and a ball's.
        shove = HAND_V * math.sqrt(1.0 + FRICTION * FRICTION)
        bound = math.sqrt(shove * shove + 2.0 * GRAVITY * (2.0 * HAND_R + 2.0 * R))
        fastest, where = 0.0, None
        for k, rows in frames.items():
            for r in rows:
                if r["id"] != hand:
                    v = math.hypot(float(r["vx"]), float(r["vy"]))
                    if v > fastest:
                        fastest, where = v, (k, r["id"])
        check(fastest <= bound,
              "no ball moves faster than the hand can fling it (%.0f px/s)" % bound,
              "%.1f px/s at frame, id %s" % (fastest, where))
        check(fastest >= 0.5 * HAND_V, "the hand does fling balls (at least half its speed)",
              "fastest %.1f px/s" % fastest)

        # The pit's target above 1,000 balls: no overlap deeper than 0.1 r.
        end = [(float(r["x"]), float(r["y"]), float(r["r"])) for r in frames[last]]
        deep = deepest_overlap(end)
        check(deep <= 0.1, "half a second after the hand lets go, no overlap is deeper than "
              "0.1 r", "deepest %.4f r" % deep)
    return done()


if __name__ == "__main__":
    sys.exit(main())
