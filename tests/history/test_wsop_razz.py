"""Real hands: four WSOP 2023 Razz hands replay to their recorded finishing stacks."""

from __future__ import annotations

from pathlib import Path

import pytest

from pokerhouse.engine import ActionKind
from pokerhouse.engine.events import ActionTaken, HandShown, StreetStarted
from pokerhouse.history import read_phh, replay_phh, to_phh
from pokerhouse.history.phh import PhhHand

REPO = Path(__file__).resolve().parents[2]
#: Our own copies (see tests/data/phh/README.md): the test never skips.
LOCAL = REPO / "tests" / "data" / "phh"
#: The shared data set beside the checkout (``<clone>/../shared``), when present.
SHARED = REPO.parent / "shared" / "data" / "phh"
HANDS = (20, 24, 26, 85)


def phh_path(folder: Path, number: int) -> Path:
    return folder / f"wsop-2023-43-5-{number}-razz.phh"


def load(number: int) -> tuple[PhhHand, str]:
    text = phh_path(LOCAL, number).read_text()
    return read_phh(text), text


@pytest.mark.parametrize("number", HANDS)
def test_wsop_razz_hand_replays_to_its_finishing_stacks(number: int) -> None:
    history, text = load(number)
    hand = replay_phh(text)
    assert hand.is_over
    assert history.finishing_stacks is not None
    assert hand.stacks == history.finishing_stacks
    assert sum(hand.stacks) == sum(history.starting_stacks)


@pytest.mark.parametrize("number", HANDS)
def test_wsop_razz_shared_copy_replays_too(number: int) -> None:
    path = phh_path(SHARED, number)
    if not path.exists():
        pytest.skip(f"the shared data set is not beside this checkout ({SHARED})")
    assert path.read_bytes() == phh_path(LOCAL, number).read_bytes()
    hand = replay_phh(path.read_bytes())
    assert hand.stacks == read_phh(path.read_bytes()).finishing_stacks


def test_wsop_hand_24_king_of_hearts_brings_in_over_king_of_diamonds() -> None:
    _, text = load(24)
    hand = replay_phh(text)
    doors = {0: "Kh", 3: "Kd"}
    for seat, card in doors.items():
        assert str(hand.cards[seat][2]) == card
    first = next(event for event in hand.events if isinstance(event, ActionTaken))
    assert first.seat == 0 and first.action.kind is ActionKind.BRING_IN


def test_wsop_hand_85_paired_board_acts_after_unpaired_and_all_in_on_sixth() -> None:
    _, text = load(85)
    hand = replay_phh(text)
    street = ""
    openers: dict[str, int] = {}
    for event in hand.events:
        if isinstance(event, StreetStarted):
            street = event.street
        elif isinstance(event, ActionTaken):
            openers.setdefault(street, event.seat)
    # Sixth street: p1 shows Q-J-4-A, p2 a pair of eights (8d 2s Td 8s): p1 acts first.
    assert openers["sixth"] == 0
    all_in = [e for e in hand.events if isinstance(e, ActionTaken) and e.all_in]
    assert [(e.seat, e.action.kind) for e in all_in] == [(0, ActionKind.CALL)]
    shown = {e.seat: e.description for e in hand.events if isinstance(e, HandShown)}
    assert shown == {0: "J-8-4-2-A low", 1: "8-7-4-3-2 low"}
    assert hand.stacks == (0, 29_700_000)


@pytest.mark.parametrize("number", HANDS)
def test_wsop_razz_hand_written_back_as_phh_replays_the_same(number: int) -> None:
    _, text = load(number)
    hand = replay_phh(text)
    again = replay_phh(to_phh(hand))
    assert again.events == hand.events
    assert again.stacks == hand.stacks
