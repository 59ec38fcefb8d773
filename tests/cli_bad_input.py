#!/usr/bin/env python3
"""Bad input at the process level: every class of mistake exits 2 with exactly
one line on stderr naming the option or FILE:LINE, writes nothing to stdout,
and leaves no dump behind. Also: runtime failures (an unwritable dump
directory, a full disk) exit 1 with a message.

usage: cli_bad_input.py PATH/TO/ballpit   (TAP on stdout)
"""
import os
import subprocess
import sys
import tempfile

from taplib import check, done

BALLPIT = os.path.abspath(sys.argv[1])


def run(args, cwd, timeout=30):
    return subprocess.run([BALLPIT] + args, cwd=cwd, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=timeout)


def expect_bad(args, must_name, what, cwd, scene_text=None):
    if scene_text is not None:
        with open(os.path.join(cwd, "bad.scene"), "w") as f:
            f.write(scene_text)
        args = ["--scene", "bad.scene"] + args
    # Every bad-input run also asks for a dump: none may appear.
    args = args + ["--headless", "--steps", "5", "--dump", "dumpdir"]
    try:
        p = run(args, cwd)
    except subprocess.TimeoutExpired:
        check(False, what, "timed out: %r" % args)
        return
    lines = p.stderr.splitlines()
    names = must_name if isinstance(must_name, tuple) else (must_name,)
    ok = (p.returncode == 2 and len(lines) == 1 and p.stderr.endswith("\n")
          and all(n in lines[0] for n in names) and p.stdout == ""
          and not os.path.exists(os.path.join(cwd, "dumpdir")))
    check(ok, what, "args %r\nexit %d, stdout %r, stderr %r, dump made: %s" % (
        args, p.returncode, p.stdout, p.stderr,
        os.path.exists(os.path.join(cwd, "dumpdir"))))


def main():
    with tempfile.TemporaryDirectory() as tmp:
        os.mkdir(os.path.join(tmp, "a-directory"))
        options = [
            (["--bogus"], "--bogus", "unknown option"),
            (["--gravity", "12abc"], "--gravity", "trailing junk"),
            (["--gravity", "1..2"], "--gravity", "malformed number"),
            (["--gravity", "nan"], "--gravity", "NaN"),
            (["--drag", "inf"], "--drag", "inf"),
            (["--friction", "-inf"], "--friction", "-inf"),
            (["--gravity", "1e999"], "--gravity", "overflow"),
            (["--restitution", "-0.1"], "--restitution", "negative restitution"),
            (["--restitution", "1.5"], "--restitution", "restitution 1.5"),
            (["--hz", "0"], "--hz", "hz 0"),
            (["--solver", "fast"], "--solver", "unknown solver"),
            (["--arena", "0x0"], "--arena", "arena 0x0"),
            (["--arena", "800"], "--arena", "arena without x"),
            (["--radius", "9:3"], "--radius", "radius MIN > MAX"),
            (["--balls", "-3"], "--balls", "negative ball count"),
            (["--balls", "4.5"], "--balls", "fractional ball count"),
            (["--seed", "99999999999999999999"], "--seed", "seed out of range"),
            (["--dump-every", "0"], "--dump-every", "dump-every 0"),
            (["--png"], "--png", "--png without --dump"),
            (["--bench", "0"], "--bench", "a pit of no balls"),
            (["--bench", "1000", "--bench-aspect", "0"], "--bench-aspect", "bench aspect 0"),
            (["--bench", "1000", "--bench-aspect", "-2"], "--bench-aspect",
             "negative bench aspect"),
            (["--bench", "1000", "--bench-aspect", "nan"], "--bench-aspect", "bench aspect NaN"),
            (["--bench", "1000", "--bench-aspect", "1e5"], "--bench-aspect",
             "a pit too shallow for one row of its balls"),
            (["--bench", "1000", "--bench-aspect", "1e-5"], "--bench-aspect",
             "a pit too narrow for one column of its balls"),
            (["--bench", "2000000", "--bench-aspect", "3200"], "--bench-aspect",
             "a pit wider than the largest arena"),
            (["--bench-aspect", "3"], "--bench-aspect", "--bench-aspect without --bench"),
            (["--bench-crowd", "0"], "--bench-crowd", "a crowd of no balls"),
            (["--bench", "1000", "--scene", "ramp"], "--scene",
             "--bench with a scene it would ignore"),
            (["--bench", "1000", "--gravity", "5"], "--gravity",
             "--bench with a physics option it would ignore"),
            (["--bench-crowd", "1000", "--bench", "1000"], "--bench-crowd",
             "--bench-crowd with --bench"),
            (["--bench-crowd", "1000", "--bench-aspect", "1e5"], "--bench-aspect",
             "a crowd too shallow for one row of its balls"),
            (["--pit", "0"], "--pit", "a pit of no balls"),
            (["--pit", "2000001"], "--pit", "a pit of too many balls"),
            (["--pit", "100", "--scene", "funnel"], "--pit", "--pit with --scene"),
            (["--pit", "100", "--balls", "5"], "--pit", "--pit with --balls"),
            (["--pit", "100", "--arena", "800x600"], "--pit", "--pit with --arena"),
            (["--settle", "-1"], "--settle", "negative settle"),
            (["--settle", "1000001"], "--settle", "settle beyond 10^6 steps"),
            (["--settle", "2.5"], "--settle", "fractional settle"),
            (["--balls", "100000"], "--balls", "too many balls for the arena"),
            (["--balls", "1250", "--radius", "10"], "--balls", "balls that jam the arena"),
            (["--scene", "/nonexistent/none.scene"], "/nonexistent/none.scene",
             "unreadable scene path"),
            (["--scene", "a-directory"], "a-directory", "a directory as the scene"),
            (["--scene", ""], "--scene", "an empty scene name"),
            (["--re", "5"], "--replay", "an ambiguous abbreviation names what it begins"),
            (["stray"], "stray", "a stray argument"),
            # A typo is answered with the nearest option, when one is near.
            (["--gravty", "5"], "ballpit: --gravty: unknown option (did you mean --gravity?)",
             "a typo names the nearest option"),
            (["--restitutoin", "0.5"], "(did you mean --restitution?)",
             "two letters swapped name the option meant"),
            (["-gravity", "5"], "(did you mean --gravity?)",
             "one dash instead of two names the option meant"),
            # Each option once: a second one would silently win or lose.
            (["--gravity", "5", "--gravity", "6"], ("--gravity", "more than once"),
             "an option given twice is refused, named"),
            (["--headless"], ("--headless", "more than once"),
             "a flag given twice is refused, named"),
            (["-h", "--help"], ("--help", "more than once"), "-h is --help: not twice either"),
            # --scene: a name found nowhere points to the example scenes.
            (["--scene", "funnell"], ("funnell", "(did you mean funnel?)"),
             "a misspelt example scene names the one meant"),
            (["--scene", "qqqqqqq"], ("qqqqqqq", "billiard, funnel, heap, pachinko, ramp"),
             "an unknown scene name lists the example scenes"),
            # The default radius does not fit an arena 16 px wide: the arena
            # given is to blame, not the --radius never given.
            (["--arena", "16x1e6"], ("ballpit: --arena: ", "--radius"),
             "an arena too narrow for the default balls blames --arena"),
            # A ray cast takes no steps: what would step, record or write
            # frames is refused, not silently ignored.
            (["--raycast", "10,10,1,0", "--replay", "in.rec"], ("--raycast", "--replay"),
             "--raycast with --replay"),
            (["--raycast", "10,10,1,0", "--record-input", "out.rec"],
             ("--raycast", "--record-input"), "--raycast with --record-input"),
            (["--raycast", "10,10,1,0", "--png"], ("--raycast", "--png"),
             "--raycast with --png"),
            (["--raycast", "10,10,1,0"], ("--raycast", "--dump"), "--raycast with --dump"),
            (["--bench", "1000", "--raycast", "10,10,1,0"], ("--bench", "--raycast"),
             "--bench with a ray cast it would ignore"),
        ]
        for args, name, what in options:
            if args == ["--png"]:
                # --png needs the missing --dump: no dump option at all here.
                p = run(args + ["--headless", "--steps", "5"], tmp)
                lines = p.stderr.splitlines()
                check(p.returncode == 2 and len(lines) == 1 and name in lines[0],
                      "option: " + what, "exit %d stderr %r" % (p.returncode, p.stderr))
                continue
            expect_bad(args, name, "option: " + what, tmp)

        # Output paths the system would refuse are refused whole, before
        # any directory of them is made (a long one used to leave 20).
        long_dir = os.path.join(tmp, "long")
        for path, what in ((os.path.join(long_dir, "/".join(["b" * 200] * 25)), "too long"),
                           (os.path.join(long_dir, "c" * 300, "d"), "with a 300-byte name")):
            for option in ("--dump", "--record-input"):
                p = run(["--headless", "--steps", "3", option, path], tmp)
                lines = p.stderr.splitlines()
                check(p.returncode == 2 and len(lines) == 1 and option in lines[0]
                      and len(lines[0]) < 200 and not os.path.exists(long_dir),
                      "option: %s with a path %s: exit 2, one short line, nothing made"
                      % (option, what), "exit %d stderr %r" % (p.returncode, p.stderr[:300]))

        # A missing value: the option must be last on the line to miss it.
        p = run(["--headless", "--steps", "5", "--gravity"], tmp)
        lines = p.stderr.splitlines()
        check(p.returncode == 2 and len(lines) == 1 and "--gravity" in lines[0],
              "option: missing value", "exit %d stderr %r" % (p.returncode, p.stderr))

        scenes = [
            ("world w=400 h=300\nbogus x=1\n", "bad.scene:2:", "unknown keyword"),
            ("ball x=10 y=10 q=1\n", "bad.scene:1:", "unknown key"),
            ("# hi\nball x=10\n", "bad.scene:2:", "missing required key"),
            ("ball x=10 x=11 y=10\n", "bad.scene:1:", "duplicate key"),
            ("ball x=1o y=10\n", "bad.scene:1:", "bad number"),
            ("ball x=10abc y=10\n", "bad.scene:1:", "trailing junk"),
            ("ball x=nan y=10\n", "bad.scene:1:", "NaN"),
            ("ball x=10 y=inf\n", "bad.scene:1:", "inf"),
            ("world restitution=1.5\n", "bad.scene:1:", "restitution 1.5"),
            ("world hz=0\n", "bad.scene:1:", "hz 0"),
            ("world solver=fast\n", "bad.scene:1:", "unknown solver"),
            ("world solver=soft solver=soft\n", "bad.scene:1:", "solver given twice"),
            ("world w=0 h=0\n", "bad.scene:1:", "arena 0x0"),
            ("world w=400 h=300\n\n\nball x=500 y=10\n", "bad.scene:4:",
             "ball outside the arena"),
            ("world w=400 h=300\nball x=0 y=10\n", "bad.scene:2:",
             "a ball centred on the arena's left border"),
            ("world w=400 h=300\nball x=200 y=300\n", "bad.scene:2:",
             "a ball centred on the arena's bottom border"),
            ("world w=400 h=300\n# fine\nball x=10 y=10\x00\n", "bad.scene:3:",
             "a NUL byte (named by its line)"),
        ]
        for text, prefix, what in scenes:
            expect_bad([], prefix, "scene: " + what, tmp, scene_text=text)
        # The line must start with the location, not merely contain it.
        with open(os.path.join(tmp, "bad.scene"), "w") as f:
            f.write("ball x=10 y=10\nball x=10 y=10 bogus=3\n")
        p = run(["--scene", "bad.scene", "--headless", "--steps", "1"], tmp)
        check(p.returncode == 2 and "bad.scene:2:" in p.stderr and "bogus" in p.stderr,
              "scene: the message names FILE:LINE and the key", p.stderr)
        # An explicit --arena that shrinks the scene's arena puts a ball outside.
        with open(os.path.join(tmp, "ok.scene"), "w") as f:
            f.write("ball x=500 y=300\n")
        expect_bad(["--scene", "ok.scene", "--arena", "200x200"], "ok.scene:1:",
                   "scene: a ball outside the arena the command line gives", tmp)

        # Runtime failures: exit 1 with a message.
        regular = os.path.join(tmp, "plain-file")
        with open(regular, "w") as f:
            f.write("x")
        for target, what in ((os.path.join(regular, "sub"), "a dump dir under a regular file"),
                             ("/proc/ballpit-cannot-exist", "a dump dir under /proc")):
            p = run(["--headless", "--steps", "3", "--balls", "5", "--dump", target], tmp)
            check(p.returncode == 1 and p.stderr.strip() != "",
                  "runtime: " + what + " exits 1 with a message",
                  "exit %d stderr %r" % (p.returncode, p.stderr))
        # A PNG of a huge arena would be gigabytes per frame: refused up
        # front, before a dump directory is made, not ground through.
        p = run(["--headless", "--steps", "2", "--balls", "3", "--arena", "100000x50000",
                 "--dump", "huge", "--png"], tmp, timeout=60)
        check(p.returncode == 2 and "--png" in p.stderr and
              not os.path.exists(os.path.join(tmp, "huge")),
              "bad input: --png of a 100000x50000 arena exits 2 at once, nothing written",
              "exit %d stderr %r" % (p.returncode, p.stderr))
        if os.path.exists("/dev/full"):
            full = os.path.join(tmp, "full")
            os.mkdir(full)
            os.symlink("/dev/full", os.path.join(full, "frames.csv"))
            p = run(["--headless", "--steps", "20", "--balls", "20", "--dump", full], tmp)
            check(p.returncode == 1 and "frames.csv" in p.stderr,
                  "runtime: a full disk exits 1 naming frames.csv",
                  "exit %d stderr %r" % (p.returncode, p.stderr))

        # No display (over ssh): SDL fell back to a driver that shows
        # nothing, and the window ran invisibly until killed. It must say
        # so at once, in one line, and point to --headless.
        bare = {k: v for k, v in os.environ.items()
                if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
        try:
            p = subprocess.run([BALLPIT, "--balls", "3"], cwd=tmp, env=bare,
                               stdin=subprocess.DEVNULL, capture_output=True, text=True,
                               timeout=20)
            lines = p.stderr.splitlines()
            check(p.returncode == 1 and len(lines) == 1 and "no display" in lines[0]
                  and "--headless" in lines[0] and p.stdout == "",
                  "runtime: with no display the window exits 1 at once, one line suggesting "
                  "--headless", "exit %d stdout %r stderr %r" % (p.returncode, p.stdout,
                                                                  p.stderr))
        except subprocess.TimeoutExpired:
            check(False, "runtime: with no display the window exits 1 at once, one line "
                  "suggesting --headless", "still running after 20 s")

        # Not bad input: these must succeed.
        for args in (["--help"], ["--version"]):
            p = run(args, tmp)
            check(p.returncode == 0 and p.stdout != "", "%s prints and exits 0" % args[0])
        h, helped = run(["-h"], tmp), run(["--help"], tmp)
        check(h.returncode == 0 and h.stdout == helped.stdout and "-h, --help" in h.stdout,
              "-h prints --help's text, which names it, and exits 0",
              "exit %d stdout %r stderr %r" % (h.returncode, h.stdout[:200], h.stderr))
        # A name far from every option gets no guess.
        p = run(["--bogus"], tmp)
        check(p.returncode == 2 and p.stderr == "ballpit: --bogus: unknown option\n",
              "option: an unknown name near none gets no 'did you mean'", p.stderr)

    return done()


if __name__ == "__main__":
    sys.exit(main())
