#!/usr/bin/env python3
"""The benchmark line: `--bench N` prints exactly one line with the
documented fields in the documented order (docs/cli.md), and what the line
reports holds together (steps/s from wall time, ball-steps/s from steps/s, a firm
pile, nobody out). Speed itself is never judged here: that is what
`meson test --benchmark` is for.

usage: cli_bench.py PATH/TO/ballpit   (TAP on stdout)
"""
import os
import re
import subprocess
import sys

from taplib import check, done

BALLPIT = os.path.abspath(sys.argv[1])

LINE = re.compile(
    r"^engine=ballpit n=(\d+) steps=600 threads=(\d+) wall_s=([0-9.]+) "
    r"steps_per_s=([0-9.]+) ball_steps_per_s=(\d+) max_overlap_over_r=([0-9.]+) "
    r"escaped=(\d+)( aspect=([0-9.e+-]+))?( case=crowd)?( solver=soft)?$")


def bench(args):
    """Runs --bench; returns the fields of its line, or None with a check
    that says why."""
    p = subprocess.run([BALLPIT] + args, stdin=subprocess.DEVNULL, capture_output=True,
                       text=True, timeout=600)
    lines = p.stdout.splitlines()
    match = LINE.match(lines[0]) if len(lines) == 1 else None
    check(p.returncode == 0 and match is not None and p.stderr == "",
          "%s prints one bench line" % " ".join(args),
          "exit %d stdout %r stderr %r" % (p.returncode, p.stdout, p.stderr))
    if not match:
        return None
    g = match.groups()
    return {"n": int(g[0]), "threads": int(g[1]), "wall_s": float(g[2]),
            "steps_per_s": float(g[3]), "ball_steps_per_s": int(g[4]),
            "overlap": float(g[5]), "escaped": int(g[6]), "aspect": g[8],
            "crowd": g[9] is not None, "soft": g[10] is not None}


def consistent(f, n, threads, what):
    """The line's own figures agree with each other and with the request."""
    # steps_per_s is printed to 0.1 and wall_s to 1e-6 s: allow the rounding
    # of both (half a microsecond of a short run is a sizeable fraction).
    rate = 600.0 / f["wall_s"]
    slack = 0.05 + rate * 0.6e-6 / f["wall_s"]
    check(f["n"] == n and f["threads"] == threads, what + ": n and threads echo the request")
    check(abs(f["steps_per_s"] - rate) <= slack,
          what + ": steps_per_s = 600 / wall_s", "%r vs %r" % (f["steps_per_s"], rate))
    check(abs(f["ball_steps_per_s"] - f["steps_per_s"] * n) <= 0.5 + 0.05 * n,
          what + ": ball_steps_per_s = steps_per_s * n")


def main():
    one = bench(["--bench", "1000"])
    if one:
        consistent(one, 1000, 1, "1,000 balls")
        # The target for this pit: deepest overlap at most 0.05 r.
        check(one["escaped"] == 0 and one["overlap"] <= 0.05,
              "1,000 balls: nobody out, deepest overlap at most 0.05 r", str(one))
        check(one["aspect"] is None, "the standard pit's line has no aspect field")

    two = bench(["--bench", "1000", "--threads", "2"])
    if one and two:
        consistent(two, 1000, 2, "1,000 balls, two threads")
        check(two["overlap"] == one["overlap"],
              "two threads end in the same pile as one (same deepest overlap)",
              "%r vs %r" % (two["overlap"], one["overlap"]))

    # A pit ten times as wide with ten times the balls has the 1,000-ball
    # pit's depth (H = sqrt(N pi r^2 / (0.35 A))): it must be as firm.
    wide = bench(["--bench", "10000", "--bench-aspect", "16"])
    if wide:
        consistent(wide, 10000, 1, "10,000 balls at aspect 16")
        check(wide["aspect"] == "16", "a pit of another shape says its aspect",
              str(wide["aspect"]))
        check(wide["escaped"] == 0 and wide["overlap"] <= 0.05,
              "10,000 balls at the 1,000-ball pit's depth: nobody out, overlap <= 0.05 r",
              str(wide))

    # The all-awake crowd: the same pit without gravity, restitution 1,
    # friction 0. A gas: its balls touch only in passing, and none leaves.
    crowd = bench(["--bench-crowd", "1000"])
    if crowd:
        consistent(crowd, 1000, 1, "a crowd of 1,000 balls")
        check(crowd["crowd"] and crowd["aspect"] is None,
              "the crowd's line ends with case=crowd", str(crowd))
        check(crowd["escaped"] == 0 and crowd["overlap"] <= 0.05,
              "a crowd of 1,000 balls: nobody out, deepest overlap at most 0.05 r", str(crowd))
        check(one is None or not one["crowd"], "the pit's line has no case field")
    crowd2 = bench(["--bench-crowd", "1000", "--threads", "2"])
    if crowd and crowd2:
        check(crowd2["overlap"] == crowd["overlap"],
              "a crowd on two threads ends as on one (same deepest overlap)",
              "%r vs %r" % (crowd2["overlap"], crowd["overlap"]))

    # The soft solver on the same pit: said at the line's end; the 1,000
    # balls stay in and their deepest overlap within 0.05 r.
    soft = bench(["--bench", "1000", "--solver", "soft"])
    if soft:
        consistent(soft, 1000, 1, "the pit of 1,000 with the soft solver")
        check(soft["soft"] and soft["escaped"] == 0 and soft["overlap"] <= 0.05,
              "--solver soft: the line ends with solver=soft, nobody out, overlap <= 0.05 r",
              str(soft))
        check(one is None or not one["soft"], "the passes' line has no solver field")

    single = bench(["--bench", "1"])
    if single:
        check(single["escaped"] == 0 and single["overlap"] == 0.0,
              "a pit of one ball: it stays in, with nothing to overlap", str(single))
    return done()


if __name__ == "__main__":
    sys.exit(main())
