#!/usr/bin/env python3
"""End to end in a real window: starts its own Xvfb, runs ballpit with
--steps, --dump and --record-input, and drives the mouse with xdotool like
a person would: grab ball 1, drag it and hold it still before letting go
(it must drop, not fly), then grab ball 0 and fling it (it must fly off
with the flick's speed). Afterwards the recording, replayed headless and in
a window, must reproduce the live frames.csv byte for byte. A window on a
world at rest must not keep redrawing it, a pile of single steps asked for
must not keep it from quitting, and Esc asks before unsaved edits are lost.

usage: e2e_window.py PATH/TO/ballpit   (TAP on stdout; needs Xvfb, xdotool)
"""
import math
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

from taplib import check, done
from xwindow import find_window, xdo
import xwindow
from cli_png import decode_png

BALLPIT = os.path.abspath(sys.argv[1])
STEPS = 1200  # 10 s at 120 Hz: ample time for the gestures below
SCENE = """# two balls at rest, nothing else acting: any motion comes from the hand
world w=640 h=480 gravity=0 restitution=1 friction=0 drag=0 hz=120
ball x=160 y=240 r=30
ball x=480 y=360 r=25
"""


REWIND_STEPS = 720  # 6 s: the gestures of rewind_scenario take under 3
REST_STEPS = 480  # 4 s
REST_SCENE = """# two balls resting on the floor: they fall asleep at once
world w=640 h=480 gravity=980 restitution=0.5 friction=0.1 drag=0.05 hz=120
ball x=160 y=464 r=16
ball x=480 y=460 r=20
"""


def bail(why):
    print("Bail out! " + why)
    sys.exit(1)


def start_xvfb():
    """Xvfb (xwindow.py) at the default arena's size, or bail out."""
    for tool in ("Xvfb", "xdotool"):
        if not shutil.which(tool):
            bail(tool + " is not installed")
    started = xwindow.start_xvfb("1024x768x24")
    if started is None:
        bail("Xvfb did not start")
    return started


def read_frames(path):
    frames = {}
    with open(path) as f:
        f.readline()
        for line in f:
            v = line.split(",")
            frames.setdefault(int(v[0]), {})[int(v[2])] = tuple(float(x) for x in v[3:7])
    return frames


def read_recording(path):
    inputs = []
    with open(path) as f:
        for line in f.readlines()[1:]:
            words = line.split()
            if words and words[0] != "end":
                inputs.append((int(words[0]), words[1], [float(x) for x in words[2:]]))
    return inputs


def drive(env, win):
    """The gestures, in window (= arena) coordinates: the window is exactly
    the arena's size, as nothing (no window manager) resizes it."""
    # Ball 1: grab 5 px off centre, drag 80 px left in slow steps, hold still
    # for half a second, let go.
    xdo(env, "mousemove", "--window", win, 485, 355, "sleep", 0.3, "mousedown", 1, "sleep", 0.3)
    for k in range(1, 9):
        xdo(env, "mousemove", "--window", win, 485 - 10 * k, 355)
        time.sleep(0.05)
    xdo(env, "sleep", 0.5, "mouseup", 1, "sleep", 0.3)
    # Ball 0: grab at its centre, hold still a moment, then one quick flick
    # to the right, released while still moving: 8 moves of 40 px, 10 ms
    # apart (4000 px/s; even if a loaded machine stretched the pauses to
    # 50 ms, still 800 px/s).
    flick = ["mousemove", "--window", win, 160, 240, "sleep", 0.3, "mousedown", 1, "sleep", 0.4]
    for k in range(1, 9):
        flick += ["mousemove", "--window", win, 160 + 40 * k, 240, "sleep", 0.01]
    flick += ["mouseup", 1]
    xdo(env, *flick)


def wait_for_steps(dump, steps, proc):
    """Waits until the window has dumped frame `steps`: its loop is running
    and taking input (a window can be mapped before it reads events)."""
    path = os.path.join(dump, "frames.csv")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with open(path, "rb") as f:
                f.seek(max(0, os.path.getsize(path) - 200))
                tail = f.read().split(b"\n")
            if len(tail) >= 2 and tail[-2][:1].isdigit() and int(tail[-2].split(b",")[0]) >= steps:
                return True
        except (OSError, ValueError):
            pass
        time.sleep(0.05)
    return False


def no_leak_check(env):
    """Under a sanitizer build, LeakSanitizer reports (and sometimes crashes
    on) allocations that D-Bus, Xlib and the GL driver loaded by SDL never
    free. Those are not ours; the headless runs keep the leak check."""
    return dict(env, ASAN_OPTIONS=(env.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":"))


def start_recorded(env, tmp, args, rec, live):
    """Starts a window recording its inputs to rec and dumping to live;
    returns the process and its window once it has stepped a little (the
    window None if it never showed or stepped)."""
    proc = subprocess.Popen([BALLPIT] + args + ["--dump", live, "--record-input", rec],
                            env=no_leak_check(env), cwd=tmp, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    win = find_window(env, proc)
    return proc, win if win and wait_for_steps(live, 30, proc) else None


def wait_exit(proc, timeout=300):
    """Its stdout and stderr once it has ended (killed after timeout s)."""
    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.communicate()


def run_window(env, args, tmp, gestures):
    env = no_leak_check(env)
    proc = subprocess.Popen([BALLPIT] + args, env=env, cwd=tmp, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    win = find_window(env, proc)
    if win and gestures and wait_for_steps(args[args.index("--dump") + 1], 30, proc):
        drive(env, win)
    out, err = wait_exit(proc)
    return win, proc.returncode, err.decode()


OVERLAY_SCENE = """# two balls at rest in an 800x600 arena
world w=800 h=600 gravity=0 drag=0
ball x=200 y=300 r=15
ball x=600 y=300 r=15
"""


def differs(a, b, x0, y0, x1, y1):
    return sum(1 for y in range(y0, y1) for x in range(x0, x1) if a[y][x] != b[y][x])


def overlay_scenario(display):
    """The overlay keys change the picture, F12 saves it and says so, and a
    middle click pins the inspector as an input of the recording."""
    env = no_leak_check(window_env(display))
    with tempfile.TemporaryDirectory() as tmp:
        scene = write_scene(tmp, "overlay.scene", OVERLAY_SCENE)
        rec = os.path.join(tmp, "overlay.rec")
        proc = subprocess.Popen([BALLPIT, "--scene", scene, "--record-input", rec], env=env,
                                cwd=tmp, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        win = find_window(env, proc)
        if win:
            time.sleep(3.0)  # a loaded machine: let the first frames pass before the keys
            xdo(env, "mousemove", "--window", win, 700, 500, "sleep", 0.3, "key", "F12",
                "sleep", 0.8, "key", "b", "sleep", 0.3, "key", "k", "sleep", 0.5, "key", "F12",
                "sleep", 0.8, "mousemove", "--window", win, 200, 300, "sleep", 0.3, "click", 2,
                "sleep", 0.5, "key", "F12", "sleep", 0.8, "key", "Escape")
        out, err = wait_exit(proc, 120)
        out = out.decode()
        names = ["ballpit-%03d.png" % k for k in (1, 2, 3)]
        saved = all(os.path.exists(os.path.join(tmp, n)) for n in names)
        check(win is not None and proc.returncode == 0 and saved and
              all("screenshot saved to " + n in out for n in names),
              "overlays: F12 saves ballpit-001.png .. 003.png and says each name",
              "stdout %r\nstderr %s" % (out, err.decode()))
        if not saved:
            return
        plain, debug, pinned = (decode_png(os.path.join(tmp, n)) for n in names)
        # The grid's cells: at most about four a ball, here 141 px; a line
        # runs at y = 424 through the empty bottom left.
        check(differs(plain, debug, 10, 410, 60, 440) > 0,
              "overlays: B draws the grid over the empty arena")
        check(differs(plain, debug, 340, 20, 780, 150) > 2000,
              "overlays: K draws the energy chart top right")
        check(differs(debug, pinned, 230, 280, 400, 320) > 300,
              "overlays: a middle click on a ball pins the inspector's panel beside it")
        with open(rec) as f:
            check(any(line.split()[1:] == ["inspect", "0"] for line in f if line[0].isdigit()),
                  "overlays: the pin is an input of the recording (inspect 0)")


PILE_SCENE = """# two balls at 100,000 Hz: a second of single steps is 100,000 of them
world w=640 h=480 gravity=0 restitution=1 friction=0 drag=0 hz=100000
ball x=160 y=240 r=30
ball x=480 y=360 r=25
"""
PILE_ASKED = 6000000  # a minute of steps at most is carried; 100 presses ask 10,000,000


def last_dumped_step(live):
    try:
        with open(os.path.join(live, "frames.csv"), "rb") as f:
            rows = [r for r in f.read().split(b"\n")[1:] if r[:1].isdigit()]
        return int(rows[-1].split(b",")[0]) if rows else -1
    except OSError:
        return -1


def single_steps_scenario(display):
    """Paused, 100 Shift+Right ask for 100 s of single steps at 100,000 Hz;
    then Esc (or SIGTERM). A window that ran every step asked for in the
    frame the keys came in ignored Esc and SIGTERM until it was done; one
    that runs a bounded slice a frame quits long before it is."""
    env = no_leak_check(window_env(display))
    for how in ("Esc", "SIGTERM"):
        with tempfile.TemporaryDirectory() as tmp:
            scene = write_scene(tmp, "pile.scene", PILE_SCENE)
            live = os.path.join(tmp, "live")
            proc = subprocess.Popen([BALLPIT, "--scene", scene, "--dump", live, "--dump-every",
                                     "100"], env=env, cwd=tmp, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            win = find_window(env, proc)
            if win and wait_for_steps(live, 100, proc):
                xdo(env, "mousemove", "--window", win, 320, 100, "sleep", 0.3, "key", "space",
                    "sleep", 0.3, "key", "--delay", 5, "--repeat", 100, "shift+Right")
                if how == "Esc":
                    xdo(env, "key", "Escape")
                else:
                    proc.terminate()
            out, err = wait_exit(proc, 120)
            last = last_dumped_step(live)
            check(win is not None and proc.returncode == 0 and 0 <= last < PILE_ASKED,
                  "single steps: %s after 100 Shift+Right quits before the %d steps asked for "
                  "are taken (last step dumped: %d)" % (how, PILE_ASKED, last),
                  "exit %s, window %s\n%s" % (proc.returncode, win, err.decode()))


def unsaved_edits_scenario(display):
    """A ball spawned, then Esc: the window asks (on screen and on stdout)
    instead of quitting; Esc again quits, status 0."""
    env = no_leak_check(window_env(display))
    with tempfile.TemporaryDirectory() as tmp:
        scene = write_scene(tmp, "two.scene", SCENE)
        proc = subprocess.Popen([BALLPIT, "--scene", scene], env=env, cwd=tmp,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        win = find_window(env, proc)
        asked = False
        if win:
            time.sleep(2.0)  # a loaded machine: let the first frames pass before the keys
            xdo(env, "mousemove", "--window", win, 320, 100, "sleep", 0.3, "key", "s",
                "sleep", 0.3, "key", "Escape", "sleep", 1.0)
            asked = proc.poll() is None
            xdo(env, "key", "Escape")
        out, err = wait_exit(proc, 60)
        out = out.decode()
        check(win is not None and asked and proc.returncode == 0 and
              "unsaved edits: Esc again to quit, Ctrl+S to save" in out,
              "unsaved edits: Esc asks first, Esc again quits",
              "asked %s exit %s\nstdout %r\nstderr %s" % (asked, proc.returncode, out,
                                                          err.decode()))


PANEL_SCENE = """# a ball at rest right under the panel's restitution knob (at 0.9)
world w=800 h=600 gravity=0 restitution=0.9 drag=0
ball x=752 y=133 r=15
"""


def panel_scenario(display):
    """P opens the parameter panel; the restitution slider dragged from 0.9
    to 0.2 is recorded as set inputs ending at 0.2, and the press on its
    knob grabs no ball behind the panel. Positions are panel.c's layout in
    an 800x600 window (HUD scale 1): the panel's content starts at x 548,
    the restitution track runs along y 133 from x 554, 220 px for 0..1
    (the panel, 558 px tall, is centred down the window's 600)."""
    env = window_env(display)
    with tempfile.TemporaryDirectory() as tmp:
        scene = write_scene(tmp, "panel.scene", PANEL_SCENE)
        rec, live = os.path.join(tmp, "panel.rec"), os.path.join(tmp, "live")
        proc, win = start_recorded(env, tmp, ["--scene", scene, "--steps", "900"], rec, live)
        if win:
            drag = ["mousemove", "--window", win, 300, 300, "sleep", 0.3, "key", "p",
                    "sleep", 0.5, "mousemove", "--window", win, 752, 133, "sleep", 0.3,
                    "mousedown", 1, "sleep", 0.2]
            for k in range(1, 12):
                drag += ["mousemove", "--window", win, 752 - 14 * k, 133, "sleep", 0.05]
            xdo(env, *drag + ["sleep", 0.3, "mouseup", 1])
        out, err = wait_exit(proc)
        # "STEP KIND ARGS..."; a set's first argument names its parameter.
        lines = open(rec).read().splitlines()[1:] if os.path.exists(rec) else []
        words = [line.split() for line in lines if line and not line.startswith("end")]
        sets = [float(w[3]) for w in words if w[1] == "set" and w[2] == "restitution"]
        kinds = sorted(set(w[1] for w in words))
        check(win is not None and proc.returncode == 0 and len(sets) >= 2 and
              abs(sets[-1] - 0.2) < 0.005 and "grab" not in kinds,
              "panel: P and a dragged restitution slider record sets ending at 0.2, no grab",
              "exit %s sets %r kinds %r\nstderr %s" % (proc.returncode, sets, kinds,
                                                       err.decode()))


def main():
    xvfb, display = start_xvfb()
    try:
        single_steps_scenario(display)
        unsaved_edits_scenario(display)
        scenario(display)
        steady_flicks_scenario(display)
        rest_scenario(display)
        sleep_colour_scenario(display)
        overlay_scenario(display)
        rewind_scenario(display)
        panel_scenario(display)
    finally:
        xvfb.terminate()
        try:
            xvfb.wait(timeout=10)
        except subprocess.TimeoutExpired:
            xvfb.kill()
    return done()


def window_env(display):
    env = dict(os.environ, DISPLAY=display)
    # Xvfb has no GPU; SDL's software renderer keeps the frame rate up, so
    # the test sees the event timing a real desktop gives.
    env.setdefault("SDL_RENDER_DRIVER", "software")
    return env


def write_scene(tmp, name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def scenario(display):
    env = window_env(display)
    with tempfile.TemporaryDirectory() as tmp:
        scene = write_scene(tmp, "two.scene", SCENE)
        rec = os.path.join(tmp, "live.rec")
        live = os.path.join(tmp, "live")
        common = ["--scene", scene, "--steps", str(STEPS)]
        win, status, err = run_window(env, common + ["--dump", live, "--record-input", rec],
                                      tmp, True)
        check(win is not None, "a window titled 'ballpit' opens under Xvfb " + display)
        check(status == 0, "the window closes by itself after --steps %d, status 0" % STEPS,
              err)
        if status != 0 or win is None:
            return
        frames = read_frames(os.path.join(live, "frames.csv"))
        inputs = read_recording(rec)
        check(sorted(frames) == list(range(STEPS + 1)),
              "the window dumped every step 0..%d" % STEPS)
        grabs = [i for i in inputs if i[1] == "grab"]
        releases = [i for i in inputs if i[1] == "release"]
        check(len(grabs) == 2 and len(releases) == 2,
              "the recording holds both grabs and both releases",
              "\n".join("%d %s %s" % i for i in inputs if i[1] != "move"))
        if len(grabs) != 2 or len(releases) != 2:
            return
        x0 = frames[0]
        # Ball 1: held still after the grab, it must not have jumped to
        # the cursor (5 px off its centre).
        g1 = grabs[0][0]
        first_move = min((i[0] for i in inputs if i[1] == "move" and i[0] >= g1),
                         default=STEPS)
        still = [frames[s][1][:2] for s in range(g1, min(first_move + 1, STEPS + 1))]
        check(all(p == x0[1][:2] for p in still),
              "grabbing ball 1 off centre does not move it (no jump to the cursor)",
              str(still[:3]))
        r1 = releases[0][0]
        v_rel = math.hypot(*releases[0][2])
        b1 = frames[r1 + 1][1]
        check(v_rel < 1.0 and math.hypot(b1[2], b1[3]) < 1.0,
              "held still before letting go, ball 1 drops gently (release speed %.3g px/s)"
              % v_rel)
        # Ball 0: the cursor moved 40 px at a time, the moves at most ~50 ms
        # apart: at least 800 px/s, to the right (y never changed).
        r0, (vx, vy) = releases[1][0], releases[1][2]
        b0 = frames[r0 + 1][0]
        speed = math.hypot(b0[2], b0[3])
        check(b0[2] == vx and b0[3] == vy,
              "ball 0 leaves with the release velocity (%.1f, %.1f) px/s" % (vx, vy))
        check(speed > 800 and vx > 0 and abs(vy) < 0.2 * vx,
              "the flick threw ball 0 to the right at %.0f px/s" % speed)
        carried = frames[r0][1]
        check(abs(carried[0] - (x0[1][0] - 80)) < 2.0 and abs(carried[1] - x0[1][1]) < 2.0,
              "ball 1 stayed where it was carried, 80 px left (x %.1f)" % carried[0])

        again = os.path.join(tmp, "again")
        res = subprocess.run([BALLPIT, "--headless", "--replay", rec, "--dump", again]
                             + common, env=env, cwd=tmp, capture_output=True, timeout=300)
        same = res.returncode == 0 and open(os.path.join(live, "frames.csv"), "rb").read() \
            == open(os.path.join(again, "frames.csv"), "rb").read()
        check(same, "the headless replay gives a byte-identical frames.csv",
              res.stderr.decode())
        shown = os.path.join(tmp, "shown")
        win, status, err = run_window(env, common + ["--replay", rec, "--dump", shown], tmp,
                                      False)
        same = status == 0 and open(os.path.join(live, "frames.csv"), "rb").read() \
            == open(os.path.join(shown, "frames.csv"), "rb").read()
        check(same, "the replay in a window gives a byte-identical frames.csv too", err)


def rewind_scenario(display):
    """Throw, rewind, throw again differently: ball 0 is flicked right;
    Backspace takes the world back a second, to before the grab, so the
    ball is at rest where it was; it is then flicked up. The recording holds
    the rewind, the dump writes the frames after it again, and the headless
    replay gives the same frames.csv byte for byte."""
    env = window_env(display)
    with tempfile.TemporaryDirectory() as tmp:
        scene = write_scene(tmp, "two.scene", SCENE)
        rec = os.path.join(tmp, "rewind.rec")
        live = os.path.join(tmp, "live")
        common = ["--scene", scene, "--steps", str(REWIND_STEPS)]
        proc, win = start_recorded(env, tmp, common, rec, live)
        if win:
            def flick(dx, dy):
                moves = ["mousemove", "--window", win, 160, 240, "sleep", 0.3, "mousedown", 1,
                         "sleep", 0.2]
                for k in range(1, 9):
                    moves += ["mousemove", "--window", win, 160 + dx * k, 240 + dy * k,
                              "sleep", 0.01]
                return moves + ["mouseup", 1]
            xdo(env, *(flick(40, 0) + ["sleep", 0.2, "key", "--window", win, "BackSpace",
                                       "sleep", 0.5] + flick(0, -20)))
        out, err = wait_exit(proc)
        check(win is not None and proc.returncode == 0,
              "rewind: the window runs its %d steps and closes" % REWIND_STEPS, err.decode())
        inputs = read_recording(rec) if os.path.exists(rec) else []
        kinds = [kind for _, kind, _ in inputs]
        releases = [(step, v) for step, kind, v in inputs if kind == "release"]
        rewinds = [(step, v) for step, kind, v in inputs if kind == "rewind"]
        grabs = [step for step, kind, _ in inputs if kind == "grab"]
        check(len(rewinds) == 1 and len(releases) == 2 and len(grabs) == 2
              and kinds.index("rewind") > kinds.index("release"),
              "the recording holds a throw, a rewind, a throw", repr(kinds))
        if len(rewinds) == 1 and len(releases) == 2 and grabs:
            step, v = rewinds[0]
            check(v[0] < grabs[0] and v[0] == step - 120,
                  "the rewind went back 120 steps (a second), to before the grab",
                  "rewind %r, first grab at %d" % (rewinds[0], grabs[0]))
            (_, first), (_, second) = releases
            check(first[0] > 800 and abs(first[1]) < 0.2 * first[0]
                  and second[1] < -400 and abs(second[0]) < 0.2 * -second[1],
                  "thrown right, then up", repr(releases))
        if os.path.exists(os.path.join(live, "frames.csv")):
            again = os.path.join(tmp, "again")
            res = subprocess.run([BALLPIT, "--headless", "--replay", rec, "--dump", again]
                                 + common, env=env, cwd=tmp, capture_output=True, timeout=300)
            live_bytes = open(os.path.join(live, "frames.csv"), "rb").read()
            same = res.returncode == 0 and live_bytes == open(
                os.path.join(again, "frames.csv"), "rb").read()
            check(same, "the headless replay of the rewind gives a byte-identical frames.csv",
                  res.stderr.decode())
            frames = [int(line.split(b",", 1)[0]) for line in live_bytes.split(b"\n")[1:]
                      if line]
            check(any(b < a for a, b in zip(frames, frames[1:])),
                  "the dump writes the frames after the rewind again")


FLICKS = 8
FLICKS_STEPS = 1320  # 11 s: eight flicks take about 6
FLICKS_SCENE = """# eight balls in a column, nothing acting on them: each is flicked right
world w=640 h=480 gravity=0 restitution=1 friction=0 drag=0 hz=120
""" + "".join("ball x=100 y=%d r=20\n" % (30 + 60 * k) for k in range(FLICKS))


def steady_flicks_scenario(display):
    """The same flick eight times, one ball each: 12 moves of 15 px, 10 ms
    apart, let go with the last. The throws must agree: SDL stamps an event
    with the time it was taken from the queue, and a window that took its
    events once a frame (waiting out vsync in between) stamped them 16 ms
    apart and threw such flicks at speeds 1.5 times apart. The bound leaves
    room for a loaded machine, which stretches xdotool's pauses (1.2 times
    apart seen)."""
    env = window_env(display)
    with tempfile.TemporaryDirectory() as tmp:
        scene = write_scene(tmp, "column.scene", FLICKS_SCENE)
        rec = os.path.join(tmp, "flicks.rec")
        live = os.path.join(tmp, "live")
        proc, win = start_recorded(env, tmp, ["--scene", scene, "--steps", str(FLICKS_STEPS)],
                                   rec, live)
        if win:
            moves = []
            for k in range(FLICKS):
                y = 30 + 60 * k
                moves += ["mousemove", "--window", win, 100, y, "sleep", 0.2, "mousedown", 1,
                          "sleep", 0.2]
                for m in range(1, 13):
                    moves += ["mousemove", "--window", win, 100 + 15 * m, y, "sleep", 0.01]
                moves += ["mouseup", 1, "sleep", 0.2]
            xdo(env, *moves)
        out, err = wait_exit(proc)
        inputs = read_recording(rec) if os.path.exists(rec) else []
        speeds = [math.hypot(*v[:2]) for _, kind, v in inputs if kind == "release"]
        check(win is not None and proc.returncode == 0 and len(speeds) == FLICKS,
              "%d flicks, as many releases" % FLICKS, err.decode() + repr(speeds))
        if len(speeds) == FLICKS:
            check(min(speeds) > 300 and max(speeds) <= 1.35 * min(speeds),
                  "the same flick throws the same: %s px/s" % ", ".join(
                      "%.0f" % v for v in speeds))


def sleep_colour_scenario(display):
    """Coloured by sleep, balls that fall asleep turn blue-grey though
    nothing moves: the window took a frame with every ball where it was
    drawn for the same picture, and showed them awake (amber) for good.
    What the window shows is read from the X server (an F12 picture is
    drawn afresh)."""
    env = no_leak_check(window_env(display))
    if not shutil.which("import"):
        check(True, "sleep colours: skipped, no import (ImageMagick) to read the window # SKIP")
        return
    with tempfile.TemporaryDirectory() as tmp:
        scene = write_scene(tmp, "rest.scene", REST_SCENE)
        proc = subprocess.Popen([BALLPIT, "--scene", scene, "--color-by", "sleep"], env=env,
                                cwd=tmp, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        win = find_window(env, proc)
        shot = os.path.join(tmp, "shown.png")
        if win:
            time.sleep(3.0)  # asleep after half a second of rest, on a loaded machine too
            subprocess.run(["import", "-window", str(win), "PNG24:" + shot], env=env,
                           stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
            xdo(env, "key", "--window", win, "Escape")
        out, err = wait_exit(proc, 120)
        check(win is not None and proc.returncode == 0 and os.path.exists(shot),
              "sleep colours: the window ran and its picture was read", err.decode())
        if not os.path.exists(shot):
            return
        pixels = decode_png(shot)
        # Left of the first ball's centre (160, 464; r = 16), off its spin mark.
        r, g, b = pixels[464][152][:3]
        check(b > r, "sleep colours: a ball asleep at rest is shown blue-grey, not amber: "
              "rgb %d %d %d" % (r, g, b))


def rest_scenario(display):
    """Redrawing the same picture kept 55% of a core busy under Xvfb's
    software renderer (66% with llvmpipe); a world at rest is drawn twice a
    second for the HUD, 7% in all with the window's start. CPU time is the
    process's own, so a busy machine does not inflate it."""
    env = window_env(display)
    with tempfile.TemporaryDirectory() as tmp:
        scene = write_scene(tmp, "rest.scene", REST_SCENE)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        win, status, err = run_window(env, ["--scene", scene, "--steps", str(REST_STEPS)], tmp,
                                      False)
        wall = time.monotonic() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        check(status == 0 and win is not None and cpu < 0.3 * wall,
              "a window on a world at rest is not redrawn over and over: %.2f s of CPU in "
              "%.2f s" % (cpu, wall),
              "exit status %s, window %s\n%s" % (status, "found" if win else "not found", err))


if __name__ == "__main__":
    sys.exit(main())
