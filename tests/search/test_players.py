"""Policies as players (buttonup.players): one text names a policy, a
``module:attribute``, an SB3 zip or an ONNX file, and every door that takes a bot plays
it: ``bot_factory``, ``evaluate``, ``buttonup play --opponent``, ``buttonup tournament
--bots``, ``buttonup engine --policy`` and ``buttonup serve --opponent``. The shipped
baseline (examples/baseline) plays the same moves from its zip and its ONNX file."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from buttonup import Match, Position
from buttonup.envs import evaluate
from buttonup.players import PolicyBot, PolicyError, bot_factory, chooser, load_policy, policy_view
from processes import run

ROOT = Path(__file__).resolve().parents[2]
BASELINE = ROOT / "examples" / "baseline" / "maskable_ppo_seed1"
ZIP = f"{BASELINE}.zip"
ONNX = f"{BASELINE}.onnx"
FIRST = "buttonup.players:first_legal"
START = Position("W/R/B/W/B/R/R/W/B r")
POSITIONS = [Position.random(seed) for seed in range(40)]

MODULE = """
import numpy as np

def last_legal(observation, mask):
    return int(np.flatnonzero(mask)[-1])

def by_position(position):
    return position.legal_moves()[1 % len(position.legal_moves())]

def illegal(observation, mask):
    return int(np.flatnonzero(~mask)[0]) if (~mask).any() else 99

seeds = []

def make(seed=None):
    seeds.append(seed)
    return last_legal

class Nested:
    policy = staticmethod(last_legal)

class Starter:
    name = "starter"
    def choose(self, position, match=None):
        return position.legal_moves()[0]
    def choose_starter(self, match):
        return match.to_move

def lookup(position):
    return {}[str(position)]

broken = 42
"""


@pytest.fixture
def mypolicies(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An importable module ``mypolicies`` of policies in each form."""
    (tmp_path / "mypolicies.py").write_text(MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("mypolicies", None)
    return tmp_path


def child_env(path: Path | None = None) -> dict[str, str]:
    import os

    env = dict(os.environ)
    parts = [str(ROOT / "python"), *([str(path)] if path else []), env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(p for p in parts if p)
    return env


# --- the forms ------------------------------------------------------------------------


def test_module_attribute_forms(mypolicies: Path) -> None:
    last = load_policy("mypolicies:last_legal")
    assert isinstance(last, PolicyBot) and last.name == "mypolicies:last_legal"
    assert last.choose(START) == START.legal_moves()[-1]
    assert load_policy("mypolicies:by_position").choose(START) == START.legal_moves()[1]
    assert load_policy("mypolicies:Nested.policy").choose(START) == START.legal_moves()[-1]
    assert load_policy("mypolicies:Starter").choose(START) == START.legal_moves()[0]
    import mypolicies

    assert load_policy("mypolicies:make", seed=7).choose(START) == START.legal_moves()[-1]
    assert mypolicies.seeds == [7]  # type: ignore[attr-defined]
    # A policy starts a battle itself when it may choose.
    match = Match("r", seed=1)
    assert last.choose_starter(match) is match.to_move


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("mypolicies:nothing", "has no nothing"),
        ("no_such_module_here:policy", "cannot import"),
        ("mypolicies:broken", "a player is"),
        (":policy", "write module:attribute"),
        ("missing/file.zip", "no policy file"),
        ("missing/file.onnx", "no policy file"),
        ("plain", "write module:attribute"),
    ],
)
def test_bad_specs_are_policy_errors(mypolicies: Path, spec: str, says: str) -> None:
    with pytest.raises(PolicyError, match=says):
        load_policy(spec)
    assert issubclass(PolicyError, ValueError)


def test_an_illegal_move_is_a_policy_error(mypolicies: Path) -> None:
    bot = load_policy("mypolicies:illegal")
    with pytest.raises(PolicyError, match="not a legal move"):
        bot.choose(START)


def test_a_policy_that_raises_is_a_policy_error_naming_what_it_raised(mypolicies: Path) -> None:
    bot = load_policy("mypolicies:lookup")
    with pytest.raises(PolicyError) as caught:
        bot.choose(START)
    assert str(caught.value) == (f"policy mypolicies:lookup failed on {START}: KeyError: '{START}'")
    assert isinstance(caught.value.__cause__, KeyError)


def test_the_engine_answers_a_policy_that_raises_with_an_error_line(mypolicies: Path) -> None:
    # It printed a KeyError traceback and exited 1.
    fen = f"position fen {START}"
    session = f"{fen}\ngo\nisready\n{fen} moves 0\ngo\nquit\n"
    done = buttonup("engine", "--policy", "mypolicies:lookup", input=session, path=mypolicies)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    lines = done.stdout.splitlines()
    errors = [line for line in lines if line.startswith("info string error: policy")]
    assert len(errors) == 2 and f"failed on {START}: KeyError" in errors[0]
    assert f"failed on {START.play(0)}: KeyError" in errors[1]
    assert lines.count("bestmove (none)") == 2 and "readyok" in lines


def test_a_server_opponent_that_raises_is_a_json_500(mypolicies: Path) -> None:
    # It was a plain-text 500.
    pytest.importorskip("fastapi")
    from buttonup.web.app import create_app
    from fastapi.testclient import TestClient

    app = create_app(opponents={"lookup": bot_factory("mypolicies:lookup")})
    client = TestClient(app, raise_server_exceptions=False)
    answer = client.post("/api/bestmove", json={"position": str(START), "opponent": "lookup"})
    assert answer.status_code == 500
    assert answer.json()["error"].startswith("policy mypolicies:lookup failed on W/R/B/W/B/R/R/W/B")
    made = client.post("/api/matches", json={"human": "b", "opponent": "lookup"})
    assert made.status_code == 200, made.text  # the match is made; its AI move fails
    moved = client.post(f"/api/matches/{made.json()['id']}/ai")
    assert moved.status_code == 500 and "KeyError" in moved.json()["error"]


def test_bot_factory_names_and_pickles_policies(mypolicies: Path) -> None:
    made = bot_factory(FIRST)
    assert (made.name, made.spec) == (FIRST, FIRST)
    assert made(3).choose(START) == 0
    named = bot_factory("first=" + FIRST)
    assert named.name == "first" and named(0).name == "first"
    assert pickle.loads(pickle.dumps(named)) == named  # tournament workers get it
    assert bot_factory("mine=7").name == "mine" and bot_factory("mine=7")(0).name != "mine"
    with pytest.raises(ValueError, match="no policy file"):
        bot_factory("nowhere/model.zip")
    with pytest.raises(ValueError, match="or a policy"):
        bot_factory("nobody")


def test_bot_factory_names_a_shipped_zip_by_its_file() -> None:
    pytest.importorskip("sb3_contrib")  # the sb3 extra (not in an installed run's venv)
    assert bot_factory(ZIP).name == "maskable_ppo_seed1"


def test_chooser_and_evaluate_take_a_spec() -> None:
    assert chooser(FIRST)(START) == 0
    report = evaluate(FIRST, episodes=4, opponents={"first": FIRST, "level 9": 9})
    assert report.battles == 8 and set(report.win_rate) == {"first", "level 9"}
    assert report.regret.mean > 0  # the first legal pile is often not the best


# --- SB3 and ONNX files -----------------------------------------------------------------


def test_sb3_zips_of_maskable_ppo_and_ppo_play_legal_moves(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    from buttonup.envs.sb3 import BattleVecEnv
    from sb3_contrib import MaskablePPO
    from stable_baselines3 import PPO

    for kind in (MaskablePPO, PPO):
        envs = BattleVecEnv(4, opponent=1, seed=0)
        model: Any = kind("MlpPolicy", envs, n_steps=8, batch_size=32, seed=0)
        path = tmp_path / f"{kind.__name__}.zip"
        model.save(path)
        bot = load_policy(str(path))
        assert bot.name == kind.__name__
        for position in POSITIONS:
            # An unmasked PPO's best logit may be an illegal pile: the legal best is played.
            assert bot.choose(position) in position.legal_moves()


def test_a_file_that_is_no_model_is_a_policy_error(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    bad = tmp_path / "bad.zip"
    bad.write_bytes(b"not a zip")
    with pytest.raises(PolicyError, match="cannot load"):
        load_policy(str(bad))


def test_the_shipped_baseline_is_small_and_plays_alike_from_zip_and_onnx() -> None:
    pytest.importorskip("sb3_contrib")
    pytest.importorskip("onnxruntime")
    assert Path(ZIP).stat().st_size + Path(ONNX).stat().st_size < 1 << 20
    from_zip, from_onnx = load_policy(ZIP), load_policy(ONNX)
    moves = [from_zip.choose(position) for position in POSITIONS]
    assert moves == [from_onnx.choose(position) for position in POSITIONS]
    assert len(set(moves)) > 3  # not one pile everywhere


def test_onnx_without_onnxruntime_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import buttonup.players as policies

    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # import fails
    monkeypatch.setattr(policies, "_LOADED", {})
    with pytest.raises(PolicyError, match="install onnxruntime"):
        load_policy(ONNX)


def test_an_onnx_policy_with_a_mask_input_and_a_flat_observation(tmp_path: Path) -> None:
    pytest.importorskip("onnxruntime")
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    # scores = mask * 1 + (observation . weights): the last legal pile wins ties to 0.
    n = 9
    weights = np.zeros((n * n * 3, n), np.float32)
    weights[0, :] = np.arange(n, dtype=np.float32)  # favours the last pile
    graph = helper.make_graph(
        [
            helper.make_node("MatMul", ["observation", "w"], ["scored"]),
            helper.make_node("Cast", ["mask"], ["masked"], to=TensorProto.FLOAT),
            helper.make_node("Add", ["scored", "masked"], ["scores"]),
        ],
        "policy",
        [
            helper.make_tensor_value_info("observation", TensorProto.FLOAT, ["batch", n * n * 3]),
            helper.make_tensor_value_info("mask", TensorProto.BOOL, ["batch", n]),
        ],
        [helper.make_tensor_value_info("scores", TensorProto.FLOAT, ["batch", n])],
        [helper.make_tensor("w", TensorProto.FLOAT, weights.shape, weights.flatten())],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    path = tmp_path / "flat.onnx"
    onnx.save(model, str(path))
    bot = load_policy(str(path))
    for position in POSITIONS:
        legal = position.legal_moves()
        mine_at_the_bottom_of_pile_0 = policy_view(position)[0][0, 0, 0]
        assert bot.choose(position) == (legal[-1] if mine_at_the_bottom_of_pile_0 else legal[0])


# --- the doors, as a person runs them ----------------------------------------------------


def buttonup(*arguments: str, path: Path | None = None, **options: Any) -> Any:
    return run(
        [sys.executable, "-m", "buttonup", *arguments],
        capture_output=True,
        text=True,
        timeout=240,
        env=child_env(path),
        **options,
    )


def test_tournament_takes_policies(mypolicies: Path, tmp_path: Path) -> None:
    target = tmp_path / "t.json"
    bots = f"last=mypolicies:last_legal,{FIRST},9"
    done = buttonup(
        "tournament",
        "--bots",
        bots,
        "--matches",
        "2",
        "--threads",
        "2",
        "--json",
        str(target),
        path=mypolicies,
    )
    assert done.returncode == 0, done.stderr
    pairs = [(p["first"], p["second"]) for p in json.loads(target.read_text())["pairings"]]
    assert pairs == [("last", FIRST), ("last", "level-9"), (FIRST, "level-9")]
    bad = buttonup("tournament", "--bots", "1,nowhere/x.zip")
    assert bad.returncode == 2 and "no policy file" in bad.stderr


def test_play_takes_an_opponent(tmp_path: Path) -> None:
    done = buttonup("play", "--opponent", f"first={FIRST}", "--seed", "1", input="quit\n")
    assert done.returncode == 0, done.stderr
    assert "the AI plays Black as first." in " ".join(done.stdout.split())
    bad = buttonup("play", "--opponent", "nowhere.onnx", input="quit\n")
    assert bad.returncode == 2 and "no policy file" in bad.stderr


def test_the_python_engine_takes_a_policy() -> None:
    session = (
        "ugi\nposition fen W/R/B/W/B/R/R/W/B r\ngo depth 1\nposition fen W/R/B/W/B/R/R/W/B r"
        " moves 0\ngo infinite\nuginewgame\ngo\nquit\n"
    )
    done = buttonup("engine", "--policy", FIRST, input=session)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    bestmoves = [line for line in lines if line.startswith("bestmove")]
    after = START.play(0)
    assert bestmoves == ["bestmove 0", f"bestmove {after.legal_moves()[0]}", "bestmove (none)"]
    assert f"info string policy {FIRST}" in lines and "ugiok" in lines
    assert any("no position" in line for line in lines)  # the engine's own answer
    plain = buttonup("engine", input="position fen W/R/B/W/B/R/R/W/B r\ngo\nquit\n")
    # Without it, the engine searches (its info lines), and names no policy.
    assert plain.stdout.startswith("info depth") and "policy" not in plain.stdout


def test_serve_lists_and_plays_extra_opponents(mypolicies: Path) -> None:
    httpx = pytest.importorskip("httpx")
    from processes import end, free_port, popen

    port = free_port()
    command = [sys.executable, "-m", "buttonup", "serve", "--port", str(port), "--db"]
    process = popen(
        [
            *command,
            "sqlite://:memory:",
            "--opponent",
            "last=mypolicies:last_legal",
            "--opponent",
            "greedy",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=child_env(mypolicies),
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120  # a loaded machine starts Python slowly
        while True:
            assert process.poll() is None, "buttonup serve ended"
            assert time.monotonic() < deadline, "buttonup serve did not answer"
            try:
                if httpx.get(f"{url}/api/levels", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.05)
        listed = httpx.get(f"{url}/api/opponents", timeout=30).json()
        assert listed == {"last": "policy", "greedy": "bot"}
        answer = httpx.post(
            f"{url}/api/bestmove", json={"position": str(START), "opponent": "last"}, timeout=30
        )
        assert answer.json() == {"move": START.legal_moves()[-1], "opponent": "last"}
        for body in ({"opponent": "nobody"}, {"opponent": "last", "level": 3}):
            refused = httpx.post(
                f"{url}/api/bestmove", json={"position": str(START), **body}, timeout=30
            )
            assert refused.status_code == 400 and "opponent" in refused.json()["error"]
    finally:
        end(process)
    bad = buttonup("serve", "--port", str(port), "--opponent", "x=nowhere.zip")
    assert bad.returncode == 2 and "no policy file" in bad.stderr
