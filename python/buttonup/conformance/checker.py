"""Questions sent, answers judged: the heart of the protocol check.

Questions go out in batches, up to a window of them ahead of their answers (their bytes
always fit in a pipe's buffer, so a stuck implementation can never block the kit); each
answer is judged against the oracle's as it comes. A time-out is charged to the first
question left without an answer, and so is a crash with one question unanswered; with
several, the crash may have come from any of them (an implementation that answers a
whole chunk of input at once loses all its answers), so they are asked again one at a
time in a fresh process, and the first that fails is charged. The implementation is
then restarted and the questions after it are sent again.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterable
from typing import NamedTuple

from buttonup.conformance.oracle import Question
from buttonup.conformance.process import Failure, Process
from buttonup.conformance.report import Example, Report

PLAY_ANSWER = re.compile(r"([RBW]+(?:/[RBW]+)*) extra=(true|false)")
SCORE_ANSWER = re.compile(r"R=(\d+) B=(\d+)")
LEGAL_ANSWER = re.compile(r"(?:\d+(?: \d+)*)?")
#: Questions in flight at most, and their bytes (a pipe holds 64 KiB on Linux).
WINDOW = 256
WINDOW_BYTES = 32 * 1024


class Verdict(NamedTuple):
    """``kind`` is ``None`` when the answer agrees, ``"skipped"`` when the
    implementation cannot represent the position, else the kind of disagreement."""

    kind: str | None
    got: str
    request: str


def is_error(answer: str) -> bool:
    return answer == "error" or answer.startswith("error ")


def judge(question: Question, answer: str) -> str | None:
    """The kind of disagreement of ``answer`` to ``question``, or ``None``."""
    if answer == question.expected:
        return None
    if question.expected == "error":  # an illegal move must be refused
        if is_error(answer):
            return None
        return "legal" if PLAY_ANSWER.fullmatch(answer) else "malformed"
    if is_error(answer):
        return "error"
    if question.request == "legal":
        if not LEGAL_ANSWER.fullmatch(answer):
            return "malformed"
        moves = [int(word) for word in answer.split()]
        return "legal" if moves == sorted(set(moves)) else "malformed"
    if question.request == "score":
        return "score" if SCORE_ANSWER.fullmatch(answer) else "malformed"
    played = PLAY_ANSWER.fullmatch(answer)
    if played is None:
        return "malformed"
    piles, _, flag = question.expected.partition(" ")
    if played.group(1) != piles:
        return "piles"
    return None if question.ends or played.group(2) == flag[len("extra=") :] else "extra"


def example_of(
    question: Question, kind: str, got: str, request: str, expected: str | None = None
) -> Example:
    """The example a disagreement is reported with."""
    if expected is None:
        expected = question.expected
        if question.ends:  # the battle's last move: either rule-4 flag is right
            expected = expected.partition(" ")[0] + " extra=false (or extra=true)"
        elif expected == "error":
            expected = "error <reason>"
    return Example(kind, question.position, question.move, expected, got, request)


class Checker:
    """Asks an implementation questions and judges the answers."""

    def __init__(self, process: Process, report: Report, *, max_restarts: int = 20) -> None:
        self.process = process
        self.report = report
        self.max_restarts = max_restarts
        self.gave_up = False
        self.progress: Callable[[int], None] | None = None

    def run(self, questions: Iterable[Question], *, tally: bool = True) -> list[Verdict]:
        """Asks every question, pipelined; with ``tally`` the report counts the answers
        and keeps the disagreements. Returns each question's verdict, in order (a
        question never asked, once the kit gave up, has none)."""
        source = iter(questions)
        resend: deque[Question] = deque()
        inflight: deque[Question] = deque()
        verdicts: list[Verdict] = []
        inflight_bytes = 0
        writable = True
        answered = 0
        while not (tally and self.gave_up):
            batch: list[bytes] = []
            # Refilled once half the window is answered: few, large writes.
            low = len(inflight) <= WINDOW // 2 and inflight_bytes <= WINDOW_BYTES // 2
            while low and writable and len(inflight) < WINDOW and inflight_bytes < WINDOW_BYTES:
                question = resend.popleft() if resend else next(source, None)
                if question is None:
                    break
                inflight.append(question)
                batch.append(question.wire)
                inflight_bytes += len(question.wire)
            if batch:
                try:
                    self.process.send(b"".join(batch))
                except Failure:  # charged below to the first question left unanswered
                    writable = False
            if not inflight:
                break
            question = inflight.popleft()
            inflight_bytes -= len(question.wire)
            try:
                state = self.process.read().rstrip()
                answer = self.process.read().rstrip()
            except Failure as failure:
                if failure.flood and tally and failure.detail not in self.report.notes:
                    self.report.notes.append(failure.detail)
                unanswered = [question, *inflight]
                inflight.clear()
                inflight_bytes = 0
                writable = True
                self._restart(tally)
                if failure.kind == "crash" and len(unanswered) > 1:
                    replayed, failure = self._replay(unanswered, failure, tally)
                    verdicts.extend(replayed)
                    unanswered = unanswered[len(replayed) :]
                    question = unanswered[0]
                verdicts.append(Verdict(failure.kind, failure.detail, question.request))
                if tally:
                    self._count(question, failure.kind, failure.detail, question.request)
                resend.extendleft(reversed(unanswered[1:]))
                continue
            verdict = self._verdict(question, state, answer, tally)
            verdicts.append(verdict)
            if verdict.kind == "malformed" and verdict.request.startswith("state "):
                # Not an answer to 'state': out of step, or garbage.
                resend.extendleft(reversed(inflight))
                inflight.clear()
                inflight_bytes = 0
                writable = True
                self._restart(tally)
            answered += 1
            if self.progress is not None and tally and answered % 1024 == 0:
                self.progress(answered)
        if self.progress is not None and tally:
            self.progress(answered)
        return verdicts

    def ask(self, question: Question) -> Verdict:
        """One question, not counted (the shrinker's probes)."""
        return self.run([question], tally=False)[0]

    def _verdict(self, question: Question, state: str, answer: str, tally: bool) -> Verdict:
        """The verdict on the two lines answering ``question``, counted with ``tally``."""
        if state == "ok":
            kind = judge(question, answer)
            if tally:
                self._count(question, kind, answer, question.request)
            return Verdict(kind, answer, question.request)
        if is_error(state):
            if tally:
                self.report.skipped.add(question.position)
            return Verdict("skipped", state, question.request)
        request = f"state {question.position}"
        if tally:
            self._count(question, "malformed", state, request, expected="ok")
        return Verdict("malformed", state, request)

    def _replay(
        self, unanswered: list[Question], failure: Failure, tally: bool
    ) -> tuple[list[Verdict], Failure]:
        """Which of ``unanswered`` crashed the implementation: asked again one at a time
        (in the process just restarted), the first that fails is the one. Returns the
        verdicts of those answered before it, and its failure; if none fails alone, no
        verdicts and ``failure``, charged to the first as it would be without the
        replay."""
        answers: list[tuple[Question, str, str]] = []
        for question in unanswered:
            try:
                self.process.send(question.wire)
                state = self.process.read().rstrip()
                answer = self.process.read().rstrip()
            except Failure as alone:
                self.process.restart()  # the same failure, found: not counted again
                return [self._verdict(*answered, tally) for answered in answers], alone
            if state != "ok" and not is_error(state):  # out of step: no telling why
                self.process.restart()
                break
            answers.append((question, state, answer))
        return [], failure

    def _count(
        self,
        question: Question,
        kind: str | None,
        got: str,
        request: str,
        expected: str | None = None,
    ) -> None:
        if kind not in ("crash", "timeout"):
            self.report.count(question.what)
        if kind is not None:
            self.report.add(example_of(question, kind, got, request, expected))

    def _restart(self, tally: bool) -> None:
        if tally:
            self.report.restarts += 1
            if self.report.restarts > self.max_restarts and not self.gave_up:
                self.gave_up = True
                self.report.notes.append(
                    f"gave up after {self.max_restarts} restarts: the rest was not checked"
                )
        self.process.restart()
