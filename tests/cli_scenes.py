#!/usr/bin/env python3
"""The example scenes (scenes/*.scene) load and run headless for 600 steps,
under each solver, and in every dumped frame every ball is inside the arena
and clear of every wall: its centre at least r + wall r from the wall's
core segment, less 1e-6 px for the passes' rounding, and under the soft
solver less 0.05 r: its contacts are springs that press in by their load (a
ball at the neck of the heap's full hopper: 0.077 px, 0.013 r), held to the
depth the one solver may leave between two balls of a pile. A ball that had
passed through a wall, or sat inside one, would be off by pixels.

usage: cli_scenes.py PATH/TO/ballpit   (TAP on stdout)
"""
import glob
import math
import os
import subprocess
import sys
import tempfile

from taplib import check as report, done

HERE = os.path.dirname(os.path.abspath(__file__))
SCENES = sorted(glob.glob(os.path.join(HERE, "..", "scenes", "*.scene")))
# How far a ball may be into a side or wall, px, for its radius r.
TOLERANCE = {"passes": lambda r: 1e-6, "soft": lambda r: 0.05 * r}


def statements(path, keyword):
    out = []
    with open(path) as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if words and words[0] == keyword:
                out.append({k: float(v) for k, v in (w.split("=", 1) for w in words[1:])})
    return out


def seg_dist(px, py, w):
    dx, dy = w["x2"] - w["x1"], w["y2"] - w["y1"]
    L2 = dx * dx + dy * dy
    t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((px - w["x1"]) * dx + (py - w["y1"]) * dy) / L2))
    return math.hypot(px - (w["x1"] + t * dx), py - (w["y1"] + t * dy))


def check(ballpit, scene, solver, tmp):
    out = os.path.join(tmp, solver + "-" + os.path.basename(scene))
    p = subprocess.run([ballpit, "--scene", scene, "--solver", solver, "--headless", "--steps",
                        "600", "--dump", out, "--dump-every", "10"], stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        return False, "exit %d: %s" % (p.returncode, p.stderr)
    world = (statements(scene, "world") or [{}])[0]
    W, H = world.get("w", 1024.0), world.get("h", 768.0)
    walls = statements(scene, "wall")
    for w in walls:
        w.setdefault("r", 2.0)
    balls = len(statements(scene, "ball"))
    with open(os.path.join(out, "frames.csv")) as f:
        rows = f.read().splitlines()[1:]
    frames = {}
    for row in rows:
        c = row.split(",")
        frame, x, y, r = int(c[0]), float(c[3]), float(c[4]), float(c[7])
        frames[frame] = frames.get(frame, 0) + 1
        tol = TOLERANCE[solver](r)
        if not (r - tol <= x <= W - r + tol and r - tol <= y <= H - r + tol):
            return False, "frame %d: ball %s outside the arena at (%g, %g)" % (frame, c[2], x, y)
        for k, w in enumerate(walls):
            d = seg_dist(x, y, w)
            if d < r + w["r"] - tol:
                return False, ("frame %d: ball %s at (%g, %g) is %g px into wall %d"
                               % (frame, c[2], x, y, r + w["r"] - d, k))
    if len(frames) != 61 or any(n != balls for n in frames.values()):
        return False, "expected 61 frames of %d balls" % balls
    return True, ""


def main():
    ballpit = os.path.abspath(sys.argv[1])
    results = [(len(SCENES) >= 3, "scenes: at least three example scenes", "")]
    with tempfile.TemporaryDirectory() as tmp:
        for solver in TOLERANCE:
            for scene in SCENES:
                ok, detail = check(ballpit, scene, solver, tmp)
                results.append((ok, "scenes: %s runs 600 steps under the %s solver with every "
                                "ball in the arena and clear of every wall"
                                % (os.path.basename(scene), solver), detail))
    for ok, what, detail in results:
        report(ok, what, detail.strip())
    return done()


if __name__ == "__main__":
    sys.exit(main())
