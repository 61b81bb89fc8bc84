"""What the room counts about itself, served at ``/metrics`` in Prometheus's text format.

An operator can tell from these alone whether the room is healthy: how many
connections it holds, how many actions and hands it plays (``rate()`` of the
counters gives them per second), how long its commits take, how many hands
are in progress, how many tables can save, and which errors it answers with.

>>> metrics = Metrics()
>>> metrics.action("razz")
>>> b'pokerhouse_actions_total{game="razz"} 1.0' in metrics.render()
True
"""

from __future__ import annotations

import gc
import time
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

#: Prometheus's text format.
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


class Metrics:
    """The room's counters, gauges and histograms, in a registry of its own."""

    def __init__(self) -> None:
        self.registry = registry = CollectorRegistry()
        self.connections = Gauge(
            "pokerhouse_connections", "Open websocket connections", registry=registry
        )
        self.connections_opened = Counter(
            "pokerhouse_connections_opened_total",
            "Websocket connections accepted (rate(): new connections per second)",
            registry=registry,
        )
        self.actions = Counter(
            "pokerhouse_actions_total", "Actions applied and committed", ["game"], registry=registry
        )
        self._actions: dict[str, Any] = {}
        self.hands = Counter(
            "pokerhouse_hands_total", "Hands ended, by how", ["game", "outcome"], registry=registry
        )
        self.hands_in_progress = Gauge(
            "pokerhouse_hands_in_progress", "Hands being played now", registry=registry
        )
        self.remote_watchers = Gauge(
            "pokerhouse_remote_watchers",
            "Clients on other nodes watching tables this node runs (relayed over the bus)",
            registry=registry,
        )
        self.tables_available = Gauge(
            "pokerhouse_tables_available",
            "Tables whose database answers (the others are reloading)",
            registry=registry,
        )
        self.commit_seconds = Histogram(
            "pokerhouse_commit_seconds",
            "Time of one group commit of hand-log writes",
            buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1.0),
            registry=registry,
        )
        self.commit_parts = Histogram(
            "pokerhouse_commit_parts",
            "Tables' writes sharing one group commit",
            buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256),
            registry=registry,
        )
        self.errors = Counter(
            "pokerhouse_errors_total",
            "Refusals sent to clients, by code (websocket errors and HTTP problems)",
            ["code"],
            registry=registry,
        )
        self.http_requests = Counter(
            "pokerhouse_http_requests_total",
            "HTTP requests answered, by status class",
            ["status"],
            registry=registry,
        )
        self.slow_clients = Counter(
            "pokerhouse_slow_clients_total",
            "Connections cut off for not reading",
            registry=registry,
        )
        self.gc_pauses = Histogram(
            "pokerhouse_gc_pause_seconds",
            "Pauses of the garbage collector, by generation",
            ["generation"],
            buckets=(0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0),
            registry=registry,
        )
        self._gc_children = [self.gc_pauses.labels(generation=str(n)) for n in range(3)]
        self._gc_started = 0.0

    def action(self, game: str) -> None:
        """One more action committed at ``game``."""
        # ``labels()`` looks the child up under a lock each time: keep each game's.
        child = self._actions.get(game)
        if child is None:
            child = self._actions[game] = self.actions.labels(game=game)
        child.inc()

    def hand(self, game: str, outcome: str) -> None:
        """A hand of ``game`` ended: ``finished`` or ``voided``."""
        self.hands.labels(game=game, outcome=outcome).inc()

    def error(self, code: str) -> None:
        """An ``error`` message with ``code`` went to a client."""
        self.errors.labels(code=code).inc()

    def committed(self, seconds: float, parts: int) -> None:
        """A group commit took ``seconds`` for ``parts`` tables' writes."""
        self.commit_seconds.observe(seconds)
        self.commit_parts.observe(parts)

    def watch_gc(self) -> None:
        """Time every collection from now on (``gc.callbacks``)."""
        if self._gc_callback not in gc.callbacks:
            gc.callbacks.append(self._gc_callback)

    def unwatch_gc(self) -> None:
        """Stop timing collections."""
        if self._gc_callback in gc.callbacks:
            gc.callbacks.remove(self._gc_callback)

    def _gc_callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
        elif self._gc_started:
            generation = min(2, max(0, info.get("generation", 0)))
            self._gc_children[generation].observe(time.perf_counter() - self._gc_started)
            self._gc_started = 0.0

    def render(self) -> bytes:
        """Everything, in Prometheus's text format."""
        return generate_latest(self.registry)
