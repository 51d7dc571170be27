"""How a text names a policy (:mod:`buttonup.envs.policies` loads it): a file form,
``PATH.zip`` or ``PATH.onnx``, or ``module:attribute``. Read by
:func:`buttonup.ai.bot_factory` without importing NumPy.

>>> is_policy_spec("models/ppo.zip"), is_policy_spec("mypkg.bots:policy"), is_policy_spec("9")
(True, True, False)
>>> policy_name("models/ppo.zip")
'ppo'
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["SUFFIXES", "is_policy_spec", "policy_name"]

#: What the file forms end with (in any case).
SUFFIXES = (".zip", ".onnx")


def is_policy_spec(text: str) -> bool:
    """Whether ``text`` names a policy (a file form or ``module:attribute``) rather
    than a level or a named bot."""
    return text.strip().lower().endswith(SUFFIXES) or ":" in text


def policy_name(spec: str) -> str:
    """The display name of a policy: a file's stem, or the ``module:attribute`` text."""
    text = spec.strip()
    if text.lower().endswith(SUFFIXES):
        return Path(text).stem
    return text
