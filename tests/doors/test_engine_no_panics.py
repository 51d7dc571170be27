"""Both UGI engines under random sessions: lines built from the protocol's
words with numbers at and past every limit, notation that is not, moves that name no
pile, options that do not exist, and plain garbage. Through all of it the engine
answers ``isready`` with ``readyok``, gets a ``bestmove`` for every ``go``, never
reports an internal error (a panic caught at the boundary) and exits cleanly on
``quit``."""

from __future__ import annotations

import processes
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

NUMBERS = [
    "-1",
    "0",
    "1",
    "2",
    "9",
    "10",
    "11",
    "4097",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "1" + "0" * 40,
    "1e3",
    "0x10",
    "+5",
    "\u0661",  # an Arabic-Indic digit one
    "",
]
FENS = [
    "W/R/B/W/B/R/R/W/B r",
    "RWBBWW/BRR b",
    "RBWRBW r",
    "W/R/B/W/B/R/R/W/B/W/R/B r",
    "W/R/X r",
    "W//R r",
    "W/R/B/W/B/R/R/W/B",
    "r",
]
numbers = st.sampled_from(NUMBERS)
moves = st.lists(numbers, max_size=4).map(lambda ms: ["moves", *ms] if ms else [])
position = st.one_of(
    st.builds(lambda fen, ms: ["position", "fen", fen, *ms], st.sampled_from(FENS), moves),
    st.builds(lambda ms: ["position", "startpos", *ms], moves),
    st.just(["position"]),
    st.just(["position", "fen"]),
)
go_words = st.sampled_from(
    ["depth", "nodes", "movetime", "p1time", "p2time", "p1inc", "p2inc", "wtime", "movestogo"]
)
go = st.builds(
    lambda limits: ["go", *[w for pair in limits for w in pair]],
    st.lists(st.tuples(go_words, numbers), max_size=3),
)
# Hash of 4096 MiB is valid and left out: a test should not take 4 GiB.
setoption = st.builds(
    lambda name, value: ["setoption", "name", name, "value", value],
    st.sampled_from(["Level", "Hash", "Seed", "level", "NoSuch", ""]),
    numbers.filter(lambda n: n != "4096"),
)
other = st.sampled_from(
    [
        ["uginewgame"],
        ["ugi"],
        ["stop"],
        ["ponderhit"],
        ["query", "gameover"],
        ["query", "p1turn"],
        ["query", "result"],
        ["query", "nothing"],
        ["query"],
        ["debug", "on"],
        ["setoption"],
        ["setoption", "name"],
        ["go", "infinite"],
    ]
)
garbage = st.text(
    alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="\r\n\x00"),
    max_size=30,
).map(lambda text: [text])
line = st.one_of(position, go, setoption, other, garbage).map(" ".join)


# The fixture only names the engine's command line: the same for every example.
@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(lines=st.lists(line, min_size=1, max_size=12))
def test_random_sessions_never_break_the_engine(ugi_command: list[str], lines: list[str]) -> None:
    done = processes.run(
        ugi_command,
        input="\n".join([*lines, "stop", "isready", "quit", ""]),
        capture_output=True,
        text=True,
        timeout=60,
    )
    out = done.stdout.splitlines()
    assert done.returncode == 0, (lines, done.stderr)
    assert not [
        answer for answer in out if "internal error" in answer or "search failed" in answer
    ], (lines, out)
    assert "readyok" in out, (lines, out)
    gos = sum(1 for text in lines if text.lower().split()[:1] == ["go"])
    assert sum(1 for answer in out if answer.startswith("bestmove")) == gos, (lines, out)
