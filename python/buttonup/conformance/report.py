"""What a conformance run found: the counts, each kind's smallest example, the report.

A disagreement has a *kind*; each kind names the rule of docs/rules.md (or the part of
the protocol, docs/conformance.md) that decides it. The report keeps, per kind, the
smallest example seen (fewest buttons, then fewest piles, then the lowest move).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

#: The kinds of the line protocol's check, and what decides each.
PROTOCOL_KINDS: dict[str, str] = {
    "legal": "rule 2: a pile may be lifted if and only if it holds a white button",
    "piles": "rule 3: the lifted buttons are dropped bottom first, one a pile clockwise; "
    "with more buttons than other piles the last pile takes the rest at once",
    "extra": "rule 4: the mover plays again when there was no overflow and the last "
    "button dropped lands on one of its own colour",
    "score": "rule 6: in the final pile the bottom button is worth 1, the next 2, and so "
    "on; each player adds his own",
    "error": "protocol: an 'error' answer to a legal request (docs/conformance.md)",
    "crash": "protocol: the implementation exited or closed its output",
    "timeout": "protocol: no answer within the time-out",
    "malformed": "protocol: an answer not in the protocol's form (docs/conformance.md)",
}

#: What decides a ``legal`` disagreement on a lone pile: the battle is over.
LONE_PILE = "rule 5: a lone pile ends the battle: no pile may be lifted, white or not"

#: The kinds of the UGI check (``--ugi``), and what decides each.
UGI_KINDS: dict[str, str] = {
    "legal": "rule 2: every bestmove must be a legal move of the position",
    "turn": "rule 4: 'query p1turn' after every move, extra moves included",
    "gameover": "rule 5: 'query gameover' is true exactly when one pile is left",
    "result": "rule 6: 'query result' is the final pile's winner ('none' before the end)",
    "isready": "protocol: 'isready' is answered by 'readyok' during a search",
    "movetime": "protocol: 'go movetime MS' answers within MS plus the tolerance",
    "error": "protocol: an error line or 'bestmove (none)' for a valid request",
    "crash": "protocol: the engine exited or closed its output",
    "timeout": "protocol: no answer within the time-out",
    "malformed": "protocol: an answer not in the protocol's form (docs/protocol.md)",
}


#: The order of the counts of what was checked.
ORDER = ("battles", "positions", "moves", "scores", "queries")
PARTS = {
    "standard": "standard game, every reachable position",
    "variants": "variants and odd circles drawn by hypothesis",
    "battles": "battles against buttonup's AI",
}


@dataclass(frozen=True)
class Example:
    """One disagreement: the question, what the rules answer and what came back."""

    kind: str
    position: str
    """The piles (``state`` argument), or for ``--ugi`` the position in full notation."""
    move: int | None
    """The pile lifted, for a ``play`` (``None`` for ``legal`` and ``score``)."""
    expected: str
    got: str
    request: str = ""
    """The question, as sent: ``legal``, ``play 3``, ``score``, or a UGI command."""

    def size(self) -> tuple[int, int, int, str]:
        """Smaller is a better example: fewer buttons, fewer piles, a lower move."""
        piles = self.position.split(" ")[0]
        buttons = sum(pile.isalpha() for pile in piles)
        return (buttons, piles.count("/") + 1, -1 if self.move is None else self.move, piles)

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "position": self.position,
            "move": self.move,
            "request": self.request,
            "expected": self.expected,
            "got": self.got,
        }


@dataclass
class Report:
    """The counts of a run and each kind's smallest example."""

    kinds: dict[str, str]
    mode: str = "protocol"
    command: str = ""
    part: str = "standard"
    """The part of the run now counting: ``standard`` (the exhaustive sweep),
    ``variants`` (the property-based part), or ``battles`` (``--ugi``)."""
    parts: dict[str, Counter[str]] = field(default_factory=dict)
    skipped: set[str] = field(default_factory=set)
    counts: Counter[str] = field(default_factory=Counter)
    examples: dict[str, Example] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    restarts: int = 0
    complete: bool = True
    """``False`` once the run was stopped before it asked everything (the deadline)."""

    def stop(self, note: str) -> None:
        """The run stops here, for the reason ``note``: what is left is not checked."""
        self.complete = False
        self.notes.append(note)

    def rule(self, example: Example) -> str:
        """The rule (or part of the protocol) that decides ``example``."""
        one_pile = "/" not in example.position.split(" ")[0]
        if example.kind == "legal" and self.mode == "protocol" and one_pile:
            return LONE_PILE
        return self.kinds[example.kind]

    def try_command(self, example: Example) -> str | None:
        """A shell command that asks ``example``'s question again (not for a time-out,
        nor for a UGI engine)."""
        if self.mode != "protocol" or example.kind == "timeout":
            return None
        request = example.request
        if not request.startswith("state "):
            request = f"state {example.position}\\n{request}"
        return f"printf '{request}\\n' | {self.command}"

    def count(self, what: str) -> None:
        """One more question of kind ``what`` (``positions``, ``moves``...) answered."""
        counts = self.parts.get(self.part)
        if counts is None:
            counts = self.parts[self.part] = Counter()
        counts[what] += 1

    @property
    def checked(self) -> Counter[str]:
        """What was checked, all parts together."""
        total: Counter[str] = Counter()
        for counts in self.parts.values():
            total.update(counts)
        return total

    def add(self, example: Example) -> None:
        """Counts a disagreement, keeping the smaller example of its kind."""
        self.counts[example.kind] += 1
        best = self.examples.get(example.kind)
        if best is None or example.size() < best.size():
            self.examples[example.kind] = example

    @property
    def agrees(self) -> bool:
        return self.complete and not self.counts and sum(self.checked.values()) > 0

    def exit_status(self) -> int:
        return 0 if self.agrees else 1

    def to_json(self) -> dict[str, object]:
        ordered = [self.examples[kind] for kind in self.kinds if kind in self.examples]
        return {
            "mode": self.mode,
            "command": self.command,
            "checked": self._ordered(self.checked),
            "parts": {part: self._ordered(counts) for part, counts in self.parts.items()},
            "skipped": len(self.skipped),
            "disagreements": {kind: self.counts.get(kind, 0) for kind in self.kinds},
            "examples": [self._example_json(example) for example in ordered],
            "restarts": self.restarts,
            "notes": list(self.notes),
            "complete": self.complete,
            "agrees": self.agrees,
        }

    def _example_json(self, example: Example) -> dict[str, object]:
        data = dict(example.to_json(), rule=self.rule(example))
        command = self.try_command(example)
        if command is not None:
            data["try"] = command
        return data

    def _ordered(self, counts: Counter[str]) -> dict[str, int]:
        known = [what for what in ORDER if what in counts]
        return {what: counts[what] for what in known + sorted(set(counts) - set(ORDER))}

    def write_json(self, path: Path) -> None:
        try:
            path.write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")
        except OSError as error:
            raise ValueError(f"cannot write {path}: {error.strerror}") from None

    def print(self, out: IO[str]) -> None:
        """The readable report: what was checked, the counts, each kind's example."""
        print(f"checked {self.command}", file=out)
        if not self.parts:
            print("  nothing", file=out)
        for part, counts in self.parts.items():
            checked = ", ".join(f"{n:,} {what}" for what, n in self._ordered(counts).items())
            print(f"  {PARTS.get(part, part)}: {checked}", file=out)
        if self.skipped:
            print(
                f"skipped {len(self.skipped):,} positions the implementation cannot represent",
                file=out,
            )
        if self.restarts:
            times = "once" if self.restarts == 1 else f"{self.restarts} times"
            print(f"restarted the implementation {times}", file=out)
        for note in self.notes:
            print(f"note: {note}", file=out)
        if self.agrees:
            print("every answer agrees with buttonup", file=out)
            return
        if not self.counts:
            if not self.complete:
                print("every answer agrees with buttonup, but not everything was checked", file=out)
            else:
                print("nothing was checked: every position was skipped or refused", file=out)
            return
        total = sum(self.counts.values())
        print(f"{total:,} disagreement{'s' if total > 1 else ''}:", file=out)
        for kind in self.kinds:
            if self.counts.get(kind):
                print(f"  {kind:<10}{self.counts[kind]:>9,}", file=out)
        for kind in self.kinds:
            example = self.examples.get(kind)
            if example is None:
                continue
            print(file=out)
            print(f"{kind}: {self.rule(example)}", file=out)
            if example.position:
                print(f"  position  {example.position}", file=out)
            if example.request:
                print(f"  request   {example.request}", file=out)
            expected = example.expected
            if expected == "" and example.request == "legal":
                expected = "(an empty line: no move)"
            print(f"  expected  {expected}", file=out)
            first, *rest = example.got.split("\n")
            print(f"  got       {first}", file=out)
            for line in rest:  # the end of a crashed implementation's standard error
                print(f"            {line}", file=out)
            command = self.try_command(example)
            if command is not None:
                print(f"  try       {command}", file=out)
