"""Players, made one way for every use: a text or an object turned into something that
chooses moves, for the terminal game, the tournament, the UGI engine, the server, the
evaluation of a learning agent and the batched opponents of the RL adapters.

A **spec**, the text a command takes (``--opponent``, ``--bots``, ``--policy``), is one of:

- a **level**, ``1`` to ``10`` (:func:`buttonup.ai.bot`);
- a **named bot**: ``random``, ``greedy``, ``perfect``, ``match``, ``alphabeta-N`` (a
  search ``N`` moves deep), ``noisy-E`` (perfect play with a chance ``E`` of a random
  move), ``rating-R`` (the bot of rating ``R`` on the level scale's ratings);
- a **policy**:

  - ``module:attribute`` (``attribute`` may be dotted): an importable module's
    **policy**, ``f(observation, mask) -> pile`` (the mover's ``(N, N, 3)`` int8
    observation, docs/rl.md "Encodings", and a bool array of the legal piles); or a
    **factory**, a callable of no argument (or only ``seed``), called once a bot, that
    returns any player object below; or any player object below;
  - ``PATH.zip``: a Stable-Baselines3 model saved by ``model.save`` (sb3-contrib's
    MaskablePPO, else SB3's PPO), played deterministically: the legal pile of the
    highest logit (the ``sb3`` extra);
  - ``PATH.onnx``: an ONNX model run by ``onnxruntime`` (the ``onnx`` extra). Its first
    input takes the observation as the model declares it (float32 unless it says
    another type; shaped ``(1, N, N, 3)``, or ``(1, 3 N N)`` for a flat input), a
    second input, if any, the mask (``(1, N)``); its first output is either a score per
    pile (the legal pile of the highest score is played) or the pile itself;

- any of these named, ``NAME=SPEC``, where a door lists its players.

A **player object** (what :func:`chooser` takes, and the RL adapters' ``opponent=``) is a
level (an int), a spec, a bot (anything with ``choose(position)``), a callable of a
position, a policy of the observation and the mask, a Stable-Baselines3 model
(anything with ``predict``) or an OpenSpiel bot (anything with ``step(state)``).

Policies need NumPy (the ``rl`` extra), loaded when one is first used. A policy plays for
itself when it may choose who starts a battle. Bad specs, missing files and missing
packages are :class:`PolicyError`, a ``ValueError``.

>>> from buttonup import Position
>>> start = Position("W/R/B/W/B/R/R/W/B r")
>>> make = bot_factory("alphabeta-3")
>>> make.name, make(seed=0).choose(start)
('alphabeta-3', 0)
>>> bot_factory("5").name
'level-5'
>>> chooser(9)(start), chooser(lambda position: position.legal_moves()[-1])(start)
(3, 7)
>>> policy = load_policy("first=buttonup.players:first_legal")
>>> policy.name, policy.choose(start)
('first', 0)
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from buttonup._core import Match, Position, encode_observation
from buttonup.ai import AlphaBetaBot, Bot, GreedyBot, Limits, bot, noisy_bot
from buttonup.player import Player

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "BOT_NAMES",
    "SUFFIXES",
    "BotFactory",
    "Chooser",
    "PolicyBot",
    "PolicyError",
    "bot_factory",
    "chooser",
    "first_legal",
    "is_policy_spec",
    "load_policy",
    "policy_name",
    "policy_view",
    "sb3_logits",
]

BOT_NAMES = ("random", "greedy", "perfect", "match", "alphabeta-N", "noisy-E", "rating-R")
"""The bots known by name besides the levels; ``alphabeta-N``, ``noisy-E`` and
``rating-R`` take a number."""

SUFFIXES = (".zip", ".onnx")
"""What the file forms of a policy end with (in any case)."""

Chooser = Callable[[Position], int]
"""A player as a function of a position: the pile it lifts."""


class PolicyError(ValueError):
    """A policy spec that names no policy that can play (a bad text, a missing file or
    attribute, a module that fails to import, or a package its form needs), or a policy
    that failed to play: it raised, or chose no legal move."""


def is_policy_spec(text: str) -> bool:
    """Whether ``text`` names a policy (a file form or ``module:attribute``) rather
    than a level or a named bot.

    >>> is_policy_spec("models/ppo.zip"), is_policy_spec("mypkg.bots:policy"), is_policy_spec("9")
    (True, True, False)
    """
    return text.strip().lower().endswith(SUFFIXES) or ":" in text


def policy_name(spec: str) -> str:
    """The display name of a policy: a file's stem, or the ``module:attribute`` text.

    >>> policy_name("models/ppo.zip")
    'ppo'
    """
    text = spec.strip()
    if text.lower().endswith(SUFFIXES):
        return Path(text).stem
    return text


def _numpy() -> Any:
    """NumPy, which policies need (the ``rl`` extra)."""
    try:
        import numpy
    except ImportError:
        raise PolicyError("policies need NumPy: pip install numpy (the rl extra)") from None
    return numpy


# --- the levels and the named bots ----------------------------------------------------


@dataclass(frozen=True)
class BotFactory:
    """A maker of one kind of player: ``factory(seed)`` is a new one.

    Plain data, so that worker processes can be sent one. Made by :func:`bot_factory`.

    Attributes:
        name: its display name.
        spec: the player's spec, as :func:`bot_factory` takes it.
        movetime: seconds a move: the bots of the level scale (levels, ``perfect``,
            ``match``, ``noisy-E``, ``rating-R``) then search each move within that time on one
            thread, as the page and ``go movetime`` play them, instead of solving it.

    Example:
        >>> factory = bot_factory("9")
        >>> factory
        BotFactory(name='level-9', spec='9', movetime=None)
        >>> factory(1)
        LevelBot(level=9, seed=1)
    """

    name: str
    spec: str
    movetime: float | None = None

    def __call__(self, seed: int | None = None) -> Bot:
        text = self.spec
        if is_policy_spec(text):
            made = load_policy(text, seed)
            made.name = self.name
            return made
        settings: dict[str, Any] = {}
        if self.movetime is not None:
            settings = {"limits": Limits(time_limit=self.movetime), "threads": 1}
        levels = {"random": 1, "perfect": 9, "match": 10}
        if text.isdigit() or text in levels:
            return bot(levels.get(text) or int(text), seed, **settings)
        if text == "greedy":
            return GreedyBot()
        kind, _, argument = text.partition("-")
        if kind == "alphabeta":
            return AlphaBetaBot(int(argument))
        if kind == "rating":
            return bot(rating=float(argument), seed=seed, **settings)
        return noisy_bot(float(argument), seed, **settings)


def bot_factory(spec: str) -> BotFactory:
    """A maker of the player ``spec`` names (the forms above), checked now.

    Args:
        spec: a level, a named bot or a policy (loaded once to see that it plays);
            ``NAME=`` before it names the player.

    Raises:
        ValueError: if ``spec`` names no player (a :class:`PolicyError` for a policy
            that cannot play).

    Example:
        >>> bot_factory("greedy")
        BotFactory(name='greedy', spec='greedy', movetime=None)
    """
    name, sep, rest = spec.partition("=")
    if sep and name.strip() and not is_policy_spec(name):
        made = bot_factory(rest)
        return BotFactory(name.strip(), made.spec)
    if is_policy_spec(spec):
        text = spec.strip()
        load_policy(text)  # checks that it loads and plays
        return BotFactory(policy_name(text), text)
    text = spec.strip().lower()
    if text.isdigit():
        bot(int(text))  # the core checks the range
        return BotFactory(f"level-{int(text)}", str(int(text)))
    if text in ("random", "greedy", "perfect", "match"):
        return BotFactory(text, text)
    if text.partition("-")[0] in ("alphabeta", "noisy", "rating"):
        factory = BotFactory(text, text)
        try:
            factory(0)  # checks the number
        except ValueError as error:
            raise ValueError(f"bad bot '{spec}': {error}") from None
        return factory
    raise ValueError(
        f"unknown bot '{spec}': use a level 1 to 10, one of {', '.join(BOT_NAMES)}, "
        "or a policy (module:attribute, PATH.zip, PATH.onnx)"
    )


# --- player objects as functions of a position ---------------------------------------


def policy_view(position: Position) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.bool_]]:
    """What a policy sees of ``position``: the mover's observation, ``(N, N, 3)`` int8,
    and the legal piles as a bool array."""
    np = _numpy()
    n = sum(len(pile) for pile in position.piles)
    seen = encode_observation(position, position.to_move).reshape(n, n, 3)
    mask = np.zeros(n, bool)  # one a button
    mask[position.legal_moves()] = True
    return seen, mask


def first_legal(observation: npt.NDArray[np.int8], mask: npt.NDArray[np.bool_]) -> int:
    """The smallest policy: the first legal pile (an example of the policy form)."""
    return int(_numpy().flatnonzero(mask)[0])


def _parameters(function: Callable[..., Any]) -> int | None:
    """How many positional arguments ``function`` needs (``None`` when unknown)."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return None
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return sum(
        1
        for p in signature.parameters.values()
        if p.kind in kinds and p.default is inspect.Parameter.empty
    )


def _best_legal(scores: Any, mask: npt.NDArray[np.bool_]) -> int:
    """The legal pile of the highest score (the first of equal ones)."""
    np = _numpy()
    values = np.asarray(scores, dtype=np.float64).reshape(-1)
    if values.shape != mask.shape:
        raise PolicyError(f"the policy gave {values.size} scores for {mask.size} piles")
    return int(np.argmax(np.where(mask, values, -np.inf)))


def sb3_logits(policy: Any, observations: Any) -> npt.NDArray[np.float32]:
    """The action logits of an SB3 policy (one with ``get_distribution``) for
    ``observations`` (one, or a batch), ``(B, N)``, without gradients."""
    import torch

    tensor, _ = policy.obs_to_tensor(observations)
    with torch.no_grad():
        logits: npt.NDArray[np.float32] = (
            policy.get_distribution(tensor).distribution.logits.cpu().numpy()
        )
    return logits


def _sb3_chooser(model: Any) -> Chooser:
    """An SB3 model as a chooser: the legal pile of the policy's highest logit when the
    model's policy has a categorical distribution (so an unmasked PPO plays legally
    too), else ``predict`` (with the mask when the model takes one)."""
    policy = getattr(model, "policy", None)
    if policy is not None and hasattr(policy, "get_distribution"):

        def by_logits(position: Position) -> int:
            seen, mask = policy_view(position)
            return _best_legal(sb3_logits(policy, seen), mask)

        return by_logits
    masked = "action_masks" in inspect.signature(model.predict).parameters

    def by_predict(position: Position) -> int:
        seen, mask = policy_view(position)
        extra = {"action_masks": mask} if masked else {}
        action, _ = model.predict(seen, deterministic=True, **extra)
        return int(_numpy().asarray(action).reshape(-1)[0])

    return by_predict


def _openspiel_chooser(player: Any) -> Chooser:
    import pyspiel

    import buttonup.envs.openspiel  # noqa: F401 (registers the game)

    def choose(position: Position) -> int:
        game = pyspiel.load_game("python_button_up", {"start": str(position)})
        return int(player.step(game.new_initial_state()))

    return choose


def chooser(player: Any, *, seed: int | None = None) -> Chooser:
    """``player``, any player object (the forms above), as a function of a position.

    Args:
        player: a level, a bot, a policy spec, a callable of a position, a policy of
            ``(observation, mask)``, a Stable-Baselines3 model or an OpenSpiel bot.
        seed: the seed a level's bot draws from.

    Raises:
        TypeError: if ``player`` is none of these (the message names the forms).

    Example:
        >>> from buttonup import Position
        >>> chooser(9)(Position("W/R/B/W/B/R/R/W/B r"))
        3
        >>> chooser(first_legal)(Position("W/R/B/W/B/R/R/W/B r"))
        0
    """
    if isinstance(player, int) and not isinstance(player, bool):
        return bot(player, seed=seed).choose
    if isinstance(player, str):
        return load_policy(player, seed).choose
    return _object_chooser(player)


def _object_chooser(player: Any) -> Chooser:
    """A player object other than a level or a spec, as a function of a position."""
    if hasattr(player, "choose"):
        return player.choose  # type: ignore[no-any-return]
    if hasattr(player, "predict"):
        return _sb3_chooser(player)
    if hasattr(player, "step") and not callable(player):
        return _openspiel_chooser(player)
    if callable(player):
        arity = _parameters(player)
        if arity == 1:
            return player  # type: ignore[no-any-return]
        if arity == 2:
            return lambda position: int(player(*policy_view(position)))
        raise TypeError(
            f"a callable player takes a position, or an observation and a mask: "
            f"{player!r} takes {arity} arguments"
        )
    raise TypeError(
        "a player is a level (1 to 10), a bot (with choose), a policy spec, a callable of "
        "a position, a policy of (observation, mask), a Stable-Baselines3 model or an "
        f"OpenSpiel bot, not {player!r}"
    )


# --- policies --------------------------------------------------------------------------


class PolicyBot:
    """A policy as a bot (``choose(position, match=None)``, ``choose_starter(match)``):
    what :func:`load_policy` makes. A move the policy gives that is not legal is a
    :class:`PolicyError`. It chooses to start a battle itself."""

    def __init__(self, name: str, choose: Chooser) -> None:
        self.name = name
        self._choose = choose
        self.last_random = False

    def choose(self, position: Position, match: Match | None = None) -> int:
        """The policy's move, checked.

        Args:
            position: the position to move in.
            match: ignored.

        Raises:
            PolicyError: if the policy fails (whatever it raised, named in the message)
                or answers no legal move.
        """
        try:
            move = self._choose(position)
        except Exception as error:  # the policy's own fault, not the caller's
            raise PolicyError(
                f"policy {self.name} failed on {position}: {type(error).__name__}: "
                + " ".join(str(error).split())
            ) from error
        try:
            move = int(move)
        except (TypeError, ValueError):
            raise PolicyError(f"policy {self.name} chose {move!r}, not a pile") from None
        if move not in position.legal_moves():
            raise PolicyError(
                f"policy {self.name} chose pile {move}, not a legal move of {position}"
            )
        return move

    def choose_starter(self, match: Match) -> Player:
        """Itself."""
        chooser = match.chooser
        return chooser if chooser is not None else match.to_move

    def __repr__(self) -> str:
        return f"PolicyBot({self.name!r})"


# Loaded files by resolved path and modification time: a tournament makes a bot a match.
_LOADED: dict[tuple[str, int], Chooser] = {}


def _file(text: str) -> Path:
    path = Path(text).expanduser()
    if not path.is_file():
        raise PolicyError(f"no policy file {text}")
    return path


def _load_sb3(path: Path) -> Chooser:
    try:
        from stable_baselines3 import PPO
    except ImportError:
        raise PolicyError(
            f"{path} is a Stable-Baselines3 model: install stable-baselines3 and "
            "sb3-contrib (buttonup's sb3 extra)"
        ) from None
    loaders: list[Any] = []
    try:
        from sb3_contrib import MaskablePPO

        loaders.append(MaskablePPO)
    except ImportError:
        pass
    loaders.append(PPO)
    failures = []
    for kind in loaders:
        try:
            model = kind.load(str(path), device="cpu")
        except Exception as error:  # the next kind may read it
            failures.append(f"{kind.__name__}: {error}")
            continue
        return _sb3_chooser(model)
    raise PolicyError(f"cannot load {path} as MaskablePPO or PPO: {'; '.join(failures)}")


#: The NumPy types of ONNX's tensor types.
_ONNX_TYPES = {
    "tensor(float)": "float32",
    "tensor(double)": "float64",
    "tensor(int8)": "int8",
    "tensor(int32)": "int32",
    "tensor(int64)": "int64",
    "tensor(bool)": "bool",
}


def _load_onnx(path: Path) -> Chooser:
    np = _numpy()
    try:
        import onnxruntime
    except ImportError:
        raise PolicyError(
            f"{path} is an ONNX model: install onnxruntime (buttonup's onnx extra)"
        ) from None
    try:
        session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    except Exception as error:  # onnxruntime's have no common base
        raise PolicyError(f"cannot load {path} as ONNX: {error}") from None
    inputs = session.get_inputs()
    if not 1 <= len(inputs) <= 2:
        raise PolicyError(f"{path} takes {len(inputs)} inputs: an ONNX policy takes 1 or 2")

    def fed(value: npt.NDArray[Any], spec: Any) -> npt.NDArray[Any]:
        shape = [1, -1] if len(spec.shape) == 2 else [1, *value.shape]
        kind = _ONNX_TYPES.get(spec.type, "float32")
        fed_value: npt.NDArray[Any] = np.asarray(value, dtype=kind).reshape(shape)
        return fed_value

    def choose(position: Position) -> int:
        seen, mask = policy_view(position)
        feed = {inputs[0].name: fed(seen, inputs[0])}
        if len(inputs) == 2:
            feed[inputs[1].name] = fed(mask, inputs[1]).reshape(1, -1)
        output = np.asarray(session.run(None, feed)[0])
        if output.size == 1:
            return int(output.reshape(-1)[0])
        return _best_legal(output, mask)

    return choose


def _load_file(text: str) -> Chooser:
    path = _file(text)
    key = (str(path.resolve()), path.stat().st_mtime_ns)
    if key not in _LOADED:
        load = _load_onnx if text.lower().endswith(".onnx") else _load_sb3
        _LOADED[key] = load(path)
    return _LOADED[key]


def _load_attribute(text: str, seed: int | None) -> Chooser:
    module_name, _, attribute = text.partition(":")
    if not module_name or not attribute:
        raise PolicyError(f"bad policy '{text}': write module:attribute, PATH.zip or PATH.onnx")
    try:
        found: Any = importlib.import_module(module_name)
    except ImportError as error:
        raise PolicyError(f"policy '{text}': cannot import {module_name}: {error}") from None
    for part in attribute.split("."):
        try:
            found = getattr(found, part)
        except AttributeError:
            raise PolicyError(f"policy '{text}': {module_name} has no {attribute}") from None
    factory = inspect.isclass(found) or not hasattr(found, "choose")
    if callable(found) and factory and _parameters(found) == 0:
        takes_seed = "seed" in inspect.signature(found).parameters
        found = found(seed=seed) if takes_seed else found()
    try:
        return _object_chooser(found)
    except TypeError as error:
        raise PolicyError(f"policy '{text}': {error}") from None


def load_policy(spec: str, seed: int | None = None) -> PolicyBot:
    """The bot that plays the policy ``spec``.

    Args:
        spec: the policy, in the forms above; ``NAME=`` before it names the bot.
        seed: goes to a factory that takes one.

    Raises:
        PolicyError: if ``spec`` names no policy that can play.
    """
    name, sep, rest = spec.partition("=")
    if sep and name.strip() and not is_policy_spec(name):
        text, shown = rest.strip(), name.strip()
    else:
        text, shown = spec.strip(), policy_name(spec)
    if not is_policy_spec(text):
        raise PolicyError(f"bad policy '{spec}': write module:attribute, PATH.zip or PATH.onnx")
    if text.lower().endswith(SUFFIXES):
        return PolicyBot(shown, _load_file(text))
    return PolicyBot(shown, _load_attribute(text, seed))
