#!/usr/bin/env python3
"""What --png frames show, measured from their pixels: still balls of radius
2 to 24 are round discs of area pi r^2; each overlay option adds its marks
and leaves them out when not given; energy.csv holds the hand-computed
energies; the overlay options refuse bad values (exit 2, one line).

usage: cli_look.py PATH/TO/ballpit   (TAP on stdout)
"""
import math
import os
import subprocess
import sys
import tempfile

from taplib import check, done
from cli_png import decode_png

BALLPIT = os.path.abspath(sys.argv[1])
BACKGROUND = (0x1a, 0x1f, 0x27)
AWAKE = (0xe8, 0xbb, 0x6c)  # --color-by sleep: every ball awake at frame 0
RADII = [2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24]


def run(args, cwd, timeout=120):
    return subprocess.run([BALLPIT] + args, cwd=cwd, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=timeout)


def frame(tmp, name, scene_text, args, step=0):
    scene = os.path.join(tmp, name + ".scene")
    with open(scene, "w") as f:
        f.write(scene_text)
    p = run(["--headless", "--scene", scene, "--dump", name, "--png"] + args, tmp)
    if p.returncode != 0:
        return None, p.stderr
    return decode_png(os.path.join(tmp, name, "frame-%06d.png" % step)), ""


def coverage(pixel):
    """How much of the pixel the ball covers. Every colour a ball is drawn
    in (fill, rim, spin mark) is its colour times a brightness k, laid over
    the background at coverage a: pixel - bg = a * (-bg) + (a k) * colour.
    Two unknowns, three channels: least squares gives a."""
    d = [pixel[c] - BACKGROUND[c] for c in range(3)]
    u = [-c for c in BACKGROUND]
    v = list(AWAKE)
    uu = sum(x * x for x in u)
    vv = sum(x * x for x in v)
    uv = sum(x * y for x, y in zip(u, v))
    du = sum(x * y for x, y in zip(d, u))
    dv = sum(x * y for x, y in zip(d, v))
    det = uu * vv - uv * uv
    return (du * vv - dv * uv) / det


def bilinear(a, x, y):
    """a sampled at (x, y) in pixel coordinates (pixel centres at +0.5)."""
    x -= 0.5
    y -= 0.5
    i, j = int(math.floor(x)), int(math.floor(y))
    fx, fy = x - i, y - j
    def at(p, q):
        return a.get((p, q), 0.0)
    return ((1 - fx) * (1 - fy) * at(i, j) + fx * (1 - fy) * at(i + 1, j)
            + (1 - fx) * fy * at(i, j + 1) + fx * fy * at(i + 1, j + 1))


def discs_are_round(tmp):
    # Balls well apart, centres off the pixel grid by different amounts.
    lines = ["world w=560 h=64 gravity=0 drag=0"]
    centres, x = [], 6.0
    for k, r in enumerate(RADII):
        x += r
        cx, cy = x + 0.13 * (k % 4), 30.0 + 0.29 * (k % 3)
        centres.append((cx, cy, r))
        lines.append("ball x=%r y=%r r=%d" % (cx, cy, r))
        x += r + 6.0
    rows, err = frame(tmp, "round", "\n".join(lines) + "\n",
                      ["--steps", "0", "--color-by", "sleep"])
    check(rows is not None, "look: still balls of radius 2-24 render", err)
    if rows is None:
        return
    for cx, cy, r in centres:
        # Pixels more than 1.5 px inside the edge must be wholly covered
        # (the ramp covers all within r - 1/2): they count 1 if they are
        # (coverage over 0.9). The band round the edge is measured.
        a, holes = {}, 0
        for py in range(int(cy - r - 3), int(cy + r + 4)):
            for px in range(int(cx - r - 3), int(cx + r + 4)):
                a[(px, py)] = coverage(rows[py][px])
                if math.hypot(px + 0.5 - cx, py + 0.5 - cy) <= r - 1.5:
                    holes += a[(px, py)] < 0.9
                    a[(px, py)] = 1.0
        check(holes == 0, "look: a ball of radius %d is solid inside" % r, holes)
        area = sum(a.values())
        # The one-pixel ramp of the edge adds pi/12 to pi r^2 (paint.h).
        # The rim's colour is the ball's darkened and rounded to whole
        # levels once, which shifts the coverage read from each rim pixel
        # by up to 0.03 (here: 0.5 level against this background and
        # colour): over the band of 1.5 px round the edge, 2 pi r * 1.5
        # pixels, 0.3 r px^2, plus 0.3 for the rest of the rounding.
        want = math.pi * r * r + math.pi / 12
        check(abs(area - want) <= 0.3 + 0.3 * r,
              "look: a ball of radius %d covers pi r^2 = %.1f px^2" % (r, want),
              "measured %.2f" % area)
        mx = sum((p[0] + 0.5) * w for p, w in a.items()) / area
        my = sum((p[1] + 0.5) * w for p, w in a.items()) / area
        # Small discs come from masks cut to a quarter pixel in where the
        # centre lies: within 1/8 px on each axis.
        check(math.hypot(mx - cx, my - cy) <= 0.2,
              "look: radius %d is drawn centred where the ball is" % r,
              "centroid (%.3f, %.3f), ball (%.3f, %.3f)" % (mx, my, cx, cy))
        # The edge: where coverage falls through 1/2, which the ramp puts
        # at distance r, in 32 directions from the measured centre.
        edges = []
        for k in range(32):
            t = 2 * math.pi * k / 32
            d = r - 2.0
            while d < r + 2.0 and bilinear(a, mx + d * math.cos(t), my + d * math.sin(t)) >= 0.5:
                d += 0.02
            edges.append(d)
        # Sampling a ramp linear in distance between pixel centres errs by
        # the curvature, (1/2 px)^2 / 2r <= 0.06 px, and the rounding of
        # levels by about 0.03 px: 0.25 px from side to side is generous,
        # a square or an octagon of this size is off by r (sqrt 2 - 1)/2.
        spread = max(edges) - min(edges)
        mean = sum(edges) / len(edges)
        check(spread <= 0.25 and abs(mean - r) <= 0.15,
              "look: radius %d has its edge %d px from the centre all round" % (r, r),
              "edge from %.3f to %.3f px, mean %.3f" % (min(edges), max(edges), mean))


def differs(rows, x0, y0, x1, y1):
    return sum(1 for y in range(y0, y1) for x in range(x0, x1) if rows[y][x] != BACKGROUND)


def overlays_show_when_asked(tmp):
    # One ball flying right at 300 px/s, one resting in the corner.
    scene = ("world w=300 h=200 gravity=0 drag=0\n"
             "ball x=60 y=100 r=8 vx=300\n"
             "ball x=250 y=30 r=10\n")
    plain, err = frame(tmp, "plain", scene, ["--steps", "60", "--dump-every", "60"], 60)
    check(plain is not None, "look: a plain frame renders", err)
    if plain is None:
        return
    # After 0.5 s the ball is at x = 210.
    check(differs(plain, 80, 95, 190, 106) == 0 and differs(plain, 220, 95, 240, 106) == 0,
          "look: without overlays, behind and ahead of the ball is background")
    trails, _ = frame(tmp, "trails", scene, ["--steps", "60", "--dump-every", "60",
                                             "--trails", "1"], 60)
    check(trails is not None and differs(trails, 100, 97, 190, 104) > 60,
          "look: --trails 1 draws the path behind the ball")
    vectors, _ = frame(tmp, "vectors", scene, ["--steps", "60", "--dump-every", "60",
                                               "--vectors"], 60)
    # The arrow reaches 0.1 s ahead: 30 px, from x = 210 to 240.
    check(vectors is not None and differs(vectors, 220, 98, 238, 103) >= 10
          and differs(vectors, 244, 95, 260, 106) == 0,
          "look: --vectors draws an arrow 0.1 s of flight ahead of the ball")
    inspect, _ = frame(tmp, "inspect", scene, ["--steps", "0", "--inspect", "1"])
    check(inspect is not None and differs(inspect, 0, 0, 300, 200) > differs(
        frame(tmp, "plain0", scene, ["--steps", "0"])[0], 0, 0, 300, 200) + 300,
          "look: --inspect 1 pins a panel of text to ball 1")
    debug, _ = frame(tmp, "debug", scene, ["--steps", "0", "--debug-view"])
    # Grid cells of 2 x the largest radius (and a hair): lines cross the
    # empty top left.
    # (The grid has at most some four cells a ball: 50 px here.)
    check(debug is not None and differs(debug, 0, 40, 40, 60) > 0
          and differs(plain, 0, 40, 40, 60) == 0,
          "look: --debug-view draws the grid")
    speed, _ = frame(tmp, "speed", scene, ["--steps", "0", "--color-by", "speed"])
    ident, _ = frame(tmp, "ident", scene, ["--steps", "0"])
    check(speed is not None and ident is not None and speed[100][58] != ident[100][58],
          "look: --color-by speed colours a ball otherwise than by id")


def inspector_pinned_by_a_recording(tmp):
    scene = os.path.join(tmp, "pin.scene")
    with open(scene, "w") as f:
        f.write("world w=300 h=200 gravity=0 drag=0\nball x=60 y=100 r=8\nball x=250 y=30 r=10\n")
    rec = os.path.join(tmp, "pin.input")
    with open(rec, "w") as f:
        f.write("ballpit-input 1\n5 inspect 1\nend 10\n")
    p = run(["--headless", "--scene", scene, "--replay", rec, "--dump", "pin", "--png",
             "--dump-every", "5"], tmp)
    check(p.returncode == 0, "inspect: a recording that pins the inspector replays", p.stderr)
    if p.returncode != 0:
        return
    # Stamped 5, it acts between steps 5 and 6: frame 5 is drawn before it.
    before = decode_png(os.path.join(tmp, "pin", "frame-000005.png"))
    after = decode_png(os.path.join(tmp, "pin", "frame-000010.png"))
    check(differs(after, 0, 0, 300, 200) > differs(before, 0, 0, 300, 200) + 300,
          "inspect: its --png frames show the panel once it is pinned")


def energy_matches_hand_values(tmp):
    # m = r^2. Ball 0: m 100, v (30, -40), height above its rest 300-10-100
    # = 190. Ball 1: m 400, v (-5, 0), resting on the floor.
    scene = ("world w=400 h=300 gravity=100 drag=0 hz=100\n"
             "ball x=100 y=100 r=10 vx=30 vy=-40\n"
             "ball x=300 y=280 r=20 vx=-5\n")
    path = os.path.join(tmp, "energy.scene")
    with open(path, "w") as f:
        f.write(scene)
    p = run(["--headless", "--scene", path, "--steps", "10", "--dump", "en", "--dump-every",
             "5"], tmp)
    check(p.returncode == 0, "energy: a run with --dump exits 0", p.stderr)
    with open(os.path.join(tmp, "en", "energy.csv")) as f:
        lines = f.read().splitlines()
    check(lines[0] == "frame,t,kinetic,rotational,potential,total,px,py",
          "energy: energy.csv starts with its header", lines[:1])
    check([l.split(",")[:2] for l in lines[1:]] == [["0", "0"], ["5", "0.050000000000000003"],
                                                   ["10", "0.10000000000000001"]],
          "energy: a row per dumped frame, t = frame / hz", lines[1:])
    row = [float(v) for v in lines[1].split(",")]
    kinetic = 0.5 * 100 * (30 ** 2 + 40 ** 2) + 0.5 * 400 * 5 ** 2
    potential = 100 * 100 * 190 + 0
    want = [0, 0, kinetic, 0.0, potential, kinetic + potential, 100 * 30 + 400 * -5, -4000]
    check(all(abs(g - w) <= 1e-9 * max(1.0, abs(w)) for g, w in zip(row, want)),
          "energy: frame 0 holds the hand-computed energies and momentum", (row, want))


def bad_values_exit_2(tmp):
    for args, name in [(["--trails", "-1"], "--trails"), (["--trails", "61"], "--trails"),
                       (["--trails", "nan"], "--trails"), (["--trails", "2s"], "--trails"),
                       (["--color-by", "mass"], "--color-by"), (["--color-by", ""], "--color-by"),
                       (["--inspect", "-3"], "--inspect"), (["--inspect", "x"], "--inspect"),
                       (["--inspect", "4294967296"], "--inspect")]:
        p = run(args + ["--headless", "--steps", "1"], tmp)
        lines = p.stderr.splitlines()
        check(p.returncode == 2 and len(lines) == 1 and name in lines[0] and p.stdout == "",
              "bad input: %s exits 2 with one line naming %s" % (" ".join(args), name),
              (p.returncode, p.stderr))


def main():
    with tempfile.TemporaryDirectory() as tmp:
        discs_are_round(tmp)
        overlays_show_when_asked(tmp)
        energy_matches_hand_values(tmp)
        inspector_pinned_by_a_recording(tmp)
        bad_values_exit_2(tmp)
    return done()


if __name__ == "__main__":
    sys.exit(main())
