"""Trains the network estimate of limited searches (src/search/net.rs) on exact values,
and writes its weights (src/search/net_weights.rs).

    python scripts/train_net.py label --positions 160000   # solve positions, store them
    python scripts/train_net.py fit                         # train on them, write the weights

The labelled positions: random plies from random starts of 3 to 10 buttons of each
colour, down to 4 to 21 piles (every pile count alike), each solved exactly, stored with
their exact final margin (Red minus Black) in scripts/net_positions.txt.gz, appended in
chunks (an interrupted run keeps what it solved; a rerun goes on from there). The fit:
Adam on the Huber loss of the value for the side to move, NumPy and SciPy's sparse
matrices, every fifth position held out and its mean absolute error written in the
weights' file. Seeded throughout: the same command writes the same file.
tests/search/test_net_eval.py checks that the shipped weights are the fit of the stored
labels, some labels against the solver, and the core's estimate against this script's.
"""

from __future__ import annotations

import argparse
import gzip
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "scripts" / "net_positions.txt.gz"
WEIGHTS = ROOT / "src" / "search" / "net_weights.rs"
EXAMPLE = ROOT / "target" / "release" / "examples" / "eval_features"
SIZES = range(3, 11)
PILES = range(4, 22)
CHUNK = 1000


def position_at(index: int, seed: int) -> str | None:
    """The ``index``-th labelled position of ``seed``: a random start played at random
    down to a pile count drawn uniformly from PILES (``None`` if the battle ends first)."""
    from buttonup import Position

    rng = random.Random(seed * 1_000_003 + index)
    size = rng.choice(SIZES)
    position = Position.random(rng.getrandbits(64), per_colour=size)
    piles = rng.choice(PILES)
    while len(position.piles) > piles and not position.is_over:
        position = position.play(rng.choice(position.legal_moves()))
    return None if position.is_over else str(position)


def read(path: Path = DATA) -> list[tuple[str, int]]:
    """The stored ``(notation, final margin)`` rows."""
    if not path.exists():
        return []
    rows = []
    with gzip.open(path, "rt", encoding="ascii") as lines:
        for line in lines:
            notation, value = line.rstrip("\n").split("\t")
            rows.append((notation, int(value)))
    return rows


HIDDEN = 16
EPOCHS = 20
SEED = 1
HEIGHTS = 8
SIZE_BUCKETS = 8
BY_BUTTON = 3 * 2 * HEIGHTS * SIZE_BUCKETS
BY_DROP = BY_BUTTON
BY_LIFTABLE = BY_DROP + 3 * 3 * 2
BY_PILES = BY_LIFTABLE + 2 * 16
FEATURES = BY_PILES + 32


def features(notation: str) -> tuple[list[int], int]:
    """The active features of an unfinished position (an index once for each time it is
    active), as src/search/net.rs makes them, and its number of buttons. Colours are
    the side to move's (0), the other player's (1) and white (2)."""
    piles_text, side = notation.split()
    piles = piles_text.split("/")
    mine = "R" if side == "r" else "B"
    colour = {mine: 0, "W": 2}
    colour.setdefault("R", 1)
    colour.setdefault("B", 1)
    count = len(piles)
    active = []
    liftable = 0
    for j, pile in enumerate(piles):
        lift = int("W" in pile)
        size = min(len(pile), SIZE_BUCKETS) - 1
        for height, button in enumerate(pile):
            active.append(
                ((colour[button] * 2 + lift) * HEIGHTS + min(height, HEIGHTS - 1)) * SIZE_BUCKETS
                + size
            )
        if lift:
            liftable += 1
            overflow = len(pile) > count - 1
            landing = piles[(j - 1) % count] if overflow else piles[(j + len(pile)) % count]
            active.append(
                BY_DROP + (colour[pile[-1]] * 3 + colour[landing[-1]]) * 2 + int(overflow)
            )
    active.append(BY_LIFTABLE + ((count - 1) % 2) * 16 + min(liftable, 15))
    active.append(BY_PILES + min(count, 31))
    return active, sum(len(p) for p in piles)


def label(count: int, seed: int, threads: int | None) -> None:
    from buttonup import Player, Position, solve_many

    done = len(read())
    index = done
    while index < count:
        chunk = [position_at(i, seed) for i in range(index, min(index + CHUNK, count))]
        notations = [n for n in chunk if n is not None]
        started = time.perf_counter()
        positions = [Position(n) for n in notations]
        values = solve_many(positions, threads=threads)
        margins = [v if p.to_move == Player.RED else -v for p, v in zip(positions, values)]
        # Appended as a gzip member of its own: the file reads as one stream.
        with gzip.open(DATA, "at", encoding="ascii") as out:
            out.write("".join(f"{n}\t{m}\n" for n, m in zip(notations, margins)))
        index += len(chunk)
        print(f"{index}/{count}: {time.perf_counter() - started:.0f} s", flush=True)


def estimates(notations: list[str]) -> list[tuple[float, int, list[int]]]:
    """Each unfinished position's estimates as the core makes them (the network's for the
    side to move, before rounding; the projection, Red minus Black) and the network's
    active features (scripts/eval_features.rs, built here when missing)."""
    if not EXAMPLE.exists():
        build = ["cargo", "build", "--release", "--quiet", "--features", "training"]
        subprocess.run([*build, "--example", "eval_features"], cwd=ROOT, check=True)
    done = subprocess.run(
        [str(EXAMPLE)], input="\n".join(notations) + "\n", capture_output=True, text=True
    )
    if done.returncode != 0:
        raise RuntimeError(f"examples/eval_features failed: {done.stderr.strip()}")
    found = []
    for notation, line in zip(notations, done.stdout.splitlines()):
        words = line.split()
        if words[0] in ("over", "error"):
            raise ValueError(f"{notation}: {line}")
        found.append((float(words[0]), int(words[1]), [int(w) for w in words[2:]]))
    return found


def side_value(notation: str, margin: int) -> int:
    """A final margin (Red minus Black) seen from the side to move."""
    return margin if notation.endswith("r") else -margin


def matrix(rows: list[tuple[str, int]]) -> tuple[Any, np.ndarray, np.ndarray]:
    """The rows' features (a sparse matrix, a row a position), buttons and values for
    the side to move."""
    from scipy import sparse

    indices: list[int] = []
    starts = [0]
    buttons = np.empty(len(rows))
    values = np.empty(len(rows))
    for i, (notation, margin) in enumerate(rows):
        active, buttons[i] = features(notation)
        indices.extend(active)
        starts.append(len(indices))
        values[i] = side_value(notation, margin)
    ones = np.ones(len(indices))
    x = sparse.csr_matrix((ones, np.array(indices), np.array(starts)), shape=(len(rows), FEATURES))
    return x, buttons, values


class Net(NamedTuple):
    """The network: the features' rows summed into HIDDEN sums (``embed``, ``bias``),
    clipped below at 0, weighed (``out``, ``out_bias``), times the buttons / SCALE."""

    embed: np.ndarray
    bias: np.ndarray
    out: np.ndarray
    out_bias: np.ndarray

    def forward(self, x: Any, buttons: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        hidden = np.maximum(x @ self.embed + self.bias, 0.0)
        return (hidden @ self.out + self.out_bias) * buttons / SCALE, hidden


SCALE = 10.0


def train(x: Any, buttons: np.ndarray, values: np.ndarray, epochs: int, seed: int) -> Net:
    """Adam on the mean Huber loss of the value for the side to move."""
    rng = np.random.default_rng(seed)
    net = Net(
        rng.normal(0, 0.1, (FEATURES, HIDDEN)),
        np.zeros(HIDDEN),
        rng.normal(0, 0.1, HIDDEN),
        np.zeros(1),
    )
    params = list(net)
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    step, rate, batch = 0, 3e-3, 256
    for epoch in range(epochs):
        order = rng.permutation(x.shape[0])
        if epoch >= epochs * 2 // 3:
            rate = 1e-3
        for at in range(0, len(order), batch):
            rows = order[at : at + batch]
            xb, nb, yb = x[rows], buttons[rows], values[rows]
            predicted, hidden = Net(*params).forward(xb, nb)
            error = np.clip(predicted - yb, -HUBER, HUBER) / len(rows)
            d_out_value = error * nb / SCALE
            d_hidden = np.outer(d_out_value, params[2]) * (hidden > 0)
            grads = [
                xb.T @ d_hidden,
                d_hidden.sum(0),
                hidden.T @ d_out_value,
                np.array([d_out_value.sum()]),
            ]
            step += 1
            for p, g, m, v in zip(params, grads, moments, squares):
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                p -= rate * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return Net(*params)


HUBER = 4.0


def fit(epochs: int, seed: int) -> tuple[Net, dict[str, float]]:
    """The network trained on the rows not held out (in ``float32``, as the core reads
    it), and its mean absolute error on the others, by size."""
    rows = read()
    held = np.arange(len(rows)) % HELD_OUT == 0
    x, buttons, values = matrix(rows)
    trained = train(x[~held], buttons[~held], values[~held], epochs, seed)
    net = Net(*(np.float32(p) for p in trained))
    predicted, _ = net.forward(x[held], buttons[held])
    errors = np.abs(np.rint(predicted) - values[held])
    found = {
        "train": float((~held).sum()),
        "held_out": float(held.sum()),
        "all": float(errors.mean()),
    }
    for size in SIZES:
        of_size = buttons[held] == 3 * size
        found[str(size)] = float(errors[of_size].mean())
    return net, found


def rust_array(values: np.ndarray) -> str:
    # The shortest decimal that reads back as the same f32 (numpy's repr of a float32).
    return (
        "[" + ", ".join(np.format_float_positional(v, unique=True, trim="0") for v in values) + "]"
    )


def weights_file(net: Net, errors: dict[str, float]) -> str:
    rows = ",\n".join(f"    {rust_array(row)}" for row in net.embed)
    return (
        "//! Written by `python scripts/train_net.py fit`: the weights of the network\n"
        f"//! estimate, trained on {int(errors['train'])} exactly solved positions; on"
        f" {int(errors['held_out'])} held out,\n"
        f"//! the mean absolute error of the final margin is {errors['all']:.2f}; by size:\n"
        + "".join(f"//! {size} of each colour {errors[str(size)]:.2f}\n" for size in SIZES)
        + "//!\n//! Left as written (`rustfmt::skip`): a row a line reads best. The sizes are\n"
        "//! `net::FEATURES` and `net::HIDDEN`, checked there.\n\n"
        "/// A row a feature, in the order of `net::each_feature`.\n"
        "#[rustfmt::skip]\n"
        f"pub(super) static EMBED: [[f32; {HIDDEN}]; {FEATURES}] = [\n{rows},\n];\n"
        "/// The sums' starting values.\n"
        "#[rustfmt::skip]\n"
        f"pub(super) const HIDDEN_BIAS: [f32; {HIDDEN}] = {rust_array(net.bias)};\n"
        "/// The weights of the clipped sums.\n"
        "#[rustfmt::skip]\n"
        f"pub(super) const OUT: [f32; {HIDDEN}] = {rust_array(net.out)};\n"
        "/// The output's bias.\n"
        f"pub(super) const OUT_BIAS: f32 = {rust_array(net.out_bias)[1:-1]};\n"
    )


HELD_OUT = 5


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    labelling = commands.add_parser("label", help="solve positions, store them")
    labelling.add_argument("--positions", type=int, default=160_000)
    labelling.add_argument("--seed", type=int, default=1)
    labelling.add_argument("--threads", type=int)
    fitting = commands.add_parser("fit", help="train on the stored labels")
    fitting.add_argument("--epochs", type=int, default=EPOCHS)
    fitting.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    if args.command == "label":
        label(args.positions, args.seed, args.threads)
    else:
        started = time.perf_counter()
        net, errors = fit(args.epochs, args.seed)
        WEIGHTS.write_text(weights_file(net, errors), encoding="utf-8")
        print(
            f"{int(errors['train'])} positions trained, {int(errors['held_out'])} held out:"
            f" mean absolute error {errors['all']:.2f} "
            + " ".join(f"{size}:{errors[str(size)]:.2f}" for size in SIZES)
            + f"; {time.perf_counter() - started:.0f} s; wrote {WEIGHTS.relative_to(ROOT)}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
