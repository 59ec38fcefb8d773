#!/usr/bin/env python3
"""--raycast X,Y,DX,DY: one `hit kind=... id=N dist=D x=X y=Y nx=NX ny=NY`
line per shape entered, nearest first, exit 0, no stepping; bad rays exit 2.

The scene (400x300): ball 0 at (100,100) r 10, ball 1 at (200,100) r 20, a
wall from (300,50) to (300,250) with r 2. Along y = 100 from x = 20 the ray
enters ball 0 at x = 90, ball 1 at 180, the wall's face at 298 and the right
side (arena id 1) at 400, each with normal (-1, 0). Numbers are printed with
9 significant digits, so 1e-6 is plenty.

usage: cli_raycast.py PATH/TO/ballpit   (TAP on stdout)
"""
import os
import subprocess
import sys
import tempfile

from taplib import check, done

SCENE = """world w=400 h=300 gravity=980
ball x=100 y=100 r=10
ball x=200 y=100 r=20
wall x1=300 y1=50 x2=300 y2=250 r=2
"""


def run(ballpit, *args):
    return subprocess.run([ballpit] + list(args), stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)


def parse(line):
    words = line.split()
    if not words or words[0] != "hit":
        return None
    fields = dict(w.split("=", 1) for w in words[1:])
    return (fields["kind"], int(fields["id"]),
            [float(fields[k]) for k in ("dist", "x", "y", "nx", "ny")])


def close(a, b):
    return all(abs(x - y) <= 1e-6 for x, y in zip(a, b))


def main():
    ballpit = os.path.abspath(sys.argv[1])
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        scene = os.path.join(tmp, "ray.scene")
        with open(scene, "w") as f:
            f.write(SCENE)
        p = run(ballpit, "--scene", scene, "--raycast", "20,100,1,0")
        results.append((p.returncode == 0, "raycast: exits 0", p.stderr))
        lines = p.stdout.splitlines()
        hits = [parse(line) for line in lines]
        want = [("ball", 0, [70, 90, 100, -1, 0]), ("ball", 1, [160, 180, 100, -1, 0]),
                ("wall", 0, [278, 298, 100, -1, 0]), ("arena", 1, [380, 400, 100, -1, 0])]
        results.append((len(hits) == 4 and None not in hits,
                        "raycast: four hit lines and nothing else", p.stdout))
        ok = len(hits) == 4 and all(h and h[0] == w[0] and h[1] == w[1] and close(h[2], w[2])
                                    for h, w in zip(hits, want))
        results.append((ok, "raycast: ball 0, ball 1, wall 0, right side, at hand-computed "
                        "distances, points and normals", p.stdout))
        dists = [h[2][0] for h in hits if h]
        results.append((dists == sorted(dists), "raycast: nearest first", p.stdout))

        p = run(ballpit, "--scene", scene, "--raycast", "50,250,0,-2")
        hits = [parse(line) for line in p.stdout.splitlines()]
        results.append((p.returncode == 0 and len(hits) == 1 and hits[0][0] == "arena"
                        and hits[0][1] == 0 and close(hits[0][2], [250, 50, 0, 0, 1]),
                        "raycast: a ray through empty space hits the top side (id 0) only",
                        p.stdout + p.stderr))

        p = run(ballpit, "--scene", scene, "--raycast", "100,100,0,1")
        hits = [parse(line) for line in p.stdout.splitlines()]
        results.append((p.returncode == 0 and len(hits) == 2 and hits[0][:2] == ("ball", 0)
                        and close(hits[0][2], [0, 100, 100, 0, -1])
                        and hits[1][:2] == ("arena", 2) and close(hits[1][2][:3], [200, 100, 300]),
                        "raycast: from inside ball 0, it at distance 0, then the floor (id 2)",
                        p.stdout + p.stderr))

        # The direction's length does not matter, however small or large:
        # it is scaled before it is squared.
        base = run(ballpit, "--scene", scene, "--raycast", "20,100,1,0").stdout
        for d in ["1e-160,0", "1e155,0", "1e-320,0", "1e308,0", "3,-0"]:
            p = run(ballpit, "--scene", scene, "--raycast", "20,100," + d)
            results.append((p.returncode == 0 and p.stdout == base and "nan" not in p.stdout,
                            "raycast: direction (%s) gives exactly the hits of (1,0)" % d,
                            p.stdout + p.stderr))
        # An origin outside the arena is refused, not reported as a hit on it.
        for origin in ["-1e155,100", "500,100", "100,-0.5", "1e308,1e308"]:
            p = run(ballpit, "--scene", scene, "--raycast", origin + ",1,0")
            results.append((p.returncode == 2 and p.stdout == "" and
                            len(p.stderr.splitlines()) == 1 and "--raycast" in p.stderr and
                            "outside the arena" in p.stderr,
                            "raycast: origin (%s) outside the 400x300 arena exits 2" % origin,
                            "status %d, stderr %r" % (p.returncode, p.stderr)))
        p = run(ballpit, "--scene", scene, "--raycast", "400,300,-1,-1")
        results.append((p.returncode == 0 and "nan" not in p.stdout and p.stdout != "",
                        "raycast: an origin on the arena's corner is inside", p.stdout + p.stderr))
        # --steps does not apply: said on stderr, the hits unchanged.
        p = run(ballpit, "--scene", scene, "--raycast", "20,100,1,0", "--steps", "100")
        results.append((p.returncode == 0 and p.stdout == base and
                        len(p.stderr.splitlines()) == 1 and "--steps does not apply" in p.stderr,
                        "raycast: with --steps, one line says it does not apply; hits unchanged",
                        "status %d, stderr %r" % (p.returncode, p.stderr)))

        for bad in ["1,2,3", "1,2,0,0", "1,2,nan,1", "a,b,c,d"]:
            p = run(ballpit, "--scene", scene, "--raycast", bad)
            results.append((p.returncode == 2 and p.stdout == "" and "--raycast" in p.stderr,
                            "raycast: bad ray %r exits 2 naming the option" % bad,
                            "status %d, stderr %r" % (p.returncode, p.stderr)))
    for ok, what, detail in results:
        check(ok, what, detail.strip())
    return done()


if __name__ == "__main__":
    sys.exit(main())
