"""Sends paced under the room's budget, pauses after a refusal, reconnects backing off."""

from __future__ import annotations

import asyncio

from hypothesis import given
from hypothesis import strategies as st

from pokerhouse.client.pacing import Backoff, Pacer


class FakeTime:
    """A clock that moves only when slept on."""

    def __init__(self) -> None:
        self.now = 0.0

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += max(0.0, seconds)


def sends_at(pacer: Pacer, count: int) -> list[float]:
    times: list[float] = []

    async def send_all() -> None:
        for _ in range(count):
            await pacer.wait()
            times.append(pacer.clock())

    asyncio.run(send_all())
    return times


@given(rate=st.integers(1, 50), burst=st.integers(1, 60), count=st.integers(1, 300))
def test_no_window_of_a_second_holds_more_sends_than_rate_plus_burst(
    rate: int, burst: int, count: int
) -> None:
    time = FakeTime()
    times = sends_at(Pacer(rate=rate, burst=burst, clock=time.clock, sleep=time.sleep), count)
    assert len(times) == count
    for index, start in enumerate(times):
        within = sum(1 for moment in times[index:] if moment < start + 1.0)
        assert within <= rate + burst
    # And no slower than it must be: the last send waits only for what the rate asks.
    assert times[-1] <= max(0, count - burst) / rate + 1e-9


def test_a_refusal_holds_every_send_back_doubling_to_eight_seconds_until_one_goes() -> None:
    time = FakeTime()
    pacer = Pacer(rate=10, burst=20, clock=time.clock, sleep=time.sleep)
    assert [pacer.refused() for _ in range(6)] == [1.0, 2.0, 4.0, 8.0, 8.0, 8.0]
    held_from = time.now
    sends_at(pacer, 1)
    assert time.now - held_from >= 8.0
    pacer.accepted()
    assert pacer.refused() == 1.0


def test_reconnects_back_off_to_the_cap_and_start_again_after_a_success() -> None:
    backoff = Backoff(base=0.5, cap=10.0)
    delays = [backoff.next() for _ in range(8)]
    assert delays == [0.5, 1.0, 2.0, 4.0, 8.0, 10.0, 10.0, 10.0]
    backoff.reset()
    assert backoff.next() == 0.5
