"""The RL environment: PettingZoo's API test, masks against the engine, hidden cards, seeds."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test

from pokerhouse.errors import IllegalAction, InvalidSpec
from pokerhouse.rl import MOVES, PokerEnv, env, raw_env
from pokerhouse.rl.actions import legal_moves, to_action

GAMES = ("3x4", "razz", "teen-patti", "casino-holdem")
POT_GAMES = ("3x4", "razz", "teen-patti")
#: Seats for each game in the property tests: enough for side pots and boxes side by side.
SEATS = {"3x4": 3, "razz": 4, "teen-patti": 3, "casino-holdem": 2}
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rl_random_play.py"
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def random_move(table: PokerEnv, agent: str, rng: random.Random) -> int:
    mask = table.observe(agent)["action_mask"]
    return rng.choice([int(i) for i in np.flatnonzero(mask)])


def play(table: PokerEnv, seed: int, moves: int | None = None) -> list[tuple[str, int]]:
    """Random masked moves from a fresh hand, to the end or for ``moves`` moves."""
    rng = random.Random(seed)
    taken: list[tuple[str, int]] = []
    while not table.hand.is_over and (moves is None or len(taken) < moves):
        agent = table.agent_selection
        move = random_move(table, agent, rng)
        taken.append((agent, move))
        table.step(move)
    return taken


# The api test nudges toward a bare Box observation; a dict of the observation and its
# action mask is PettingZoo's own pattern for masked moves (its classic games use it).
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [None, 3])
def test_pettingzoo_api_test_passes(game: str, players: int | None) -> None:
    api_test(env(game, players=players), num_cycles=300)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=100, deadline=None)
@given(seed=seeds)
def test_random_hands_end_with_chip_rewards(game: str, seed: int) -> None:
    table = raw_env(game, players=SEATS[game], stacks=[40, 100, 70, 100][: SEATS[game]])
    table.reset(seed=seed)
    play(table, seed)
    results = table.hand.results()
    assert all(table.terminations.values())
    assert [table._cumulative_rewards[a] for a in table.agents] == [float(r) for r in results]
    for agent in table.agent_iter():
        _, reward, terminated, _, _ = table.last()
        assert terminated
        assert reward == results[table.possible_agents.index(agent)]
        table.step(None)
    assert table.agents == []
    if game in POT_GAMES:
        assert sum(results) == 0  # no rake: every chip lost is won at the table
    else:
        assert sum(results) == -table.hand.view(None).house_result  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=100, deadline=None)
@given(seed=seeds)
def test_action_mask_is_the_engines_legal_actions(game: str, seed: int) -> None:
    table = raw_env(game, players=SEATS[game])
    table.reset(seed=seed)
    rng = random.Random(seed)
    while not table.hand.is_over:
        hand = table.hand
        agent = table.agent_selection
        assert agent == f"player_{hand.to_act}"
        mask = table.observe(agent)["action_mask"]
        allowed = [int(i) for i in np.flatnonzero(mask)]
        assert allowed == legal_moves(hand)
        legal = hand.legal_actions()
        actions = [to_action(hand, i) for i in allowed]
        for action in actions:
            assert legal.check(action) == action
        assert len(set(actions)) == len(actions)  # no two moves are one action
        # Every kind on offer is reachable, a sized one at both ends of its range.
        for offered in legal:
            reachable = {a.amount for a in actions if a.kind is offered.kind}
            assert reachable
            if offered.min_amount is not None:
                assert {offered.min_amount, offered.max_amount} <= reachable
        for other in table.possible_agents:
            if other != agent:
                assert not table.observe(other)["action_mask"].any()
        table.step(rng.choice(allowed))


def visible_cards(table: PokerEnv, seat: int) -> set[int]:
    view = table.hand.view(seat)
    seen: set[int] = {card for cards in view.cards for card in cards if card is not None}
    seen.update(view.board)
    seen.update(card for card in getattr(view, "dealer_cards", ()) if card is not None)
    return seen


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=100, deadline=None)
@given(seed=seeds, moves=st.integers(min_value=0, max_value=12), shuffle=seeds)
def test_observation_never_shows_a_hidden_card(
    game: str, seed: int, moves: int, shuffle: int
) -> None:
    table = raw_env(game, players=SEATS[game])
    order = list(random.Random(seed).sample(range(52), 52))
    table.reset(seed=seed, options={"deck": order})
    taken = play(table, seed, moves)
    if table.hand.is_over:
        return
    agent = table.agent_selection
    seat = table.possible_agents.index(agent)
    before = table.observe(agent)
    # Shuffle every card the seat cannot see (others' hole cards, the dealer's, burns,
    # the stub) among their places in the deck; the cards it can see stay where they are.
    visible = visible_cards(table, seat)
    hidden_places = [i for i, card in enumerate(order) if card not in visible]
    assert len(hidden_places) >= 52 - len(visible)
    hidden = [order[i] for i in hidden_places]
    random.Random(shuffle).shuffle(hidden)
    changed = list(order)
    for place, card in zip(hidden_places, hidden, strict=True):
        changed[place] = card
    table.reset(seed=seed, options={"deck": changed})
    for acting, move in taken:
        assert table.agent_selection == acting
        table.step(move)
    assert table.agent_selection == agent
    after = table.observe(agent)
    np.testing.assert_array_equal(after["observation"], before["observation"])
    np.testing.assert_array_equal(after["action_mask"], before["action_mask"])


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_trajectory(game: str) -> None:
    def trajectory(seed: int) -> list[Any]:
        table = raw_env(game, players=SEATS[game])
        table.reset(seed=seed)
        steps: list[Any] = []
        for hand in range(20):
            if hand:
                table.reset()
            for agent, move in play(table, seed + hand):
                steps.append((agent, move))
            steps.append(table.hand.results())
            steps.append(table.observe("player_0")["observation"].tobytes())
        return steps

    assert trajectory(11) == trajectory(11)
    assert trajectory(11) != trajectory(12)


def test_own_cards_are_observed_and_the_layout_covers_the_vector() -> None:
    table = raw_env("3x4", players=2)
    table.reset(seed=5)
    vector = table.observe("player_0")["observation"]
    own = np.flatnonzero(vector[:52])
    hole = [card for card in table.hand.own_cards(0)[0] if card is not None]
    assert len(hole) == 3 and sorted(own) == sorted(hole)
    assert not vector[52:104].any()  # the other seat's hole cards are face down
    layout = table.encoder.layout()
    assert layout[-1][1] + layout[-1][2] == vector.shape[0] == table.encoder.size


def test_teen_patti_blind_player_sees_own_cards_only_after_looking() -> None:
    table = raw_env("teen-patti", players=2)
    table.reset(seed=3)
    start, length = dict((n, (s, k)) for n, s, k in table.encoder.layout())["seen"]
    blind = table.observe("player_0")["observation"]
    assert not blind[:52].any()
    assert not blind[start : start + length].any()
    table.step(MOVES["teen-patti"].index(next(m for m in MOVES["teen-patti"] if m.label == "look")))
    seen = table.observe("player_0")["observation"]
    assert seen[:52].sum() == 3
    assert seen[start] == 1.0


def test_casino_holdem_dealer_cards_stay_hidden_until_the_end() -> None:
    table = raw_env("casino-holdem")
    table.reset(seed=2)
    dealer_plane = slice(52 * 2, 52 * 3)
    assert table.observe("player_0")["observation"][:52].sum() == 2
    assert not table.observe("player_0")["observation"][dealer_plane].any()
    table.step(
        MOVES["casino-holdem"].index(next(m for m in MOVES["casino-holdem"] if m.label == "call"))
    )
    assert table.observe("player_0")["observation"][dealer_plane].sum() == 2


def test_bad_input_is_refused_with_a_code() -> None:
    with pytest.raises(InvalidSpec) as unknown:
        raw_env("poker")
    assert unknown.value.code == "unknown_game"
    with pytest.raises(InvalidSpec) as seats:
        raw_env("razz", players=9)
    assert seats.value.code == "player_count"
    with pytest.raises(InvalidSpec) as stacks:
        raw_env("3x4", stacks=[100, 0])
    assert stacks.value.code == "bad_stack"
    with pytest.raises(InvalidSpec) as bonus:
        raw_env("3x4", bonus=5)
    assert bonus.value.code == "bad_option"
    table = raw_env("3x4")
    with pytest.raises(IllegalAction):
        table.observe("player_0")  # before reset
    with pytest.raises(InvalidSpec) as deck:
        table.reset(options={"deck": [0] * 52})
    assert deck.value.code == "bad_deck"
    table.reset(seed=1)
    raise_pot = [m.label for m in MOVES["3x4"]].index("raise_pot")
    with pytest.raises(IllegalAction) as masked:
        table.step(raise_pot)  # nobody has bet: no raise
    assert masked.value.code == "masked_move"
    assert table.hand.actions == []


def test_render_shows_no_hole_cards() -> None:
    table = raw_env("3x4", players=2, render_mode="ansi")
    table.reset(seed=4)
    text = table.render()
    assert text is not None and "player_1" in text
    for card in table.hand.view(0).cards[0]:
        assert str(card) not in text.split("board")[1]


def test_example_plays_random_hands() -> None:
    result = subprocess.run(
        [sys.executable, str(EXAMPLE), "razz", "--hands", "30", "--players", "3"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("game razz: 30 hands, ")
    steps = int(lines[0].split(", ")[1].split()[0])
    assert steps >= 30
    assert float(lines[1].split()[1]) > 0
    rewards = [float(line.split()[-1]) for line in lines[2:]]
    assert len(rewards) == 3 and abs(sum(rewards)) < 0.01
    bad = subprocess.run(
        [sys.executable, str(EXAMPLE), "poker", "--hands", "3"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert bad.returncode == 2
    assert bad.stderr.strip().endswith("[unknown_game]")


def test_a_hand_over_at_the_deal_ends_the_episode_at_once() -> None:
    table = env("3x4", stacks=[1, 1])  # the antes put both seats all-in
    table.reset(seed=3)
    rewards = {}
    for agent in table.agent_iter():
        _, reward, terminated, _, _ = table.last()
        assert terminated
        rewards[agent] = reward
        table.step(None)
    assert sorted(rewards.values()) == [-1.0, 1.0]


def test_import_without_pettingzoo_says_to_install_the_extra() -> None:
    blocked = "import sys; sys.modules['pettingzoo'] = None; import pokerhouse.rl"
    result = subprocess.run(
        [sys.executable, "-c", blocked], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode != 0
    assert "ImportError" in result.stderr and "install pokerhouse[rl]" in result.stderr
