"""``pokerhouse serve``: open the card room on a port, with bots at every table.

On an empty database the room creates its default tables (two of each
game, bots seated); ``--config room.toml`` names other tables and the
room's timings:

.. code-block:: toml

    [room]
    hand_pause = 5.0          # seconds a finished hand stays on show before the next deal
    bots_pause = 2.0          # the same when only bots played it
    bot_think = [0.5, 1.5]    # a bot's pause before it acts
    window_seconds = 10       # Casino Hold'em's betting window
    registrations_per_hour = 30   # new accounts one address may open an hour
    # argon2 = [1, 256, 1]    # argon2id time, memory (KiB), lanes: load tests only
    ping_seconds = 20         # ping every websocket; close one silent this long after a ping
    max_buffer = 1048576      # bytes a client may leave unread before it is cut off
    database_seconds = 5      # deadline of every database call
    retry_seconds = 1         # a table whose database failed tries to reload this often
    stall_seconds = 30        # a peer that reads nothing for this long is dropped (TCP)
    lease_seconds = 7.5       # a table's lease lasts this long unless renewed
    redis_prefix = "pokerhouse"   # the room's Redis keys begin with this (--redis-url)
    spread_tables = true      # nodes on one bus share the tables out (--redis-url)
    gc_freeze = false         # the room's own garbage-collection policy instead of CPython's
    sockets_per_account = 16  # websockets one account may hold open
    sockets_per_address = 64  # websockets one address may hold open
    hashes_per_address = 2    # password hashes (logins, sign-ups) in flight per address
    request_head_seconds = 10 # a request's head must arrive within this many seconds
    forwarded_allow_ips = []  # proxies trusted for X-Forwarded-For (none), e.g. ["10.0.0.5"]
    allowed_hosts = []        # Host names besides loopback and --host, e.g. ["poker.example.com"]
    metrics = false           # serve GET /metrics (Prometheus)

    [[tables]]
    name = "Razz 5/10, ante 1"
    game = "razz"
    options = { ante = 1, bring_in = 2, small_bet = 5, big_bet = 10 }
    seats = 8
    bots = 5

>>> parser = build_parser()
>>> args = parser.parse_args(["--port", "9000"])
>>> args.host, args.port
('127.0.0.1', 9000)
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import tomllib
from pathlib import Path
from typing import Any

from pokerhouse.cli.db import add_url_option
from pokerhouse.errors import InvalidSpec
from pokerhouse.server.settings import RoomSettings
from pokerhouse.store import TableConfig
from pokerhouse.tournament.errors import TournamentError
from pokerhouse.tournament.structure import BUILT_IN, TOURNAMENT_GAMES, from_mapping

#: The games with a sit-and-go always open, and of the hourly tournament, in the default
#: room (a room.toml that lists its tables lists its tournaments' games too).
DEFAULT_SIT_AND_GOS = TOURNAMENT_GAMES

_ROOM_KEYS = {
    "hand_pause", "bots_pause", "bot_think", "window_seconds", "away_seconds", "log_size", "grant",
    "registrations_per_hour", "argon2",
    "ping_seconds", "max_buffer", "retry_seconds", "database_seconds", "stall_seconds",
    "lease_seconds", "gc_freeze", "redis_prefix", "spread_tables",
    "sockets_per_account", "sockets_per_address", "hashes_per_address", "bots_per_account",
    "request_head_seconds", "forwarded_allow_ips", "allowed_hosts", "metrics",
    "sit_and_gos", "sit_and_go_bots_after", "sit_and_go_structure",
    "scheduled_games", "scheduled_every", "scheduled_bots", "scheduled_structure",
}  # fmt: skip
#: Keys that must be more than zero (a zero ping or deadline would mean "never").
_POSITIVE_SECONDS = (
    "ping_seconds", "retry_seconds", "database_seconds", "stall_seconds", "lease_seconds",
    "request_head_seconds", "scheduled_every",
)  # fmt: skip
#: Keys that are whole numbers from 1.
_COUNTS = (
    "log_size", "grant", "registrations_per_hour", "max_buffer", "scheduled_bots",
    "sockets_per_account", "sockets_per_address", "hashes_per_address", "bots_per_account",
)  # fmt: skip
#: A Host name room.toml may allow: a DNS name or an address, ``*.`` before a domain, or ``*``.
_LABEL = r"[a-z0-9]([a-z0-9-]*[a-z0-9])?"
_HOST = re.compile(rf"^(\*|(\*\.)?{_LABEL}(\.{_LABEL})*|[0-9a-f:.]+)$")
_NODE = re.compile(r"[A-Za-z0-9._-]{1,64}")
_REDIS_SCHEMES = ("redis://", "rediss://", "unix://")
_TABLE_KEYS = {field.name for field in dataclasses.fields(TableConfig)}


def build_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    """The ``serve`` arguments (on ``parser``, or a new one)."""
    parser = parser if parser is not None else argparse.ArgumentParser(prog="pokerhouse serve")
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"
    )
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    add_url_option(parser)
    parser.add_argument("--config", metavar="FILE", help="room.toml: tables and timings")
    parser.add_argument(
        "--node", metavar="NAME",
        help="this process's name on the tables it runs (default node-HOSTNAME); several "
        "nodes on one database need different names",
    )  # fmt: skip
    parser.add_argument(
        "--redis-url", metavar="URL",
        help="Redis for the bus between several nodes of one room (e.g. redis://127.0.0.1:6379/0);"
        " without it the room is one process",
    )  # fmt: skip
    parser.add_argument(
        "--reuse-port", action="store_true",
        help="share the port with other nodes on this machine (SO_REUSEPORT): the kernel "
        "spreads new connections among them",
    )  # fmt: skip
    parser.add_argument(
        "--log-level", default="info", choices=["debug", "info", "warning", "error"],
        help="how much to log (default info)",
    )  # fmt: skip
    parser.add_argument(
        "--log-format", default="json", choices=["json", "text"],
        help="logs as JSON lines, one per request, action and hand (default), or as text",
    )  # fmt: skip
    return parser


def register(subparsers: Any) -> None:
    """Add ``serve`` to the command line."""
    parser = subparsers.add_parser(
        "serve",
        help="open the card room: web client, HTTP API and websockets",
        description="Run the room at http://HOST:PORT with bots at every table.",
    )
    build_parser(parser)
    parser.set_defaults(handler=run)


def load_config(path: str | None) -> tuple[RoomSettings, list[TableConfig] | None]:
    """Room settings and first tables from a ``room.toml`` (defaults without one)."""
    if path is None:
        return RoomSettings(
            sit_and_gos=DEFAULT_SIT_AND_GOS, scheduled_games=DEFAULT_SIT_AND_GOS
        ), None
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise InvalidSpec("bad_config", f"cannot read {path}: {error.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise InvalidSpec("bad_config", f"{path} is not TOML: {error}") from None
    unknown = set(data) - {"room", "tables", "structures"}
    if unknown:
        raise InvalidSpec("bad_config", f"{path}: unknown sections {sorted(unknown)}")
    room = data.get("room", {})
    if not isinstance(room, dict) or set(room) - _ROOM_KEYS:
        raise InvalidSpec("bad_config", f"{path}: [room] takes {sorted(_ROOM_KEYS)}")
    values: dict[str, Any] = dict(room)
    if "bot_think" in values:
        think = values["bot_think"]
        if not (isinstance(think, list) and len(think) == 2 and all(_seconds(x) for x in think)):
            raise InvalidSpec("bad_config", f"{path}: bot_think is [low, high] seconds")
        values["bot_think"] = (float(think[0]), float(think[1]))
    for key in ("hand_pause", "bots_pause", "window_seconds", "away_seconds"):
        if key in values and not _seconds(values[key]):
            raise InvalidSpec("bad_config", f"{path}: {key} is a number of seconds >= 0")
    for key in _POSITIVE_SECONDS:
        if key in values and not (_seconds(values[key]) and values[key] > 0):
            raise InvalidSpec("bad_config", f"{path}: {key} is a number of seconds > 0")
        if key in values:
            values[key] = float(values[key])
    for key in _COUNTS:
        if key in values and (type(values[key]) is not int or values[key] < 1):
            raise InvalidSpec("bad_config", f"{path}: {key} is a whole number >= 1")
    if "argon2" in values:
        values["argon2"] = _argon2(path, values["argon2"])
    for flag in ("gc_freeze", "spread_tables"):
        if flag in values and type(values[flag]) is not bool:
            raise InvalidSpec("bad_config", f"{path}: {flag} is true or false")
    if "metrics" in values and type(values["metrics"]) is not bool:
        raise InvalidSpec("bad_config", f"{path}: metrics is true or false")
    if "forwarded_allow_ips" in values:
        values["forwarded_allow_ips"] = _proxies(path, values["forwarded_allow_ips"])
    if "allowed_hosts" in values:
        values["allowed_hosts"] = _hosts(path, values["allowed_hosts"])
    if "redis_prefix" in values and not (
        isinstance(values["redis_prefix"], str) and _NODE.fullmatch(values["redis_prefix"])
    ):
        raise InvalidSpec(
            "bad_config", f"{path}: redis_prefix is 1 to 64 letters, digits, '.', '_' or '-'"
        )
    # A room.toml of its own tables has its own tournaments too: only those it names.
    games_default: tuple[str, ...] = () if "tables" in data else DEFAULT_SIT_AND_GOS
    for games in ("sit_and_gos", "scheduled_games"):
        values[games] = _games(path, games, values.get(games, games_default))
    if "sit_and_go_bots_after" in values:
        if not _seconds(values["sit_and_go_bots_after"]):
            raise InvalidSpec("bad_config", f"{path}: sit_and_go_bots_after is seconds >= 0")
        values["sit_and_go_bots_after"] = float(values["sit_and_go_bots_after"])
    values["structures"] = _structures(path, data.get("structures", {}))
    names = sorted({*BUILT_IN, *values["structures"]})
    for key, named in (("sit_and_go_structure", "turbo"), ("scheduled_structure", "regular")):
        if values.get(key, named) not in names:
            raise InvalidSpec("bad_config", f"{path}: {key} is one of {', '.join(names)}")
    settings = RoomSettings(**values)
    tables = data.get("tables")
    if tables is None:
        return settings, None
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise InvalidSpec("bad_config", f"{path}: [[tables]] entries are tables")
    configs = []
    for index, entry in enumerate(tables):
        extra = set(entry) - _TABLE_KEYS
        if extra or "name" not in entry or "game" not in entry:
            raise InvalidSpec(
                "bad_config",
                f"{path}: table {index + 1} needs name and game, and takes {sorted(_TABLE_KEYS)}",
            )
        configs.append(TableConfig(**entry).checked())
    return settings, configs


def _structures(path: str, value: object) -> dict[str, dict[str, Any]]:
    """room.toml's ``[structures.NAME]`` tables, each checked for every tournament game."""
    if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
        raise InvalidSpec("bad_config", f"{path}: [structures.NAME] entries are tables")
    for name, settings in value.items():
        for game in TOURNAMENT_GAMES:
            try:
                from_mapping(game, settings)
            except TournamentError as error:
                raise InvalidSpec(
                    "bad_config", f"{path}: structure {name!r} for {game}: {error}"
                ) from None
    return dict(value)


def _games(path: str, key: str, value: object) -> tuple[str, ...]:
    """Games with tournaments (``sit_and_gos``, ``scheduled_games``): a list (or none)."""
    if not isinstance(value, list | tuple) or not all(
        isinstance(game, str) and game in TOURNAMENT_GAMES for game in value
    ):
        raise InvalidSpec(
            "bad_config",
            f"{path}: {key} lists games of {', '.join(TOURNAMENT_GAMES)}, not {value!r}",
        )
    return tuple(dict.fromkeys(value))


def _argon2(path: str, value: object) -> tuple[int, int, int]:
    """``[time_cost, memory_cost, parallelism]``, checked as argon2 would (memory >= 8 x lanes)."""
    if (
        isinstance(value, list)
        and len(value) == 3
        and all(type(x) is int and x >= 1 for x in value)
        and value[1] >= 8 * value[2]
    ):
        return value[0], value[1], value[2]
    raise InvalidSpec(
        "bad_config",
        f"{path}: argon2 is [time_cost, memory_cost KiB, parallelism], memory >= 8 x parallelism",
    )


def _proxies(path: str, value: object) -> tuple[str, ...]:
    """``forwarded_allow_ips``: a list of IP addresses or networks (no ``*``: name them)."""
    from pokerhouse.server.http.guards import check_proxy

    if isinstance(value, list) and all(isinstance(x, str) for x in value):
        try:
            return tuple(check_proxy(x) for x in value)
        except ValueError:
            pass
    raise InvalidSpec(
        "bad_config",
        f"{path}: forwarded_allow_ips is a list of the proxies' IP addresses or networks, "
        'e.g. ["10.0.0.5", "192.168.0.0/24"]',
    )


def _hosts(path: str, value: object) -> tuple[str, ...]:
    """``allowed_hosts``: a list of host names (no port), ``*.domain`` or ``*``."""
    if isinstance(value, list) and all(
        isinstance(x, str) and len(x) <= 253 and _HOST.match(x.lower()) for x in value
    ):
        return tuple(x.lower() for x in value)
    raise InvalidSpec(
        "bad_config",
        f"{path}: allowed_hosts is a list of host names without ports, "
        'e.g. ["poker.example.com", "*.example.org"]',
    )


def node_name(name: str) -> str:
    """A node's name as ``--node`` takes it: 1 to 64 letters, digits, ``.``, ``_``, ``-``.

    >>> node_name("node-2")
    'node-2'
    >>> node_name("two words")
    Traceback (most recent call last):
    ...
    pokerhouse.errors.InvalidSpec: --node is 1 to 64 letters, digits, '.', '_' or '-': 'two words'
    """
    if not _NODE.fullmatch(name):
        raise InvalidSpec(
            "bad_node", f"--node is 1 to 64 letters, digits, '.', '_' or '-': {name!r}"
        )
    return name


def _seconds(value: object) -> bool:
    return type(value) in (int, float) and value >= 0  # type: ignore[operator]


def redis_url(url: str) -> str:
    """A ``--redis-url`` as the bus takes it: ``redis://``, ``rediss://`` or ``unix://``.

    >>> redis_url("redis://127.0.0.1:6379/0")
    'redis://127.0.0.1:6379/0'
    >>> redis_url("127.0.0.1:6379")
    Traceback (most recent call last):
    ...
    pokerhouse.errors.InvalidSpec: --redis-url is redis://HOST:PORT/DB or rediss:// or unix://...
    """
    if not url.startswith(_REDIS_SCHEMES) or not url.isprintable():
        raise InvalidSpec(
            "bad_redis_url",
            f"--redis-url is redis://HOST:PORT/DB or rediss:// or unix://..., not {url!r}",
        )
    return url


def check_redis(url: str) -> None:
    """Fail with ``redis_unreachable`` unless Redis at ``url`` answers a ping within 5 s."""
    import redis

    try:
        client = redis.Redis.from_url(url, socket_timeout=5.0, socket_connect_timeout=5.0)
        try:
            client.ping()
        finally:
            client.close()
    except (redis.RedisError, OSError, ValueError) as error:
        raise InvalidSpec("redis_unreachable", f"Redis at {url} does not answer: {error}") from None


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    import uvicorn

    from pokerhouse.server.app import create_app
    from pokerhouse.server.http.guards import uvicorn_options
    from pokerhouse.server.runtime.listener import listening_socket
    from pokerhouse.server.runtime.logs import configure
    from pokerhouse.server.site import Site
    from pokerhouse.server.socket.incoming import MAX_SOCKET_FRAME
    from pokerhouse.store.urls import database_url

    if not 0 < args.port < 65536:
        raise InvalidSpec("bad_port", f"--port is 1 to 65535, not {args.port}")
    settings, tables = load_config(args.config)
    if args.node is not None:
        settings = dataclasses.replace(settings, owner=node_name(args.node))
    if args.reuse_port and args.node is None:
        # Nodes on one machine would share its default name, and so each other's tables.
        raise InvalidSpec("node_required", "--reuse-port needs --node NAME, one per node")
    redis = None if args.redis_url is None else redis_url(args.redis_url)
    if redis is not None:
        check_redis(redis)
    configure(args.log_level, args.log_format)
    site = Site(database_url(args.database_url), settings=settings, tables=tables, redis_url=redis)
    config = uvicorn.Config(
        create_app(site, host=args.host),
        # The request-head bound, and X-Forwarded-For only from the configured proxies.
        **uvicorn_options(site),
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws_ping_interval=settings.ping_seconds,
        ws_ping_timeout=settings.ping_seconds,
        ws_max_size=MAX_SOCKET_FRAME,
        # Frames are small JSON: compressing each one costs more CPU than it saves on
        # the wire, and a per-socket deflate context costs memory per connection.
        ws_per_message_deflate=False,
        lifespan="on",
        log_config=None,  # the room's own logging, set up above
        access_log=False,
    )
    server = uvicorn.Server(config)
    try:
        sock = listening_socket(
            args.host,
            args.port,
            stall_seconds=settings.stall_seconds,
            reuse_port=args.reuse_port,
        )
    except OSError as error:
        raise InvalidSpec(
            "bad_port", f"cannot listen on {args.host}:{args.port}: {error}"
        ) from None
    print(f"pokerhouse: the room opens at http://{args.host}:{args.port}", flush=True)
    if args.host in ("0.0.0.0", "::") and not settings.allowed_hosts:
        print(
            "pokerhouse: only loopback Host names are answered: name the room's in room.toml's "
            "allowed_hosts",
            flush=True,
        )
    server.run(sockets=[sock])
    return 0
