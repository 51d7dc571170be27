"""The WebAssembly build against the native one, in one run (docs/wasm.md's figures).

    scripts/build-wasm.sh && python benches/wasm_speed.py [--rounds 5] [--json FILE]

Measures, in headless Chromium (Debian's chromium and chromium-driver, through
Selenium) and in this Python process on the native core, alternating the two in rounds
(the order flipped each round):

- the size of the .wasm, raw and gzip-compressed (level 9);
- loading it in the page: fetch, compile and instantiate (``init()`` of the ES-module
  glue, the file fetched afresh each round from a loopback server);
- solving the standard start ``W/R/B/W/B/R/R/W/B r``: the first ``solve()`` after
  loading, which makes the module's searcher (a 2 MiB table) too, and the mean of 1,000
  solves on a searcher of 64 KiB (``Searcher.solve``; natively
  ``buttonup.Searcher(tt_mb=0.0625)``) cleared before each (the clearing counted);
- solving 500 shuffled standard starts (``Position.random(seed)``, seeds 0 to 499, the
  same in both) one after the other on a searcher of 8 MiB, the mean (Chromium's timer
  has 0.1 ms steps: only batches are timed);
- solving an 8-per-colour start (``Position.random(1, per_colour=8)``) the same way;
- random playouts per second: 200,000 standard battles on one thread
  (``randomPlayouts``; natively ``random_playouts(threads=1)``; both walk the core's
  precomputed move graph).
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import buttonup

ROOT = Path(__file__).resolve().parent.parent
START = "W/R/B/W/B/R/R/W/B r"
PLAYOUTS = 200_000
REPEATS = 1000
STARTS = 500

PAGE = """<!doctype html><meta charset="utf-8"><title>wasm bench</title>
<script>window.onerror = (message) => { window.benchError = String(message); };</script>
<script type="module">
import init, * as b from "./buttonup_wasm.js";
const round = new URLSearchParams(location.search).get("round");
const t0 = performance.now();
await init(new URL(`./buttonup_wasm_bg.wasm?round=${round}`, import.meta.url));
const load = performance.now() - t0;
const start = new b.Position("%START%");
let t = performance.now();
b.solve(start);
const firstSolve = performance.now() - t;
const small = new b.Searcher({ ttMb: 0.0625 });
t = performance.now();
for (let i = 0; i < %REPEATS%; i += 1) {
  small.clear();
  small.solve(start);
}
const standard = (performance.now() - t) / %REPEATS%;
const searcher = new b.Searcher({ ttMb: 8 });
t = performance.now();
for (let seed = 0; seed < %STARTS%; seed += 1) searcher.solve(b.Position.random(seed));
const starts = (performance.now() - t) / %STARTS%;
searcher.clear();
t = performance.now();
searcher.solve(b.Position.random(1, 8));
const big = performance.now() - t;
t = performance.now();
b.randomPlayouts(%PLAYOUTS%, 1);
const playouts = %PLAYOUTS% / ((performance.now() - t) / 1000);
window.benchResult = { load, firstSolve, standard, starts, big, playouts };
</script>"""


def native_round() -> dict[str, float]:
    start = buttonup.Position(START)
    small = buttonup.Searcher(tt_mb=0.0625, threads=1)
    began = time.perf_counter()
    for _ in range(REPEATS):
        small.clear()
        small.solve(start)
    standard = (time.perf_counter() - began) * 1000 / REPEATS
    searcher = buttonup.Searcher(tt_mb=8, threads=1)
    searcher.clear()
    began = time.perf_counter()
    for seed in range(STARTS):
        searcher.solve(buttonup.Position.random(seed))
    starts = (time.perf_counter() - began) * 1000 / STARTS
    big = buttonup.Position.random(1, per_colour=8)
    searcher.clear()
    began = time.perf_counter()
    searcher.solve(big)
    big_ms = (time.perf_counter() - began) * 1000
    began = time.perf_counter()
    buttonup.random_playouts(PLAYOUTS, 1, threads=1)
    playouts = PLAYOUTS / (time.perf_counter() - began)
    return {
        "standard": standard,
        "starts": starts,
        "big": big_ms,
        "playouts": playouts,
    }


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def browser() -> Any:
    from selenium import webdriver

    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu"):
        options.add_argument(flag)
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary:
        options.binary_location = binary
    service = webdriver.ChromeService(executable_path=shutil.which("chromedriver"))
    return webdriver.Chrome(options=options, service=service)


def browser_round(driver: Any, url: str, round_number: int) -> dict[str, float]:
    driver.get(f"{url}/bench.html?round={round_number}")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        result, error = driver.execute_script("return [window.benchResult, window.benchError];")
        if error:
            raise RuntimeError(f"the bench page failed: {error}")
        if result:
            return {key: float(value) for key, value in result.items()}
        time.sleep(0.05)
    raise TimeoutError("the bench page gave no result within 120 s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pkg", type=Path, default=ROOT / "target" / "wasm-pkg")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    web = args.pkg / "web"
    wasm = web / "buttonup_wasm_bg.wasm"
    if not wasm.is_file():
        print(f"no {wasm}: run scripts/build-wasm.sh first", file=sys.stderr)
        return 2
    raw = wasm.read_bytes()
    sizes = {"raw": len(raw), "gzip": len(gzip.compress(raw, compresslevel=9))}
    page = PAGE.replace("%START%", START).replace("%REPEATS%", str(REPEATS))
    page = page.replace("%PLAYOUTS%", str(PLAYOUTS)).replace("%STARTS%", str(STARTS))
    rounds: list[dict[str, dict[str, float]]] = []
    with tempfile.TemporaryDirectory() as folder:
        for name in ("buttonup_wasm.js", "buttonup_wasm_bg.wasm"):
            shutil.copyfile(web / name, Path(folder) / name)
        (Path(folder) / "bench.html").write_text(page)
        server = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(Quiet, directory=folder)
        )
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}"
        driver = browser()
        try:
            for number in range(args.rounds):
                order = ["native", "wasm"] if number % 2 == 0 else ["wasm", "native"]
                found: dict[str, dict[str, float]] = {}
                for side in order:
                    found[side] = (
                        native_round() if side == "native" else browser_round(driver, url, number)
                    )
                rounds.append(found)
                print(f"round {number + 1}: {json.dumps(found)}", file=sys.stderr)
        finally:
            driver.quit()
            server.shutdown()
    med = {
        side: {key: statistics.median(r[side][key] for r in rounds) for key in rounds[0][side]}
        for side in ("native", "wasm")
    }
    print(f".wasm: {sizes['raw']:,} bytes, {sizes['gzip']:,} gzip-compressed")
    print(f"load + instantiate in Chromium: {med['wasm']['load']:.1f} ms (median of {args.rounds})")
    first = med["wasm"]["firstSolve"]
    print(f"first solve() of the standard start after loading (makes its table): {first:.1f} ms")
    rows = [
        ("solve the standard start, 64 KiB table cleared (ms)", "standard", 4),
        (f"solve {STARTS} shuffled starts, 8 MiB table, mean (ms)", "starts", 4),
        ("solve an 8-per-colour start (ms)", "big", 0),
        ("random playouts per second, one thread", "playouts", 0),
    ]
    print(f"{'':52} {'native':>12} {'wasm':>12} {'wasm/native':>12}")
    for label, key, digits in rows:
        native, web_value = med["native"][key], med["wasm"][key]
        ratio = web_value / native
        print(f"{label:52} {native:12,.{digits}f} {web_value:12,.{digits}f} {ratio:12.2f}")
    if args.json:
        figures = {"sizes": sizes, "median": med, "rounds": rounds}
        args.json.write_text(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
