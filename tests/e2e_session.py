#!/usr/bin/env python3
"""A whole session in a real window, as a person would run it:
under its own Xvfb, ballpit --record-input REC --save-scene LIVE is driven
with xdotool: P opens the panel, the gravity slider is dragged to 0 and the
restitution slider to 1, a small spawn radius is set and S held over the
arena streams balls, Ctrl+O opens the picker and "heap" + Enter loads the
heap scene, the restitution slider is dragged and Ctrl+Z undoes it, Esc
quits. Then REC is replayed headless twice with --dump --png: every file
must be byte-identical, and both must end in the very world the window
saved (the heap's 332 balls, its restitution put back by the undo).

Screenshots of each stage (ImageMagick's import, if installed) go to the
temporary directory, or to $SESSION_SHOTS when set (docs/session.md).
Skipped (TAP SKIP) without Xvfb or xdotool.

usage: e2e_session.py PATH/TO/ballpit   (TAP on stdout)
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

from taplib import check, done
from xwindow import find_window, xdo
import xwindow

BALLPIT = os.path.abspath(sys.argv[1])
HEAP_BALLS = 332
HEAP_RESTITUTION = 0.2

# The panel's layout (src/app/panel.c) on the default 1024x768 arena shown
# at its own size (a 1280x1024 screen holds it; text scale 1): the panel's
# content starts at x = 1024 - 256 - 8 + 12, the World section's sliders'
# tracks run 220 px from x = 778, one slider every 34 px.
TRACK_X0, TRACK_W = 778, 220
GRAVITY_Y, RESTITUTION_Y = 183, 217
SPAWN_RADIUS_Y = 413
SPAWN_RADIUS_HI = 768 / 4  # the radius slider's upper end: a quarter of the arena's height


def track_x(t):
    return round(TRACK_X0 + t * TRACK_W)


def start_xvfb():
    """Xvfb (xwindow.py) tall enough for the panel at its own size."""
    started = xwindow.start_xvfb("1280x1024x24")
    if started is None:
        print("Bail out! Xvfb did not start")
        sys.exit(1)
    return started


def geometry(env, win):
    """(x, y, w, h) of the window on the screen."""
    out = xdo(env, "getwindowgeometry", "--shell", win).stdout.decode()
    g = dict(line.split("=", 1) for line in out.split() if "=" in line)
    return int(g["X"]), int(g["Y"]), int(g["WIDTH"]), int(g["HEIGHT"])


class Shots:
    """import -window root, cropped to the window, one PNG per stage."""

    def __init__(self, env, win, where):
        self.env, self.win, self.where, self.n = env, win, where, 0
        self.ok = shutil.which("import") is not None
        os.makedirs(where, exist_ok=True)

    def take(self, name):
        if not self.ok:
            return
        time.sleep(0.4)  # a frame or two drawn since the last gesture
        self.n += 1
        x, y, w, h = geometry(self.env, self.win)
        path = os.path.join(self.where, "%d-%s.png" % (self.n, name))
        subprocess.run(["import", "-window", "root", "-crop", "%dx%d+%d+%d" % (w, h, x, y),
                        "+repage", path], env=self.env, capture_output=True, timeout=60)


def drag(env, win, x0, y, x1):
    """One xdotool process per drag: press on the track, move in steps, let go."""
    moves = []
    for k in range(1, 5):
        moves += ["mousemove", "--window", win, round(x0 + (x1 - x0) * k / 4), y, "sleep", 0.05]
    xdo(env, "mousemove", "--window", win, x0, y, "sleep", 0.1, "mousedown", 1, "sleep", 0.1,
        *moves, "sleep", 0.1, "mouseup", 1)
    time.sleep(0.3)


def drive(env, win, shots):
    time.sleep(1.0)  # the first frames drawn
    shots.take("start")
    xdo(env, "key", "--window", win, "p")
    shots.take("panel")
    drag(env, win, track_x(980 / 3000), GRAVITY_Y, TRACK_X0 - 30)  # to 0 (the track's left end)
    drag(env, win, track_x(0.9), RESTITUTION_Y, TRACK_X0 + TRACK_W + 30)  # to 1
    # A press on the radius track jumps its knob there: about 5 px.
    t = 0.3045
    xdo(env, "mousemove", "--window", win, track_x(t), SPAWN_RADIUS_Y, "sleep", 0.1,
        "mousedown", 1, "sleep", 0.1, "mouseup", 1)
    shots.take("sliders")
    xdo(env, "mousemove", "--window", win, 360, 380, "sleep", 0.2, "keydown", "s", "sleep", 3,
        "keyup", "s")
    shots.take("stream")
    xdo(env, "key", "--window", win, "ctrl+o")
    time.sleep(0.3)
    xdo(env, "type", "--window", win, "--delay", "60", "heap")
    shots.take("picker")
    xdo(env, "key", "--window", win, "Return")
    time.sleep(0.5)
    shots.take("heap")
    drag(env, win, track_x(HEAP_RESTITUTION), RESTITUTION_Y, track_x(0.8))
    shots.take("restitution")
    xdo(env, "key", "--window", win, "ctrl+z")
    shots.take("undone")


def quit_window(env, win, proc):
    """Esc closes a note first, then asks (unsaved edits), then quits."""
    for _ in range(4):
        if proc.poll() is not None:
            break
        xdo(env, "key", "--window", win, "Escape")
        time.sleep(0.5)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def read_recording(path):
    """[(step, kind, words)], the scene lines left out."""
    inputs = []
    with open(path) as f:
        lines = f.read().split("\n")[1:]
    k = 0
    while k < len(lines):
        words = lines[k].split("#")[0].split()
        k += 1
        if words and words[0] != "end":
            inputs.append((int(words[0]), words[1], words[2:]))
            if words[1] == "scene":
                k += int(words[2])
    return inputs


def ball_count_last(frames_csv):
    last, count = None, 0
    with open(frames_csv) as f:
        f.readline()
        for line in f:
            frame = line.split(",", 1)[0]
            count = count + 1 if frame == last else 1
            last = frame
    return count


def check_recording(rec):
    inputs = read_recording(rec)
    kinds = [i[1] for i in inputs]
    sets = [(i[2][0], float(i[2][1])) for i in inputs if i[1] == "set"]
    check(("gravity", 0.0) in sets and ("restitution", 1.0) in sets,
          "the recording holds gravity dragged to 0 and restitution to 1", str(sets[:8]))
    check(kinds.count("spawn") >= 5, "and a stream of spawns (%d)" % kinds.count("spawn"))
    loads = [i for i in inputs if i[1] == "scene"]
    check(len(loads) == 1 and kinds.index("scene") > kinds.index("spawn"),
          "and one scene load after them", str(loads))
    after = [s for s in sets[len(sets) - 2:]] if len(sets) >= 2 else []
    check(len(after) == 2 and after[0][0] == "restitution" and after[0][1] != HEAP_RESTITUTION
          and after[1] == ("restitution", HEAP_RESTITUTION),
          "the last two sets: the drag after the load, and the undo putting back the heap's %g"
          % HEAP_RESTITUTION, str(after))


def replay_twice(tmp, rec, live_scene):
    outs = []
    for k in range(2):
        out = os.path.join(tmp, "replay-%d" % k)
        saved = os.path.join(tmp, "replay-%d.scene" % k)
        res = subprocess.run([BALLPIT, "--replay", rec, "--headless", "--dump", out, "--png",
                              "--dump-every", "60", "--save-scene", saved], cwd=tmp,
                             capture_output=True, timeout=120)
        check(res.returncode == 0, "headless replay %d exits 0" % k, res.stderr.decode())
        names = sorted(os.listdir(out)) if os.path.isdir(out) else []
        outs.append(({n: open(os.path.join(out, n), "rb").read() for n in names},
                     open(saved, "rb").read() if os.path.exists(saved) else b""))
    files = outs[0][0]
    pngs = [n for n in files if n.endswith(".png")]
    check(len(pngs) >= 3 and outs[0][0] == outs[1][0],
          "the two replays' frames.csv, energy.csv and %d PNG frames are byte-identical"
          % len(pngs))
    live = open(live_scene, "rb").read() if os.path.exists(live_scene) else b"?"
    check(outs[0][1] == live and outs[1][1] == live,
          "both end in the very world the window saved, bit for bit")
    world = live.decode(errors="replace").split("\n")[1]
    params = dict(w.split("=", 1) for w in world.split()[1:] if "=" in w)
    balls = live.count(b"\nball ")
    check(balls == HEAP_BALLS and params.get("w") == "1024" and params.get("gravity") == "980"
          and float(params.get("restitution", "nan")) == HEAP_RESTITUTION,
          "that world is the heap's: %d balls, its gravity, and the restitution the undo put "
          "back" % HEAP_BALLS, "%d balls; %s" % (balls, world))
    frames_csv = os.path.join(tmp, "replay-0", "frames.csv")
    if os.path.exists(frames_csv):
        n = ball_count_last(frames_csv)
        check(n == HEAP_BALLS, "the replay's last frame holds the heap's %d balls" % HEAP_BALLS,
              str(n))


def main():
    for tool in ("Xvfb", "xdotool"):
        if not shutil.which(tool):
            print("1..0 # SKIP %s is not installed" % tool)
            return 0
    xvfb, display = start_xvfb()
    env = dict(os.environ, DISPLAY=display, SDL_VIDEODRIVER="x11")
    env.pop("SDL_AUDIODRIVER", None)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            rec = os.path.join(tmp, "session.rec")
            live_scene = os.path.join(tmp, "live.scene")
            proc = subprocess.Popen([BALLPIT, "--record-input", rec, "--save-scene", live_scene],
                                    cwd=tmp, env=env, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            win = find_window(env, proc)
            check(win is not None, "the window opens")
            if win is None:
                proc.kill()
                return done()
            shots = Shots(env, win, os.environ.get("SESSION_SHOTS") or os.path.join(tmp, "shots"))
            drive(env, win, shots)
            quit_window(env, win, proc)
            check(proc.returncode == 0, "the window quits cleanly with Esc",
                  proc.stderr.read().decode())
            check_recording(rec)
            replay_twice(tmp, rec, live_scene)
    finally:
        xvfb.kill()
        xvfb.wait()
    return done()


if __name__ == "__main__":
    sys.exit(main())
