#!/usr/bin/env python3
"""Hostile input found by fuzzing and by hand-made extreme runs: each case
is refused with exit 2 and one line on stderr naming the option or
FILE:LINE (no dump left behind), or it runs correctly.

- the same limits for a ball's values from a scene, a recording or the
  command line (a recorded spawn of radius 5000 is refused like a scene's);
- masses whose reciprocal would overflow (m=1e-309), spins and angles out
  of range;
- recordings and scenes that are devices, binary or oversized files, found
  out without reading them whole; an `end` beyond 10^12 steps;
- no balls at all is a correct run.

usage: cli_hostile_input.py PATH/TO/ballpit   (TAP on stdout)
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from taplib import check, done

BALLPIT = os.path.abspath(sys.argv[1])


def run(args, cwd, timeout=30):
    return subprocess.run([BALLPIT] + args, cwd=cwd, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=timeout)


def write(cwd, name, text, mode="w"):
    with open(os.path.join(cwd, name), mode) as f:
        f.write(text)
    return name


def expect_bad(args, must_name, what, cwd, timeout=30):
    args = args + ["--headless", "--steps", "5", "--dump", "dumpdir"]
    start = time.monotonic()
    try:
        p = run(args, cwd, timeout)
    except subprocess.TimeoutExpired:
        check(False, what, "timed out: %r" % args)
        return None
    lines = p.stderr.splitlines()
    dumped = os.path.exists(os.path.join(cwd, "dumpdir"))
    shutil.rmtree(os.path.join(cwd, "dumpdir"), ignore_errors=True)
    ok = (p.returncode == 2 and len(lines) == 1 and must_name in lines[0] and p.stdout == ""
          and not dumped)
    check(ok, what, "args %r\nexit %d, stdout %r, stderr %r, dump made: %s" % (
        args, p.returncode, p.stdout, p.stderr, dumped))
    return time.monotonic() - start


def main():
    with tempfile.TemporaryDirectory() as tmp:
        # Scenes: one set of limits for a ball's values.
        scenes = [
            ("ball x=100 y=100 m=1e-309\n", "a mass whose reciprocal overflows (1e-309)"),
            ("ball x=100 y=100 m=1e-320\n", "a subnormal mass"),
            ("ball x=100 y=100 m=0\n", "a mass of 0"),
            ("ball x=100 y=100 m=1e13\n", "a mass above 1e12"),
            ("ball x=100 y=100 r=0.1\n", "a radius below 0.5"),
            ("ball x=100 y=100 vx=1e200 vy=1e200\n", "a speed whose square overflows"),
            ("ball x=100 y=100 w=1e10\n", "a spin above 1e9 rad/s"),
            ("ball x=100 y=100 w=inf\n", "an infinite spin"),
            ("ball x=100 y=100 angle=nan\n", "a NaN angle"),
            ("ball x=100 y=100 angle=1e13\n", "an angle beyond 1e12 rad"),
            ("wall x1=0 y1=0 x2=10 y2=10 r=-1\n", "a negative wall radius"),
        ]
        for k, (text, what) in enumerate(scenes):
            name = write(tmp, "s%d.scene" % k, "# line one\n" + text)
            expect_bad(["--scene", name], "%s:2:" % name, "scene: " + what, tmp)
        name = write(tmp, "spin.scene", "ball x=100 y=100 r=10 w=-3.5 angle=1e-300\n")
        p = run(["--scene", name, "--headless", "--steps", "1"], tmp)
        check(p.returncode == 0, "scene: a finite spin and a tiny angle are accepted", p.stderr)

        # Recordings: the same limits, and the arena's.
        head = "ballpit-input 1\n"
        recordings = [
            ("1 spawn 400 300 5000\nend 5\n", "a spawn larger than the arena (r 5000)"),
            ("1 spawn 400 300 0.1\nend 5\n", "a spawn radius below 0.5"),
            ("1 spawn 1e300 300 10\nend 5\n", "a spawn at an absurd position"),
            ("1 release 2e7 0\nend 5\n", "a release faster than 10^7 px/s"),
            ("1 wall 0 0 5000 10 2\nend 5\n", "a wall end outside the arena"),
            ("1 wall 0 0 10 10 20000\nend 5\n", "a wall radius above 10000"),
            ("1 wallend 0 1 5000 10\nend 5\n", "a wall end moved outside the arena"),
            ("end 18446744073709551615\n", "an end of 2^64-1 steps"),
            ("end 1000000000001\n", "an end beyond 10^12 steps"),
            ("1000000000001 pause\nend 1000000000001\n", "an input beyond 10^12 steps"),
        ]
        for k, (text, what) in enumerate(recordings):
            name = write(tmp, "r%d.rec" % k, head + text)
            expect_bad(["--replay", name], "%s:2:" % name, "recording: " + what, tmp)
        name = write(tmp, "ok.rec", head + "1 spawn 400 300 300\n1 wall 0 0 10 768 2\nend 3\n")
        p = run(["--replay", name, "--headless", "--balls", "0"], tmp)
        check(p.returncode == 0, "recording: a spawn that fits and a wall inside are replayed",
              p.stderr)

        # Files that are not scenes or recordings, found out early.
        write(tmp, "binary.bin", b"ballpit-input 1\n\x00\x01\x02" * 1000, "wb")
        big = os.path.join(tmp, "big.txt")
        with open(big, "wb") as f:
            f.truncate(600 << 20)  # sparse: no disk used, 600 MiB long
        for option in ("--scene", "--replay"):
            for path, what in (("/dev/zero", "/dev/zero"), ("binary.bin", "a binary file"),
                               ("big.txt", "a 600 MiB file")):
                took = expect_bad([option, path], path, "%s %s: refused" % (option, what), tmp)
                check(took is not None and took < 5.0,
                      "%s %s: refused within 5 s (nothing like the whole file read)"
                      % (option, what), "took %s s" % took)

        # A ball restored as it was is restored where it was: never moved
        # into the arena from outside it.
        name = write(tmp, "restore.rec", "ballpit-input 1\n10 remove 0\n"
                     "11 restore 0 -100 100 10 100 0 0 0 0\nend 12\n")
        expect_bad(["--replay", name, "--balls", "5"], "restore.rec:3",
                   "recording: a restore outside the arena is refused", tmp)

        # A FIFO no one writes to reads as empty, instead of blocking the
        # open for ever.
        os.mkfifo(os.path.join(tmp, "fifo"))
        expect_bad(["--replay", "fifo"], "fifo", "--replay on a FIFO with no writer: refused, "
                   "no hang", tmp, timeout=20)
        try:
            p = run(["--scene", "fifo", "--headless", "--steps", "2"], tmp, timeout=20)
            check(p.returncode == 0, "--scene on a FIFO with no writer: an empty scene, no hang",
                  p.stderr)
        except subprocess.TimeoutExpired:
            check(False, "--scene on a FIFO with no writer: an empty scene, no hang", "hung")

        # The command line's radius obeys the arena too: the window spawns it.
        expect_bad(["--balls", "0", "--radius", "500"], "--radius",
                   "option: --radius larger than the arena, even without random balls", tmp)

        # Balls that do not fit: the message says what would, and it does.
        for args in (["--balls", "100000"], ["--balls", "1250", "--radius", "10"],
                     ["--balls", "20", "--radius", "300"], ["--balls", "3000", "--radius", "4:12",
                                                           "--arena", "300x200"]):
            p = run(args + ["--headless", "--steps", "1"], tmp, timeout=120)
            arena = re.search(r"try --arena (\d+x\d+)", p.stderr)
            most = re.search(r"at most (\d+) balls", p.stderr)
            check(p.returncode == 2 and "--balls" in p.stderr and arena is not None,
                  "fit: %s is refused and names an --arena that would hold them" % " ".join(args),
                  p.stderr)
            if arena:
                # The arena advised in place of any given (each option is given once).
                sized = args[:-2] if "--arena" in args else args
                q = run(sized + ["--arena", arena.group(1), "--headless", "--steps", "1"], tmp,
                        timeout=120)
                check(q.returncode == 0, "fit: ... and with --arena %s it runs" % arena.group(1),
                      q.stderr)
            if most:
                fewer = list(args)
                fewer[1] = most.group(1)
                q = run(fewer + ["--headless", "--steps", "1"], tmp, timeout=120)
                check(q.returncode == 0, "fit: ... and so do the %s balls it says fit"
                      % most.group(1), q.stderr)

        # ... but the default radius does not stop a small scene from loading.
        name = write(tmp, "thin.scene", "world w=400 h=16\nball x=100 y=8 r=4\n")
        p = run(["--scene", name, "--headless", "--steps", "2"], tmp)
        check(p.returncode == 0, "scene: a 16 px high arena loads without --radius", p.stderr)

        # SIGTERM inside a long step (6,000 balls at 1 Hz: many seconds a
        # step): the run stops within a fraction of a second, frame 0 whole.
        out = os.path.join(tmp, "long")
        proc = subprocess.Popen([BALLPIT, "--hz", "1", "--balls", "6000", "--radius", "2:4",
                                 "--headless", "--steps", "5", "--dump", out], cwd=tmp,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        csv = os.path.join(out, "frames.csv")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and proc.poll() is None and not (
                os.path.exists(csv) and os.path.getsize(csv) > 6000 * 40):
            time.sleep(0.05)
        time.sleep(1.0)  # well into the first step
        proc.send_signal(signal.SIGTERM)
        sent = time.monotonic()
        try:
            proc.communicate(timeout=1.0)
            took = time.monotonic() - sent
        except subprocess.TimeoutExpired:
            took = None
            proc.kill()
            proc.communicate()
        check(took is not None and proc.returncode == 0,
              "SIGTERM inside a long step: exit 0 within 1 s",
              "took %s, exit %s" % (took, proc.returncode))
        with open(csv) as f:
            rows = f.read().splitlines()
        check(len(rows) >= 6001 and (len(rows) - 1) % 6000 == 0 and
              all(len(r.split(",")) == len(rows[0].split(",")) for r in rows),
              "... and the dump holds whole frames only", "%d rows" % len(rows))

        # No balls at all is a run like any other.
        p = run(["--balls", "0", "--headless", "--steps", "10", "--dump", "empty"], tmp)
        with open(os.path.join(tmp, "empty", "frames.csv")) as f:
            rows = f.read().splitlines()
        check(p.returncode == 0 and len(rows) == 1,
              "--balls 0 --headless runs, exit 0, a dump of the header alone",
              "exit %d stderr %r rows %d" % (p.returncode, p.stderr, len(rows)))
        # Under UBSan, a copy of no starting positions from a NULL array
        # (memcpy with n = 0) was reported here.
        check(p.stderr == "", "--balls 0 --headless: nothing on stderr (no UBSan report)",
              p.stderr)
    return done()


if __name__ == "__main__":
    sys.exit(main())
