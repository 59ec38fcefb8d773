#!/usr/bin/env python3
"""--png at the process level: a headless run of 200 balls writes one PNG per
dumped step, each a real PNG of the arena's size, and the pictures show the
balls where frames.csv puts them, in a colour that stays with the ball.

usage: cli_png.py PATH/TO/ballpit   (TAP on stdout)
"""
import os
import struct
import subprocess
import sys
import tempfile
import zlib

from taplib import check, done

BALLPIT = os.path.abspath(sys.argv[1])
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_chunks(data):
    pos = 8
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        yield kind, data[pos + 8:pos + 8 + length]
        pos += 12 + length


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(33)
    if head[:8] != PNG_SIGNATURE or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


def decode_png(path):
    """Pixels of an 8-bit, non-interlaced RGB or RGBA PNG as rows of tuples."""
    with open(path, "rb") as f:
        data = f.read()
    ihdr = next(body for kind, body in png_chunks(data) if kind == b"IHDR")
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", ihdr)
    if depth != 8 or colour not in (2, 6) or interlace != 0:
        raise ValueError("unsupported PNG: depth %d colour %d interlace %d"
                         % (depth, colour, interlace))
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(body for kind, body in png_chunks(data) if kind == b"IDAT"))
    stride = width * bpp
    rows, prev, pos = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[pos], bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        rows.append([tuple(line[k:k + 3]) for k in range(0, stride, bpp)])
        prev = line
    return rows


def two_hundred_balls(tmp):
    p = subprocess.run([BALLPIT, "--headless", "--steps", "600", "--balls", "200", "--dump",
                        "out", "--png"], cwd=tmp, stdin=subprocess.DEVNULL, capture_output=True,
                       timeout=1200)
    check(p.returncode == 0, "png: a 600-step run with --png exits 0", p.stderr)
    out = os.path.join(tmp, "out")
    names = sorted(n for n in os.listdir(out) if n.endswith(".png"))
    want = ["frame-%06d.png" % k for k in range(601)]
    check(names == want, "png: 601 files frame-000000.png .. frame-000600.png",
          "%d files, first %s last %s" % (len(names), names[:1], names[-1:]))
    sizes = {png_size(os.path.join(out, n)) for n in names}
    check(sizes == {(1024, 768)}, "png: every file is a PNG of the arena's 1024x768", sizes)
    with open(os.path.join(out, "frames.csv")) as f:
        rows = sum(1 for _ in f) - 1
    check(rows == 601 * 200, "png: frames.csv beside them holds 601 frames of 200 balls", rows)


def pictures_show_the_balls(tmp):
    scene = os.path.join(tmp, "still.scene")
    with open(scene, "w") as f:
        f.write("world w=160 h=100 gravity=0 drag=0\n"
                "ball x=40 y=50 r=20\n"
                "ball x=110 y=40 r=15 vx=60\n")
    p = subprocess.run([BALLPIT, "--headless", "--steps", "30", "--scene", scene, "--dump",
                        "still", "--dump-every", "30", "--png"], cwd=tmp,
                       stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
    check(p.returncode == 0, "png: a small scene renders", p.stderr)
    d = os.path.join(tmp, "still")
    check(png_size(os.path.join(d, "frame-000030.png")) == (160, 100),
          "png: image size follows --arena / the scene's world")
    first = decode_png(os.path.join(d, "frame-000000.png"))
    last = decode_png(os.path.join(d, "frame-000030.png"))
    background = first[2][80]
    check(first[50][40] != background and first[40][110] != background,
          "png: frame 0 shows each ball at its centre", (background, first[50][40]))
    check(first[50][40] == last[50][40], "png: the resting ball looks the same 30 steps later")
    # Ball 1 moved 60 px/s * 0.25 s = 15 px right: its old centre's colour
    # is now at x = 125, and ball 0 keeps a colour of its own.
    check(last[40][125] == first[40][110], "png: the moving ball keeps its colour")
    check(first[40][110] != first[50][40], "png: two balls get different colours")
    check(last[40][97] == background, "png: the place the moving ball left is background again",
          last[40][97])


def main():
    with tempfile.TemporaryDirectory() as tmp:
        pictures_show_the_balls(tmp)
        two_hundred_balls(tmp)
    return done()


if __name__ == "__main__":
    sys.exit(main())
