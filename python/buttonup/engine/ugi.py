"""``buttonup engine``: the UGI protocol on standard input and output.

UGI is UCI made game-agnostic; docs/protocol.md describes this engine's dialect with a
sample session. Commands are read by one thread while searches run in another, so
``isready``, ``stop`` and ``quit`` are answered at once. Bad input never stops the
engine: it answers ``info string error: ...`` and reads the next line.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from typing import BinaryIO, TextIO

from buttonup import __version__
from buttonup._core import Bot, Position
from buttonup.engine.commands import OPTIONS, Go, ProtocolError, parse_int, shorten
from buttonup.errors import IllegalMoveError, NotationError
from buttonup.player import Player
from buttonup.results import SearchResult

MAX_LINE = 65536


class Engine:
    """The protocol state machine; ``handle`` takes one line."""

    def __init__(self, out: TextIO, on_closed: Callable[[], None] | None = None) -> None:
        self._out = out
        # Called once when the output is closed (nobody reads any more).
        self._on_closed = on_closed
        self.closed = False
        self._write_lock = threading.Lock()
        self.values = {name: option.default for name, option in OPTIONS.items()}
        # The core's bot (buttonup.ai's, and the native engine's) of the Level option on
        # a table of the Hash option's size, reset from the Seed option when options
        # change, so that its random moves repeat.
        self._ai = Bot(
            self.values["level"], self.values["seed"], tt_mb=self.values["hash"], threads=1
        )
        self.position: Position | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        # True from 'go' until its bestmove is written (the thread may live a moment
        # longer, but the engine already takes new commands).
        self._busy = False
        self.running = True

    # --- output -----------------------------------------------------------------------
    def send(self, line: str) -> None:
        with self._write_lock:
            self._write(line)

    def _write(self, line: str) -> None:
        """One line out (the write lock held). Once nobody reads (a closed pipe), the
        engine stops its search and ends quietly (``on_closed``): no traceback."""
        if self.closed:
            return
        try:
            self._out.write(line + "\n")
            self._out.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.closed = True
            self.running = False
            self._stop.set()
            self._ai.stop()
            if self._on_closed is not None:
                self._on_closed()

    def error(self, message: str) -> None:
        self.send(f"info string error: {message}")

    # --- input ------------------------------------------------------------------------
    def handle(self, line: str) -> None:
        words = line.split()
        if not words:
            return
        command, arguments = words[0].lower(), words[1:]
        handler: Callable[[list[str]], None] | None = getattr(self, f"cmd_{command}", None)
        try:
            if handler is None:
                raise ProtocolError(f"unknown command '{shorten(words[0])}'")
            handler(arguments)
        except (ProtocolError, NotationError, IllegalMoveError) as error:
            self.error(str(error))
        except Exception as error:  # a bug must not end the engine
            self.error(f"internal error on '{shorten(line.strip())}': {error!r}")

    def cmd_ugi(self, arguments: list[str]) -> None:
        self.send(f"id name buttonup {__version__}")
        self.send("id author the buttonup developers")
        for option in OPTIONS.values():
            self.send(option.declaration())
        self.send("ugiok")

    def cmd_isready(self, arguments: list[str]) -> None:
        self.send("readyok")

    def cmd_debug(self, arguments: list[str]) -> None:
        """Accepted and ignored."""

    def cmd_setoption(self, arguments: list[str]) -> None:
        self._idle("setoption")
        text = " ".join(arguments)
        lowered = [word.lower() for word in arguments]
        if len(arguments) != 4 or lowered[0] != "name" or lowered[2] != "value":
            raise ProtocolError(f"expected 'setoption name NAME value N', not '{shorten(text)}'")
        option = OPTIONS.get(lowered[1])
        if option is None:
            raise ProtocolError(f"unknown option '{shorten(arguments[1])}'")
        value = parse_int(option.name, arguments[3], option.low, option.high)
        if lowered[1] == "hash":
            try:
                self._ai.resize(value)
            except MemoryError as error:
                raise ProtocolError(
                    f"{error}; the table of {self.values['hash']} MiB is kept"
                ) from None
        self.values[lowered[1]] = value
        self._ai.reset(self.values["level"], self.values["seed"])

    def cmd_uginewgame(self, arguments: list[str]) -> None:
        self._idle("uginewgame")
        self._ai.clear()
        self.position = None

    def cmd_position(self, arguments: list[str]) -> None:
        self._idle("position")
        if not arguments:
            raise ProtocolError("expected 'position startpos' or 'position fen PILES SIDE'")
        kind = arguments[0].lower()
        if kind == "startpos":
            position = Position.random(seed=self.values["seed"])
            rest = arguments[1:]
        elif kind == "fen":
            if len(arguments) < 3:
                raise ProtocolError("expected 'position fen PILES SIDE'")
            position = Position(f"{arguments[1]} {arguments[2]}")
            rest = arguments[3:]
        else:
            raise ProtocolError(
                f"expected 'startpos' or 'fen' after position, not '{shorten(arguments[0])}'"
            )
        if rest:
            if rest[0].lower() != "moves":
                raise ProtocolError(
                    f"expected 'moves' after the position, not '{shorten(rest[0])}'"
                )
            for number, text in enumerate(rest[1:], 1):
                move = parse_int(f"move {number}", text, -(2**63), 2**63)
                try:
                    position = position.play(move)
                except IllegalMoveError as error:
                    raise ProtocolError(f"move {number} ({shorten(text)}): {error}") from None
        self.position = position

    def cmd_go(self, arguments: list[str]) -> None:
        if self._searching():
            # Every go gets its one bestmove, this one at once.
            self.error("a search is already running: send 'stop' first")
            self.send("bestmove (none)")
            return
        try:
            go = Go.parse(arguments)
            if self.position is None:
                raise ProtocolError("no position: send 'position' before 'go'")
        except ProtocolError as error:
            self.error(str(error))
            self.send("bestmove (none)")
            return
        if self.position.is_over:
            self.error("the battle is over: there is no move")
            self.send("bestmove (none)")
            return
        self._stop.clear()
        self._ai.clear_stop()
        self._busy = True
        self._thread = threading.Thread(target=self._search, args=(self.position, go), daemon=True)
        self._thread.start()

    def cmd_stop(self, arguments: list[str]) -> None:
        self._halt()

    def cmd_query(self, arguments: list[str]) -> None:
        if len(arguments) != 1:
            raise ProtocolError("expected 'query gameover', 'query p1turn' or 'query result'")
        question = arguments[0].lower()
        if question not in ("gameover", "p1turn", "result"):
            raise ProtocolError(f"unknown query '{shorten(arguments[0])}'")
        if self.position is None:
            raise ProtocolError("no position: send 'position' first")
        position = self.position
        if question == "gameover":
            self.send(f"response {str(position.is_over).lower()}")
        elif question == "p1turn":
            self.send(f"response {str(position.to_move is Player.RED).lower()}")
        elif not position.is_over:
            self.send("response none")
        else:
            winner = position.scoring().winner
            result = {Player.RED: "p1win", Player.BLACK: "p2win", None: "draw"}[winner]
            self.send(f"response {result}")

    def cmd_quit(self, arguments: list[str]) -> None:
        self._halt()
        self.running = False

    # --- searching --------------------------------------------------------------------
    def _searching(self) -> bool:
        return self._busy

    def _idle(self, command: str) -> None:
        if self._searching():
            raise ProtocolError(f"a search is running: send 'stop' before '{command}'")

    def _halt(self) -> None:
        """Stops the search, if one runs, and waits for its ``bestmove`` (a stop is never
        lost, and every limit is checked every few microseconds of search)."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread.is_alive():
            self._ai.stop()
            thread.join()
        self._thread = None

    def interrupt(self) -> None:
        """Ctrl-C: stops any search and waits for it, writing nothing more."""
        with self._write_lock:
            self.closed = True
        self.running = False
        self._halt()

    def _search(self, position: Position, go: Go) -> None:
        move: int | str
        try:
            move = self._think(position, go)
        except Exception as error:  # never let a search error kill the engine
            self.error(f"search failed: {error}")
            move = "(none)"  # no move of a search that did not run
        if go.infinite:
            self._stop.wait()
        with self._write_lock:
            self._busy = False
            self._write(f"bestmove {move}")

    def _think(self, position: Position, go: Go) -> int:
        """The move of the Level option's AI (``buttonup.ai.bot``, docs/ai.md) within the
        limits of ``go``, searched on the engine's table. The engine knows no match, so
        level 10 plays as level 9."""
        ai = self._ai
        limits = go.limits(position)
        move = ai.choose(
            position,
            depth=limits.depth,
            nodes=limits.nodes,
            time_limit=limits.time_limit,
            search=True,
            on_iteration=self._info,
        )
        if ai.last_random:
            self.send(f"info string level {self.values['level']} plays a random move")
        return move

    def _info(self, iteration: SearchResult) -> None:
        """The ``info`` line of one finished iteration of the Rust search."""
        ms = int(iteration.elapsed * 1000)
        nps = int(iteration.nodes / iteration.elapsed) if iteration.elapsed > 0 else 0
        pv = " ".join(map(str, iteration.pv))
        self.send(
            f"info depth {iteration.depth} score cp {100 * iteration.value} "
            f"nodes {iteration.nodes} nps {nps} time {ms} pv {pv}"
        )


def read_line(stream: BinaryIO) -> tuple[bytes | None, bool]:
    """One line of input and whether it was too long (its rest is skipped). ``None`` at
    the end of input."""
    raw = stream.readline(MAX_LINE)
    if not raw:
        return None, False
    too_long = False
    if len(raw) >= MAX_LINE and not raw.endswith(b"\n"):
        too_long = True
        while True:
            rest = stream.readline(MAX_LINE)
            if not rest or rest.endswith(b"\n"):
                break
    return raw, too_long


def decode(raw: bytes) -> str:
    """A line as text; bytes that are not UTF-8 are a protocol error."""
    try:
        return raw.decode("utf-8").replace("\x00", " ")
    except UnicodeDecodeError as error:
        raise ProtocolError(
            f"the line is not UTF-8 (byte 0x{raw[error.start]:02x} at {error.start})"
        ) from None


def quiet_exit() -> None:
    """Ends the process at once, quietly, when nobody reads its output (status 141, as
    the CLI's commands on a closed pipe): standard output points at nothing first, so
    that no flush complains."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os._exit(141)


def main(stdin: BinaryIO | None = None, stdout: TextIO | None = None) -> int:
    """Runs the engine until ``quit`` or the end of input (or the end of its output:
    standard output closed ends the process quietly)."""
    engine = Engine(stdout or sys.stdout, on_closed=None if stdout else quiet_exit)
    source = stdin or sys.stdin.buffer
    try:
        while engine.running:
            line, too_long = read_line(source)
            if line is None:
                engine.cmd_quit([])
                break
            if too_long:
                engine.error(f"line longer than {MAX_LINE} bytes ignored")
                continue
            try:
                text = decode(line)
            except ProtocolError as error:
                engine.error(str(error))
                continue
            engine.handle(text)
    except KeyboardInterrupt:
        # The search thread must not be inside the core when the interpreter ends (a
        # thread ended there aborts the process): it is stopped and waited for, with
        # nothing more written, before the interruption ends the command.
        engine.interrupt()
        raise
    return 0
