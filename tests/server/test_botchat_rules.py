"""What the house bots say, pure: when, to whom, and never two lines within the quiet time."""

from __future__ import annotations

import itertools
import random

from pokerhouse.server.table.bot_chat import PHRASES, QUIET_SECONDS, BotChat


def test_a_bot_beaten_at_a_showdown_by_a_person_may_say_nice_hand() -> None:
    said = []
    for seed in range(200):
        chat = BotChat(random.Random(seed))
        line = chat.showdown(["ada_bot"], winners=["ann"], losers=["ada_bot"], now=0.0)
        if line is not None:
            said.append(line)
    assert said and {name for name, _ in said} == {"ada_bot"}
    assert {phrase for _, phrase in said} == {"nice_hand", "well_played"}
    assert 0.2 < len(said) / 200 < 0.4  # about three times in ten


def test_nobody_speaks_for_a_pot_without_a_bot_beaten_or_winning() -> None:
    chat = BotChat(random.Random(1), quiet=0.0)
    for now in range(100):
        assert chat.showdown(["ada_bot"], winners=["ann"], losers=["bob"], now=float(now)) is None
        assert chat.showdown(["ada_bot"], winners=["ada_bot"], losers=[], now=float(now)) is None


def test_the_table_s_bots_keep_quiet_between_lines() -> None:
    chat = BotChat(random.Random(3))
    times = []
    for second in range(0, 3600, 5):
        line = chat.sat(f"bot{second}", now=float(second))
        if line is not None:
            assert line[1] in PHRASES
            times.append(second)
    assert len(times) >= 10
    assert all(b - a >= QUIET_SECONDS for a, b in itertools.pairwise(times))
