"""The PettingZoo AEC environment: one hand of a game per episode, driven by the real engine.

Agents are ``player_0`` ... ``player_{n-1}``, seat for seat (seat ``n - 1``
holds the button). Each agent observes a dict: ``"observation"``, the
:class:`~pokerhouse.rl.encoding.Encoder` vector of what its seat may see, and
``"action_mask"``, ``1`` for each move of :data:`~pokerhouse.rl.actions.MOVES`
it may take now (all ``0`` when it is not its turn). At the hand's end every
agent gets its chip result as its reward and is terminated. Casino Hold'em
has no house agent: each agent is a box, and the house's chips are the other
side of its rewards.

>>> game = PokerEnv("razz", players=3)
>>> game.reset(seed=7)
>>> mask = game.observe(game.agent_selection)["action_mask"]
>>> game.agent_selection, [move.label for move, allowed in zip(game.moves, mask) if allowed]
('player_1', ['bring_in', 'complete'])
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from pokerhouse.cards import Deck
from pokerhouse.engine.hand import Hand
from pokerhouse.errors import IllegalAction, InvalidSpec
from pokerhouse.games import get_game, new_hand
from pokerhouse.rl.actions import MOVES, legal_moves, to_action
from pokerhouse.rl.encoding import Encoder

Observation = dict[str, npt.NDArray[Any]]

#: A new hand's default stack for every seat.
DEFAULT_STACK = 100


# pettingzoo ships no type hints, so AECEnv is Any to mypy; subclassing it is still the
# documented way to build an AEC environment.
class PokerEnv(AECEnv[str, Observation, int | None]):  # type: ignore[misc]
    """A hand of ``game`` as an AEC environment.

    ``players`` seats (default 2; 1 box in Casino Hold'em) each start every
    hand with ``stack`` chips (or ``stacks``, one per seat); ``options`` are
    the game's table options (its spec, e.g. ``{"limit": "pot-limit"}``);
    ``bonus`` is the AA Bonus every Casino Hold'em box bets beside its ante
    (default none; the ante is the table minimum, ``options={"min_ante": ...}``).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "pokerhouse_v0",
    }

    def __init__(
        self,
        game: str,
        *,
        players: int | None = None,
        stack: int = DEFAULT_STACK,
        stacks: Sequence[int] | None = None,
        options: dict[str, Any] | None = None,
        bonus: int = 0,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        info = get_game(game)
        self.game = info.name
        self.spec = info.spec(**dict(options or {}))
        seats = players if players is not None else (1 if info.banked else 2)
        if stacks is None:
            stacks = [stack] * seats if isinstance(seats, int) else []
        self.stacks = _checked_stacks(stacks, seats, info.min_players, info.max_players)
        self.bonus = bonus
        self._hand_options = _hand_options(info.banked, self.spec, len(self.stacks), bonus)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidSpec(
                "bad_render_mode", f"render_mode must be human or ansi, not {render_mode!r}"
            )
        self.render_mode = render_mode
        count = len(self.stacks)
        self.possible_agents = [f"player_{seat}" for seat in range(count)]
        self.agents = list(self.possible_agents)
        self.encoder = Encoder(self.game, count, chip_scale=sum(self.stacks))
        self.moves = MOVES[self.game]
        observation = spaces.Dict(
            {
                "observation": spaces.Box(0.0, self.encoder.high, dtype=np.float32),
                "action_mask": spaces.MultiBinary(len(self.moves)),
            }
        )
        action = spaces.Discrete(len(self.moves))
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self.action_spaces = dict.fromkeys(self.possible_agents, action)
        self._rng = random.Random()
        self._hand: Hand | None = None
        self._legal_key: int | None = None
        self._legal: list[int] = []

    # ------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's observation space: a dict of ``observation`` and ``action_mask``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's action space: ``Discrete`` over the game's move list."""
        return self.action_spaces[agent]

    @property
    def hand(self) -> Hand:
        """The engine's hand being played (raises before the first :meth:`reset`)."""
        if self._hand is None:
            raise IllegalAction("not_reset", "call reset() before playing")
        return self._hand

    # ------------------------------------------------------------ the episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand. ``seed`` restarts the dealing RNG (the same seed, the same hands);
        ``options={"deck": order}`` deals from an exact order of the 52 cards instead."""
        if seed is not None:
            self._rng = random.Random(seed)
        self._legal_key = None
        deck = _deck(options, random.Random(self._rng.getrandbits(64)))
        self._hand = hand = new_hand(
            self.game, self.stacks, spec=self.spec, deck=deck, **self._hand_options
        )
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[0]
        self._after_move(hand)

    def step(self, action: int | None) -> None:
        """Take move ``action`` for the selected agent (``None`` for a terminated one)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        hand = self.hand
        index = _move_index(action, len(self.moves))
        if index not in self._legal_now(hand):
            raise IllegalAction(
                "masked_move",
                f"{agent} may not {self.moves[index].label} now (the action mask is 0 there)",
            )
        hand.act(to_action(hand, index))
        self._cumulative_rewards[agent] = 0.0
        self._after_move(hand)

    def _after_move(self, hand: Hand) -> None:
        """Select the seat to act, or settle every agent at the hand's end."""
        if hand.is_over:
            for agent, net in zip(self.agents, hand.results(), strict=True):
                self.rewards[agent] = float(net)
                self.terminations[agent] = True
        else:
            assert hand.to_act is not None
            self.agent_selection = self.possible_agents[hand.to_act]
        self._accumulate_rewards()

    def observe(self, agent: str) -> Observation:
        """What ``agent``'s seat may see now, and its action mask."""
        seat = self.possible_agents.index(agent)
        hand = self.hand
        mask = np.zeros(len(self.moves), dtype=np.int8)
        if hand.to_act == seat and not hand.is_over:
            mask[self._legal_now(hand)] = 1
        return {"observation": self.encoder.encode(hand, seat), "action_mask": mask}

    def _legal_now(self, hand: Hand) -> list[int]:
        """:func:`legal_moves` of the decision now, worked out once for the mask and the step."""
        key = len(hand.actions)  # a new hand clears the key (reset)
        if self._legal_key != key:
            self._legal_key = key
            self._legal = legal_moves(hand)
        return self._legal

    def render(self) -> str | None:
        """The table as a spectator sees it (``ansi`` returns it, ``human`` prints it)."""
        if self.render_mode is None:
            return None
        view = self.hand.view(None)
        board = " ".join(str(card) for card in view.board) or "-"
        lines = [f"{self.game} {view.street or ''} board {board} pot {view.pot}".strip()]
        for seat, agent in enumerate(self.possible_agents):
            shown = " ".join(str(card) if card is not None else "??" for card in view.cards[seat])
            state = "folded" if view.folded[seat] else ("to act" if view.to_act == seat else "")
            lines.append(f"  {agent}: {view.stacks[seat]} chips  {shown}  {state}".rstrip())
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the engine holds no resources."""


def _checked_stacks(stacks: object, seats: object, least: int, most: int) -> tuple[int, ...]:
    if type(seats) is not int or not least <= seats <= most:
        raise InvalidSpec("player_count", f"players must be {least} to {most}, not {seats!r}")
    if not isinstance(stacks, Sequence) or len(stacks) != seats:
        raise InvalidSpec("bad_stack", f"give one stack per seat ({seats}), not {stacks!r}")
    for chips in stacks:
        if type(chips) is not int or chips < 1:
            raise InvalidSpec(
                "bad_stack", f"a stack is a whole number of chips >= 1, not {chips!r}"
            )
    return tuple(stacks)


def _hand_options(banked: bool, spec: Any, seats: int, bonus: object) -> dict[str, Any]:
    """A Casino Hold'em box's bets (each checked by the table's rules); nothing elsewhere."""
    if not banked:
        if bonus != 0:
            raise InvalidSpec("bad_option", "only Casino Hold'em takes a bonus bet")
        return {}
    ante = spec.default_ante
    spec.check_wager(ante, bonus)
    return {"antes": [ante] * seats, "bonuses": [bonus] * seats}


def _deck(options: dict[str, Any] | None, rng: random.Random) -> Deck:
    """A deck shuffled by ``rng``, or in the order ``options["deck"]`` gives (``rng`` then
    shuffles only what a rule reshuffles later)."""
    given = (options or {}).get("deck")
    if given is None:
        return Deck(rng)
    order = tuple(given)
    if sorted(order) != list(range(52)) or not all(isinstance(card, int) for card in order):
        raise InvalidSpec("bad_deck", "a deck is an order of the 52 card indices 0 to 51")
    return Deck.from_order(order, rng=rng)


def _move_index(action: object, count: int) -> int:
    if isinstance(action, np.integer):
        action = int(action)
    if type(action) is not int or not 0 <= action < count:
        raise IllegalAction("bad_move", f"a move is an index 0 to {count - 1}, not {action!r}")
    return action
