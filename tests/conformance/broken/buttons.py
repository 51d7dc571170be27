#!/usr/bin/env python3
"""A small Button Up! implementation of the conformance kit's protocol, written apart
from buttonup (it imports nothing of it), with one deliberate mistake at a time:

    python tests/conformance/broken/buttons.py MISTAKE

The mistakes of the rules are those real implementations make; the others misbehave as
processes do. ``none`` is the implementation without a mistake, and ``standard-only``
one that refuses every position but those of nine buttons.
"""

import sys
import time

RULES = ("overflow-extra", "top-first", "wrap-around", "wrong-button", "score-off-by-one")
#: Rule 5 forgotten: a lone pile with a white button may be lifted.
RULES += ("lone-pile-lifts",)
PROCESS = ("crash", "hang", "garbage", "close")
#: Not a mistake: an implementation of the standard game only, which refuses the others.
LIMITED = ("standard-only",)


def sow(piles, lifted, mistake):
    """The piles after lifting pile ``lifted``, and whether the mover plays again."""
    buttons = piles[lifted]
    if mistake == "top-first":  # the lifted pile turned over: its top button dropped first
        buttons = buttons[::-1]
    rest = piles[:lifted] + piles[lifted + 1 :]
    m = len(rest)
    # The piles clockwise from the one after the lifted pile, in the new numbering.
    order = [(lifted + j) % m for j in range(m)]
    if len(buttons) <= m or mistake == "wrap-around":
        for j, button in enumerate(buttons):
            target = order[j % m]  # wrap-around goes round the circle again
            below = rest[target][-1]
            rest[target] += button
        if mistake == "wrong-button":  # compared with the target's bottom button
            below = rest[target][0]
        extra = buttons[-1] == below and len(buttons) <= m
        if mistake == "wrap-around":
            extra = buttons[-1] == below
    else:
        for j in range(m - 1):
            rest[order[j]] += buttons[j]
        last = order[m - 1]
        below = rest[last][-1]
        rest[last] += buttons[m - 1 :]
        extra = mistake == "overflow-extra" and buttons[-1] == below
    return rest, extra and m > 1


def answer(line, state, mistake):
    words = line.split()
    if not words:
        return "error empty request"
    if words[0] == "state":
        piles = words[1].split("/") if len(words) == 2 else []
        if not piles or any(not p or set(p) - set("RBW") for p in piles):
            state["piles"] = None
            return "error not a position"
        if mistake == "standard-only" and sum(map(len, piles)) != 9:
            state["piles"] = None
            return "error only the standard game of nine buttons"
        state["piles"] = piles
        return "ok"
    piles = state.get("piles")
    if piles is None:
        return "error no position"
    if words[0] == "legal":
        if mistake == "garbage" and len(piles) == 2:
            return "legal moves: " + ",".join(str(i) for i, p in enumerate(piles) if "W" in p)
        if len(piles) == 1:
            return "0" if mistake == "lone-pile-lifts" and "W" in piles[0] else ""
        return " ".join(str(i) for i, pile in enumerate(piles) if "W" in pile)
    if words[0] == "score":
        if len(piles) != 1:
            return "error the battle is not over"
        if mistake == "hang" and piles[0] == "BBBRRRWWW":
            time.sleep(3600)
        base = 0 if mistake == "score-off-by-one" else 1
        red = sum(i for i, b in enumerate(piles[0], base) if b == "R")
        black = sum(i for i, b in enumerate(piles[0], base) if b == "B")
        return f"R={red} B={black}"
    if words[0] == "play" and len(words) == 2 and words[1].isdigit():
        move = int(words[1])
        if len(piles) == 1 or move >= len(piles) or "W" not in piles[move]:
            return "error illegal move"
        if mistake == "crash" and piles[move] == "RRRW" and len(piles) == 4:
            raise RuntimeError("cannot lift RRRW from four piles")
        after, extra = sow(piles, move, mistake)
        state["piles"] = after
        return "/".join(after) + (" extra=true" if extra else " extra=false")
    return "error unknown request"


def main():
    mistake = sys.argv[1] if len(sys.argv) > 1 else "none"
    if mistake not in ("none", *RULES, *PROCESS, *LIMITED):
        print(f"unknown mistake {mistake}", file=sys.stderr)
        return 2
    state = {}
    for count, line in enumerate(sys.stdin, 1):
        if line.strip() == "quit":
            break
        if mistake == "close" and count % 40000 == 0:
            sys.stdout.close()
            return 0
        print(answer(line, state, mistake), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
