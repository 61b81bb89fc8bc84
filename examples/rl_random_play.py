"""Random play through the RL environment: masked random moves for a few thousand hands.

Trains nothing: it shows the loop a learner runs (observe, pick a move the
mask allows, step) and how fast the environment goes::

    python examples/rl_random_play.py razz --hands 2000 --players 3

It prints the hands and steps played, the steps per second and each agent's
average reward (chips per hand). Bad arguments give
``rl_random_play: error: <message> [<code>]`` and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

import numpy as np

from pokerhouse.errors import InvalidSpec, PokerError
from pokerhouse.rl import env as make_env


def play(
    game: str, hands: int, players: int | None, seed: int
) -> tuple[int, float, dict[str, float]]:
    """Play ``hands`` hands of random legal moves; the steps taken, the seconds and the
    total reward of each agent."""
    table = make_env(game, players=players)
    choose = np.random.default_rng(seed)
    totals = dict.fromkeys(table.possible_agents, 0.0)
    steps = 0
    started = time.perf_counter()
    for hand in range(hands):
        table.reset(seed=seed if hand == 0 else None)
        for agent in table.agent_iter():
            observation, reward, terminated, truncated, _ = table.last()
            if terminated or truncated:
                totals[agent] += reward
                move = None
            else:
                move = int(choose.choice(np.flatnonzero(observation["action_mask"])))
                steps += 1
            table.step(move)
    return steps, time.perf_counter() - started, totals


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line, play, and print the figures."""
    parser = argparse.ArgumentParser(prog="rl_random_play", description=__doc__.splitlines()[0])
    parser.add_argument("game", help="3x4, razz, teen-patti or casino-holdem")
    parser.add_argument("--hands", type=int, default=2000, help="hands to play (default 2000)")
    parser.add_argument("--players", type=int, default=None, help="seats (default: the game's)")
    parser.add_argument("--seed", type=int, default=1, help="dealing and choosing seed")
    args = parser.parse_args(argv)
    try:
        if args.hands < 1:
            raise InvalidSpec("bad_hands", f"--hands must be at least 1, not {args.hands}")
        steps, seconds, totals = play(args.game, args.hands, args.players, args.seed)
    except PokerError as error:
        print(f"rl_random_play: error: {error} [{error.code}]", file=sys.stderr)
        return 2
    print(f"game {args.game}: {args.hands} hands, {steps} steps in {seconds:.2f} s")
    print(f"steps/s {steps / seconds:.0f}")
    for agent, total in totals.items():
        print(f"average reward {agent} {total / args.hands:+.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
