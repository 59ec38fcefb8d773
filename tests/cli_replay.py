#!/usr/bin/env python3
"""--replay at the process level, no display: a checked-in recording grabs
ball 0 of tests/data/pile.scene, drags it through the pile, lifts it and
flings it. The frame dump must show the ball following the cursor exactly,
the pile shoved aside, and the ball leaving with the recorded velocity.
Malformed and truncated recordings must be refused with status 2 and one
FILE:LINE message, before any output is written.

usage: cli_replay.py PATH/TO/ballpit   (TAP on stdout)
"""
import math
import os
import struct
import subprocess
import sys
import tempfile

from taplib import check, done

BALLPIT = os.path.abspath(sys.argv[1])
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
SCENE = os.path.join(DATA, "pile.scene")
FLING = os.path.join(DATA, "fling.rec")


def run(args, cwd):
    return subprocess.run([BALLPIT] + args, cwd=cwd, stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=120)


def read_frames(path):
    """{frame: {id: (x, y, vx, vy, r)}} from frames.csv."""
    frames = {}
    with open(path) as f:
        header = f.readline().strip().split(",")
        col = {name: k for k, name in enumerate(header)}
        for line in f:
            v = line.strip().split(",")
            row = tuple(float(v[col[k]]) for k in ("x", "y", "vx", "vy", "r"))
            frames.setdefault(int(v[col["frame"]]), {})[int(v[col["id"]])] = row
    return frames


def read_recording(path):
    """[(step, kind, [numbers])] and the end step."""
    inputs, end = [], None
    with open(path) as f:
        for line in f.readlines()[1:]:
            words = line.split("#")[0].split()
            if not words:
                continue
            if words[0] == "end":
                end = int(words[1])
            else:
                inputs.append((int(words[0]), words[1], [float(w) for w in words[2:]]))
    return inputs, end


def meets(a0, a1, b0, b1, reach):
    """Whether two balls, each moving straight from one frame to the next
    (a0 to a1, b0 to b1), approach each other in the step and come within
    reach of touching."""
    px, py = b0[0] - a0[0], b0[1] - a0[1]
    dx, dy = (b1[0] - a1[0]) - px, (b1[1] - a1[1]) - py
    toward = -(px * dx + py * dy)
    if toward <= 0.0:
        return False  # parting (or still): no impact in this step
    t = min(1.0, toward / (dx * dx + dy * dy))
    return math.hypot(px + dx * t, py + dy * t) < a1[4] + b1[4] + reach


def fling(tmp, solver):
    """The recorded fling replayed under solver. The soft solver's contacts
    give under load, by g / omega^2 = 0.00088 px for each weight they carry
    (omega = 2 pi 0.35 480 Hz): the held ball (r 20) drives ball 1 (r 16)
    into the side with up to the hand's strength, 2 r 120^2 px/s^2 on its
    400 units of mass, 920 of ball 1's weights: 0.81 px, 0.051 r. And it
    adds a step's gravity in four substeps (equal to one step's to
    rounding). So under it a ball may be 0.06 r into a side and the
    gravity is compared to 1e-9."""
    soft = solver == "soft"
    out = os.path.join(tmp, "fling-" + solver)
    res = run(["--headless", "--scene", SCENE, "--replay", FLING, "--dump", out,
               "--solver", solver], tmp)
    check(res.returncode == 0, "%s: headless replay of the fling exits 0" % solver,
          res.stderr.decode())
    if res.returncode != 0:
        return
    frames = read_frames(os.path.join(out, "frames.csv"))
    inputs, end = read_recording(FLING)
    check(sorted(frames) == list(range(end + 1)),
          "%s: without --steps it runs as long as the recording: frames 0..%d" % (solver, end))

    grab = next(i for i in inputs if i[1] == "grab")
    release = next(i for i in inputs if i[1] == "release")
    b0 = frames[grab[0]][0]
    offset = (b0[0] - grab[2][0], b0[1] - grab[2][1])
    # A move at step s sets the target; the held ball, infinitely heavy,
    # reaches it in step s+1 whatever is in the way, up to the rounding of
    # (target - x) / dt * dt: far below 1e-9 px.
    misses = []
    for step, kind, v in inputs:
        if kind != "move" or step >= release[0]:
            continue
        if step + 1 < len(frames) and not any(s == step + 1 and k == "move" for s, k, _ in inputs):
            x, y = frames[step + 1][0][:2]
            want = (v[0] + offset[0], v[1] + offset[1])
            if abs(x - want[0]) > 1e-9 or abs(y - want[1]) > 1e-9:
                misses.append("step %d: at (%r, %r), target (%r, %r)" % (step + 1, x, y, *want))
    check(not misses, "%s: while held, ball 0 is at cursor + grab offset after every step "
          "(no jump at the grab, never pushed back by the pile)" % solver, "\n".join(misses))

    pile = [i for i in frames[0] if i != 0]
    start, mid = frames[grab[0]], frames[70]
    moved = [i for i in pile if math.hypot(mid[i][0] - start[i][0], mid[i][1] - start[i][1]) > 10]
    check(len(moved) >= len(pile) // 2,
          "%s: dragging through the pile shoved most of it aside (%d of %d moved > 10 px)"
          % (solver, len(moved), len(pile)))
    give = 0.06 if soft else 0.0
    outside = [(f, i) for f, balls in frames.items() for i, b in balls.items()
               if not (b[4] * (1 - give) <= b[0] <= 640 - b[4] * (1 - give) and
                       b[4] * (1 - give) <= b[1] <= 480 - b[4] * (1 - give))]
    check(not outside, "%s: no ball ever leaves the 640x480 arena" % solver, str(outside[:5]))

    # Released at step S with velocity (VX, VY): step S+1 adds gravity
    # g dt to vy and (drag 0) nothing else, in the same double arithmetic
    # the program uses, so the comparison is exact.
    s, (vx, vy) = release[0], release[2]
    after = frames[s + 1][0]
    dt = 1.0 / 120.0
    fell = vy + 980.0 * dt
    check(after[2] == vx and (abs(after[3] - fell) < 1e-9 if soft else after[3] == fell),
          "%s: ball 0 leaves with the recorded velocity (%g, %g), plus one step of gravity"
          % (solver, vx, vy), "got vx=%r vy=%r" % (after[2], after[3]))
    before = frames[s][0]
    check(abs(after[0] - (before[0] + vx * dt)) < 1e-9,
          "%s: and moves by v dt in that step (free flight)" % solver)
    # The balls the lift carried up fly on around it: free flight lasts
    # until, in a step, it approaches one of them (each moving straight
    # from one frame to the next) within a pixel, or comes within a pixel
    # of a side. The soft solver meets an impact at the start of the
    # substep (a quarter step) in which it would touch: up to a substep's
    # approach apart.
    def touching(f):
        b0, b1 = frames[f - 1][0], frames[f][0]
        near_side = min(b1[0], 640 - b1[0], b1[1], 480 - b1[1]) < b1[4] + 1.0
        def reach(i):
            o0 = frames[f - 1][i]
            return 1.0 + (math.hypot(o0[2] - b0[2], o0[3] - b0[3]) * dt / 4 if soft else 0.0)
        return near_side or any(meets(b0, b1, frames[f - 1][i], o, reach(i))
                                for i, o in frames[f].items() if i != 0)
    free = 0
    while s + free + 1 in frames and not touching(s + free + 1):
        free += 1
    later = frames[s + free][0]
    check(free >= 4 and later[2] == vx and abs(later[0] - (before[0] + free * vx * dt)) < 1e-9,
          "%s: %d steps later, before it meets another ball, it is still in free flight at "
          "vx = %g px/s, %d vx dt further" % (solver, free, vx, free),
          "x=%r vx=%r" % (later[0], later[2]))


def bad_recordings(tmp):
    with open(FLING) as f:
        lines = f.read().split("\n")
    cases = []
    cut = os.path.join(tmp, "cut.rec")
    with open(cut, "w") as f:  # cut off after 40 lines: no end line
        f.write("\n".join(lines[:40]) + "\n")
    cases.append((cut, 41, "a recording cut after a whole line (no end line)"))
    mid = os.path.join(tmp, "mid.rec")
    with open(mid, "w") as f:  # cut in the middle of line 30
        f.write("\n".join(lines[:29]) + "\n" + lines[29][:5])
    cases.append((mid, 30, "a recording cut in the middle of a line"))
    garbled = os.path.join(tmp, "garbled.rec")
    with open(garbled, "w") as f:
        f.write("\n".join(lines[:6] + ["12 move 100 abc"] + lines[7:]))
    cases.append((garbled, 7, "a malformed number on line 7"))
    for path, line, what in cases:
        out = os.path.join(tmp, "out-" + os.path.basename(path))
        res = run(["--headless", "--scene", SCENE, "--replay", path, "--dump", out], tmp)
        err = res.stderr.decode().strip()
        check(res.returncode == 2, what + ": exit status 2", "status %d" % res.returncode)
        check(("%s:%d: " % (path, line)) in err and "\n" not in err,
              what + ": one line naming %s:%d" % (os.path.basename(path), line), err)
        check(not os.path.exists(os.path.join(out, "frames.csv")), what + ": no dump written")
    res = run(["--headless", "--replay", os.path.join(tmp, "missing.rec")], tmp)
    check(res.returncode == 2 and "missing.rec" in res.stderr.decode(),
          "a recording that does not exist is bad input (2)", res.stderr.decode())


HEAP = os.path.join(os.path.dirname(DATA), "..", "scenes", "heap.scene")


def scene_recording(tmp, scene_lines, name="load.rec"):
    """A recording by hand: gravity off at step 10, the scene loaded at step
    20 (its lines embedded), restitution 1 and a spawned ball after it."""
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write("ballpit-input 1\n10 set gravity 0\n")
        f.write("20 scene %d\n" % len(scene_lines))
        f.write("".join(line + "\n" for line in scene_lines))
        f.write("25 set restitution 1\n25 spawn 900 700 6\nend 60\n")
    return path


def scene_load(tmp):
    with open(HEAP) as f:
        heap = f.read().split("\n")[:-1]
    balls = sum(1 for line in heap if line.startswith("ball "))
    rec = scene_recording(tmp, heap)
    runs = []
    for k in range(2):
        out = os.path.join(tmp, "load-%d" % k)
        saved = os.path.join(tmp, "load-%d.scene" % k)
        res = run(["--headless", "--balls", "40", "--arena", "800x600", "--replay", rec,
                   "--dump", out, "--dump-every", "20", "--png", "--save-scene", saved], tmp)
        check(res.returncode == 0, "replay %d of a recording that loads the heap exits 0" % k,
              res.stderr.decode())
        files = sorted(os.listdir(out)) if os.path.isdir(out) else []
        runs.append({name: open(os.path.join(out, name), "rb").read() for name in files})
    check(runs[0] and runs[0] == runs[1] and "frame-000060.png" in runs[0],
          "two replays give byte-identical frames.csv, energy.csv and PNG frames",
          str(sorted(runs[0])))
    # Only the window refuses a load while dumping: a replayed one changes
    # the arena, and the PNG frames' size with it (docs/cli.md).
    sizes = [struct.unpack(">II", runs[0].get(name, b"")[16:24] or b"\0" * 8)
             for name in ("frame-000000.png", "frame-000060.png")]
    check(sizes == [(800, 600), (1024, 768)],
          "the PNG frames after the load take the heap's arena size", str(sizes))
    frames = read_frames(os.path.join(tmp, "load-0", "frames.csv"))
    check(len(frames.get(20, {})) == 40 and len(frames.get(40, {})) == balls + 1,
          "40 random balls before the load; the heap's %d and the spawned one after it" % balls,
          "%d, %d" % (len(frames.get(20, {})), len(frames.get(40, {}))))
    with open(os.path.join(tmp, "load-0.scene")) as f:
        world = f.read().split("\n")[1]
    check("w=1024 " in world and "gravity=980 " in world and "restitution=1 " in world and
          "hz=120" in world,
          "after it the world has the heap's arena and gravity, and the restitution set", world)
    cases = [
        (["world w=500"], 5, "unknown keyword", "a scene that swallows the next input"),
        (["world w=5"], 4, "width", "a scene whose arena is too small"),
        (["world w=500 h=400", "ball x=600 y=10 r=5"], 5, "inside", "a ball outside its arena"),
    ]
    for k, (lines, line, word, what) in enumerate(cases):
        path = scene_recording(tmp, lines, "bad-%d.rec" % k)
        if k == 0:  # claims one line fewer than it holds
            with open(path) as f:
                text = f.read().replace("20 scene 1\n", "20 scene 2\n")
            with open(path, "w") as f:
                f.write(text)
        out = os.path.join(tmp, "bad-out-%d" % k)
        res = run(["--headless", "--replay", path, "--dump", out], tmp)
        err = res.stderr.decode().strip()
        check(res.returncode == 2 and ("%s:%d: " % (path, line)) in err and word in err and
              "\n" not in err and not os.path.exists(os.path.join(out, "frames.csv")),
              what + ": exit 2, one line naming FILE:%d, no dump" % line, err)
    small = scene_recording(tmp, ["world w=100 h=100"], "small.rec")
    res = run(["--headless", "--replay", small, "--radius", "30"], tmp)
    err = res.stderr.decode().strip()
    check(res.returncode == 2 and (small + ":3: scene: --balls") in err and "\n" not in err,
          "a scene too small for the run's --radius balls: exit 2, FILE:LINE of its input", err)
    # Checked with the run's options before anything is written: reached
    # mid-run, the dump was already half written (and exit 1 for --png).
    tiny = scene_recording(tmp, ["world w=40 h=40"], "tiny.rec")
    wide = scene_recording(tmp, ["world w=20000 h=100"], "wide.rec")
    late = [
        (["--radius", "30", "--png"], small, ": scene: --balls",
         "a scene the run's --radius does not fit, with --dump --png"),
        (["--balls", "3", "--png"], wide, ": scene: --png: a 20000x100 arena",
         "a scene wider than a PNG may be, with --dump --png"),
        # --arena does not change a scene input's arena: not to be advised.
        ([], tiny, ": scene: its 40x40 arena",
         "a scene too small for the default balls"),
    ]
    for k, (args, path, words, what) in enumerate(late):
        out = os.path.join(tmp, "late-%d" % k)
        res = run(["--headless", "--replay", path, "--dump", out] + args, tmp)
        err = res.stderr.decode().strip()
        check(res.returncode == 2 and (path + ":3" + words) in err and "\n" not in err and
              (path != tiny or "--arena" not in err) and
              not os.path.exists(out),
              what + ": exit 2, one line naming FILE:3, no --arena, no dump", err)
    # The window refuses it the same way (no display needed: SDL's dummy).
    env = dict(os.environ, SDL_VIDEODRIVER="dummy")
    res = subprocess.run([BALLPIT, "--replay", small, "--radius", "30", "--steps", "40"],
                         cwd=tmp, stdin=subprocess.DEVNULL, capture_output=True, timeout=120,
                         env=env)
    err = res.stderr.decode().strip()
    check(res.returncode == 2 and (small + ":3: scene: --balls") in err and "\n" not in err,
          "a windowed replay of a scene the options do not fit: exit 2, FILE:LINE", err)
    nul = os.path.join(tmp, "nul.rec")
    with open(nul, "wb") as f:
        f.write(b"ballpit-input 1\n20 scene 1\nworld\0 w=500\nend 60\n")
    res = run(["--headless", "--replay", nul], tmp)
    check(res.returncode == 2 and "nul.rec" in res.stderr.decode(),
          "a NUL byte in a scene's line: exit 2", res.stderr.decode())
    huge = os.path.join(tmp, "huge.rec")
    with open(huge, "w") as f:
        f.write("ballpit-input 1\n20 scene 999999999\nworld w=500\nend 60\n")
    res = run(["--headless", "--replay", huge], tmp)
    check(res.returncode == 2 and (huge + ":5: truncated") in res.stderr.decode(),
          "a scene of 999999999 lines in a 4-line file: truncated at FILE:5, at once",
          res.stderr.decode())


def main():
    with tempfile.TemporaryDirectory() as tmp:
        fling(tmp, "passes")
        fling(tmp, "soft")
        bad_recordings(tmp)
        scene_load(tmp)
    return done()


if __name__ == "__main__":
    sys.exit(main())
