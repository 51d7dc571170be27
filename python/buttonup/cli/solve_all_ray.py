"""``buttonup solve-all --ray [ADDRESS]``: the batches of classes of starts solved as Ray
tasks, on a cluster or on a Ray started in this process. Needs the ``cluster`` extra
(``pip install '.[cluster]'``; every machine of the cluster needs the same
buttonup installed); this module is imported only for ``--ray``.

Each task solves one batch with ``solve_many`` and returns its values; the command
keeps a few tasks per CPU of the cluster in flight and writes each batch's rows into
the same resumable CSV as a local run, as soon as the batches before it are in. A task
whose worker dies is run again by Ray (``max_retries``); Ctrl-C ends the tasks in
flight (the command leaves the cluster, which ends them) and keeps every row written."""

from __future__ import annotations

import logging
import os
import signal
import socket
import sys
import threading
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import contextmanager
from types import FrameType

import ray
import ray.exceptions

from buttonup.cli.solve_all import Batch, Solver

# Classes a task: about a minute on one core for six of each colour (60 ms a class).
RAY_BATCH = 1024
# Times Ray runs a task again after its worker died.
RETRIES = 3
# Tasks in flight for each task the cluster can run at once.
AHEAD = 2
# How often the command looks up from waiting on the tasks (Ctrl-C is seen then).
POLL_S = 0.05


class ClusterError(RuntimeError):
    """A task that failed for good, or a cluster that cannot be reached."""


def solve_batch(orders: list[str], threads: int) -> list[int]:
    """The values of the starts ``orders`` with Red to move: one task's work."""
    from buttonup import Player, Position, solve_many

    return solve_many(
        [Position.start(order, to_move=Player.RED) for order in orders], threads=threads
    )


def solve_on_ray(
    address: str | None,
    *,
    threads: int = 1,
    num_cpus: int | None = None,
    task: Callable[[list[str], int], list[int]] = solve_batch,
) -> Solver:
    """A solver that runs each batch as a Ray task of ``threads`` threads (and as many
    CPUs), on the cluster at ``address``, or on a Ray of ``num_cpus`` CPUs (default:
    every core) started here when ``address`` is None. A Ray already initialised in this
    process is used as it is and left running. ``task`` is the function of a task."""

    def solve(batches: Iterable[Batch]) -> Generator[tuple[int, list[int]], None, None]:
        started = connect(address, num_cpus)
        interrupted = threading.Event()
        restore = noting_interrupts(interrupted)
        try:
            remote = ray.remote(num_cpus=threads, max_retries=RETRIES)(task)
            cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call]
            at_once = max(1, int(cpus) // threads)
            pending = iter(batches)
            in_flight: dict[ray.ObjectRef[list[int]], int] = {}
            try:
                while True:
                    while len(in_flight) < AHEAD * at_once:
                        following = next(pending, None)
                        if following is None:
                            break
                        first, orders = following
                        in_flight[remote.remote(orders, threads)] = first
                    if not in_flight:
                        return
                    ready, _ = ray.wait(list(in_flight), num_returns=1, timeout=POLL_S)
                    for ref in ready:
                        first = in_flight.pop(ref)
                        try:
                            values = ray.get(ref)
                        except ray.exceptions.RayError as error:
                            if interrupted.is_set():
                                # Ctrl-C arrived inside Ray, which reported it as a
                                # task's error: it is the interruption.
                                raise KeyboardInterrupt from None
                            message = str(error).strip().splitlines()[-1]
                            raise ClusterError(
                                f"the Ray task of classes {first} on failed: {message}"
                            ) from None
                        yield first, values
            finally:
                # Interrupted, failed or closed early: nothing more is wanted. A Ray
                # this call connected to is left at once (below): the cluster then ends
                # the tasks of this driver itself. Cancelling them here made Ray's
                # driver abort now and then, forced or not, when a task's reply was on
                # its way ("Tried to complete task that was not pending": CI, exit 1
                # instead of 130). Only on a Ray the caller holds are they cancelled (a
                # plain cancel interrupts the task's solve, which stops within seconds).
                if not started:
                    for ref in in_flight:
                        ray.cancel(ref)
        finally:
            restore()
            if started:
                # Left quietly: as the cluster ends the tasks left behind, the driver's
                # C++ core may write "Failed to push error to driver" to the standard
                # error itself, a second line besides the command's own.
                with stderr_silenced():
                    ray.shutdown()

    return solve


@contextmanager
def stderr_silenced() -> Iterator[None]:
    """File descriptor 2 (where Ray's C++ core writes, past Python's ``sys.stderr``) goes
    to the null device meanwhile."""
    sys.stderr.flush()
    saved = os.dup(2)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)


def noting_interrupts(interrupted: threading.Event) -> Callable[[], None]:
    """Has Ctrl-C set ``interrupted`` before it raises ``KeyboardInterrupt`` as usual (on
    the main thread only, where Python delivers signals); returns what puts the former
    handler back."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    former = signal.getsignal(signal.SIGINT)
    if former is not signal.default_int_handler:
        return lambda: None

    def note(number: int, frame: FrameType | None) -> None:
        interrupted.set()
        signal.default_int_handler(number, frame)

    signal.signal(signal.SIGINT, note)

    def restore() -> None:
        signal.signal(signal.SIGINT, former)

    return restore


def connect(address: str | None, num_cpus: int | None) -> bool:
    """Joins the cluster at ``address`` or starts a Ray here; whether this call started
    the connection (and so should end it)."""
    if ray.is_initialized():
        return False
    if address is not None:
        reachable(address)
    try:
        if address is None:
            cpus = num_cpus or os.cpu_count() or 1
            ray.init(
                address="local",
                num_cpus=cpus,
                include_dashboard=False,
                log_to_driver=False,
                logging_level=logging.ERROR,
            )
        else:
            ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
    except (ConnectionError, ray.exceptions.RaySystemError, RuntimeError) as error:
        where = address or "a local Ray"
        message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ClusterError(f"cannot start or reach {where}: {message}") from None
    return True


def reachable(address: str) -> None:
    """Refuses at once an address of the form ``[ray://]host:port`` that nothing listens
    on (Ray itself would try for minutes)."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not port.isdigit():
        return  # "auto", or a form Ray knows better
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=10).close()
    except OSError as error:
        raise ClusterError(f"cannot reach the Ray cluster at {address}: {error}") from None
