#!/usr/bin/env python3
"""`meson install` gives a working installation, and `--scene NAME` finds
the installed example scenes by name.

The build is installed into a throwaway DESTDIR with `meson install
--no-rebuild` (no new configure, no compile: a copy of what the build
already made). Then:
- the program, the man page and every scenes/*.scene sit where the build's
  own bindir, mandir and datadir say, the man page and the scenes byte for
  byte as in the source tree;
- the installed program, run from an empty directory, loads `--scene
  funnel` and `--scene funnel.scene` from its own share/ballpit/scenes, and
  the frames match those of the build's program on the source tree's file;
- the build's own program, run from an empty directory, finds the source
  tree's scenes;
- the search order holds: a file named as given beats scenes/ under the
  current directory, which beats the installed scenes;
- an unknown bare name is bad input (exit 2, the name on stderr, no dump).

usage: cli_install.py BALLPIT MESON BUILD_DIR SOURCE_DIR   (TAP on stdout)
"""
import filecmp
import glob
import json
import os
import subprocess
import sys
import tempfile

from taplib import check, done


def run(cmd, cwd, env=None):
    return subprocess.run(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=120)


def under(destdir, prefix, sub):
    """DESTDIR/PREFIX/SUB, as meson places it (SUB may be absolute)."""
    path = sub if os.path.isabs(sub) else os.path.join(prefix, sub)
    return os.path.join(destdir, path.lstrip("/"))


def frame_rows(csv_path):
    with open(csv_path) as f:
        return f.read().splitlines()


def ball_count(csv_path):
    return sum(1 for row in frame_rows(csv_path)[1:] if row.startswith("0,"))


def main():
    ballpit, meson, build, source = (os.path.abspath(a) for a in sys.argv[1:5])
    opts = json.loads(run([meson, "introspect", "--buildoptions", build], cwd=build).stdout)
    opt = {o["name"]: o["value"] for o in opts}
    prefix = opt["prefix"]

    with tempfile.TemporaryDirectory() as tmp:
        dest = os.path.join(tmp, "dest")
        env = dict(os.environ, DESTDIR=dest)
        p = run([meson, "install", "-C", build, "--no-rebuild", "--quiet"], cwd=build, env=env)
        check(p.returncode == 0, "meson install into a DESTDIR succeeds",
              p.stdout + p.stderr)
        if p.returncode != 0:
            return done()

        exe = os.path.join(under(dest, prefix, opt["bindir"]), "ballpit")
        man = os.path.join(under(dest, prefix, opt["mandir"]), "man1", "ballpit.1")
        scene_dir = os.path.join(under(dest, prefix, opt["datadir"]), "ballpit", "scenes")
        check(os.path.isfile(exe) and os.access(exe, os.X_OK), "the program is in bindir", exe)
        check(os.path.isfile(man) and filecmp.cmp(man, os.path.join(source, "man", "ballpit.1"),
                                                  shallow=False),
              "the man page is in mandir/man1, as in the source tree", man)
        sources = sorted(glob.glob(os.path.join(source, "scenes", "*.scene")))
        installed = sorted(glob.glob(os.path.join(scene_dir, "*.scene")))
        check([os.path.basename(s) for s in sources] == [os.path.basename(s) for s in installed]
              and all(filecmp.cmp(a, b, shallow=False) for a, b in zip(sources, installed)),
              "every example scene is in datadir/ballpit/scenes, byte for byte",
              "%s\n%s" % (sources, installed))

        # The build's program on the source tree's file gives the reference.
        elsewhere = os.path.join(tmp, "elsewhere")
        os.mkdir(elsewhere)
        ref = os.path.join(tmp, "ref")
        steps = ["--headless", "--steps", "30"]
        p = run([ballpit, "--scene", os.path.join(source, "scenes", "funnel.scene"), "--dump", ref]
                + steps, cwd=tmp)
        check(p.returncode == 0, "reference run on the source tree's funnel.scene", p.stderr)
        reference = frame_rows(os.path.join(ref, "frames.csv")) if p.returncode == 0 else None

        for name in ("funnel", "funnel.scene"):
            out = os.path.join(elsewhere, "out-" + name)
            p = run([exe, "--scene", name, "--dump", out] + steps, cwd=elsewhere)
            ok = p.returncode == 0 and reference is not None
            check(ok and frame_rows(os.path.join(out, "frames.csv")) == reference,
                  "installed program, empty cwd: --scene %s loads the installed funnel" % name,
                  "exit %d: %s" % (p.returncode, p.stderr))

        out = os.path.join(elsewhere, "out-built")
        p = run([ballpit, "--scene", "funnel", "--dump", out] + steps, cwd=elsewhere)
        check(p.returncode == 0 and reference is not None
              and frame_rows(os.path.join(out, "frames.csv")) == reference,
              "the build's program, not installed, empty cwd: --scene funnel loads the "
              "source tree's", "exit %d: %s" % (p.returncode, p.stderr))

        # Search order: as given, then ./scenes, then the installed scenes.
        order = os.path.join(tmp, "order")
        os.makedirs(os.path.join(order, "scenes"))
        with open(os.path.join(order, "scenes", "funnel.scene"), "w") as f:
            f.write("ball x=100 y=100\nball x=200 y=100\n")
        out = os.path.join(order, "out-local")
        p = run([exe, "--scene", "funnel", "--dump", out] + steps, cwd=order)
        check(p.returncode == 0 and ball_count(os.path.join(out, "frames.csv")) == 2,
              "scenes/funnel.scene under the current directory beats the installed one",
              p.stderr)
        with open(os.path.join(order, "funnel"), "w") as f:
            f.write("ball x=100 y=100\n")
        out = os.path.join(order, "out-given")
        p = run([exe, "--scene", "funnel", "--dump", out] + steps, cwd=order)
        check(p.returncode == 0 and ball_count(os.path.join(out, "frames.csv")) == 1,
              "a file named as given beats every scene directory", p.stderr)

        out = os.path.join(elsewhere, "out-missing")
        p = run([exe, "--scene", "no-such-scene", "--dump", out] + steps, cwd=elsewhere)
        check(p.returncode == 2 and "no-such-scene" in p.stderr
              and len(p.stderr.strip().splitlines()) == 1 and not os.path.exists(out),
              "an unknown scene name: exit 2, one line naming it, no dump",
              "exit %d: %s" % (p.returncode, p.stderr))
    return done()


if __name__ == "__main__":
    sys.exit(main())
