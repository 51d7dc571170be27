#!/usr/bin/env python3
"""Implementations of the kit's line protocol that attack the kit rather than the rules
(it imports nothing of buttonup), one way at a time:

    python tests/conformance/broken/hostile.py WAY [ARGS...]

``flood``: answers its first request with ``ok`` lines, forever. ``stderr-flood``:
writes 16 MiB to standard error without a line end, then ``END-OF-STDERR``, and exits.
``chunky-crash``: answers whole chunks of input at once, flushing once a chunk (as a
Node.js program does), and dies lifting RRRW from four piles (``buttons.py crash``'s
mistake), losing the answers of its chunk. ``grandchild TOKEN``: starts a process of its
own (in its process group, ``TOKEN`` among its arguments) and answers correctly;
``setsid-grandchild TOKEN`` the same, the process in a session of its own.
``slow``: answers correctly, 20 ms an answer. ``stderr-spew``: writes standard error
all the time and dies at its third request.
"""

import os
import subprocess
import sys
import threading
import time

from buttons import answer


def serve_lines(mistake, delay=0.0):
    state = {}
    for line in sys.stdin:
        if line.strip() == "quit":
            return
        if delay:
            time.sleep(delay)
        print(answer(line, state, mistake), flush=True)


def chunky():
    """Reads what has come, answers all of it, and writes the answers once."""
    state, partial = {}, b""
    while True:
        data = os.read(0, 1 << 16)
        if not data:
            return
        *lines, partial = (partial + data).split(b"\n")
        out = [answer(line.decode(), state, "crash") for line in lines]
        os.write(1, "".join(f"{text}\n" for text in out).encode())


def main():
    way = sys.argv[1]
    if way == "flood":
        sys.stdin.readline()
        block = b"ok\n" * 4096
        while True:
            os.write(1, block)
    elif way == "stderr-flood":
        sys.stdin.readline()
        block = b"x" * (1 << 16)
        for _ in range(256):
            os.write(2, block)
        os.write(2, b"END-OF-STDERR")
        return 3
    elif way == "chunky-crash":
        chunky()
    elif way in ("grandchild", "setsid-grandchild"):
        sleeper = [sys.executable, "-c", "import time; time.sleep(300)", sys.argv[2]]
        alone = way == "setsid-grandchild"  # out of the kit's group, as setsid(1) does
        subprocess.Popen(sleeper, stdin=subprocess.DEVNULL, start_new_session=alone)
        serve_lines("none")
    elif way == "slow":
        serve_lines("none", delay=0.02)
    elif way == "stderr-spew":

        def spew():
            while True:
                os.write(2, b"a line of standard error\n" * 64)

        threading.Thread(target=spew, daemon=True).start()
        for count, _ in enumerate(sys.stdin, 1):
            if count == 3:
                os._exit(1)
            print("ok", flush=True)
    else:
        print(f"unknown way {way}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
