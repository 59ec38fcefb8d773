#!/usr/bin/env python3
"""The frame dump at the process level (docs/cli.md, "Frame dump"): determinism,
the CSV format, --dump-every, a clean stop on SIGINT/SIGTERM, and whole
files only when the disk fills.

usage: cli_dump.py PATH/TO/ballpit   (TAP on stdout)
"""
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time

from taplib import check, done

BALLPIT = os.path.abspath(sys.argv[1])
FIXED_COLUMNS = ["frame", "t", "id", "x", "y", "vx", "vy", "r"]


def run(args, cwd, timeout=120):
    return subprocess.run([BALLPIT] + args, cwd=cwd, stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=timeout)


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def parse_frames(text):
    """Returns (header, {frame: [row fields]}, problems)."""
    lines = text.split("\n")
    problems = []
    if lines[-1] != "":
        problems.append("last line does not end with a newline: %r" % lines[-1][-80:])
    lines = lines[:-1]
    header = lines[0].split(",")
    frames = {}
    order = []
    for n, line in enumerate(lines[1:], start=2):
        fields = line.split(",")
        if len(fields) != len(header):
            problems.append("line %d has %d fields, header %d" % (n, len(fields), len(header)))
            continue
        frame = int(fields[0])
        if frame not in frames:
            frames[frame] = []
            order.append(frame)
        frames[frame].append(fields)
    if order != sorted(order):
        problems.append("frames out of order")
    return header, frames, problems


def round_trips(text):
    """True if the text is how %.17g or the shortest repr prints its value:
    either way, parsing it gives back the exact double that was printed."""
    v = float(text)
    return "%.17g" % v == text or repr(v) == text or ("%d" % v == text and v.is_integer())


def format_and_every(tmp):
    hz = 90.0
    p = run(["--headless", "--steps", "23", "--balls", "12", "--hz", "90", "--seed", "4",
             "--dump-every", "5", "--dump", "every"], tmp)
    check(p.returncode == 0, "dump: a --dump-every 5 run exits 0", p.stderr)
    text = read_bytes(os.path.join(tmp, "every", "frames.csv")).decode("ascii")
    header, frames, problems = parse_frames(text)
    check(header[:8] == FIXED_COLUMNS, "format: header starts frame,t,id,x,y,vx,vy,r",
          ",".join(header))
    check(header[8:10] == ["angle", "w"], "format: the rotation's columns angle,w follow r",
          ",".join(header))
    check(not problems, "format: every row has every field, frames ascending", problems)
    check(sorted(frames) == [0, 5, 10, 15, 20],
          "format: --dump-every 5 --steps 23 dumps frames 0,5,10,15,20", sorted(frames))
    ids_ok = all([int(r[2]) for r in rows] == list(range(12)) for rows in frames.values())
    check(ids_ok, "format: each frame has every ball once, ids ascending from 0")
    t_ok = all(float(r[1]) == f / hz for f, rows in frames.items() for r in rows)
    check(t_ok, "format: t = frame / hz exactly")
    numbers = [x for rows in frames.values() for r in rows for x in r[1:8] if x != "0"]
    bad = [x for x in numbers if not round_trips(x)]
    check(not bad, "format: every number is printed to round-trip (%.17g)", bad[:5])
    r_ok = all(8.0 <= float(r[7]) <= 24.0 for rows in frames.values() for r in rows)
    check(r_ok, "format: radii lie in the default 8:24 range")
    # Frame 0 is the initial state: every ball strictly inside the arena.
    inside = all(float(r[7]) <= float(r[3]) <= 1024 - float(r[7]) and
                 float(r[7]) <= float(r[4]) <= 768 - float(r[7]) for r in frames[0])
    check(inside, "format: frame 0 holds the initial state inside the arena")


def rotation(tmp):
    # A scene's w= and angle= reach the dump exactly (printed to round-trip).
    scene = os.path.join(tmp, "spin.scene")
    with open(scene, "w") as f:
        f.write("world w=300 h=200 gravity=0\n"
                "ball x=50 y=50 r=10 w=-0.30000000000000004 angle=2.5e-7\n"
                "ball x=150 y=50 r=10\n")
    p = run(["--headless", "--steps", "0", "--scene", scene, "--dump", "spin"], tmp)
    text = read_bytes(os.path.join(tmp, "spin", "frames.csv")).decode("ascii") \
        if p.returncode == 0 else ""
    header, frames, problems = parse_frames(text) if text else ([], {}, ["no dump"])
    col = {name: k for k, name in enumerate(header)}
    ok = not problems and "angle" in col and "w" in col and len(frames.get(0, [])) == 2
    if ok:
        first, second = frames[0]
        ok = (float(first[col["w"]]) == -0.30000000000000004 and
              float(first[col["angle"]]) == 2.5e-7 and round_trips(first[col["w"]]) and
              float(second[col["w"]]) == 0.0 and float(second[col["angle"]]) == 0.0)
    check(ok, "rotation: a scene's w= and angle= are frame 0's w and angle, bit for bit; "
          "0 without them", p.stderr.decode(errors="replace") + text[:300])


def determinism(tmp):
    base = ["--headless", "--steps", "300", "--balls", "60"]
    outs = []
    for name, extra in (("a", ["--seed", "11"]), ("b", ["--seed", "11"]),
                        ("c", ["--seed", "11", "--threads", "2"]), ("d", ["--seed", "12"])):
        p = run(base + extra + ["--dump", name], tmp)
        check(p.returncode == 0, "determinism: run %s exits 0" % name, p.stderr)
        outs.append(read_bytes(os.path.join(tmp, name, "frames.csv")))
    check(len(outs[0]) > 1000 and outs[0] == outs[1],
          "determinism: two identical runs give a byte-identical frames.csv")
    check(outs[0] == outs[2], "determinism: --threads 2 gives the same bytes")
    check(outs[0] != outs[3], "determinism: another seed gives another file (the check bites)")
    scene = os.path.join(tmp, "det.scene")
    with open(scene, "w") as f:
        f.write("world w=300 h=200 gravity=500 restitution=0.7\n")
        for k in range(15):
            f.write("ball x=%d y=%d r=9 vx=%d vy=%d\n" % (30 + 17 * k, 40 + 7 * k,
                                                         (k * 37) % 200 - 100, 50 - 9 * k))
    a = run(["--headless", "--steps", "200", "--scene", scene, "--dump", "sa"], tmp)
    b = run(["--headless", "--steps", "200", "--scene", scene, "--dump", "sb"], tmp)
    check(a.returncode == 0 and b.returncode == 0 and
          read_bytes(os.path.join(tmp, "sa", "frames.csv")) ==
          read_bytes(os.path.join(tmp, "sb", "frames.csv")),
          "determinism: the same scene twice gives the same bytes")


def complete_frames(path, balls):
    text = read_bytes(path).decode("ascii")
    header, frames, problems = parse_frames(text)
    whole = all([int(r[2]) for r in rows] == list(range(balls)) for rows in frames.values())
    return text, frames, problems, whole


def stop_by_signal(tmp, signo, name):
    out = os.path.join(tmp, "sig-" + name)
    proc = subprocess.Popen([BALLPIT, "--headless", "--steps", "1000000000", "--balls", "150",
                             "--dump", out], cwd=tmp, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    csv = os.path.join(out, "frames.csv")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if os.path.exists(csv) and os.path.getsize(csv) > 200000:
            break
        time.sleep(0.05)
    proc.send_signal(signo)
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        check(False, "%s: the run stops" % name, "still running 60 s after the signal")
        return
    check(proc.returncode == 0, "%s during a dump: exit status 0" % name,
          "exit %s stderr %r" % (proc.returncode, err))
    text, frames, problems, whole = complete_frames(csv, 150)
    check(text.endswith("\n") and not problems, "%s: frames.csv ends with a whole row" % name,
          problems)
    check(len(frames) > 5 and whole,
          "%s: every frame in the file holds all 150 balls" % name, "%d frames" % len(frames))


def limit_file_size(size):
    """For a child: files may grow to size bytes, as on a disk that fills
    (a write past it fails with EFBIG; SIGXFSZ ignored)."""
    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return limit


def full_disk(tmp):
    """A write that fails midway (a full disk) leaves whole frames only,
    and no PNG that is not whole under its name: exit 1, one line."""
    out = os.path.join(tmp, "full")
    p = subprocess.run([BALLPIT, "--headless", "--steps", "400", "--balls", "150",
                        "--dump", out], cwd=tmp, stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=120, preexec_fn=limit_file_size(100000))
    err = p.stderr.decode()
    check(p.returncode == 1 and "frames.csv" in err and len(err.strip().splitlines()) == 1,
          "a full disk: exit 1, one line naming frames.csv", "exit %d: %r" % (p.returncode, err))
    text, frames, problems, whole = complete_frames(os.path.join(out, "frames.csv"), 150)
    check(text.endswith("\n") and not problems and len(frames) > 3 and whole,
          "a full disk: frames.csv is cut back to its last whole frame (%d frames)"
          % len(frames), problems)
    energy = read_bytes(os.path.join(out, "energy.csv"))
    check(energy.endswith(b"\n"), "a full disk: energy.csv ends with a whole row")
    png = os.path.join(tmp, "full-png")
    p = subprocess.run([BALLPIT, "--headless", "--steps", "0", "--png", "--dump", png],
                       cwd=tmp, stdin=subprocess.DEVNULL, capture_output=True, timeout=120,
                       preexec_fn=limit_file_size(20000))
    err = p.stderr.decode()
    left = sorted(os.listdir(png)) if os.path.isdir(png) else []
    check(p.returncode == 1 and "PNG" in err and not any(n.endswith((".png", ".part"))
                                                         for n in left),
          "a full disk: a PNG cut short is neither kept nor named", "exit %d: %r, left %r"
          % (p.returncode, err, left))


def stop_while_settling(tmp):
    """A signal during --settle (which can run for hours) stops the run as
    one during its steps does: promptly, exit 0, whole frames."""
    out = os.path.join(tmp, "settling")
    # Nothing slows these balls down, so no step is cheap: 10^6 take minutes.
    proc = subprocess.Popen([BALLPIT, "--headless", "--balls", "300", "--gravity", "0",
                             "--drag", "0", "--restitution", "1", "--settle", "1000000",
                             "--dump", out], cwd=tmp, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(2.0)
    proc.send_signal(signal.SIGTERM)
    start = time.monotonic()
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        check(False, "SIGTERM while settling: the run stops", "still running 60 s after")
        return
    took = time.monotonic() - start
    check(proc.returncode == 0 and took < 10.0,
          "SIGTERM while settling: exit 0 within 10 s (%.2f s)" % took,
          "exit %s stderr %r" % (proc.returncode, err))
    csv = os.path.join(out, "frames.csv")
    ok = os.path.exists(csv) and read_bytes(csv).endswith(b"\n")
    check(ok, "SIGTERM while settling: frames.csv holds whole rows")


def stale_frames(tmp):
    """A shorter dump into the DIR of a longer one leaves only its own
    frames: the old frame-NNNNNN.png beyond them are removed, anything else
    in DIR stays."""
    out = os.path.join(tmp, "stale")
    args = ["--headless", "--balls", "5", "--png", "--dump", out, "--steps"]
    first = run(args + ["8"], tmp)
    others = ["notes.txt", "frame-1.png", "frame-000001.png.bak", "my-frame-000002.png"]
    for name in others:
        with open(os.path.join(out, name), "w") as f:
            f.write("keep me")
    second = run(args + ["3"], tmp)
    pngs = sorted(n for n in os.listdir(out) if n.startswith("frame-") and n.endswith(".png"))
    check(first.returncode == 0 and second.returncode == 0, "stale: both dumps exit 0",
          first.stderr + second.stderr)
    check(pngs == ["frame-%06d.png" % k for k in range(4)] + ["frame-1.png"],
          "stale: a 3-step dump over an 8-step one leaves frames 0..3 only", pngs)
    check(all(os.path.exists(os.path.join(out, n)) for n in others),
          "stale: files not named as frames (notes.txt, frame-1.png, ...) stay", os.listdir(out))


def main():
    with tempfile.TemporaryDirectory() as tmp:
        format_and_every(tmp)
        rotation(tmp)
        determinism(tmp)
        stop_by_signal(tmp, signal.SIGINT, "SIGINT")
        stop_by_signal(tmp, signal.SIGTERM, "SIGTERM")
        full_disk(tmp)
        stop_while_settling(tmp)
        stale_frames(tmp)
    return done()


if __name__ == "__main__":
    sys.exit(main())
