"""``buttonup solve-all --ray``: the same file as the local run, byte for byte, on a Ray
cluster started here (``ray start --head``, one for the module) and on a Ray started in
the command's own process; a cut file resumed; a batch whose worker dies run again;
Ctrl-C ending a run with status 130 and a file that resumes. Skipped without Ray
(``pip install '.[cluster]'`` in a clone); CI sets ``BUTTONUP_REQUIRE_RAY`` so that they
run there."""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import processes
import pytest
from buttonup import Player, Position, solve_many, start_orders
from buttonup.cli.main import main
from processes import free_port

# Ray's token authentication with the tests' own token, for the cluster and every command
# that joins it: set before Ray is imported, which reads them then (a cluster given by
# its address needs the mode said).
os.environ.setdefault("RAY_AUTH_MODE", "token")
os.environ.setdefault("RAY_AUTH_TOKEN", secrets.token_hex(32))

if os.environ.get("BUTTONUP_REQUIRE_RAY"):
    import ray
else:
    ray = pytest.importorskip(
        "ray", reason="Ray is not installed (in a clone: pip install '.[cluster]')"
    )


@pytest.fixture(scope="module")
def local_files() -> dict[int, bytes]:
    """The files of the local run (no Ray) at 3 and 4 of each colour."""
    out = {}
    with tempfile.TemporaryDirectory() as folder:
        for per_colour in (3, 4):
            target = Path(folder) / f"{per_colour}.csv"
            assert main(["solve-all", "--per-colour", str(per_colour), "--csv", str(target)]) == 0
            out[per_colour] = target.read_bytes()
    # The 4-per-colour file is the one published in docs/ai.md (solved without classes).
    digest = hashlib.sha256(out[4]).hexdigest()
    assert digest.startswith("7de6a185") and digest.endswith("30cf996d2854")
    return out


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """The address of a Ray cluster of 2 CPUs: ``ray start --head --block``, ended (with
    every process it started) when the module's tests are done."""
    ray_command = Path(sys.executable).with_name("ray")
    if not ray_command.exists():
        ray_command = Path(shutil.which("ray") or "ray")
    port = free_port()
    temp = tempfile.mkdtemp(prefix="bu-ray-", dir="/tmp")  # short: Ray's socket paths
    head = processes.popen(
        [
            str(ray_command),
            "start",
            "--head",
            "--block",
            "--num-cpus",
            "2",
            "--node-ip-address",
            "127.0.0.1",
            "--port",
            str(port),
            "--include-dashboard",
            "false",
            "--object-store-memory",
            str(100 * 1024 * 1024),
            "--temp-dir",
            temp,
            "--disable-usage-stats",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    address = f"127.0.0.1:{port}"
    lines: list[str] = []
    started = threading.Event()

    def read() -> None:
        assert head.stdout is not None
        for line in head.stdout:
            lines.append(line)
            if "Ray runtime started" in line:
                started.set()

    threading.Thread(target=read, daemon=True).start()
    try:
        if not started.wait(120):
            raise AssertionError("ray start --head did not start:\n" + "".join(lines))
        yield address
    finally:
        # --block: on SIGTERM the head ends the processes it started.
        head.terminate()
        try:
            head.wait(60)
        except subprocess.TimeoutExpired:
            pass
        processes.end(head)  # what is left of its group (a session of its own: popen)
        shutil.rmtree(temp, ignore_errors=True)


def run_on(address: str | None, target: Path, per_colour: int, *extra: str) -> None:
    ray_option = ["--ray"] if address is None else ["--ray", address]
    command = ["solve-all", "--per-colour", str(per_colour), "--csv", str(target), *ray_option]
    assert main([*command, *extra]) == 0


def test_without_ray_the_option_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if it were not installed
    monkeypatch.delitem(sys.modules, "buttonup.cli.solve_all_ray", raising=False)
    assert main(["solve-all", "--ray"]) == 2
    error = capsys.readouterr().err
    assert error == "buttonup: error: --ray needs Ray: pip install ray (the cluster extra)\n"


def test_an_address_nothing_listens_on_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    address = f"127.0.0.1:{free_port()}"
    assert main(["solve-all", "--per-colour", "2", "--ray", address]) == 1
    error = capsys.readouterr().err
    assert error.startswith(f"buttonup: error: cannot reach the Ray cluster at {address}: ")
    assert error.count("\n") == 1


@pytest.mark.parametrize("per_colour", [3, 4])
def test_the_cluster_writes_the_local_file(
    cluster: str, local_files: dict[int, bytes], tmp_path: Path, per_colour: int
) -> None:
    target = tmp_path / "values.csv"
    # Small batches: many tasks in flight on both CPUs, finishing in any order.
    run_on(cluster, target, per_colour, "--batch", "37")
    assert target.read_bytes() == local_files[per_colour]


def test_a_ray_started_in_the_command_writes_the_local_file(
    local_files: dict[int, bytes], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "values.csv"
    # Ray's session folder (logs, sockets) in a short folder of the test's, not /tmp/ray.
    temp = tempfile.mkdtemp(prefix="bu-ray-", dir="/tmp")
    monkeypatch.setenv("RAY_TMPDIR", temp)
    try:
        run_on(None, target, 3, "--batch", "20", "--threads", "1")
    finally:
        shutil.rmtree(temp, ignore_errors=True)
    assert target.read_bytes() == local_files[3]
    assert not ray.is_initialized()  # the command's own Ray is shut down


def test_the_command_in_another_process_joins_the_cluster(
    cluster: str, local_files: dict[int, bytes], tmp_path: Path
) -> None:
    target = tmp_path / "values.csv"
    done = processes.run(
        [
            sys.executable,
            "-m",
            "buttonup",
            "solve-all",
            "--per-colour",
            "4",
            "--csv",
            str(target),
            "--ray",
            cluster,
            "--batch",
            "300",
            "--threads",
            "2",
            "--no-color",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "First player's average edge: +1.2208" in done.stdout
    assert target.read_bytes() == local_files[4]


def test_a_cut_file_is_resumed_on_the_cluster(
    cluster: str, local_files: dict[int, bytes], tmp_path: Path
) -> None:
    whole = local_files[4]
    lines = whole.splitlines(keepends=True)
    target = tmp_path / "values.csv"
    # The rows written so far and half of the next line, as a killed run leaves it.
    target.write_bytes(b"".join(lines[: 1 + 20_000]) + lines[1 + 20_000][:5])
    run_on(cluster, target, 4, "--batch", "200")
    assert target.read_bytes() == whole


def dying_task(marker: str) -> Callable[[list[str], int], list[int]]:
    """A task function whose first run anywhere kills its own worker process (the
    marker file says it happened); every other run solves its batch."""

    def task(orders: list[str], threads: int) -> list[int]:
        import os

        from buttonup.cli.solve_all_ray import solve_batch

        try:
            os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return solve_batch(orders, threads)
        os._exit(1)  # the worker dies in the middle of its batch

    return task


def test_a_batch_whose_worker_dies_is_run_again(
    cluster: str, local_files: dict[int, bytes], tmp_path: Path
) -> None:
    from buttonup.cli.solve_all import solve_all_report
    from buttonup.cli.solve_all_ray import solve_on_ray
    from rich.console import Console

    marker = tmp_path / "died"
    target = tmp_path / "values.csv"
    solver = solve_on_ray(cluster, task=dying_task(str(marker)))
    solve_all_report(Console(file=open(os.devnull, "w")), target, 4, batch=250, solver=solver)
    assert marker.exists()  # a worker did die
    assert target.read_bytes() == local_files[4]


def test_ctrl_c_cancels_the_tasks_and_keeps_the_rows(cluster: str, tmp_path: Path) -> None:
    target = tmp_path / "five.csv"
    command = [
        sys.executable,
        "-m",
        "buttonup",
        "solve-all",
        "--per-colour",
        "5",
        "--csv",
        str(target),
        "--ray",
        cluster,
        "--batch",
        "64",
        "--no-color",
    ]
    with processes.started(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as run:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if target.exists() and target.read_text().count("\n") > 1000:
                break
            time.sleep(0.1)
        else:
            raise AssertionError("no rows written in 120 s")
        run.send_signal(signal.SIGINT)
        _, err = run.communicate(timeout=30)
    assert run.returncode == 130, err
    assert err.strip().splitlines() == ["buttonup: interrupted"], err
    # The rows kept are the right ones (checked against plain solves) ...
    lines = target.read_text().splitlines()
    assert lines[0] == "start,to_move,value" and len(lines) > 1000
    orders = start_orders(5)
    starts = [(orders[i // 2], [Player.RED, Player.BLACK][i % 2]) for i in range(0, 1000, 7)]
    solved = solve_many([Position.start(order, to_move=side) for order, side in starts])
    for i, value in zip(range(0, 1000, 7), solved):
        assert lines[1 + i] == f"{starts[i // 7][0]},{starts[i // 7][1].letter},{value}"
    # ... and the cluster is free again: every task in flight was cancelled.
    ray.init(address=cluster, log_to_driver=False)
    try:
        deadline = time.monotonic() + 30
        while ray.available_resources().get("CPU", 0) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert ray.available_resources().get("CPU", 0) == 2
    finally:
        ray.shutdown()
    assert re.fullmatch(r"[BRW]{15},[rb],-?\d+", lines[-1])


def test_closing_the_run_stops_the_long_solves_in_flight(cluster: str) -> None:
    """A run given up (Ctrl-C, a failure, a reader that stops) cancels its tasks, and a
    task in the middle of a minute-long solve stops within seconds: the cluster's CPUs
    are free again long before the solves could have ended."""
    from buttonup.cli.solve_all import orders_from
    from buttonup.cli.solve_all_ray import solve_on_ray

    long = list(orders_from(6, 0))[:1024]  # about a minute on one core
    batches = [(0, list(orders_from(3, 0))[:8])] + [(1 + i, long) for i in range(8)]
    ray.init(address=cluster, log_to_driver=False)
    try:
        run = solve_on_ray(cluster)(batches)
        assert next(run)[0] == 0
        time.sleep(1)  # the long ones are running
        assert ray.available_resources().get("CPU", 0) == 0
        given_up = time.monotonic()
        run.close()
        while ray.available_resources().get("CPU", 0) < 2 and time.monotonic() - given_up < 20:
            time.sleep(0.1)
        assert ray.available_resources().get("CPU", 0) == 2
    finally:
        ray.shutdown()
