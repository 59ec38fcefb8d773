#!/usr/bin/env python3
"""The documentation stays true to the program: every option that
README.md, docs/cli.md and the man page name exists in `ballpit --help`,
and every option of --help (which prints the options table of
src/sim/options.c), its one-letter ones too, is documented in docs/cli.md
and the man page.
Also the README stays short (at most 250 lines), and the man page names
the version the program prints.

usage: cli_docs.py PATH/TO/ballpit SOURCE_DIR   (TAP on stdout)
"""
import os
import re
import subprocess
import sys

from taplib import check, done

# Options of other programs that the documents show (meson, valgrind, git,
# the test scripts), and heading anchors that look like options.
NOT_OURS = {"--prefix", "--print-errorlogs", "--benchmark", "--callgrind-out-file",
            "--reconfigure", "--tool", "--destdir", "--regenerate", "--stat", "--suite",
            "--timeout-multiplier", "--no-rebuild", "--version-only",
            "--crowd", "--runs", "--engines",  # ballpit-compare's, not the program's
            "--name",  # xdotool's (search --name), in the window's method
            "--gravty"}  # the typo docs/cli.md shows answered with "did you mean"
ANCHOR = re.compile(r"\(#[^)]*\)|\(\.\./[^)]*\)|\([a-z]+\.md#[^)]*\)")
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
LETTER = re.compile(r"(?<![\w-])-[a-zA-Z](?![\w-])")  # a one-letter option: -h


def options_in(text):
    text = ANCHOR.sub("", text.replace("\\-", "-"))
    return set(OPTION.findall(text)) - NOT_OURS


def letters_in(text):
    return set(LETTER.findall(text.replace("\\-", "-")))


def main():
    ballpit, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    p = subprocess.run([ballpit, "--help"], stdin=subprocess.DEVNULL, capture_output=True,
                       text=True, timeout=60)
    check(p.returncode == 0, "--help exits 0", p.stderr)
    helped = options_in(p.stdout)
    check(len(helped) >= 20, "--help lists the options", p.stdout)

    docs = {}
    for name in ("README.md", "docs/cli.md", "docs/benchmarks.md", "CONTRIBUTING.md",
                 "man/ballpit.1"):
        with open(os.path.join(source, name), encoding="utf-8") as f:
            docs[name] = f.read()
        # An abbreviation (getopt_long takes unambiguous ones) counts as
        # the one option it abbreviates.
        unknown = sorted(o for o in options_in(docs[name]) - helped
                         if len([h for h in helped if h.startswith(o)]) != 1)
        check(not unknown, "%s names only options that --help lists" % name,
              "not in --help: " + " ".join(unknown))
    for name in ("docs/cli.md", "man/ballpit.1"):
        missing = sorted(helped - options_in(docs[name]))
        missing += sorted(letters_in(p.stdout) - letters_in(docs[name]))
        check(not missing, "%s documents every option of --help" % name,
              "undocumented: " + " ".join(missing))

    v = subprocess.run([ballpit, "--version"], stdin=subprocess.DEVNULL, capture_output=True,
                       text=True, timeout=60).stdout.strip()
    th = [line for line in docs["man/ballpit.1"].splitlines() if line.startswith(".TH ")]
    check(len(th) == 1 and ('"%s"' % v) in th[0],
          "the man page's title line carries the version that --version prints",
          "%r against %r" % (th, v))

    lines = docs["README.md"].count("\n")
    check(lines <= 250, "README.md is at most 250 lines", "%d lines" % lines)

    return done()


if __name__ == "__main__":
    sys.exit(main())
