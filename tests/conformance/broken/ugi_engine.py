#!/usr/bin/env python3
"""A small UGI engine (docs/protocol.md) apart from buttonup, with one deliberate
mistake at a time, for the kit's ``--ugi`` check:

    python tests/conformance/broken/ugi_engine.py MISTAKE

It plays the first legal move and reads its input on one thread: ``go infinite`` waits
for the next line, which it answers before its ``bestmove`` only if it is ``isready``.
"""

import sys
import time

from buttons import sow

MISTAKES = ("none", "illegal-bestmove", "turn-ignores-extra", "result-flipped", "slow", "deaf")
#: Not mistakes of the protocol but attacks on the kit: ``info-flood`` answers
#: ``go movetime`` with ``info`` lines forever, and never a ``bestmove``.
MISTAKES += ("info-flood",)


def replay(words, mistake):
    """The piles and the side to move ('r' or 'b') of 'position fen PILES SIDE moves ...'."""
    piles, side = words[2].split("/"), words[3]
    for move in words[5:]:
        piles, extra = sow(piles, int(move), "none")
        if not extra or mistake == "turn-ignores-extra":
            side = "b" if side == "r" else "r"
    return piles, side


def main():
    mistake = sys.argv[1] if len(sys.argv) > 1 else "none"
    if mistake not in MISTAKES:
        print(f"unknown mistake {mistake}", file=sys.stderr)
        return 2
    piles, side = None, "r"

    def say(line):
        print(line, flush=True)

    def best():
        legal = [i for i, pile in enumerate(piles) if "W" in pile]
        if mistake == "illegal-bestmove":
            return next((i for i, pile in enumerate(piles) if "W" not in pile), legal[0])
        return legal[0]

    lines = iter(sys.stdin)
    for line in lines:
        words = line.split()
        if not words:
            continue
        if words[0] == "quit":
            break
        if words[0] == "ugi":
            say("id name broken")
            say("ugiok")
        elif words[0] == "isready":
            say("readyok")
        elif words[0] == "position" and len(words) >= 4:
            piles, side = replay(words, mistake)
        elif words[0] == "go" and "infinite" in words:
            if mistake == "deaf":
                time.sleep(1.5)  # reads nothing meanwhile
            for next_line in lines:
                if next_line.strip() == "isready":
                    say("readyok")
                if next_line.strip() == "stop":
                    break
            say(f"bestmove {best()}")
        elif words[0] == "go":
            while mistake == "info-flood":
                say("info depth 1 score 0")
                time.sleep(0.001)
            if mistake == "slow":
                time.sleep(5 * int(words[2]) / 1000)
            say(f"bestmove {best()}")
        elif words[0] == "query" and len(words) == 2:
            over = len(piles) == 1
            if words[1] == "gameover":
                say(f"response {'true' if over else 'false'}")
            elif words[1] == "p1turn":
                say(f"response {'true' if side == 'r' else 'false'}")
            elif not over:
                say("response none")
            else:
                red = sum(i for i, b in enumerate(piles[0], 1) if b == "R")
                black = sum(i for i, b in enumerate(piles[0], 1) if b == "B")
                if mistake == "result-flipped":
                    red, black = black, red
                say(f"response {'p1win' if red > black else 'p2win' if black > red else 'draw'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
