"""RL environment benchmark: environment steps per second for each game, beside the bare engine.

    python bench/rl.py            # the full run (about half a minute)
    python bench/rl.py --quick    # a short run

Three contenders play the same hands with the same random policy: at every
decision, a move drawn uniformly from those the action mask allows
(:func:`pokerhouse.rl.actions.legal_moves`), every hand dealt afresh from a
seeded deck and played to its end, 100 chips a seat.

* ``env``: :func:`pokerhouse.rl.env`, the wrapped environment, driven the way
  PettingZoo documents (``agent_iter``, ``last``, ``step``): each decision
  encodes the acting seat's observation and mask, and every agent steps out
  with ``None`` at the hand's end.
* ``raw env``: :func:`pokerhouse.rl.raw_env`, the same loop without PettingZoo's
  wrappers.
* ``bare``: the engine alone (``games.new_hand``, ``Hand.act``), the moves drawn
  from the same list, no observation built.

A step is one decision (a terminated agent's ``None`` step is not counted,
though its time is). The contenders run in interleaved rounds and each keeps
its best round, in CPU seconds of this process, so a busy machine slows them
alike. Printed: steps per second and the environment's speed as a fraction of
the bare engine's.
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from pokerhouse.cards import Deck
from pokerhouse.games import new_hand
from pokerhouse.rl import env, raw_env
from pokerhouse.rl.actions import legal_moves, to_action

#: Seats per game: three at the pot games, one box against the house.
SEATS = {"3x4": 3, "razz": 3, "teen-patti": 3, "casino-holdem": 1}
STACK = 100


def play_env(table: Any, hands: int, seed: int) -> int:
    """Random masked moves through an AEC environment (wrapped or not); the steps taken."""
    rng = random.Random(seed)
    steps = 0
    reset, agent_iter, last, step = table.reset, table.agent_iter, table.last, table.step
    reset(seed=seed)
    for hand in range(hands):
        if hand:
            reset()
        for _ in agent_iter():
            observation, _, terminated, truncated, _ = last()
            if terminated or truncated:
                step(None)
                continue
            step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
            steps += 1
    return steps


def play_bare(game: str, hands: int, seed: int) -> int:
    """The same policy on the engine alone; the steps taken."""
    rng = random.Random(seed)
    deals = random.Random(seed)
    stacks = [STACK] * SEATS[game]
    steps = 0
    for _ in range(hands):
        hand = new_hand(game, stacks, deck=Deck(random.Random(deals.getrandbits(64))))
        while not hand.is_over:
            hand.act(to_action(hand, rng.choice(legal_moves(hand))))
            steps += 1
    return steps


def contenders(game: str) -> dict[str, Callable[[int, int], int]]:
    """Each contender: hands and seed in, steps out."""
    seats = SEATS[game]
    return {
        "env": lambda hands, seed: play_env(env(game, players=seats), hands, seed),
        "raw env": lambda hands, seed: play_env(raw_env(game, players=seats), hands, seed),
        "bare": lambda hands, seed: play_bare(game, hands, seed),
    }


def measure(game: str, hands: int, rounds: int) -> dict[str, float]:
    """Best steps per second of each contender over interleaved rounds."""
    best: dict[str, float] = {}
    for round_number in range(rounds):
        for name, run in contenders(game).items():
            started = time.process_time()
            steps = run(hands, 1000 + round_number)
            seconds = time.process_time() - started
            best[name] = max(best.get(name, 0.0), steps / seconds)
    return best


def main() -> None:
    """Measure every game and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run")
    args = parser.parse_args()
    hands, rounds = (300, 2) if args.quick else (2000, 5)
    print(f"python {platform.python_version()}, {hands} hands a round, best of {rounds} rounds")
    print(f"{'game':<14} {'seats':>5} {'env/s':>9} {'raw env/s':>10} {'bare/s':>9} {'env/bare':>9}")
    for game, seats in SEATS.items():
        best = measure(game, hands, rounds)
        ratio = best["env"] / best["bare"]
        print(
            f"{game:<14} {seats:>5} {best['env']:>9.0f} {best['raw env']:>10.0f} "
            f"{best['bare']:>9.0f} {ratio:>9.2f}"
        )


if __name__ == "__main__":
    main()
