"""Real processes on free loopback ports, to kill and restart: `pokerhouse serve`, and a
`redis-server` of a test's own."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import redis

#: Ports a test run hands out, below the kernel's ephemeral range (where the clients' own
#: ports come from): each worker of a parallel run (pytest-xdist's ``gw0``, ``gw1``...)
#: draws from a band of its own, so two workers never pick the same port at once.
PORTS, BAND = range(20_000, 32_000), 1_500


def free_port() -> int:
    """A TCP port nobody listens on now (loopback), from this worker's band."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    start = PORTS.start + (int(worker) if worker.isdigit() else 0) % (len(PORTS) // BAND) * BAND
    for _ in range(200):
        port = random.randrange(start, start + BAND)
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue  # taken: another draw
            return port
    raise RuntimeError(f"no free port between {start} and {start + BAND}")


#: How long a room may take to open: a loaded laptop imports the package slowly.
START_SECONDS = 90.0


class ServeProcess:
    """``pokerhouse serve`` on ``port`` over ``database_url``, with ``config`` (a room.toml),
    as node ``node`` on the bus at ``redis_url``, if given."""

    def __init__(
        self,
        database_url: str,
        config: Path,
        port: int | None = None,
        log_level: str = "warning",
        node: str | None = None,
        redis_url: str | None = None,
        reuse_port: bool = False,
    ) -> None:
        self.database_url = database_url
        self.log_level = log_level
        self.config = config
        self.node = node
        self.redis_url = redis_url
        self.reuse_port = reuse_port
        self.port = port if port is not None else free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.log = config.with_suffix(".log") if node is None else config.with_name(f"{node}.log")

    def start(self, timeout: float = START_SECONDS, env: dict[str, str] | None = None) -> None:
        """Start the server (``env``: extra variables) and wait until ``/healthz`` answers."""
        env = dict(os.environ, PYTHONUNBUFFERED="1", **(env or {}))
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable, "-m", "pokerhouse", "serve",
                    "--port", str(self.port),
                    "--database-url", self.database_url,
                    "--config", str(self.config),
                    "--log-level", self.log_level,
                    *(["--node", self.node] if self.node is not None else []),
                    *(["--redis-url", self.redis_url] if self.redis_url is not None else []),
                    *(["--reuse-port"] if self.reuse_port else []),
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
            )  # fmt: skip
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"serve exited with {self.process.returncode}: {self.log.read_text()}"
                )
            try:
                if httpx.get(f"{self.base}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"serve did not answer in {timeout} s: {self.log.read_text()}")

    def wait(self, timeout: float) -> bool:
        """Whether the process has ended within ``timeout`` seconds (it is not touched)."""
        assert self.process is not None
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return False
        return True

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, nothing."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        """Stop gracefully (SIGINT), or kill if it does not go."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.kill()


async def wait_until(test: object, timeout: float = 60.0, what: str = "the condition") -> None:
    """Wait until ``test()`` is true (polling); fail after ``timeout`` s saying ``what``."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not test():  # type: ignore[operator]
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"{what}: not so after {timeout} s")
        await asyncio.sleep(0.02)


async def ledger_check(database_url: str) -> None:
    """``pokerhouse ledger check`` of the room's books, as an operator runs it: it passes."""
    check = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "pokerhouse", "ledger", "check", "--database-url", database_url],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert check.returncode == 0, check.stdout + check.stderr


class RedisServer:
    """A ``redis-server`` of the test's own on a free loopback port, keeping nothing on disk."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.workdir = workdir
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start it and wait until it answers."""
        binary = shutil.which("redis-server")
        assert binary is not None, "redis-server is not installed"
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        client = redis.Redis(port=self.port, socket_timeout=2)
        deadline = time.monotonic() + 30
        while True:
            try:
                client.ping()
                break
            except (redis.RedisError, OSError):
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)
        client.close()

    def kill(self) -> None:
        """SIGKILL: what it held is gone."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
