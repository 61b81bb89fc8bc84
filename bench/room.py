"""The room under load: N tables of six websocket players against ``pokerhouse serve``.

Starts ``pokerhouse serve`` as a subprocess on a free loopback port over a
fresh SQLite file (or, with ``--database-url``, a fresh PostgreSQL database
it creates and drops), with a room.toml of N six-seat 3x4 tables and no
house bots; then N x 6 players (``bench/loadclient.py``), spread over a few
client processes, sign up over HTTP, sit, and play every decision the server
sends. The same clients first play the bare broadcast server
(``bench/bare_server.py``, the ceiling) for comparison. Everything is
bounded in time and stops by itself; the temporary files go at the end.

Printed for each run: actions/s, p50/p99/max latency from an ``act`` to its
``action_taken`` broadcast, errors by code, timeouts, the server's CPU per
action and its memory at the window's start and end, the group commits'
size and time (from ``/metrics``), the clients' own CPU, and the ledger
check of the room's books afterwards.

    python bench/room.py --tables 100 --seconds 30
    python bench/room.py --tables 500 --seconds 600 --no-bare     # the soak
    python bench/room.py --tables 500 --rate 1000,2000,3000,4000  # the knee
    python bench/room.py --quick                                  # a 20-second smoke
    python bench/room.py --tables 50 --rate 500 --nodes 1,2,3 --no-bare  # the bus's cost

With ``--nodes N`` (N > 1) the room runs on N ``serve`` processes sharing the
database and a Redis (``--redis-url``, a key prefix of the run's own). The
first node runs every table (``spread_tables = false``; with ``--spread`` the
nodes share them out before the windows); client process ``i`` plays on node
``i mod N``, so the players of node 1 are served locally and the others
through the bus.
Printed besides: the server CPU of all nodes together, the latency on each
node (local against relayed), and the failover time: node 1 SIGKILLed, the
seconds until a table it ran plays its next action on another node. Several
counts (``--nodes 1,2,3``) run one after the other, each on a fresh database,
and each is compared with the first: CPU per action as a ratio, and the p99 of
the players served through the bus against the first run's p99. A machine
whose speed drifts reads its drift in that ratio: alternate the counts
(``--nodes 1,2,1,2,1``) and each run of several nodes is compared with the
one-node runs just before and after it (their mean), and the median of those
ratios is printed for each count.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from array import array
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from loadclient import ProcessPlan, run_process

HERE = Path(__file__).resolve().parent
SEATS = 6
#: 3x4 no-limit, ante 1, minimum bet 2: buy-ins 20 to 100.
GAME = {"ante": 1, "small_bet": 2}
BUY_IN = 100
#: A decision's time: long enough that the set-up (players hold their first decision
#: until everyone sits) and an overloaded run show as latency, never as timeouts.
DECISION_SECONDS = 3600.0


def free_port() -> int:
    """A TCP port nobody listens on now (loopback)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def room_toml(tables: int, extra: list[str] | None = None) -> str:
    """A room of ``tables`` six-seat 3x4 tables, no bots, no pauses, light password hashing
    (``extra``: more ``key = value`` lines for ``[room]``)."""
    lines = [
        "[room]",
        "hand_pause = 0",
        "bot_think = [0, 0]",
        "registrations_per_hour = 1000000",
        # Every client signs up and connects from 127.0.0.1; the report reads /metrics.
        "sockets_per_address = 1000000",
        "hashes_per_address = 1000000",
        "metrics = true",
        "grant = 100000",
        "argon2 = [1, 256, 1]",
        *(extra or []),
        "",
    ]
    options = ", ".join(f"{key} = {value}" for key, value in GAME.items())
    for number in range(1, tables + 1):
        lines += [
            "[[tables]]",
            f'name = "Load {number}"',
            'game = "3x4"',
            f"options = {{ {options} }}",
            f"seats = {SEATS}",
            "bots = 0",
            f"decision_seconds = {DECISION_SECONDS}",
            "",
        ]
    return "\n".join(lines)


# ---------------------------------------------------------------- the server process


class Cluster:
    """Several server processes seen as one: their CPU seconds and memory added up, the
    first one's port and process (its /metrics, its profile)."""

    def __init__(self, nodes: list[Process], redis_url: str | None = None) -> None:
        self.nodes = nodes
        self.port = nodes[0].port
        self.popen = nodes[0].popen
        #: The bus's Redis (several nodes), whose CPU is read beside theirs.
        self.redis_url = redis_url

    def cpu(self) -> float:
        return sum(node.cpu() for node in self.nodes if node.popen.poll() is None)

    def rss(self) -> int:
        return sum(node.rss() for node in self.nodes if node.popen.poll() is None)

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()


class Process:
    """A server subprocess: its CPU seconds and resident memory, read from /proc."""

    def __init__(self, argv: list[str], log: Path, port: int) -> None:
        self.port = port
        self.log = log
        with log.open("ab") as out:
            env = dict(os.environ, PYTHONUNBUFFERED="1")
            self.popen = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=env)

    def wait_listening(self, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.popen.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"server did not listen in {timeout} s")

    def health(self) -> dict[str, Any]:
        """``/healthz``'s answer."""
        url = f"http://127.0.0.1:{self.port}/healthz"
        with urllib.request.urlopen(url, timeout=10) as response:
            result: dict[str, Any] = json.loads(response.read())
            return result

    def wait_healthy(self, timeout: float = 120.0) -> None:
        """Wait until ``/healthz`` answers 200 (the room has started)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            health = f"http://127.0.0.1:{self.port}/healthz"
            with contextlib.suppress(OSError), urllib.request.urlopen(health, timeout=5):
                return
            time.sleep(0.2)
        raise RuntimeError(f"server not healthy in {timeout} s")

    def cpu(self) -> float:
        """User plus system CPU seconds so far (all threads)."""
        fields = Path(f"/proc/{self.popen.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss(self) -> int:
        """Resident memory, bytes."""
        for line in Path(f"/proc/{self.popen.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        return 0

    def stop(self) -> None:
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGINT)
            try:
                self.popen.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait()


def scrape(port: int) -> dict[str, float]:
    """The room's /metrics: sums of the counters the report uses."""
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode()
    wanted = (
        "pokerhouse_actions_total",
        "pokerhouse_commit_seconds_count",
        "pokerhouse_commit_seconds_sum",
        "pokerhouse_commit_parts_sum",
        "pokerhouse_hands_total",
        "pokerhouse_slow_clients_total",
        "pokerhouse_gc_pause_seconds_sum",
        "pokerhouse_gc_pause_seconds_count",
    )
    totals: dict[str, float] = dict.fromkeys(wanted, 0.0)
    for line in text.splitlines():
        name = line.split("{", 1)[0].split(" ", 1)[0]
        if name in totals:
            totals[name] += float(line.rsplit(" ", 1)[1])
        if name == "pokerhouse_gc_pause_seconds_sum":  # also by generation
            generation = line.split('generation="', 1)[1][0]
            key = f"gc_seconds_gen{generation}"
            totals[key] = totals.get(key, 0.0) + float(line.rsplit(" ", 1)[1])
    return totals


# ---------------------------------------------------------------- one measured window


@dataclass
class Measure:
    """One window's figures."""

    label: str
    tables: int
    seconds: float
    offered: float | None
    latencies: array[float] = field(default_factory=lambda: array("d"))
    errors: Counter[str] = field(default_factory=Counter)
    timeouts: int = 0
    closed: int = 0
    rebuys: int = 0
    frames: int = 0
    messages: int = 0
    client_cpu: float = 0.0
    server_cpu: float = 0.0
    rss_seated: int = 0
    rss_start: int = 0
    rss_end: int = 0
    server: dict[str, float] = field(default_factory=dict)
    load: tuple[float, float] = (0.0, 0.0)
    #: Latencies by the node the players were on (several nodes only).
    by_node: dict[int, array[float]] = field(default_factory=dict)
    cpu_by_node: list[float] = field(default_factory=list)
    #: The bus's Redis's CPU seconds in the window (several nodes only).
    redis_cpu: float = 0.0

    @property
    def actions(self) -> int:
        return len(self.latencies)

    @property
    def rate(self) -> float:
        return self.actions / self.seconds

    def percentile(self, q: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    def summary(self) -> dict[str, Any]:
        actions = max(1, self.actions)
        commits = self.server.get("pokerhouse_commit_seconds_count", 0.0)
        return {
            "run": self.label,
            "tables": self.tables,
            "connections": self.tables * SEATS,
            "offered_per_s": self.offered,
            "seconds": self.seconds,
            "actions": self.actions,
            "actions_per_s": round(self.rate, 1),
            "p50_ms": round(self.percentile(0.50), 2),
            "p99_ms": round(self.percentile(0.99), 2),
            "max_ms": round(max(self.latencies, default=float("nan")), 2),
            "mean_ms": round(statistics.fmean(self.latencies), 2) if self.latencies else None,
            "errors": dict(self.errors),
            "timeouts": self.timeouts,
            "sockets_closed": self.closed,
            "rebuys": self.rebuys,
            # Websocket frames (one a write), and the messages they carried.
            "frames_per_action": round(self.frames / actions, 1),
            "messages_per_action": round(self.messages / actions, 1),
            "server_cpu_share": round(self.server_cpu / self.seconds, 3),
            "server_cpu_us_per_action": round(self.server_cpu / actions * 1e6, 1),
            "client_cpu_us_per_action": round(self.client_cpu / actions * 1e6, 1),
            "rss_seated_mb": round(self.rss_seated / 2**20, 1),
            "rss_start_mb": round(self.rss_start / 2**20, 1),
            "rss_end_mb": round(self.rss_end / 2**20, 1),
            "rss_growth_pct": (
                round(100 * (self.rss_end - self.rss_start) / self.rss_start, 1)
                if self.rss_start
                else None
            ),
            "server_actions_per_s": (
                round(self.server["pokerhouse_actions_total"] / self.seconds, 1)
                if self.server
                else None
            ),
            "commits_per_s": round(commits / self.seconds, 1) if self.server else None,
            # The garbage collector's share of the window, and its collections a second.
            "gc_ms_per_s": (
                round(1000 * self.server["pokerhouse_gc_pause_seconds_sum"] / self.seconds, 1)
                if self.server
                else None
            ),
            "gc_ms_per_s_by_generation": [
                round(1000 * self.server.get(f"gc_seconds_gen{n}", 0.0) / self.seconds, 1)
                for n in range(3)
            ],
            "gc_per_s": (
                round(self.server["pokerhouse_gc_pause_seconds_count"] / self.seconds, 1)
                if self.server
                else None
            ),
            "tables_per_commit": (
                round(self.server["pokerhouse_commit_parts_sum"] / commits, 1) if commits else None
            ),
            "commit_ms": (
                round(1000 * self.server["pokerhouse_commit_seconds_sum"] / commits, 3)
                if commits
                else None
            ),
            "load_average": self.load,
            **(
                {
                    "p50_ms_by_node": {n: _pct(v, 0.50) for n, v in sorted(self.by_node.items())},
                    "p99_ms_by_node": {n: _pct(v, 0.99) for n, v in sorted(self.by_node.items())},
                    "server_cpu_us_per_action_by_node": {
                        n: round(1e6 * cpu / max(1, self.actions))
                        for n, cpu in enumerate(self.cpu_by_node, 1)
                    },
                    "redis_cpu_us_per_action": round(self.redis_cpu / actions * 1e6, 1),
                }
                if len(self.by_node) > 1
                else {}
            ),
        }


def _pct(latencies: array[float], q: float) -> float:
    ordered = sorted(latencies)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2) if ordered else -1.0


class Clients:
    """The client processes, each playing its share of the tables."""

    def __init__(
        self, ports: list[int], tables: list[int], names: list[list[str]], bare: bool, procs: int
    ) -> None:
        context = multiprocessing.get_context("spawn")
        self.pipes = []
        self.workers = []
        self.nodes = len(ports)
        procs = max(1, min(procs, len(tables)))
        for index in range(procs):
            share = [(t, n) for i, (t, n) in enumerate(zip(tables, names, strict=True))
                     if i % procs == index]  # fmt: skip
            port = ports[index % len(ports)]
            plan = ProcessPlan("127.0.0.1", port, bare, share, BUY_IN, 0.0, seed=index)
            parent, child = context.Pipe()
            worker = context.Process(target=run_process, args=(plan, child), daemon=True)
            worker.start()
            self.pipes.append(parent)
            self.workers.append(worker)

    def ready(self, timeout: float) -> float:
        """Wait until every player sits; the slowest process's set-up seconds."""
        slowest = 0.0
        for pipe in self.pipes:
            if not pipe.poll(timeout):
                raise RuntimeError(f"clients not seated in {timeout} s")
            message = pipe.recv()
            if message[0] != "ready":
                raise RuntimeError(f"a client process failed: {message[1]}")
            slowest = max(slowest, message[2])
        return slowest

    def window(self, measure: Measure, start: float, end: float, interval: float) -> None:
        for pipe in self.pipes:
            pipe.send(("window", start, end, interval))

    def collect(self, measure: Measure, timeout: float) -> None:
        for index, pipe in enumerate(self.pipes):
            if not pipe.poll(timeout):
                raise RuntimeError("a client process did not report")
            message = pipe.recv()
            if message[0] != "measured":
                raise RuntimeError(f"a client process failed: {message[1]}")
            result = message[1]
            measure.latencies.frombytes(result["latencies"])
            if self.nodes > 1:
                node = index % self.nodes + 1
                measure.by_node.setdefault(node, array("d")).frombytes(result["latencies"])
            measure.errors.update(result["errors"])
            measure.timeouts += result["timeouts"]
            measure.closed += result["closed"]
            measure.rebuys += result["rebuys"]
            measure.frames += result["frames"]
            measure.messages += result["messages"]
            measure.client_cpu += result["cpu"]

    def stop(self) -> None:
        for pipe in self.pipes:
            with contextlib.suppress(OSError):
                pipe.send(("stop",))
        for worker in self.workers:
            worker.join(timeout=30)
            if worker.is_alive():
                worker.kill()


def py_spy() -> str:
    """py-spy on the PATH, else beside this Python (a virtual environment not activated)."""
    beside = Path(sys.executable).with_name("py-spy")
    return shutil.which("py-spy") or (str(beside) if beside.exists() else "py-spy")


def measure_windows(
    label: str,
    server: Process | Cluster,
    clients: Clients,
    tables: int,
    seconds: float,
    warmup: float,
    rates: list[float | None],
    metrics: bool,
    profile: str | None = None,
    rss_seated: int = 0,
) -> list[Measure]:
    """Run one window per offered rate (``None``: as fast as it goes) on seated clients;
    with ``profile``, py-spy samples the server through the first window into that file
    (node N of a cluster into ``FILE.N``)."""
    results: list[Measure] = []
    for rate in rates:
        measure = Measure(label, tables, seconds, rate, rss_seated=rss_seated)
        interval = 0.0 if rate is None else tables / rate
        start = time.time() + warmup
        end = start + seconds
        clients.window(measure, start, end, interval)
        time.sleep(max(0.0, start - time.time()))
        cpu, measure.rss_start = server.cpu(), server.rss()
        cpus = [node.cpu() for node in getattr(server, "nodes", [])]
        redis_url = getattr(server, "redis_url", None)
        redis_before = redis_cpu(redis_url)
        before = scrape(server.port) if metrics else {}
        load_start = os.getloadavg()[0]
        spies = []
        if profile and not results:
            pids = [node.popen.pid for node in getattr(server, "nodes", [server])]
            for number, pid in enumerate(pids, 1):
                output = profile if number == 1 else f"{profile}.{number}"
                spies.append(subprocess.Popen(
                    [py_spy(), "record", "--pid", str(pid),
                     "--duration", str(int(seconds)), "--rate", "100", "--nonblocking",
                     "--format", "raw", "--output", output],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                ))  # fmt: skip
        time.sleep(max(0.0, end - time.time()))
        measure.server_cpu, measure.rss_end = server.cpu() - cpu, server.rss()
        measure.redis_cpu = redis_cpu(redis_url) - redis_before
        measure.cpu_by_node = [
            node.cpu() - before
            for node, before in zip(getattr(server, "nodes", []), cpus, strict=True)
        ]
        if metrics:
            after = scrape(server.port)
            measure.server = {key: after[key] - before.get(key, 0.0) for key in after}
        measure.load = (round(load_start, 2), round(os.getloadavg()[0], 2))
        clients.collect(measure, timeout=120)
        for spy in spies:
            spy.wait(timeout=60)
        results.append(measure)
        report(measure)
    return results


def redis_cpu(url: str | None) -> float:
    """The CPU seconds Redis at ``url`` has used (its ``INFO cpu``); 0 without one."""
    if url is None:
        return 0.0
    import redis

    client = redis.Redis.from_url(url, socket_timeout=10)
    try:
        info = client.info("cpu")
    finally:
        client.close()
    return float(info["used_cpu_sys"]) + float(info["used_cpu_user"])


def report(measure: Measure) -> None:
    """One window's line, as JSON (for the docs) and as a sentence."""
    summary = measure.summary()
    print(json.dumps(summary), flush=True)
    offered = f", offered {measure.offered:.0f}/s" if measure.offered else ""
    print(
        f"# {measure.label}: {measure.tables} tables{offered}: "
        f"{summary['actions_per_s']:.0f} actions/s, p50 {summary['p50_ms']} ms, "
        f"p99 {summary['p99_ms']} ms, max {summary['max_ms']} ms, errors {summary['errors']}, "
        f"server {summary['server_cpu_us_per_action']} us CPU/action, "
        f"RSS {summary['rss_start_mb']} -> {summary['rss_end_mb']} MB",
        file=sys.stderr,
        flush=True,
    )


# ---------------------------------------------------------------- runs


def names_for(tables: list[int], run: str) -> list[list[str]]:
    return [[f"p{run}t{table}s{seat}" for seat in range(SEATS)] for table in tables]


def run_bare(args: argparse.Namespace, workdir: Path) -> list[Measure]:
    """The ceiling: the same clients against the bare broadcast server."""
    port = free_port()
    server = Process(
        [sys.executable, str(HERE / "bare_server.py"), "--port", str(port)],
        workdir / "bare.log",
        port,
    )
    try:
        server.wait_listening()
        tables = list(range(1, args.tables + 1))
        clients = Clients([port], tables, names_for(tables, "b"), True, args.procs)
        try:
            clients.ready(timeout=300)
            return measure_windows(
                "bare", server, clients, args.tables, args.bare_seconds, args.warmup,
                [None], metrics=False,
            )  # fmt: skip
        finally:
            clients.stop()
    finally:
        server.stop()


def run_room(
    args: argparse.Namespace, workdir: Path, url: str, count: int
) -> tuple[list[Measure], str]:
    """The room: ``pokerhouse serve`` over ``url`` (on ``count`` nodes); then the ledger
    check of its books."""
    config = workdir / "room.toml"
    extra = [item.replace("=", " = ", 1) for item in args.set]
    if count > 1:
        extra.append(f'redis_prefix = "bench-{secrets.token_hex(4)}"')
        extra.append(f"spread_tables = {'true' if args.spread else 'false'}")
    config.write_text(room_toml(args.tables, extra), encoding="utf-8")
    nodes: list[Process] = []
    for index in range(count):
        port = free_port()
        bus = ["--node", f"n{index + 1}", "--redis-url", args.redis_url] if count > 1 else []
        node = Process(
            [
                sys.executable, "-m", "pokerhouse", "serve", "--port", str(port),
                "--database-url", url, "--config", str(config), "--log-level", args.log_level,
                *bus,
            ],
            workdir / f"serve{index + 1}.log",
            port,
        )  # fmt: skip
        nodes.append(node)
        node.wait_listening()
        node.wait_healthy()  # the room started: the first one up runs every table
    server = Cluster(nodes, args.redis_url if count > 1 else None)
    failover: float | None = None
    if count > 1 and args.spread:
        share = -(-args.tables // count)
        deadline = time.monotonic() + 300
        while True:
            runs = [args.tables - len(node.health()["tables_elsewhere"]) for node in nodes]
            if max(runs) <= share and sum(runs) == args.tables:
                break  # spread, and none on its way between two nodes
            if time.monotonic() > deadline:
                raise RuntimeError(f"the tables did not spread in 300 s: {runs}")
            time.sleep(1.0)
        print(f"# tables spread: {runs} by node", file=sys.stderr, flush=True)
    try:
        tables = list(range(1, args.tables + 1))
        started = time.perf_counter()
        ports = [node.port for node in nodes]
        procs = max(args.procs, count)
        clients = Clients(ports, tables, names_for(tables, secrets.token_hex(2)), False, procs)
        try:
            clients.ready(timeout=600)
            seated = server.rss()
            print(
                f"# room: {args.tables * SEATS} players signed up and seated in "
                f"{time.perf_counter() - started:.1f} s on {count} node(s)",
                file=sys.stderr,
                flush=True,
            )
            rates: list[float | None] = list(args.rate) if args.rate else [None]
            measures = measure_windows(
                "room" if count == 1 else f"room, {count} nodes",
                server, clients, args.tables, args.seconds, args.warmup, rates,
                metrics=True, profile=args.profile, rss_seated=seated,
            )  # fmt: skip
            if count > 1:
                # One more window, not reported: node 1 dies in it; a spectator on node 2
                # watches a table node 1 ran until it plays on under another lease.
                rate = rates[-1]
                dying = Measure("failover", args.tables, 45.0, rate)
                start = time.time() + 1.0
                clients.window(
                    dying, start, start + 45.0, 0.0 if rate is None else args.tables / rate
                )
                time.sleep(max(0.0, start - time.time()))
                # A table node 1 runs (every table, unless they were spread) whose players
                # are on another node (table index i is played by client process i mod
                # procs, on node that mod count): they play on when node 1 is gone.
                elsewhere = set(nodes[0].health()["tables_elsewhere"])
                table = min(t for t in set(tables) - elsewhere if (t - 1) % procs % count != 0)
                failover = asyncio.run(time_failover(nodes[0], nodes[1].port, table=table))
                clients.collect(dying, timeout=120)
        finally:
            clients.stop()
    finally:
        server.stop()
    if failover is not None:
        print(json.dumps({"failover_seconds": round(failover, 2)}), flush=True)
        print(f"# failover: {failover:.2f} s from SIGKILL to the next action", file=sys.stderr)
    check = subprocess.run(
        [sys.executable, "-m", "pokerhouse", "ledger", "check", "--database-url", url],
        capture_output=True,
        text=True,
        timeout=600,
    )
    verdict = ("ok: " if check.returncode == 0 else "FAILED: ") + check.stdout.strip()
    return measures, verdict


async def time_failover(owner: Process, port: int, table: int) -> float:
    """SIGKILL ``owner`` (it runs ``table``); seconds until a spectator on the node at
    ``port`` sees the table's next action, taken under another lease."""
    import websockets
    from websockets.typing import Origin

    async with websockets.connect(
        f"ws://127.0.0.1:{port}/ws", origin=Origin(f"http://127.0.0.1:{port}"), open_timeout=30
    ) as ws:
        await ws.send(json.dumps({"type": "watch", "table": table}))
        lease = None
        while lease is None:
            for message in json.loads(await asyncio.wait_for(ws.recv(), 30)):
                if message.get("type") == "snapshot":
                    lease = message["seq"] >> 32
        owner.popen.kill()
        killed = time.monotonic()
        while True:
            for message in json.loads(await asyncio.wait_for(ws.recv(), 120)):
                event = message.get("event") if message.get("type") == "event" else None
                if event and event["type"] == "action_taken" and message["seq"] >> 32 != lease:
                    return time.monotonic() - killed


async def _postgres(url: str, name: str, create: bool) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        if create:
            await conn.execute(f'CREATE DATABASE "{name}"')
        else:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


def compare_nodes(runs: list[tuple[int, list[Measure]]]) -> None:
    """Each run of several nodes against the one-node runs beside it (the mean of the
    nearest before and after; the first run when no count is 1): CPU per action, and the
    p99 of the players served through the bus against theirs. With several runs of a
    count, the median of its ratios."""
    if len(runs) < 2 or not runs[0][1]:
        return

    def cpu(measure: Measure) -> float:
        return measure.server_cpu / max(1, measure.actions)

    singles = [(i, m[0]) for i, (count, m) in enumerate(runs) if count == 1 and m]
    ratios: dict[int, list[float]] = {}
    for index, (count, measures) in enumerate(runs):
        if count == 1 or not measures:
            continue
        before = [m for i, m in singles if i < index][-1:]
        after = [m for i, m in singles if i > index][:1]
        bases = before + after or [runs[0][1][0]]
        base_cpu = statistics.fmean(cpu(m) for m in bases)
        base_p99 = statistics.fmean(_pct(m.latencies, 0.99) for m in bases)
        first = measures[0]
        relayed = [v for n, v in first.summary().get("p99_ms_by_node", {}).items() if n != 1]
        cpu_ratio = round(cpu(first) / base_cpu, 2)
        ratio = {
            "nodes": count,
            "against_nodes": 1 if singles else runs[0][0],
            "against_runs": len(bases),
            "server_cpu_per_action_ratio": cpu_ratio,
            # Redis's CPU counted with the nodes' (one node has no Redis).
            "server_and_redis_cpu_per_action_ratio": round(
                (first.server_cpu + first.redis_cpu) / max(1, first.actions) / base_cpu, 2
            ),
            "relayed_p99_minus_base_p99_ms": (
                round(max(relayed) - base_p99, 2) if relayed else None
            ),
        }
        ratios.setdefault(count, []).append(cpu_ratio)
        print(json.dumps(ratio), flush=True)
        print(
            f"# {count} nodes against {ratio['against_nodes']} ({len(bases)} run(s) beside):"
            f" CPU per action x{cpu_ratio}, relayed p99"
            f" {ratio['relayed_p99_minus_base_p99_ms']} ms above",
            file=sys.stderr,
            flush=True,
        )
    for count, found in ratios.items():
        if len(found) > 1:
            median = round(statistics.median(found), 2)
            print(json.dumps({"nodes": count, "runs": len(found), "median_ratio": median}))
            print(f"# {count} nodes: median CPU ratio x{median} of {found}", file=sys.stderr)


def _counts(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError("node counts, comma-separated: 1,2,3") from None
    if not counts:
        raise argparse.ArgumentTypeError("at least one node count")
    return counts


def _rates(text: str) -> list[float | None]:
    """``max,1000,2000`` -> ``[None, 1000.0, 2000.0]``."""
    rates: list[float | None] = []
    for part in text.split(","):
        rate = None if part.strip() == "max" else float(part)
        if rate is not None and rate <= 0:
            raise argparse.ArgumentTypeError(f"a rate is > 0 actions/s, not {part}")
        rates.append(rate)
    return rates


def main(argv: list[str] | None = None) -> int:
    """Run the bare server and the room; print every window; exit 1 on errors or bad books."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100, help="six-seat tables (default 100)")
    parser.add_argument("--seconds", type=float, default=30.0, help="each measured window")
    parser.add_argument("--warmup", type=float, default=5.0, help="play before each window")
    parser.add_argument(
        "--bare-seconds", type=float, default=None,
        help="the bare server's window (default: --seconds, at most 30)",
    )  # fmt: skip
    parser.add_argument("--no-bare", action="store_true", help="skip the bare server")
    parser.add_argument("--procs", type=int, default=2, help="client processes (default 2)")
    parser.add_argument(
        "--rate", type=_rates, default=None,
        help="offered actions/s, one window each (comma-separated; 'max': unpaced): the knee",
    )  # fmt: skip
    parser.add_argument(
        "--database-url", default=None,
        help="a PostgreSQL server: a fresh database is made on it and dropped",
    )  # fmt: skip
    parser.add_argument("--log-level", default="warning", help="the server's (default warning)")
    parser.add_argument(
        "--nodes", type=_counts, default=[1],
        help="serve processes sharing the room over a Redis bus (default 1: no bus);"
        " comma-separated: one run each, compared with the first",
    )  # fmt: skip
    parser.add_argument(
        "--redis-url", default=os.environ.get("POKERHOUSE_TEST_REDIS_URL", "redis://127.0.0.1:6379/0"),
        help="the bus's Redis with --nodes > 1 (default $POKERHOUSE_TEST_REDIS_URL or local)",
    )  # fmt: skip
    parser.add_argument(
        "--spread", action="store_true",
        help="with --nodes: the nodes share the tables out (default: node 1 runs them all)",
    )  # fmt: skip
    parser.add_argument("--quick", action="store_true", help="a 20-second smoke run")
    parser.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE",
        help="one more room.toml [room] setting, e.g. --set gc_freeze=true (repeatable)",
    )  # fmt: skip
    parser.add_argument(
        "--profile", metavar="FILE",
        help="sample the room's server with py-spy through the first window (collapsed stacks;"
        " node N of several into FILE.N)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.quick:
        args.tables = min(args.tables, 10)
        args.seconds, args.warmup, args.procs = 5.0, 2.0, 1
        args.bare_seconds = 3.0
    if args.bare_seconds is None:
        args.bare_seconds = min(args.seconds, 30.0)
    if args.tables < 1 or args.seconds <= 0:
        parser.error("--tables and --seconds must be positive")
    if not all(1 <= count <= 8 for count in args.nodes):
        parser.error("--nodes is 1 to 8")
    workdir = Path(tempfile.mkdtemp(prefix="pokerhouse-load-"))
    pg_names: list[str] = []
    verdicts: list[str] = []
    try:
        measures: list[Measure] = []
        if not args.no_bare:
            measures += run_bare(args, workdir)
        runs: list[tuple[int, list[Measure]]] = []
        for count in args.nodes:
            if args.database_url:
                pg_name = f"pokerhouse_load_{secrets.token_hex(4)}"
                pg_names.append(pg_name)
                asyncio.run(_postgres(args.database_url, pg_name, create=True))
                url = args.database_url.rsplit("/", 1)[0] + "/" + pg_name
                # PostgreSQL is never migrated by serve itself.
                subprocess.run(
                    [sys.executable, "-m", "pokerhouse", "db", "upgrade", "--database-url", url],
                    check=True,
                    capture_output=True,
                    timeout=300,
                )
            else:
                url = f"sqlite:///{workdir / f'room-{len(runs)}-{count}.db'}"
            room, verdict = run_room(args, workdir, url, count)
            runs.append((count, room))
            measures += room
            verdicts.append(verdict)
            print(f"# ledger check: {verdict}", file=sys.stderr, flush=True)
            print(json.dumps({"ledger_check": verdict}), flush=True)
        compare_nodes(runs)
        room = runs[0][1]
        bare = [m for m in measures if m.label == "bare"]
        if bare and room:
            ratio = {
                "room_vs_bare_actions": round(room[0].rate / bare[0].rate, 3),
                "room_vs_bare_server_cpu_per_action": round(
                    (room[0].server_cpu / max(1, room[0].actions))
                    / (bare[0].server_cpu / max(1, bare[0].actions)),
                    2,
                ),
            }
            print(json.dumps(ratio), flush=True)
        errors = sum(sum(m.errors.values()) + m.closed for m in measures)
        return 0 if errors == 0 and all(v.startswith("ok") for v in verdicts) else 1
    finally:
        for pg_name in pg_names:
            asyncio.run(_postgres(args.database_url, pg_name, create=False))
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
