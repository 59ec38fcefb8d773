#!/usr/bin/env python3
"""Golden run of a big scene: the parts of the step a six-ball golden dump
never reaches. 9,000 balls (the step reorders balls in memory from 2,048
on, and shares its work between threads from 8,192 on), slanted walls and
pegs, and a row of balls fired at 6,000 px/s (the fast-ball sweep), run for
120 steps.

- --threads 1, 2 and 3 must write byte-identical frames.csv files.
- The SHA-256 of that file must equal tests/golden/big.sha256. A hash and
  not the file: 9,000 rows a frame are megabytes, and a pit of this size
  is chaotic, so any change at all moves every ball by pixels within the
  run (no tolerance could tell rounding from a change). The run is
  deterministic: on the machines the project builds on it gives the same
  bits every time.

The hash is regenerated only on purpose, when the physics or the dump
format changes on purpose:

    python3 tests/cli_golden_big.py build/ballpit --regenerate

usage: cli_golden_big.py PATH/TO/ballpit [--regenerate]   (TAP on stdout)
"""
import hashlib
import os
import subprocess
import sys
import tempfile

from taplib import check, done

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "golden", "big.sha256")
STEPS = "120"


def write_scene(path):
    """The scene, from a fixed linear congruential sequence (no library
    random numbers whose algorithm might change)."""
    state = [12345]

    def uniform():
        state[0] = (state[0] * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return (state[0] >> 11) / float(1 << 53)

    w, h = 2400, 1500
    lines = ["world w=%d h=%d gravity=980 restitution=0.6 friction=0.3 rolling=0.01 "
             "drag=0.05 hz=120" % (w, h),
             "wall x1=100 y1=900 x2=1100 y2=1250 r=4",
             "wall x1=2300 y1=850 x2=1300 y2=1250 r=4"]
    for k in range(12):
        lines.append("wall x1=%d y1=600 x2=%d y2=600 r=6" % (200 + 180 * k, 200 + 180 * k))
    # A jittered grid of 8,960 balls in the upper part, clear of the pegs.
    n = 0
    for row in range(56):
        for col in range(160):
            x = 10 + col * 15 + uniform() * 2.0
            y = 10 + row * 10 + uniform() * 1.0
            if abs(y - 600) < 14:
                continue
            r = 3.0 + uniform() * 1.5
            vx = (uniform() - 0.5) * 200.0
            lines.append("ball x=%.3f y=%.3f r=%.3f vx=%.3f" % (x, y, r, vx))
            n += 1
    # Fast balls fired along the floor into everything that lands there.
    for k in range(9000 - n):
        lines.append("ball x=%d y=%d r=4 vx=6000 vy=-50" % (20 + 10 * k, h - 60 - (k % 5) * 9))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def run(ballpit, tmp, scene, threads):
    out = os.path.join(tmp, "t%d" % threads)
    p = subprocess.run([ballpit, "--headless", "--steps", STEPS, "--scene", scene,
                        "--threads", str(threads), "--dump", out, "--dump-every", STEPS],
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=600)
    data = b""
    if p.returncode == 0:
        with open(os.path.join(out, "frames.csv"), "rb") as f:
            data = f.read()
    return p, data


def main():
    ballpit = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        scene = os.path.join(tmp, "big.scene")
        write_scene(scene)
        p1, one = run(ballpit, tmp, scene, 1)
        check(p1.returncode == 0, "big golden: the run exits 0", p1.stderr)
        digest = hashlib.sha256(one).hexdigest()
        if len(sys.argv) > 2 and sys.argv[2] == "--regenerate":
            with open(GOLDEN, "w") as f:
                f.write(digest + "\n")
            print("wrote " + GOLDEN)
            return 0
        rows = one.count(b"\n") - 1
        check(rows == 2 * 9000, "big golden: frames 0 and %s, 9,000 balls each" % STEPS,
              "%d rows" % rows)
        for threads in (2, 3):
            p, other = run(ballpit, tmp, scene, threads)
            check(p.returncode == 0 and other == one,
                  "big golden: --threads %d writes the same bytes as one thread" % threads,
                  p.stderr)
        with open(GOLDEN) as f:
            want = f.read().strip()
        check(digest == want, "big golden: frames.csv has the checked-in SHA-256",
              "got %s, want %s" % (digest, want))
    return done()


if __name__ == "__main__":
    sys.exit(main())
