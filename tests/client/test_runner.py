"""Bots written with the client library play a real ``pokerhouse serve`` over websockets."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import signal
import subprocess
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import websockets

from pokerhouse.bots import RandomBot
from pokerhouse.bots.loading import load_bot
from pokerhouse.client import BotRunner, BotStopped, HandPlayed, RunSummary
from tests.client.room import GAME_TABLES, PEOPLE_TABLE, bot_tokens, serving
from tests.server.process import ledger_check, wait_until

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def example_module() -> Any:
    """examples/calling_bot.py, the docs' example bot, imported from its file."""
    spec = importlib.util.spec_from_file_location("calling_bot", EXAMPLES / "calling_bot.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CallingBot = example_module().CallingBot


async def test_client_bots_play_every_game_and_play_on_after_a_restart(
    db_url: str, tmp_path: Path
) -> None:
    names = [f"{seat}{table}_bot" for table in GAME_TABLES.values() for seat in "ab"]
    tokens = await bot_tokens(db_url, names)
    played: dict[str, list[HandPlayed]] = defaultdict(list)
    async with serving(db_url, tmp_path) as server:
        runners: dict[str, BotRunner] = {}
        for game, table in GAME_TABLES.items():
            # The game's smart house bot through its choose(view), and the docs' example
            # through decide.
            smart = load_bot("smart", game)
            for name, bot in ((f"a{table}_bot", smart), (f"b{table}_bot", CallingBot())):
                runners[name] = BotRunner(
                    bot,
                    room=server.base,
                    token=tokens[name],
                    table=table,
                    on_hand=played[name].append,
                )
        tasks = [asyncio.create_task(runner.run()) for runner in runners.values()]
        try:
            await wait_until(
                lambda: all(runner.hands >= 2 for runner in runners.values()),
                timeout=90,
                what="two hands at every table",
            )
            server.kill()
            before = {name: runner.hands for name, runner in runners.items()}
            server.start()
            await wait_until(
                lambda: all(runners[name].hands >= before[name] + 2 for name in runners),
                timeout=90,
                what="two more hands at every table after the restart",
            )
            for runner in runners.values():
                runner.stop()
            summaries: list[RunSummary] = await asyncio.wait_for(asyncio.gather(*tasks), 60)
        finally:
            for task in tasks:
                task.cancel()
    for name, summary in zip(runners, summaries, strict=True):
        assert summary.hands >= before[name] + 2, name
        assert summary.reconnects >= 1, name  # the restart dropped every socket
        # One act per decision: a second would be refused as out of turn or for the hand.
        assert not {"out_of_turn", "stale_hand", "not_in_hand"} & set(runners[name].refusals)
        assert summary.net == sum(hand.net for hand in played[name])
        assert len({hand.number for hand in played[name]}) == summary.hands
        assert len({hand.seat for hand in played[name]}) == 1, name  # the room kept the seat
    for game, table in GAME_TABLES.items():
        if game == "casino-holdem":
            continue  # boxes play the house: their results need not cancel out
        first = {hand.number: hand.net for hand in played[f"a{table}_bot"]}
        second = {hand.number: hand.net for hand in played[f"b{table}_bot"]}
        both = first.keys() & second.keys()
        assert len(both) >= 4, game
        assert all(first[number] + second[number] == 0 for number in both), game
    await ledger_check(db_url)


async def test_refusals_stop_the_runner_with_the_rooms_code(db_url: str, tmp_path: Path) -> None:
    tokens = await bot_tokens(db_url, ["lone_bot"])
    async with serving(db_url, tmp_path) as server:
        wrong = BotRunner(RandomBot(), room=server.base, token="x" * 43, table=1)
        with pytest.raises(BotStopped) as refused:
            await asyncio.wait_for(wrong.run(hands=1), 60)
        assert refused.value.code == "bad_token"
        people = BotRunner(
            RandomBot(), room=server.base, token=tokens["lone_bot"], table=PEOPLE_TABLE
        )
        with pytest.raises(BotStopped) as refused:
            await asyncio.wait_for(people.run(hands=1), 60)
        assert refused.value.code == "people_only"
        lone = tokens["lone_bot"]
        casino = GAME_TABLES["casino-holdem"]
        for runner, code in (
            (BotRunner(RandomBot(), room=server.base, token=lone, table=99), "unknown_table"),
            (BotRunner(RandomBot(), room=server.base, token=lone, table=1, seat=9), "bad_seat"),
            (
                BotRunner(RandomBot(), room=server.base, token=lone, table=casino, ante=999),
                "bad_wager",
            ),
        ):
            with pytest.raises(BotStopped) as refused:
                await asyncio.wait_for(runner.run(hands=1), 60)
            assert refused.value.code == code
    await ledger_check(db_url)


def pokerhouse(*args: str, token: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key != "POKERHOUSE_BOT_TOKEN"}
    if token is not None:
        env["POKERHOUSE_BOT_TOKEN"] = token
    done = subprocess.run(
        [sys.executable, "-m", "pokerhouse", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=EXAMPLES,
        env=env,
    )
    return done


async def test_the_command_plays_the_docs_example_and_refuses_bad_input(
    db_url: str, tmp_path: Path
) -> None:
    tokens = await bot_tokens(db_url, ["cli_bot", "house_bot2", "other_bot"])
    async with serving(db_url, tmp_path) as server:
        room = ["--room", server.base]
        opponent = BotRunner(RandomBot(), room=server.base, token=tokens["other_bot"], table=2)
        playing = asyncio.create_task(opponent.run())
        try:
            done = await asyncio.to_thread(
                pokerhouse,
                *("bot", "run", "calling_bot:CallingBot", *room, "--table", "2", "--hands", "2"),
                token=tokens["cli_bot"],
            )
        finally:
            opponent.stop()
            await asyncio.wait_for(playing, 60)
        assert done.returncode == 0, done.stderr
        lines = done.stdout.splitlines()
        assert len([line for line in lines if line.startswith("hand ")]) >= 2, lines
        played = len(lines) - 1
        assert lines[-1].startswith(f"{played} hand{'' if played == 1 else 's'}, net "), lines

        # Ctrl-C stands the bot up and ends the run, with its summary.
        env = dict(os.environ, POKERHOUSE_BOT_TOKEN=tokens["cli_bot"])
        process = await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "pokerhouse", "bot", "run", "random", *room, "--table", "2"),
            stdout=asyncio.subprocess.PIPE,
            cwd=EXAMPLES,
            env=env,
        )
        opponent = BotRunner(RandomBot(), room=server.base, token=tokens["other_bot"], table=2)
        playing = asyncio.create_task(opponent.run())
        assert process.stdout is not None
        try:
            first = await asyncio.wait_for(process.stdout.readline(), 60)
            assert first.startswith(b"hand "), first
            process.send_signal(signal.SIGINT)
            rest = await asyncio.wait_for(process.stdout.read(), 60)
            assert await asyncio.wait_for(process.wait(), 60) == 130
        finally:
            opponent.stop()
            await asyncio.wait_for(playing, 60)
            if process.returncode is None:
                process.kill()
        assert b", net " in rest.splitlines()[-1], rest

        refusals = [
            (["--room", "ftp://x", "--table", "1"], tokens["cli_bot"], "bad_url"),
            ([*room, "--table", "1"], None, "missing_token"),
            ([*room, "--table", "0"], tokens["cli_bot"], "bad_table"),
            ([*room, "--table", "one"], tokens["cli_bot"], "bad_table"),
            ([*room, "--table", "1"], "y" * 43, "bad_token"),
            ([*room, "--table", "77"], tokens["cli_bot"], "unknown_table"),
            (
                ["--room", "http://192.0.2.1:8000", "--table", "1"],
                tokens["cli_bot"],
                "cleartext_room",
            ),
            (
                ["--room", "ws://poker.example.com", "--table", "1"],
                tokens["cli_bot"],
                "cleartext_room",
            ),
            # Past the check with --insecure: no room listens there (0.0.0.0 is no loopback
            # address, and a connection to it reaches this machine: refused at once).
            (["--room", "http://0.0.0.0:1", "--table", "1"], tokens["cli_bot"], "cleartext_room"),
            (
                ["--room", "http://0.0.0.0:1", "--insecure", "--table", "1"],
                tokens["cli_bot"],
                "room_unreachable",
            ),
        ]
        for arguments, token, code in refusals:
            refused = await asyncio.to_thread(
                pokerhouse, "bot", "run", "random", *arguments, token=token
            )
            assert refused.returncode == 2, (arguments, refused.stderr)
            assert refused.stderr.strip().endswith(f"[{code}]"), refused.stderr
            assert "Traceback" not in refused.stderr
    await ledger_check(db_url)


class WildBot:
    """Answers every decision with a raise no table allows."""

    name = "wild"

    def decide(self, decision: object) -> dict[str, object]:
        return {"kind": "raise", "amount": 10**9}


async def flood(base: str, token: str, until: Callable[[], bool], timeout: float = 60) -> int:
    """Pings on sockets of the bot's own account, past its message budget, until ``until()``
    (the runner was held back: a busy machine may take a while to send one of its own
    while the budget is spent), or for ``timeout`` seconds; refusals seen."""
    url = base.replace("http://", "ws://") + "/ws"
    headers = {"Authorization": f"Bearer {token}"}
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    refused = 0

    def going() -> bool:
        return loop.time() < deadline and not until()

    while going():
        try:
            async with websockets.connect(url, additional_headers=headers) as ws:
                while going():
                    for _ in range(10):
                        await ws.send(json.dumps({"type": "ping"}))
                    await asyncio.sleep(0.1)
                    while True:
                        try:
                            batch = json.loads(await asyncio.wait_for(ws.recv(), 0.001))
                        except TimeoutError:
                            break
                        refused += sum(m.get("code") == "rate_limited" for m in batch)
        except websockets.ConnectionClosed:
            continue  # fifty refusals in a row close a socket: open another
    return refused


async def test_a_runner_held_back_by_the_rate_limit_resends_and_plays_on(
    db_url: str, tmp_path: Path
) -> None:
    tokens = await bot_tokens(db_url, ["paced_bot", "wild_bot"])
    async with serving(db_url, tmp_path) as server:
        paced = BotRunner(RandomBot(), room=server.base, token=tokens["paced_bot"], table=1)
        wild = BotRunner(WildBot(), room=server.base, token=tokens["wild_bot"], table=1)
        tasks = [asyncio.create_task(runner.run()) for runner in (paced, wild)]
        try:
            await wait_until(lambda: paced.hands >= 1, timeout=60, what="a first hand")
            await flood(
                server.base, tokens["paced_bot"], lambda: paced.refusals["rate_limited"] >= 1
            )
            at_flood = paced.hands
            await wait_until(lambda: paced.hands >= at_flood + 3, timeout=60, what="play on")
            for runner in (paced, wild):
                runner.stop()
            await asyncio.wait_for(asyncio.gather(*tasks), 60)
        finally:
            for task in tasks:
                task.cancel()
    assert paced.refusals["rate_limited"] >= 1, paced.refusals
    # Every wild answer was replaced by the default before it went out: no act was refused
    # (the two runners may reach for the same free seat: one of them takes another).
    assert wild.hands >= 3 and set(wild.refusals) <= {"seat_taken"}, wild.refusals
    await ledger_check(db_url)
