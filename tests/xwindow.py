"""The window tests' X server and xdotool: Xvfb on a display of its own,
xdotool on it, and the sandbox's window found there."""

import os
import subprocess
import time


def start_xvfb(screen="1024x768x24"):
    """Xvfb on a display it picks itself (-displayfd), so no clash with
    other servers; returns (process, ':N'), or None if it did not start.
    -noreset: by default Xvfb resets when its last client leaves, and a
    window opened just then never appeared (the at-rest check found no
    window in about half the runs one evening; none in 8 runs with
    -noreset)."""
    r, w = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", screen,
                             "-nolisten", "tcp", "-noreset"], pass_fds=(w,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(w)
    number = b""
    deadline = time.monotonic() + 30
    while not number.endswith(b"\n") and time.monotonic() < deadline:
        chunk = os.read(r, 16)
        if not chunk:
            break
        number += chunk
    os.close(r)
    if not number.strip().isdigit():
        xvfb.kill()
        return None
    return xvfb, ":" + number.strip().decode()


def xdo(env, *args):
    return subprocess.run(["xdotool"] + [str(a) for a in args], env=env, capture_output=True,
                          timeout=60)


def find_window(env, proc):
    """The sandbox's window id once it shows (None if proc ends first or
    30 s pass)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and proc.poll() is None:
        ids = xdo(env, "search", "--onlyvisible", "--name", "^ballpit$").stdout.split()
        if ids:
            return ids[0].decode()
        time.sleep(0.1)
    return None
