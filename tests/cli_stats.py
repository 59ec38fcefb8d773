#!/usr/bin/env python3
"""--stats: a headless run ends with exactly one line on stdout,
`stats steps=N wall_s=S steps_per_s=X step_ms_p50=A step_ms_p99=B
step_ms_max=C` and more fields after those, with N the steps run and the
figures consistent (p50 <= p99 <= max, X = N / S). Bad uses exit 2 naming
--stats.

usage: cli_stats.py PATH/TO/ballpit   (TAP on stdout)
"""
import os
import re
import subprocess
import sys
import tempfile

from taplib import check, done

BALLPIT = os.path.abspath(sys.argv[1])
LINE = re.compile(r"^stats steps=(\d+) wall_s=(\S+) steps_per_s=(\S+) step_ms_p50=(\S+) "
                  r"step_ms_p99=(\S+) step_ms_max=(\S+)( \w+=\S+)*$")


def run(args, cwd, timeout=120):
    return subprocess.run([BALLPIT] + args, cwd=cwd, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=timeout)


def stats(p):
    """The numbers of the stats line, or None if stdout is not exactly it."""
    lines = p.stdout.splitlines()
    m = LINE.match(lines[0]) if len(lines) == 1 else None
    if not m:
        return None
    fields = dict(f.split("=") for f in lines[0].split()[1:])
    return {k: float(v) for k, v in fields.items()}


def main():
    with tempfile.TemporaryDirectory() as tmp:
        p = run(["--headless", "--steps", "240", "--balls", "300", "--radius", "4:8", "--stats",
                 "--dump", "d", "--dump-every", "60"], tmp)
        s = stats(p)
        check(p.returncode == 0 and s is not None,
              "a headless run with --stats prints exactly one stats line and exits 0",
              "exit %d stdout %r stderr %r" % (p.returncode, p.stdout, p.stderr))
        if s:
            check(s["steps"] == 240, "steps=240, the steps run", s)
            check(0 < s["step_ms_p50"] <= s["step_ms_p99"] <= s["step_ms_max"],
                  "0 < p50 <= p99 <= max", s)
            check(s["step_ms_max"] / 1e3 * s["steps"] >= s["step_ms_mean"] / 1e3 * s["steps"]
                  and s["step_ms_mean"] / 1e3 * s["steps"] <= s["wall_s"] * 1.0001,
                  "the steps' total time lies within the run's wall time", s)
            check(abs(s["steps_per_s"] * s["wall_s"] - 240) <= 240 * 1e-4,
                  "steps_per_s = steps / wall_s", s)
            check(0 < s["awake_mean"] <= 300, "awake_mean counts at most the 300 balls", s)
        with open(os.path.join(tmp, "d", "frames.csv")) as f:
            frames = {line.split(",")[0] for line in f.read().splitlines()[1:]}
        check(frames == {"0", "60", "120", "180", "240"}, "the dump is written as without --stats",
              sorted(frames))

        # A replay runs as long as its recording: steps counts those.
        with open(os.path.join(tmp, "r.rec"), "w") as f:
            f.write("ballpit-input 1\n5 spawn 300 300 10\nend 37\n")
        s = stats(run(["--headless", "--replay", "r.rec", "--stats"], tmp))
        check(s is not None and s["steps"] == 37, "a replay to end 37 reports steps=37", s)

        s = stats(run(["--headless", "--steps", "0", "--stats"], tmp))
        check(s is not None and s["steps"] == 0 and s["step_ms_max"] == 0,
              "--steps 0: steps=0 and zero times, no division by zero", s)

        # --settle's steps come before the run: neither run nor timed by it.
        s = stats(run(["--headless", "--pit", "500", "--settle", "30", "--steps", "12",
                       "--stats"], tmp))
        check(s is not None and s["steps"] == 12,
              "--settle 30 --steps 12 reports steps=12: the settling is not timed", s)

        p = run(["--headless", "--steps", "50"], tmp)
        check(p.returncode == 0 and p.stdout == "", "without --stats nothing is printed", p.stdout)

        for args, what in ((["--stats", "--steps", "5"], "without --headless"),
                           (["--headless", "--stats=1"], "given a value"),
                           (["--headless", "--stats", "5"], "followed by a stray value"),
                           (["--bench", "100", "--stats"], "with --bench"),
                           (["--headless", "--raycast", "10,10,1,0", "--stats"], "with --raycast")):
            p = run(args, tmp)
            lines = p.stderr.splitlines()
            check(p.returncode == 2 and p.stdout == "" and len(lines) == 1 and
                  ("--stats" in lines[0] or "5: unexpected" in lines[0]),
                  "--stats %s exits 2 with one line naming it" % what,
                  "exit %d stdout %r stderr %r" % (p.returncode, p.stdout, p.stderr))
    return done()


if __name__ == "__main__":
    sys.exit(main())
