"""A bounded background load, to run the tests as on a busy laptop.

    python3 scripts/busy.py [--duty 0.8] [--seconds 7200] [--dir DIR] [--no-disk]

Keeps every core busy (one burner process per core, each spinning ``duty``
of every tenth of a second, in short jittered bursts so the scheduler has
to share rather than take turns) and the disk too (a writer that rewrites
and fsyncs a 16 MiB file in ``--dir``, by default the system's temporary
folder, where the tests keep their databases: their fsyncs wait in line; on
a tmpfs an fsync costs nothing, so there is no disk load). It is bounded
every way it can end: it stops after ``--seconds``, on SIGINT or SIGTERM,
and when the process that started it goes away (even by SIGKILL); its file
has no name from the moment it is made, so nothing is left behind. Only the
standard library, so it runs before any virtual environment exists.

``bash scripts/test --busy`` runs the whole suite under it.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import signal
import sys
import tempfile
import time
from collections.abc import Callable

#: One burst of spinning and resting, in seconds.
PERIOD = 0.1
#: The writer's file, rewritten in 1 MiB blocks and fsynced after each.
FILE_BYTES = 16 * 2**20
BLOCK = b"\xa5" * 2**20


def _orphaned(parent: int) -> bool:
    """Whether the process that started us is gone (we were handed to init)."""
    return os.getppid() != parent


def burn(duty: float, deadline: float, parent: int) -> None:
    """Spin ``duty`` of each period until the deadline or until orphaned."""
    jitter = random.Random(os.getpid())
    while time.monotonic() < deadline and not _orphaned(parent):
        period = PERIOD * jitter.uniform(0.5, 1.5)
        spin_until = time.monotonic() + period * duty
        while time.monotonic() < spin_until:
            pass
        time.sleep(period * (1 - duty))


def write(folder: str, deadline: float, parent: int) -> None:
    """Rewrite and fsync a nameless file, block by block, until the deadline or orphaned."""
    with tempfile.TemporaryFile(dir=folder, buffering=0) as file:
        while time.monotonic() < deadline and not _orphaned(parent):
            file.seek(0)
            for _ in range(FILE_BYTES // len(BLOCK)):
                file.write(BLOCK)
                os.fsync(file.fileno())
                if _orphaned(parent):
                    return


def _stop_on_signals() -> None:
    def stop(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--duty", type=float, default=0.8, help="share of each core to keep busy (0-1]"
    )
    parser.add_argument("--seconds", type=float, default=7200.0, help="stop after this long")
    parser.add_argument("--dir", default=tempfile.gettempdir(), help="where the writer's file goes")
    parser.add_argument("--no-disk", action="store_true", help="no fsyncing writer")
    args = parser.parse_args(argv)
    if not 0 < args.duty <= 1:
        parser.error(f"--duty must be in (0, 1], not {args.duty}")
    if args.seconds <= 0:
        parser.error(f"--seconds must be positive, not {args.seconds}")
    _stop_on_signals()
    starter = os.getppid()
    deadline = time.monotonic() + args.seconds
    me = os.getpid()
    if not args.no_disk and not os.path.isdir(args.dir):
        parser.error(f"--dir {args.dir} is not a folder")
    # Forked workers, whatever the platform's default: a worker knows it is orphaned when
    # its parent (this process) is no longer its parent, which a fork server would be.
    fork = multiprocessing.get_context("fork")
    # The workers' own deadline is a little later: this process stops them first.
    late = deadline + 5
    jobs: list[tuple[Callable[..., None], tuple[object, ...]]] = [
        (burn, (args.duty, late, me)) for _ in range(os.cpu_count() or 1)
    ]
    if not args.no_disk:
        jobs.append((write, (args.dir, late, me)))
    workers = [fork.Process(target=job, args=job_args, daemon=True) for job, job_args in jobs]
    for worker in workers:
        worker.start()
    print(
        f"busy: {os.cpu_count() or 1} burners at {args.duty:.0%}"
        f"{'' if args.no_disk else f' and an fsyncing writer in {args.dir}'}"
        f" for at most {args.seconds:.0f} s",
        file=sys.stderr,
    )
    try:
        while time.monotonic() < deadline and not _orphaned(starter):
            if not all(worker.is_alive() for worker in workers):
                raise SystemExit("busy: a worker stopped early")
            time.sleep(0.5)
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.join(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
