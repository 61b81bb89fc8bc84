"""``pokerhouse bot run BOT --room URL --table N``: play a bot at a table of a room.

The bot signs in as a bot account (``pokerhouse accounts create NAME_bot
--bot`` prints its token): ``--token``, or better the environment's
``POKERHOUSE_BOT_TOKEN`` (a command line is seen by every user of the
machine). ``BOT`` is ``random``, ``smart`` (the table's game's own), or
``module:Class``: a class with ``decide(decision)`` (``pokerhouse.client``)
or a house-style bot with ``choose(view)``, importable from the current
folder or the Python path. One line is printed per hand the seat played,
and a summary at the end; Ctrl-C stands the bot up and stops (exit 130).

>>> from pokerhouse.cli import main
>>> main(["bot", "run", "random", "--room", "ftp://x", "--token", "t", "--table", "1"])
2
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import inspect
import json
import os
import signal
import sys
import urllib.error
import urllib.request
from typing import Any

from pokerhouse.bots.loading import load_bot
from pokerhouse.client import BotRunner, BotStopped, HandPlayed
from pokerhouse.client.urls import http_url, in_the_clear, websocket_url
from pokerhouse.errors import InvalidSpec

TOKEN_ENV = "POKERHOUSE_BOT_TOKEN"


def register(subparsers: Any) -> None:
    """Add ``bot`` (``bot run``) to the command line."""
    parser = subparsers.add_parser(
        "bot",
        help="play a bot at a room's table with a bot account's token",
        description="Play bots in a room through its API, as bot accounts.",
    )
    actions = parser.add_subparsers(dest="bot_action", metavar="ACTION")
    actions.required = True
    run = actions.add_parser(
        "run",
        help="play a bot at one table",
        description=(
            "Play BOT at table N of the room at URL, signed in with a bot account's token "
            f"(--token, or the environment's {TOKEN_ENV}: better, a command line is seen by "
            "every user of the machine). Prints each hand's result and a summary."
        ),
    )
    run.add_argument("bot", metavar="BOT", help="random, smart or module:Class")
    run.add_argument("--room", required=True, metavar="URL", help="the room, http://host:port")
    run.add_argument(
        "--insecure",
        action="store_true",
        help="allow http:// to a host other than this machine (the token travels in the clear)",
    )
    run.add_argument(
        "--token", default=None, help=f"the bot account's API token (default: ${TOKEN_ENV})"
    )
    run.add_argument("--table", required=True, metavar="N", help="the table's id (from 1)")
    run.add_argument("--seat", default=None, metavar="S", help="the seat (default: first free)")
    run.add_argument(
        "--buy-in", default=None, metavar="CHIPS", help="chips to sit with (default: table minimum)"
    )
    run.add_argument(
        "--hands", default=None, metavar="N", help="stand up after N hands (default: play on)"
    )
    run.add_argument(
        "--ante", default=None, metavar="CHIPS", help="Casino Hold'em: the box's ante (minimum)"
    )
    run.set_defaults(handler=run_bot)


def run_bot(args: argparse.Namespace) -> int:
    """Check the arguments, learn the table's game, and play until done or interrupted."""
    url = args.room.strip()
    websocket_url(url)  # a bad URL is refused before anything else
    if in_the_clear(url) and not args.insecure:
        raise InvalidSpec(
            "cleartext_room",
            f"{url} is not encrypted and not this machine: the token would cross the network "
            "in the clear; use https:// (or --insecure on a network you trust)",
        )
    token = args.token if args.token is not None else os.environ.get(TOKEN_ENV, "")
    if not token.strip():
        raise InvalidSpec("missing_token", f"give the bot account's token: --token or ${TOKEN_ENV}")
    table = _whole(args.table, "--table", "bad_table", minimum=1)
    seat = None if args.seat is None else _whole(args.seat, "--seat", "bad_seat", minimum=0)
    buy_in = None if args.buy_in is None else _whole(args.buy_in, "--buy-in", "bad_buy_in")
    hands = None if args.hands is None else _whole(args.hands, "--hands", "bad_count")
    ante = None if args.ante is None else _whole(args.ante, "--ante", "bad_ante")
    game = table_game(url, token.strip(), table)
    bot = make_bot(args.bot, game)
    runner = BotRunner(
        bot,
        room=url,
        token=token.strip(),
        table=table,
        seat=seat,
        buy_in=buy_in,
        ante=ante,
        on_hand=_print_hand,
    )
    return asyncio.run(_play(runner, hands))


async def _play(runner: BotRunner, hands: int | None) -> int:
    loop = asyncio.get_running_loop()
    interrupted = False

    def interrupt() -> None:
        nonlocal interrupted
        interrupted = True
        runner.stop()

    try:
        loop.add_signal_handler(signal.SIGINT, interrupt)
        loop.add_signal_handler(signal.SIGTERM, interrupt)
    except (NotImplementedError, RuntimeError):  # no signal handlers here: Ctrl-C raises
        pass
    summary = await runner.run(hands=hands)
    played = f"{summary.hands} hand{'' if summary.hands == 1 else 's'}"
    print(f"{played}, net {summary.net:+d}, reconnects {summary.reconnects}")
    sys.stdout.flush()
    return 130 if interrupted else 0


def _print_hand(hand: HandPlayed) -> None:
    print(f"hand {hand.number}: seat {hand.seat}, net {hand.net:+d}, stack {hand.stack}")
    sys.stdout.flush()


def _whole(text: str, option: str, code: str, *, minimum: int = 1) -> int:
    word = text.strip()
    if not word.isascii() or not word.isdigit() or int(word) < minimum:
        raise InvalidSpec(code, f"{option} is a whole number from {minimum}, not {text!r}")
    return int(word)


def table_game(room: str, token: str, table: int) -> str:
    """The game of table ``table``, asked of the room after it took the token
    (``bad_token``); ``unknown_table``, ``room_unreachable``."""
    base = http_url(room)
    _get(base, "/api/me", token)  # the lobby is open to all: this checks the token
    for line in _get(base, "/api/tables", token)["tables"]:
        if line.get("id") == table:
            return str(line["game"])
    raise BotStopped("unknown_table", f"the room has no table {table}")


def _get(base: str, path: str, token: str) -> Any:
    request = urllib.request.Request(
        base + path, headers={"Authorization": f"Bearer {token}", "Accept": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as error:
        try:
            code = str(json.loads(error.read())["code"])
        except (ValueError, KeyError, TypeError):
            code = "room_refused"
        raise BotStopped(code, f"the room refused {path} (HTTP {error.code})") from None
    except (urllib.error.URLError, OSError, ValueError) as error:
        raise BotStopped(
            "room_unreachable", f"no answer from the room at {base}: {error}"
        ) from None


def make_bot(spec: str, game: str) -> object:
    """A bot from ``spec``: a ``module:Class`` with ``decide`` is made as it is; anything
    else as the arena makes it (``random``, ``smart``, a class with ``choose``)."""
    if ":" in spec:
        here = os.getcwd()
        if here not in sys.path:
            sys.path.insert(0, here)
        module_name, _, attribute = spec.strip().partition(":")
        try:
            factory: Any = importlib.import_module(module_name.strip())
            for part in attribute.strip().split("."):
                factory = getattr(factory, part)
        except Exception:
            factory = None  # load_bot says what is wrong, with its codes
        if inspect.isclass(factory) and callable(getattr(factory, "decide", None)):
            try:
                return factory()
            except Exception as error:
                raise InvalidSpec(
                    "bot_failed", f"{spec}() failed: {type(error).__name__}: {error}"
                ) from None
    return load_bot(spec, game)
