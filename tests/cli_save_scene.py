#!/usr/bin/env python3
"""--save-scene (docs/cli.md): the world at the end of a run as a scene
file that loads back to the same state; a pile saved at rest and woken
whole stays where it was; bad paths are refused before the run, and a
failed write leaves no file.

usage: cli_save_scene.py PATH/TO/ballpit   (TAP on stdout)
"""
import math
import os
import resource
import signal
import subprocess
import sys
import tempfile

from taplib import check, done

BALLPIT = os.path.abspath(sys.argv[1])


def run(args, cwd, timeout=300, preexec_fn=None):
    return subprocess.run([BALLPIT] + args, cwd=cwd, stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=timeout, preexec_fn=preexec_fn)


def balls_of(scene_text):
    """The ball lines' keys, in file order (= ids 0, 1, 2, ...)."""
    balls = []
    for line in scene_text.splitlines():
        words = line.split()
        if words and words[0] == "ball":
            balls.append(dict(w.split("=") for w in words[1:]))
    return balls


def last_frame(csv_path):
    """{id: (x, y, r)} of the dump's last frame."""
    rows = open(csv_path).read().splitlines()
    header = rows[0].split(",")
    col = {name: k for k, name in enumerate(header)}
    last = rows[-1].split(",")[col["frame"]]
    out = {}
    for row in rows[1:]:
        f = row.split(",")
        if f[col["frame"]] == last:
            out[int(f[col["id"]])] = (float(f[col["x"]]), float(f[col["y"]]), float(f[col["r"]]))
    return out


def pile_saved_and_woken_stays(tmp):
    """A soft pile poured and asleep, saved, loaded with every ball awake:
    2 s later 99% have moved at most 0.1 r and none more than 1 r."""
    saved = os.path.join(tmp, "pile.scene")
    p = run(["--pit", "400", "--solver", "soft", "--headless", "--steps", "1200",
             "--save-scene", saved], tmp)
    check(p.returncode == 0 and os.path.exists(saved) and not os.path.exists(saved + ".part"),
          "the run ends with exit 0 and the scene file under its name alone",
          p.stderr.decode())
    if not os.path.exists(saved):
        return
    text = open(saved).read()
    balls = balls_of(text)
    asleep = sum(1 for b in balls if b.get("asleep") == "1")
    check(len(balls) == 400 and asleep >= 0.99 * 400,
          "the file holds the 400 balls, 99% or more of them asleep after 10 s",
          "%d balls, %d asleep" % (len(balls), asleep))
    check("contact " in text, "and the impulses of the contacts that hold them")
    woken = os.path.join(tmp, "woken.scene")
    with open(woken, "w") as f:
        f.write(text.replace(" asleep=1", ""))
    out = os.path.join(tmp, "woken")
    p = run(["--scene", woken, "--headless", "--steps", "240", "--dump", out,
             "--dump-every", "240"], tmp)
    if p.returncode != 0:
        check(False, "the woken pile runs", p.stderr.decode())
        return
    end = last_frame(os.path.join(out, "frames.csv"))
    moves = sorted(math.hypot(end[i][0] - float(b["x"]), end[i][1] - float(b["y"])) / end[i][2]
                   for i, b in enumerate(balls))
    p99 = moves[int(0.99 * len(moves)) - 1]
    check(p99 <= 0.1 and moves[-1] <= 1.0,
          "woken whole, 2 s later 99% of the balls moved <= 0.1 r and none > 1 r",
          "99th percentile %.4f r, most %.4f r" % (p99, moves[-1]))


def bad_paths_are_refused_before_the_run(tmp):
    for path, says in [(os.path.join(tmp, "no", "such", "dir.scene"), "cannot write"),
                       ("", "needs a file name"),
                       (tmp, "cannot write")]:
        p = run(["--headless", "--steps", "10", "--save-scene", path], tmp)
        err = p.stderr.decode()
        check(p.returncode == 2 and says in err and len(err.strip().splitlines()) == 1,
              "--save-scene %r: exit 2, one line saying %r" % (path, says),
              "exit %d: %r" % (p.returncode, err))
    left = [n for n in os.listdir(tmp) if n.endswith(".part")]
    check(not left, "and no partial file is left behind", repr(left))
    p = run(["--bench", "100", "--save-scene", "x.scene"], tmp)
    check(p.returncode == 2 and b"--save-scene" in p.stderr,
          "--bench with --save-scene: exit 2, naming it", p.stderr.decode())


def a_failed_write_leaves_no_file(tmp):
    """A disk that fills while the scene is written: exit 1, one line, and
    neither the scene nor its partial file."""
    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000))
    path = os.path.join(tmp, "full.scene")
    p = run(["--headless", "--steps", "10", "--balls", "200", "--save-scene", path], tmp,
            preexec_fn=limit)
    err = p.stderr.decode()
    check(p.returncode == 1 and "full.scene" in err and len(err.strip().splitlines()) == 1,
          "a full disk: exit 1, one line naming the file", "exit %d: %r" % (p.returncode, err))
    check(not os.path.exists(path) and not os.path.exists(path + ".part"),
          "and neither the scene nor its partial file is there")


def a_saved_run_loads_back_to_the_same_state(tmp):
    """Saved after 300 steps and loaded: the loaded world's first frame is
    the saved run's last, bit for bit (velocities, spins, sleep included)."""
    saved = os.path.join(tmp, "mid.scene")
    a = os.path.join(tmp, "a")
    p = run(["--balls", "120", "--headless", "--steps", "300", "--dump", a,
             "--dump-every", "300", "--save-scene", saved], tmp)
    b = os.path.join(tmp, "b")
    q = run(["--scene", saved, "--headless", "--steps", "0", "--dump", b], tmp)
    if p.returncode or q.returncode:
        check(False, "both runs end with exit 0", (p.stderr + q.stderr).decode())
        return
    rows_a = [r.split(",")[2:] for r in open(os.path.join(a, "frames.csv")).read().splitlines()
              if r.startswith("300,")]
    rows_b = [r.split(",")[2:] for r in open(os.path.join(b, "frames.csv")).read().splitlines()
              if r.startswith("0,")]
    check(rows_a == rows_b and len(rows_a) == 120,
          "the saved run's last frame and the loaded scene's first are the same bytes",
          "%d and %d rows; first differing: %r" % (
              len(rows_a), len(rows_b),
              next(((x, y) for x, y in zip(rows_a, rows_b) if x != y), None)))


def a_landing_pile_saved_loads_back(tmp):
    """The soft solver's pit saved while it lands, its bounces' impulses
    included: every kept friction impulse is one its normal impulse
    carries, so the file loads back (restitution lowers normal impulses
    after the sweeps; at step 80 one contact kept jn 0 with jt -15.3)."""
    saved = os.path.join(tmp, "landing.scene")
    p = run(["--pit", "1000", "--solver", "soft", "--headless", "--steps", "80",
             "--save-scene", saved], tmp)
    contacts = [dict(kv.split("=") for kv in line.split()[1:])
                for line in open(saved).read().splitlines() if line.startswith("contact ")] \
        if p.returncode == 0 else []
    over = [c for c in contacts if abs(float(c["jt"])) > float(c["jn"])]
    check(p.returncode == 0 and len(contacts) > 1000 and not over,
          "a landing pit's kept friction impulses are within its normal impulses",
          "%d contacts, %d over: %r" % (len(contacts), len(over), over[:2]))
    q = run(["--scene", saved, "--solver", "soft", "--headless", "--steps", "1"], tmp)
    check(q.returncode == 0, "and the saved file loads", q.stderr.decode())


def main():
    with tempfile.TemporaryDirectory() as tmp:
        pile_saved_and_woken_stays(tmp)
        bad_paths_are_refused_before_the_run(tmp)
        a_failed_write_leaves_no_file(tmp)
        a_saved_run_loads_back_to_the_same_state(tmp)
        a_landing_pile_saved_loads_back(tmp)
    return done()


sys.exit(main())
