#!/usr/bin/env python3
"""An outside program embeds the installed library through pkg-config.

The build is installed into a throwaway DESTDIR (`meson install
--no-rebuild`), then examples/hello.c is compiled from the source tree
against that copy alone: the header from DESTDIR's includedir, the flags
and the library from `pkg-config --define-prefix` over DESTDIR's ballpit.pc
(so the paths follow the staged copy, not the configured prefix). The
program must build without a warning and run to its own check: two balls
that come to rest on the floor (exit 0).

usage: lib_install.py MESON BUILD_DIR SOURCE_DIR CC...   (TAP on stdout)
"""
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


def main():
    meson, build, source = (os.path.abspath(a) for a in sys.argv[1:4])
    cc = sys.argv[4:]
    with tempfile.TemporaryDirectory() as tmp:
        dest = os.path.join(tmp, "dest")
        p = run([meson, "install", "-C", build, "--no-rebuild", "--quiet"], cwd=build,
                env=dict(os.environ, DESTDIR=dest))
        check(p.returncode == 0, "meson install into a DESTDIR succeeds", p.stdout + p.stderr)
        if p.returncode != 0:
            return done()
        headers = glob.glob(os.path.join(dest, "**", "include", "ballpit", "ballpit.h"),
                            recursive=True)
        check(len(headers) == 1 and open(headers[0]).read() ==
              open(os.path.join(source, "include", "ballpit", "ballpit.h")).read(),
              "<ballpit/ballpit.h> is installed as in the source tree", str(headers))
        pcs = glob.glob(os.path.join(dest, "**", "pkgconfig", "ballpit.pc"), recursive=True)
        libs = glob.glob(os.path.join(dest, "**", "libballpit.a"), recursive=True)
        check(len(pcs) == 1 and len(libs) == 1, "ballpit.pc and libballpit.a are installed",
              "%s %s" % (pcs, libs))
        if len(pcs) != 1:
            return done()
        opts = json.loads(run([meson, "introspect", "--buildoptions", build], cwd=build).stdout)
        prefix = next(o["value"] for o in opts if o["name"] == "prefix")
        env = dict(os.environ, PKG_CONFIG_PATH=os.path.dirname(pcs[0]))
        flags = run(["pkg-config", "--define-variable=prefix=" + dest + prefix, "--cflags",
                     "--libs", "--static", "ballpit"], cwd=tmp, env=env)
        check(flags.returncode == 0, "pkg-config knows ballpit", flags.stderr)
        if flags.returncode != 0:
            return done()
        check(dest in flags.stdout and source not in flags.stdout and build not in flags.stdout,
              "its flags point into the installed copy only", flags.stdout)
        exe = os.path.join(tmp, "hello")
        p = run(cc + ["-std=c17", "-Wall", "-Wextra", "-Werror",
                      os.path.join(source, "examples", "hello.c"), "-o", exe]
                + flags.stdout.split(), cwd=tmp)
        check(p.returncode == 0, "examples/hello.c builds against it, warning-free",
              " ".join(cc) + "\n" + p.stdout + p.stderr)
        if p.returncode != 0:
            return done()
        p = run([exe], cwd=tmp)
        check(p.returncode == 0 and "both at rest" in p.stdout,
              "hello runs: its two balls come to rest", p.stdout + p.stderr)
    return done()


if __name__ == "__main__":
    sys.exit(main())
