#!/usr/bin/env python3
"""Rewinds at the process level, no display: a recording flings ball 0 of
tests/data/pile.scene, goes back to before the release and throws it the
other way. Its headless replay must give the same frames.csv every time
(with one thread or two); the frames written again after the rewind must
be the rows written the first time, up to the new throw; --history must be
long enough for the rewind, and bad --history values are refused.

usage: cli_rewind.py PATH/TO/ballpit   (TAP on stdout)
"""
import os
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
                          capture_output=True, text=True, timeout=120)


def frame_blocks(path):
    """[(frame, [rows])] in the order written."""
    blocks = []
    with open(path) as f:
        f.readline()
        for line in f:
            frame = int(line.split(",", 1)[0])
            if not blocks or blocks[-1][0] != frame:
                blocks.append((frame, []))
            blocks[-1][1].append(line)
    return blocks


def main():
    with tempfile.TemporaryDirectory() as tmp:
        # The fling, then at step 200 back to step 70 (before the release
        # at 85): the same moves again up to step 79, and a release the
        # other way at 80.
        with open(FLING) as f:
            lines = [l for l in f if not l.startswith("end")]
        moves = [l for l in lines if l.split()[0].isdigit() and 70 <= int(l.split()[0]) < 80]
        rec = os.path.join(tmp, "rewind.rec")
        with open(rec, "w") as f:
            f.writelines(lines)
            f.write("200 rewind 70\n")
            f.writelines(moves)
            f.write("80 release -300 -400\nend 240\n")
        dumps = []
        for k, threads in enumerate(["1", "1", "2"]):
            out = os.path.join(tmp, "d%d" % k)
            p = run(["--headless", "--scene", SCENE, "--replay", rec, "--dump", out,
                     "--threads", threads], tmp)
            check(p.returncode == 0, "replay %d of a rewind (--threads %s) runs" % (k, threads),
                  p.stderr)
            with open(os.path.join(out, "frames.csv"), "rb") as f:
                dumps.append(f.read())
        check(dumps[0] == dumps[1], "two replays give byte-identical frames.csv")
        check(dumps[0] == dumps[2], "and with two threads too")

        blocks = frame_blocks(os.path.join(tmp, "d0", "frames.csv"))
        order = [frame for frame, _ in blocks]
        check(order == list(range(0, 201)) + list(range(71, 241)),
              "frames 0..200, then 71..240 again", "first and last: %r %r" % (order[:3], order[-3:]))
        first = {frame: rows for frame, rows in blocks[:201]}
        again = {frame: rows for frame, rows in blocks[201:]}
        check(all(again[f] == first[f] for f in range(71, 81)),
              "frames 71..80 written again are the rows written the first time")
        check(again[81] != first[81], "after the new throw, frame 81 differs")

        # The soft solver carries impulses from step to step:
        # the snapshots keep them, so its rewinds land on the same bits too.
        out = os.path.join(tmp, "soft")
        p = run(["--headless", "--scene", SCENE, "--replay", rec, "--dump", out,
                 "--solver", "soft"], tmp)
        blocks = frame_blocks(os.path.join(out, "frames.csv"))
        first = {frame: rows for frame, rows in blocks[:201]}
        again = {frame: rows for frame, rows in blocks[201:]}
        check(p.returncode == 0 and len(blocks) == 371 and
              all(again[f] == first[f] for f in range(71, 81)),
              "--solver soft: frames 71..80 written again are the rows written the first time",
              p.stderr)

        # --steps ends the run at that step, rewind or not.
        out = os.path.join(tmp, "steps")
        p = run(["--headless", "--scene", SCENE, "--replay", rec, "--dump", out,
                 "--steps", "120"], tmp)
        order = [frame for frame, _ in frame_blocks(os.path.join(out, "frames.csv"))]
        check(p.returncode == 0 and order == list(range(0, 121)),
              "--steps 120: the run ends when the step count first reaches 120",
              "%r %r" % (p.stderr, order[-3:]))

        out = os.path.join(tmp, "steps2")
        p = run(["--headless", "--scene", SCENE, "--replay", rec, "--dump", out,
                 "--steps", "230"], tmp)
        order = [frame for frame, _ in frame_blocks(os.path.join(out, "frames.csv"))]
        check(p.returncode == 0 and order == list(range(0, 201)) + list(range(71, 231)),
              "--steps 230: back at 200, then on until the step count reaches 230",
              "%r %r" % (p.stderr, order[-3:]))

        # A history too short for the rewind, or none.
        for history, what in (("0.5", "half a second of history"), ("0", "no history")):
            p = run(["--headless", "--scene", SCENE, "--replay", rec, "--history", history], tmp)
            check(p.returncode == 1 and "--history" in p.stderr
                  and len(p.stderr.splitlines()) == 1,
                  "%s: the rewind fails, naming --history" % what, p.stderr)

        for value, what in (("-1", "negative"), ("nan", "NaN"), ("3601", "over an hour"),
                            ("2s", "trailing junk"), ("", "empty")):
            p = run(["--headless", "--steps", "5", "--history", value], tmp)
            lines = p.stderr.splitlines()
            check(p.returncode == 2 and len(lines) == 1 and "--history" in lines[0],
                  "--history %s (%s) is refused with one line naming it" % (value, what),
                  p.stderr)
        p = run(["--headless", "--steps", "5", "--history", "0"], tmp)
        check(p.returncode == 0, "--history 0 turns it off", p.stderr)
    return done()


if __name__ == "__main__":
    sys.exit(main())
