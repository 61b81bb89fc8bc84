"""Learning environments: a PettingZoo AEC environment for each game (``pokerhouse[rl]``).

>>> game = env("teen-patti", players=3)
>>> game.reset(seed=1)
>>> game.agent_selection
'player_0'
>>> [raw_env("3x4").moves[i].label for i in range(3)]
['fold', 'check', 'call']

See docs/rl.md for the spaces, the observation layout and the move lists.
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as missing:  # pragma: no cover - only without the extra
    raise ImportError(
        f"pokerhouse.rl needs pettingzoo and gymnasium ({missing.name} is missing): "
        "install pokerhouse[rl]"
    ) from missing

from typing import Any

from pettingzoo.utils import wrappers

from pokerhouse.rl.actions import MOVES, Move
from pokerhouse.rl.encoding import Encoder
from pokerhouse.rl.env import PokerEnv


def raw_env(game: str, **options: Any) -> PokerEnv:
    """The bare environment of ``game`` (see :class:`PokerEnv` for the options)."""
    return PokerEnv(game, **options)


def env(game: str, **options: Any) -> Any:
    """The environment of ``game`` wrapped as PettingZoo advises: an action outside the
    space is refused, and so are steps out of order (before a reset, say)."""
    wrapped: Any = wrappers.AssertOutOfBoundsWrapper(raw_env(game, **options))
    return wrappers.OrderEnforcingWrapper(wrapped)


__all__ = ["MOVES", "Encoder", "Move", "PokerEnv", "env", "raw_env"]
