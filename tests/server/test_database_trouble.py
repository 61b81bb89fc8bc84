"""Database trouble in the middle of play: PostgreSQL stopped, SQLite locked, SQLite's disk full.

Each test runs a room (in this process, on a real socket, on a manual clock:
a bot acts when the test moves the time on, so the table stands still while
it is compared with the store) with bots and one person at a table, then
breaks the database mid-hand. While it is broken: the person's actions get
``error`` ``room_unavailable``, every watcher was told so, ``/healthz`` is
``503`` within seconds, and no call hangs past ``database_seconds``. Once
the database is back the table reloads, equals what was committed (its
running hand is exactly the replay of the stored log) and plays on; at the
end ``ledger check`` passes and every finished hand's log replays to its
results.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import glob
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import httpx
import pytest

from pokerhouse.history.replay import replay
from pokerhouse.server.runtime.clock import ManualClock
from pokerhouse.server.settings import RoomSettings
from pokerhouse.store import Store
from pokerhouse.store.rebuild import rebuild_hand
from tests.conftest import FAST_HASHER
from tests.server.conftest import Client, Harness, serve, table
from tests.server.play import decision_of, passive, sit
from tests.server.process import free_port

#: The deadline of every database call while the database is broken (room.toml
#: ``database_seconds``; on SQLite it bounds only the wait for another process's lock).
#: On PostgreSQL, where it bounds every call, calls have HEALTHY seconds before and
#: after: a loaded machine's slow fsync is not the fault under test.
DEADLINE = 1.0
HEALTHY = 60.0
#: How soon the table and ``/healthz`` must notice once the database breaks: a few
#: deadlines, and slack for a loaded machine (a room that never noticed would hang).
NOTICE_WITHIN = 4 * DEADLINE + 30.0

SETTINGS = RoomSettings(
    bot_think=(1.0, 1.0),  # on the manual clock: a bot acts when the test says so
    hand_pause=0.0,
    retry_seconds=0.5,
    database_seconds=DEADLINE,
    lease_seconds=300.0,  # a slow commit on a loaded machine must not cost the lease
    registrations_per_hour=100_000,
)
TABLES = [table("trouble", "3x4", options={"ante": 1, "small_bet": 2}, seats=4, bots=2)]

Trouble = Callable[[], Awaitable[None]]


async def health(room: Harness) -> tuple[int, dict[str, object]]:
    async with httpx.AsyncClient(base_url=room.base, timeout=30) as http:
        response = await http.get("/healthz")
        return response.status_code, response.json()


async def answer(person: Client, table_id: int) -> bool:
    """Send the passive answer to the person's pending decision, if there is one."""
    pending = decision_of(person, table_id)
    if pending is None:
        return False
    _seq, hand, _seat, decision = pending
    await person.send(
        {
            "type": "act",
            "table": table_id,
            "hand": hand,
            "action": passive(decision, person),
            "id": person.next_id(),
        }
    )
    return True


async def play(room: Harness, person: Client, table_id: int, steps: int) -> None:
    """Move the clock on ``steps`` times: bots act; the person answers each decision."""
    for _ in range(steps):
        mark = len(person.frames)
        if await answer(person, table_id):
            await person.wait_for(lambda f: f.get("type") in ("ack", "error"), after=mark)
        await room.clock.advance(1.0)
        await room.settle()


async def same_as_the_store(room: Harness, store: Store, table_id: int) -> None:
    """The table in memory is what the store committed: seats, stacks, the running hand."""
    task = room.site.room.tasks[table_id]
    assert task.available
    seats = {record.seat: record for record in await store.tables.seats(table_id)}
    for seat in range(task.config.seats):
        info = task.table.seat(seat)
        assert (info is None) == (seat not in seats), seat
    logs = await store.hands.unfinished(table_id)
    hand = task.table.hand
    if hand is None:
        assert not logs
        for seat, record in seats.items():
            assert task.table.seat(seat).stack == record.stack  # type: ignore[union-attr]
    else:
        assert [log.number for log in logs] == [task.table.hand_number]
        assert rebuild_hand(logs[0]).events == hand.events


async def finished_hands_replay(store: Store, player: str) -> int:
    hands = await store.hands.played_by(await store.users.get(player), limit=500)
    checked = 0
    for summary in hands:
        record = await store.hands.get(summary.id)
        if record.status == "finished":
            assert record.history is not None
            assert tuple(replay(record.history).results()) == record.results
            assert rebuild_hand(await store.hands.log(summary.id)).results() == record.results
            checked += 1
    return checked


async def through_trouble(
    url: str, break_it: Trouble, mend_it: Trouble, *, settings: RoomSettings = SETTINGS
) -> dict[str, float]:
    """Play, break the database mid-hand, check the room's answers, mend it, play on."""
    figures: dict[str, float] = {}
    async with serve(url, TABLES, settings=settings, clock=ManualClock()) as room:
        table_id = room.table_id("trouble")
        task = room.site.room.tasks[table_id]
        person = await room.player("trouble_ann")
        await sit(person, table_id, 3, 100)
        await play(room, person, table_id, 6)
        while task.table.hand is None:  # break it with a hand running
            await play(room, person, table_id, 1)
        assert (await health(room))[0] == 200
        hands_before = task.table.hands_played
        # On PostgreSQL the deadline bounds every call from now on (on SQLite, where it bounds
        # only the wait for another process's lock, it was DEADLINE from the start).
        database = room.site.store.database
        database.deadline = DEADLINE
        await break_it()
        broke = time.perf_counter()
        mark = len(person.frames)
        # The next move cannot be saved, whoever makes it: the table stops and says so.
        # (The person may be the one to act: then the bots wait, and the person's act fails.)
        acted = False
        while task.available:
            assert time.perf_counter() - broke < NOTICE_WITHIN, "the table never noticed"
            acted = acted or await answer(person, table_id)
            await room.clock.advance(1.0)
            await asyncio.sleep(0.05)
        figures["noticed_s"] = time.perf_counter() - broke
        told = await person.wait_for(
            lambda f: f.get("type") == "error" and f.get("code") == "room_unavailable", after=mark
        )
        assert told["table"] == table_id
        while (await health(room))[0] != 503:
            assert time.perf_counter() - broke < NOTICE_WITHIN, "/healthz stayed healthy"
            await asyncio.sleep(0.1)
        figures["unhealthy_after_s"] = time.perf_counter() - broke
        status, body = await health(room)
        assert status == 503 and table_id in body["tables_unavailable"]  # type: ignore[operator]
        # The person's requests are refused with the same code; nothing is taken.
        for message in (
            {"type": "sit_out", "table": table_id},
            {"type": "act", "table": table_id, "hand": 1, "action": {"kind": "fold"}, "id": "x-1"},
        ):
            mark = len(person.frames)
            await person.send(message)
            refused = await person.wait_for(lambda f: f.get("type") == "error", after=mark)
            assert refused["code"] == "room_unavailable"
        # The reload keeps trying (and failing within the deadline) while it is broken.
        for _ in range(3):
            await room.clock.advance(settings.retry_seconds)
            await asyncio.sleep(DEADLINE / 2)
        assert not task.available
        mended = time.perf_counter()  # back after: counted from the start of the mending
        await mend_it()
        database.deadline = settings.database_seconds
        while not task.available:
            assert time.perf_counter() - mended < 60, "the table never came back"
            await room.clock.advance(settings.retry_seconds)
            await asyncio.sleep(0.05)
        figures["back_after_s"] = time.perf_counter() - mended
        await room.settle()
        assert (await health(room))[0] == 200
        store = room.site.store
        await same_as_the_store(room, store, table_id)
        # It plays on: more hands, each finished one as its log implies.
        while task.table.hands_played < hands_before + 3:
            assert time.perf_counter() - mended < 120, "play did not go on"
            await play(room, person, table_id, 1)
        await same_as_the_store(room, store, table_id)
        report = await store.check()
        assert report.ok, report
        figures["finished_hands_checked"] = await finished_hands_replay(store, "trouble_ann")
    print(f"\ndatabase trouble: {figures}")
    return figures


# ---------------------------------------------------------------- SQLite locked


LOCKER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
conn.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.read()  # until the test closes our stdin
conn.execute("ROLLBACK")
"""


async def test_a_sqlite_file_locked_by_another_process(tmp_path: Path) -> None:
    path = tmp_path / "locked.db"
    locker: subprocess.Popen[bytes] | None = None

    async def lock() -> None:
        nonlocal locker
        locker = subprocess.Popen(
            [sys.executable, "-c", LOCKER, str(path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        assert locker.stdout is not None
        assert await asyncio.to_thread(locker.stdout.readline) == b"locked\n"

    async def unlock() -> None:
        assert locker is not None and locker.stdin is not None
        locker.stdin.close()
        await asyncio.to_thread(locker.wait, 10)

    try:
        await through_trouble(f"sqlite:///{path}", lock, unlock)
    finally:
        if locker is not None and locker.poll() is None:
            locker.kill()


# ---------------------------------------------------------------- SQLite, disk full


@contextlib.contextmanager
def small_disk(where: Path, size: str) -> Iterator[Path]:
    where.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], check=True)
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a small tmpfs needs root (CI runs as root)")
async def test_a_sqlite_file_on_a_full_disk(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk", "8m") as disk:
        filler = disk / "filler"

        async def fill() -> None:
            # Unbuffered: when the disk is full the write fails, not a flush at close.
            with filler.open("wb", buffering=0) as out:
                block = b"\0" * 65536
                with contextlib.suppress(OSError):  # ENOSPC: the disk is full
                    while True:
                        out.write(block)

        async def free() -> None:
            filler.unlink()

        await through_trouble(f"sqlite:///{disk}/room.db", fill, free)


# ---------------------------------------------------------------- PostgreSQL stopped


def postgres_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return Path(found[-1]).parent if found else None


class PrivatePostgres:
    """A PostgreSQL server of the test's own: ``initdb`` in a temp dir, on a free port."""

    def __init__(self, bin_dir: Path, root: Path) -> None:
        self.bin = bin_dir
        self.data = root / "pgdata"
        self.port = free_port()
        self.log = root / "postgres.log"
        self.user = "postgres" if os.geteuid() == 0 else None
        root.mkdir(exist_ok=True)
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(root, entry.pw_uid, entry.pw_gid)

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[bytes]:
        command = [str(self.bin / args[0]), *args[1:]]
        if self.user is not None:  # initdb refuses root
            command = ["runuser", "-u", self.user, "--", *command]
        return subprocess.run(command, check=check, capture_output=True, timeout=120)

    def init(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop", check=False)

    def processes(self) -> list[int]:
        """The postmaster's pid and its children's."""
        postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        children = Path(f"/proc/{postmaster}/task/{postmaster}/children").read_text().split()
        return [postmaster, *map(int, children)]

    def freeze(self) -> None:
        """SIGSTOP every process of this server: connections stay open, nothing answers."""
        for pid in reversed(self.processes()):
            os.kill(pid, signal.SIGSTOP)

    def thaw(self) -> None:
        for pid in self.processes():
            os.kill(pid, signal.SIGCONT)

    def url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"


@pytest.mark.slow
@pytest.mark.skipif(postgres_bin() is None, reason="no PostgreSQL server binaries installed")
@pytest.mark.skipif(shutil.which("runuser") is None and os.geteuid() == 0, reason="no runuser")
@pytest.mark.parametrize("how", ["stopped", "frozen"])
async def test_postgresql_stopped_in_the_middle_of_play(how: str) -> None:
    """``stopped``: ``pg_ctl stop`` (connections refused); ``frozen``: SIGSTOP (nothing
    answers, so only the deadline on every call keeps the room from hanging)."""
    bin_dir = postgres_bin()
    assert bin_dir is not None
    # Not under tmp_path: the server's user must be able to reach its directory.
    root = Path(tempfile.mkdtemp(prefix="pokerhouse-pg-"))
    server = PrivatePostgres(bin_dir, root)
    await asyncio.to_thread(server.init)
    await asyncio.to_thread(server.start)
    try:
        import asyncpg

        admin = await asyncpg.connect(server.url("postgres"), timeout=30)
        await admin.execute("CREATE DATABASE room")
        await admin.close()
        url = server.url("room")
        store = await Store.open(url, upgrade=True, password_hasher=FAST_HASHER)
        await store.close()

        async def stop() -> None:
            await asyncio.to_thread(server.stop if how == "stopped" else server.freeze)

        async def start() -> None:
            await asyncio.to_thread(server.start if how == "stopped" else server.thaw)

        await through_trouble(
            url, stop, start, settings=dataclasses.replace(SETTINGS, database_seconds=HEALTHY)
        )
    finally:
        with contextlib.suppress(Exception):
            server.thaw()
        await asyncio.to_thread(server.stop)
        shutil.rmtree(root, ignore_errors=True)
