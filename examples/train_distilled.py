"""Trains a near-perfect policy with the exact solver as its teacher (docs/rl.md, "A
near-perfect learner"): rounds of play by a small MLP on ``buttonup.VecEnv`` (the first
round uniformly random, later ones the learner itself with some random and some perfect
moves mixed in, DAgger-style, so that it is taught in the positions it reaches), every
position met labelled by ``buttonup.analyze`` (the exact value of each legal move), and
the network fitted to a sharp softmax of those values, each sample turned by a random
rotation of the circle (``buttonup.envs.augment``). Writes the policy as ONNX (its
logits: ``buttonup.players``' ONNX form), then prints its ``evaluate`` row.

    python examples/train_distilled.py --seed 1 [--per-colour 3] [--out examples/distilled]
    python examples/train_distilled.py --exact-share [--per-colour 3]   # what perfect play wins
    python examples/train_distilled.py --audit PATH.onnx    # its regret in every position

Needs torch (the ``sb3`` extra), and onnx and onnxruntime (the ``onnx`` extra) for the
file and its evaluation.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from buttonup import Position, VecEnv, all_positions, analyze, solve_many
from buttonup._core import start_classes
from buttonup.envs.augment import pile_count, rotate_mask, rotate_observation

if TYPE_CHECKING:
    import numpy.typing as npt
    import torch


@dataclass
class Samples:
    """Positions met in play, from the mover's side: observations ``(M, N, N, 3)`` int8,
    legal masks ``(M, N)`` and the exact value of each legal move ``(M, N)`` float32
    (0 where illegal)."""

    observations: npt.NDArray[np.int8]
    masks: npt.NDArray[np.bool_]
    values: npt.NDArray[np.float32]

    def __len__(self) -> int:
        return len(self.masks)

    def join(self, other: Samples) -> Samples:
        return Samples(
            np.concatenate([self.observations, other.observations]),
            np.concatenate([self.masks, other.masks]),
            np.concatenate([self.values, other.values]),
        )


def make_net(buttons: int, hidden: int, layers: int) -> torch.nn.Module:
    """An MLP from the flattened ``(N, N, 3)`` observation to one logit a pile."""
    import torch

    parts: list[torch.nn.Module] = [torch.nn.Flatten()]
    width = buttons * buttons * 3
    for _ in range(layers):
        parts += [torch.nn.Linear(width, hidden), torch.nn.ReLU()]
        width = hidden
    parts.append(torch.nn.Linear(width, buttons))
    return torch.nn.Sequential(*parts)


def logits_of(net: torch.nn.Module, observations: npt.NDArray[np.int8]) -> npt.NDArray[Any]:
    import torch

    with torch.no_grad():
        return net(torch.from_numpy(observations.astype(np.float32))).numpy()  # type: ignore[no-any-return]


class Teacher:
    """``analyze`` with a cache: the values of a position's legal moves as a row of
    ``N`` (the same position is met again and again, starts above all)."""

    def __init__(self, buttons: int) -> None:
        self.buttons = buttons
        self.cache: dict[str, npt.NDArray[np.float32]] = {}

    def values(self, position: Position) -> npt.NDArray[np.float32]:
        key = str(position)
        row = self.cache.get(key)
        if row is None:
            row = np.zeros(self.buttons, np.float32)
            for move, value in analyze(position, threads=1).items():
                row[move] = value
            self.cache[key] = row
        return row


def collect(
    net: torch.nn.Module | None,
    teacher: Teacher,
    *,
    per_colour: int,
    games: int,
    count: int,
    explore: float,
    perfect: float,
    seed: int,
) -> Samples:
    """``count`` positions of self-play on ``games`` games: each move uniformly random
    with probability ``explore`` (always without a net), the teacher's best with
    probability ``perfect``, else the net's highest legal logit."""
    env = VecEnv(games, per_colour=per_colour, seed=seed, threads=1)
    rng = np.random.default_rng(seed)
    buttons = teacher.buttons
    observations, masks, values = [], [], []
    met = 0
    while met < count:
        mask = env.legal_action_mask.copy()
        live = np.flatnonzero(mask.any(axis=1))
        keys = np.where(mask, rng.random(mask.shape), -1.0)
        actions = keys.argmax(axis=1)  # a uniformly random legal pile
        if len(live) == 0:  # every game has just ended: the step deals again
            env.step(actions)
            continue
        seen = env.observation[live].reshape(-1, buttons, buttons, 3).copy()
        positions = env.positions()
        rows = np.stack([teacher.values(positions[i]) for i in live])
        observations.append(seen)
        masks.append(mask[live])
        values.append(rows)
        met += len(live)
        if net is not None:
            scores = np.where(mask[live], logits_of(net, seen), -np.inf)
            best = np.where(mask[live], rows, -np.inf)
            draw = rng.random(len(live))
            chosen = np.where(draw < perfect, best.argmax(axis=1), scores.argmax(axis=1))
            actions[live] = np.where(draw >= 1 - explore, actions[live], chosen)
        env.step(actions)
    return Samples(np.concatenate(observations), np.concatenate(masks), np.concatenate(values))


def regret_of(net: torch.nn.Module, samples: Samples) -> tuple[float, float]:
    """The mean regret of the net's choices on ``samples`` and their share of best moves."""
    scores = np.where(samples.masks, logits_of(net, samples.observations), -np.inf)
    chosen = scores.argmax(axis=1)
    best = np.where(samples.masks, samples.values, -np.inf).max(axis=1)
    lost = best - samples.values[np.arange(len(samples)), chosen]
    return float(lost.mean()), float((lost == 0).mean())


def train(
    net: torch.nn.Module,
    optimiser: torch.optim.Optimizer,
    samples: Samples,
    *,
    epochs: int,
    batch: int,
    temperature: float,
    rng: np.random.Generator,
) -> float:
    """``epochs`` passes over ``samples``, each batch turned by random rotations;
    the loss is the cross-entropy to the softmax of the move values over
    ``temperature``. Returns the last epoch's mean loss."""
    import torch

    piles = pile_count(samples.observations)
    loss_sum = 0.0
    for _ in range(epochs):
        order = rng.permutation(len(samples))
        loss_sum, batches = 0.0, 0
        for start in range(0, len(order), batch):
            index = order[start : start + batch]
            shift = rng.integers(0, 1 << 30, len(index)) % np.maximum(piles[index], 1)
            seen = rotate_observation(samples.observations[index], shift)
            mask = torch.from_numpy(rotate_mask(samples.masks[index], shift, piles[index]))
            value = torch.from_numpy(rotate_mask(samples.values[index], shift, piles[index]))
            logits = net(torch.from_numpy(seen.astype(np.float32)))
            logits = logits.masked_fill(~mask, -1e9)
            target = torch.softmax((value / temperature).masked_fill(~mask, -1e9), dim=1)
            loss = -(target * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
            optimiser.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimiser.step()
            loss_sum += loss.item()
            batches += 1
        loss_sum /= max(batches, 1)
    return loss_sum


def export_onnx(net: torch.nn.Module, buttons: int, path: Path) -> None:
    """The net's logits as ONNX: input ``observation`` (float32, ``(B, N, N, 3)``),
    output ``logits`` (``(B, N)``)."""
    import onnx  # noqa: F401 (torch's exporter needs it)
    import torch

    torch.onnx.export(
        net.eval(),
        (torch.zeros((1, buttons, buttons, 3), dtype=torch.float32),),
        str(path),
        input_names=["observation"],
        output_names=["logits"],
        dynamic_axes={"observation": {0: "batch"}, "logits": {0: "batch"}},
        dynamo=False,
    )


def exact_share(per_colour: int) -> tuple[float, int, int, int]:
    """What perfect play wins against perfect play in ``evaluate``'s setting (every
    start order equally likely, the starter a fair coin, the policy Red or Black
    equally often): ``(share, won, lost, drawn)``, the counts over every start with
    either starter, from the starter's side. Solved once per class of starts under
    rotation and the colour swap (``start_classes``)."""
    representatives, rows = start_classes(per_colour)
    values = solve_many([Position.start(r, to_move="r") for r in representatives], threads=1)
    counts = np.bincount(np.sign(np.asarray(values)[np.asarray(rows)]) + 1, minlength=3)
    lost, drawn, won = (int(c) for c in counts)
    # As Red: wins the starts where Red moves and wins, and those where Black moves and
    # loses; the colour swap makes the two colours' shares equal: (won + lost) / 2 of all.
    return (won + lost) / (2 * (won + lost + drawn)), won, lost, drawn


def audit(spec: str, per_colour: int) -> None:
    """Prints what the policy ``spec`` gives away in every reachable position, by the
    number of piles standing, and its worst choices."""
    from buttonup.players import load_policy

    bot = load_policy(spec)
    by_piles: dict[int, list[int]] = {}
    worst: list[tuple[int, str, int, dict[int, int]]] = []
    for position in all_positions(per_colour):
        if position.is_over:
            continue
        values = analyze(position, threads=1)
        move = bot.choose(position)
        lost = max(values.values()) - values[move]
        by_piles.setdefault(len(position.piles), []).append(lost)
        if lost > 0:
            worst.append((lost, str(position), move, values))
    every = [lost for losses in by_piles.values() for lost in losses]
    print(
        f"{len(every):,} reachable positions: best move in {every.count(0):,}, "
        f"mean regret {np.mean(every):.4f}"
    )
    for piles, losses in sorted(by_piles.items(), reverse=True):
        wrong = sum(1 for lost in losses if lost > 0)
        print(
            f"  {piles} piles: {len(losses):,} positions, {wrong:,} wrong, "
            f"mean regret {np.mean(losses):.4f}"
        )
    for lost, text, move, values in sorted(worst, reverse=True)[:6]:
        print(f"  {text}: plays {move}, loses {lost} ({values})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--per-colour", type=int, default=3)
    parser.add_argument("--out", type=Path, default=Path("examples/distilled"))
    parser.add_argument("--rounds", type=int, default=8, help="rounds of play and training")
    parser.add_argument("--positions", type=int, default=200_000, help="positions a round")
    parser.add_argument("--games", type=int, default=1024, help="games played side by side")
    parser.add_argument("--epochs", type=int, default=3, help="passes over the data a round")
    parser.add_argument("--final-epochs", type=int, default=6, help="passes after the last")
    parser.add_argument("--hidden", type=int, default=192)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--temperature", type=float, default=0.25, help="of the target softmax")
    parser.add_argument("--explore", type=float, default=0.2, help="share of random moves")
    parser.add_argument("--perfect", type=float, default=0.3, help="share of the teacher's")
    parser.add_argument("--episodes", type=int, default=1000, help="evaluate's battles")
    parser.add_argument("--smoke", action="store_true", help="a tiny run, for the test")
    parser.add_argument("--exact-share", action="store_true", help="print it and stop")
    parser.add_argument("--audit", metavar="SPEC", help="a policy's regret everywhere, and stop")
    args = parser.parse_args()
    if args.smoke:
        args.rounds, args.positions, args.games, args.epochs = 2, 3000, 64, 1
        args.final_epochs, args.hidden, args.episodes = 1, 32, 20

    if args.exact_share:
        share, won, lost, drawn = exact_share(args.per_colour)
        print(
            f"{args.per_colour} a colour: of {won + lost + drawn:,} starts the starter wins "
            f"{won:,}, loses {lost:,}, draws {drawn:,}; perfect play wins {share:.4f} of "
            "evaluate's battles against level 9"
        )
        return

    if args.audit:
        audit(args.audit, args.per_colour)
        return

    import torch
    from buttonup.envs import evaluate

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    buttons = 3 * args.per_colour
    net = make_net(buttons, args.hidden, args.layers)
    optimiser = torch.optim.Adam(net.parameters(), lr=args.lr)
    teacher = Teacher(buttons)
    data: Samples | None = None
    started = time.perf_counter()
    for round_ in range(args.rounds):
        fresh = collect(
            None if round_ == 0 else net,
            teacher,
            per_colour=args.per_colour,
            games=args.games,
            count=args.positions,
            explore=args.explore,
            perfect=args.perfect,
            seed=args.seed * 1000 + round_,
        )
        if round_ > 0:
            # Before it learns from them: the net's regret where it now plays.
            regret, best = regret_of(net, fresh)
            print(f"round {round_}: regret {regret:.4f} a move, best {best:.4f} where it plays")
        data = fresh if data is None else data.join(fresh)
        epochs = args.epochs + (args.final_epochs if round_ == args.rounds - 1 else 0)
        loss = train(
            net,
            optimiser,
            data,
            epochs=epochs,
            batch=args.batch,
            temperature=args.temperature,
            rng=rng,
        )
        print(
            f"round {round_}: {len(data):,} samples, {len(teacher.cache):,} positions "
            f"solved, loss {loss:.4f}, {time.perf_counter() - started:.0f} s"
        )
    elapsed = time.perf_counter() - started
    print(f"trained in {elapsed:.0f} s on one thread")
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"distilled_{args.per_colour}_seed{args.seed}.onnx"
    export_onnx(net, buttons, path)
    print(f"wrote {path} ({path.stat().st_size:,} bytes)")
    report = evaluate(
        str(path), episodes=args.episodes, opponents=[1, 5, 9], per_colour=args.per_colour
    )
    print(report.row(f"distilled, {args.per_colour} a colour, seed {args.seed}"))


if __name__ == "__main__":
    main()
