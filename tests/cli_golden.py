#!/usr/bin/env python3
"""Golden dump: tests/golden/small.scene run for 240 steps must reproduce the
checked-in tests/golden/small.frames.csv to 1e-6 (relative, or absolute below
1) on every number of the fixed columns frame,t,id,x,y,vx,vy,r,angle,w.

Why 1e-6: the run is deterministic, so on one machine the bytes match
exactly; across compilers and libm versions only rounding differs (one ulp
of exp() in the drag factor), and in this six-ball scene a 1e-12 change of a
start position moves the last frame by 4e-11. 1e-6 therefore absorbs any
rounding noise while every real change of the physics (a different law, a
changed threshold, another integration order) moves balls by pixels.

The golden file is regenerated only on purpose, when the physics changes on
purpose, and the diff reviewed in the same commit:

    python3 tests/cli_golden.py build/ballpit --regenerate

usage: cli_golden.py PATH/TO/ballpit [--regenerate]   (TAP on stdout)
"""
import os
import shutil
import subprocess
import sys
import tempfile

from taplib import check, done

HERE = os.path.dirname(os.path.abspath(__file__))
SCENE = os.path.join(HERE, "golden", "small.scene")
GOLDEN = os.path.join(HERE, "golden", "small.frames.csv")
STEPS = "240"
FIXED_COLUMNS = ["frame", "t", "id", "x", "y", "vx", "vy", "r", "angle", "w"]
TOLERANCE = 1e-6


def run_scene(ballpit, tmp):
    out = os.path.join(tmp, "golden-run")
    p = subprocess.run([ballpit, "--headless", "--steps", STEPS, "--scene", SCENE, "--dump", out],
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    return p, os.path.join(out, "frames.csv")


def fixed_rows(path):
    with open(path) as f:
        lines = f.read().splitlines()
    header = lines[0].split(",")
    cols = [header.index(c) for c in FIXED_COLUMNS]
    return header, [[float(line.split(",")[k]) for k in cols] for line in lines[1:]]


def main():
    ballpit = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        p, produced = run_scene(ballpit, tmp)
        if len(sys.argv) > 2 and sys.argv[2] == "--regenerate":
            if p.returncode != 0:
                sys.stderr.write(p.stderr)
                return 1
            shutil.copyfile(produced, GOLDEN)
            print("wrote " + GOLDEN)
            return 0

        results = []
        results.append((p.returncode == 0, "golden: the scene runs", p.stderr))
        if p.returncode == 0:
            header, got = fixed_rows(produced)
            _, want = fixed_rows(GOLDEN)
            results.append((header[:10] == FIXED_COLUMNS, "golden: header starts with the fixed "
                            "columns, angle and w right after r", ",".join(header)))
            results.append((len(got) == len(want), "golden: 241 frames of 6 balls, as checked "
                            "in", "%d rows, want %d" % (len(got), len(want))))
            worst, where = 0.0, None
            for n, (g, w) in enumerate(zip(got, want)):
                for k, (a, b) in enumerate(zip(g, w)):
                    err = abs(a - b) / max(1.0, abs(b))
                    if err > worst:
                        worst, where = err, (n + 2, FIXED_COLUMNS[k], a, b)
            results.append((len(got) == len(want) and worst <= TOLERANCE,
                            "golden: every number within 1e-6 of the checked-in dump",
                            "worst %.3g at line %s column %s: got %r want %r"
                            % ((worst,) + where) if where else ""))
    for ok, what, detail in results:
        check(ok, what, detail.strip())
    return done()


if __name__ == "__main__":
    sys.exit(main())
