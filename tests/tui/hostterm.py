#!/usr/bin/python3
# hostterm.py: a host terminal with known colours and cell size, for
# test-tui-terminal.sh. Runs COMMAND on a pty of its own terminal's size
# and relays both ways; when COMMAND asks for the foreground, background
# or cursor colour (OSC 10, 11, 12), a palette colour (OSC 4) or the cell
# or text area size in pixels (CSI 16 t, 14 t), it answers as a terminal
# with the colours and cell below would, and lets the rest through (the
# outer terminal answers DA1, which comes after).
#
#   hostterm.py -- COMMAND [ARG...]
import fcntl
import os
import pty
import re
import select
import struct
import sys
import termios
import tty

FG, BG, CURSOR = (0x12, 0x34, 0x56), (0xfe, 0xdc, 0xba), (0x11, 0x22, 0x33)
PALETTE = {1: (0xab, 0x01, 0x02)}
CELL_W, CELL_H = 9, 18

# OSC 10, 11, 12 ; ?  and  OSC 4 ; N ; ? [; N ; ? ...]  and CSI 16/14 t.
QUERY = re.compile(rb"\x1b\](1[012]);\?(?:\x07|\x1b\\)|"
                   rb"\x1b\]4((?:;\d+;\?)+)(?:\x07|\x1b\\)|\x1b\[(16|14)t")


def rgb(c):
    return "rgb:%02x%02x/%02x%02x/%02x%02x" % (c[0], c[0], c[1], c[1], c[2], c[2])


def osc(what, colour):
    return b"\x1b]" + what.encode() + b";" + rgb(colour).encode() + b"\x1b\\"


def answer(m, rows, cols):
    if m.group(3) == b"16":
        return b"\x1b[6;%d;%dt" % (CELL_H, CELL_W)
    if m.group(3) == b"14":
        return b"\x1b[4;%d;%dt" % (CELL_H * rows, CELL_W * cols)
    if m.group(1):
        what = m.group(1).decode()
        return osc(what, {"10": FG, "11": BG, "12": CURSOR}[what])
    out = b""
    for n in re.findall(rb"(\d+);\?", m.group(2)):
        out += osc("4;" + n.decode(), PALETTE.get(int(n), (0, 0, 0)))
    return out


def main():
    argv = sys.argv[sys.argv.index("--") + 1:]
    size = fcntl.ioctl(0, termios.TIOCGWINSZ, b"\0" * 8)
    rows, cols = struct.unpack("HHHH", size)[:2]
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, size)
        os.execvp(argv[0], argv)
    old = termios.tcgetattr(0)
    tty.setraw(0)
    try:
        while True:
            r, _, _ = select.select([0, fd], [], [])
            if fd in r:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    break
                if not data:
                    break
                for m in QUERY.finditer(data):
                    os.write(fd, answer(m, rows, cols))
                os.write(1, QUERY.sub(b"", data))
            if 0 in r:
                data = os.read(0, 65536)
                if not data:
                    break
                os.write(fd, data)
    finally:
        termios.tcsetattr(0, termios.TCSADRAIN, old)
    os.waitpid(pid, 0)


main()
