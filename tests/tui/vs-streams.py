#!/usr/bin/env python3
"""vs-streams.py KIND FILE: writes a deterministic stream of KIND for
test-tui-vs-tmux.sh, for an 80x24 screen.

  widths   text of every width the C library knows: ASCII, Latin with
           marks, CJK, fullwidth forms, emoji of Unicode 6-15 (wide since
           Unicode 9 or later), emoji modifiers, marks libvterm 0.1.4 does
           not know (U+1AB0-U+1AFF), Hangul jamo, the two emoji the C
           library makes narrow (U+1F93B, U+1F946), lines of 1-200
           columns (wide characters meet the right edge), marks in the
           last column
  sgr      the same text with 256-colour and 24-bit SGR on most characters
  screen   cursor-addressed redraws, a scroll region scrolled both ways,
           inserted and deleted lines and characters, tabs, erases
"""
import random
import sys

BITS = (
    ["a", "b", "z", " ", "0"] * 6
    + ["e\u0301", "o\u0308\u0323", "\u00e9", "\u00df"]
    + [chr(c) for c in (0x4E2D, 0x6587, 0xAC00, 0xFF21, 0x3042)]
    + [chr(c) for c in (0x1F600, 0x1F680, 0x2705, 0x274C, 0x26A1)]
    + [chr(c) for c in (0x1F970, 0x1F9EA, 0x1F9F9, 0x1FA79, 0x1FAE0,
                        0x1F97A, 0x1F9D1)]
    + ["\U0001F44D\U0001F3FD", "x\u1AB0", "y\u1AB5\u1AC0"]
    + ["\u1100\u1161\u11A8", "\U0001F93B", "\U0001F946"]
)


def text_line(rng, sgr):
    out, cols = [], rng.randint(1, 200)
    n = 0
    while n < cols:
        b = rng.choice(BITS)
        if sgr and rng.random() < 0.8:
            if rng.random() < 0.5:
                out.append("\033[38;5;%dm" % rng.randrange(256))
            else:
                out.append("\033[38;2;%d;%d;%dm" % tuple(
                    rng.randrange(256) for _ in range(3)))
            if rng.random() < 0.3:
                out.append("\033[48;2;%d;%d;%dm" % tuple(
                    rng.randrange(256) for _ in range(3)))
        out.append(b)
        n += 2 if ord(b[0]) >= 0x1100 and b[0] not in "\U0001F93B\U0001F946" else 1
    # A mark written right after the line's last column.
    if rng.random() < 0.2:
        out.append("\r" + "\033[C" * 79 + "q\u0328")
    out.append("\033[m\r\n")
    return "".join(out)


def screen(rng):
    out = []
    for frame in range(60):
        out.append("\033[H\033[2J" if frame % 10 == 0 else "\033[H")
        for row in range(1, 25):
            if rng.random() < 0.5:
                continue
            out.append("\033[%d;1H" % row)
            out.append("".join(rng.choice(BITS) for _ in range(rng.randint(0, 30))))
            out.append("\033[K" if rng.random() < 0.7 else "\tT\tT")
        top = rng.randint(1, 12)
        bot = rng.randint(top + 1, 24)
        out.append("\033[%d;%dr\033[%d;1H" % (top, bot, bot))
        out.append("down %d\n" % frame * rng.randint(1, 3))
        out.append("\033[%d;1H\033M\033M up" % top)
        out.append("\033[r\033[%d;%dH" % (rng.randint(1, 24), rng.randint(1, 80)))
        out.append(rng.choice(["\033[2L", "\033[M", "\033[3@", "\033[2P",
                               "\033[1K", "\033[J", "\033[4X"]))
        out.append("mark\u0301")
    return "".join(out)


def main():
    kind, path = sys.argv[1], sys.argv[2]
    rng = random.Random(19)
    if kind == "screen":
        data = screen(rng)
    else:
        data = "".join(text_line(rng, kind == "sgr") for _ in range(400))
    with open(path, "w", encoding="utf-8") as f:
        f.write(data)


main()
