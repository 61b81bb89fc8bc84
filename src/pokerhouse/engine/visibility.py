"""What a viewer is shown: the one rule between a hand's truth and anyone looking at it.

RULES.md, "Information": a player sees their own hole cards, every face-up
card and every card shown at showdown; mucked cards and the undealt deck are
never revealed; a spectator sees no hole card until it is shown.
:func:`shown_to` is that rule, and the only code that applies it. Given an
event, or one seat's cards as a hand holds them (a :class:`Holding`), and a
viewer, it returns what that viewer is shown. Live frames and their resume,
snapshots and views, histories in every format, the hand API's copies and
their equity, and the bot client's rebuilt view are all made from its
answers; nothing else hides or reveals a card.

A viewer is one seat (an ``int``); several seats held by one person (a
``frozenset``: Casino Hold'em boxes, or the seats an account held when an
event happened); or ``None``, a spectator.

Everything hidden has an **audience**, the seats shown it whole (:func:`audience`;
``None`` for something public). A viewer holding a seat of the audience is
shown it whole; every other viewer is shown exactly what a spectator is. So
an event has at most two copies, and a sender decides once per audience,
never once per watcher.

>>> from pokerhouse.cards import parse_cards
>>> from pokerhouse.engine.events import CardsDealt
>>> dealt = CardsDealt(seat=1, cards=parse_cards("As Kd 7c"), face_up=(False, False, True))
>>> shown_to(dealt, 1) is dealt, shown_to(dealt, frozenset({0, 1})) is dealt
(True, True)
>>> shown_to(dealt, 0).cards, shown_to(dealt, None) == shown_to(dealt, 0)
((None, None, 7c), True)
>>> sorted(audience(dealt))
[1]

A hand keeps each seat's cards as a :class:`Holding`, and a view asks the
same function for them:

>>> held = Holding(frozenset({1})).dealt(parse_cards("As Kd 7c"), (False, False, True))
>>> shown_to(held, 1), shown_to(held, None)
((As, Kd, 7c), (None, None, 7c))
>>> shown_to(held.shown(), None)
(As, Kd, 7c)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import overload

from pokerhouse.cards import Card
from pokerhouse.engine.events import Event
from pokerhouse.errors import InvalidAction

#: Who looks: one seat, several seats held by one person (boxes at a banked game,
#: or an account's seats when an event happened), or ``None`` for a spectator.
Viewer = int | frozenset[int] | None

#: The seats shown something whole; ``None``: everybody (it is public).
Audience = frozenset[int] | None


def check_viewer(viewer: object) -> None:
    """Refuse a viewer that is not a seat number, a frozenset of them, or ``None``.

    ``True == 1`` and ``1.0 == 1``: either would be let in as seat 1.

    >>> check_viewer(frozenset({0, 2})), check_viewer(None)
    (None, None)
    >>> check_viewer(True)
    Traceback (most recent call last):
    ...
    pokerhouse.errors.InvalidAction: True is not a seat number
    """
    if viewer is None or type(viewer) is int:
        return
    if type(viewer) is frozenset:
        # A loop, not all() over a generator: a sender checks a viewer with every copy.
        for seat in viewer:
            if type(seat) is not int:
                break
        else:
            return
    raise InvalidAction("bad_seat", f"{viewer!r} is not a seat number")


class Holding:
    """One seat's cards (or the dealer's) as a hand holds them, and who is shown which.

    ``cards`` are in deal order and ``face_up`` flags each; a face-up card is
    shown to everybody, the others to ``audience``: the owner, nobody (a
    blind Teen Patti player, the dealer's hole cards), the owner and the
    other player of a sideshow, or everybody (``None``) once shown.
    ``public`` is what everybody else is shown, kept so that a view costs a
    lookup, not a pass over the cards. A holding never changes: dealing and
    showing make a new one.

    >>> from pokerhouse.cards import parse_cards
    >>> blind = Holding(frozenset()).dealt(parse_cards("2c 3c 4c"), (False,) * 3)
    >>> shown_to(blind, 0), shown_to(blind.shown(frozenset({0})), 0)
    ((None, None, None), (2c, 3c, 4c))
    >>> looked = Holding(frozenset({0}), parse_cards("2c 3c 4c"), (False,) * 3)
    >>> blind.shown(frozenset({0})) == looked
    True
    """

    # Slots set once, by hand: a deal makes one for every seat, and a frozen
    # dataclass's __init__ costs several times more; dealing masks only the new cards.
    __slots__ = ("audience", "cards", "face_up", "public")

    audience: Audience
    cards: tuple[Card, ...]
    face_up: tuple[bool, ...]
    public: tuple[Card | None, ...]

    def __init__(
        self, audience: Audience, cards: Sequence[Card] = (), face_up: Sequence[bool] = ()
    ) -> None:
        cards, face_up = tuple(cards), tuple(face_up)
        if len(cards) != len(face_up):
            raise ValueError("a holding needs one face-up flag a card")
        self.audience = audience
        self.cards = cards
        self.face_up = face_up
        self.public = cards if audience is None else _masked(cards, face_up)

    @staticmethod
    def owned(seat: int) -> Holding:
        """An empty holding whose hidden cards will be shown to ``seat``, its owner.

        Holdings never change, so one of each is shared by every hand.

        >>> Holding.owned(2) is Holding.owned(2), Holding.owned(2).audience
        (True, frozenset({2}))
        """
        if 0 <= seat < len(_OWNED):
            return _OWNED[seat]
        return Holding(frozenset({seat}))

    def dealt(self, cards: Sequence[Card], face_up: Sequence[bool]) -> Holding:
        """The holding with ``cards`` added, each face up or down as ``face_up`` says.

        >>> from pokerhouse.cards import parse_cards
        >>> held = Holding.owned(0).dealt(parse_cards("As Kd"), (False, False))
        >>> held.dealt(parse_cards("7c"), (True,)).public
        (None, None, 7c)
        """
        new, up = tuple(cards), tuple(face_up)
        if len(new) != len(up):
            raise ValueError("a holding needs one face-up flag a card")
        held = object.__new__(Holding)
        held.audience = audience = self.audience
        held.cards = self.cards + new
        held.face_up = self.face_up + up
        held.public = held.cards if audience is None else self.public + _masked(new, up)
        return held

    def shown(self, to: frozenset[int] | None = None) -> Holding:
        """The holding with its hidden cards shown to the seats ``to`` too (``None``: everybody).

        >>> from pokerhouse.cards import parse_cards
        >>> held = Holding.owned(0).dealt(parse_cards("As Kd"), (False, False))
        >>> sorted(held.shown(frozenset({2})).audience), held.shown().audience
        ([0, 2], None)
        """
        held = object.__new__(Holding)
        held.cards = self.cards
        held.face_up = self.face_up
        if to is None or self.audience is None:
            held.audience = None
            held.public = self.cards
        else:
            held.audience = self.audience | to
            held.public = self.public
        return held

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Holding):
            return NotImplemented
        mine = (self.audience, self.cards, self.face_up)
        return mine == (other.audience, other.cards, other.face_up)

    def __hash__(self) -> int:
        return hash((self.audience, self.cards, self.face_up))

    def __repr__(self) -> str:
        return (
            f"Holding(audience={self.audience!r}, cards={self.cards!r}, face_up={self.face_up!r})"
        )


def _masked(cards: tuple[Card, ...], face_up: tuple[bool, ...]) -> tuple[Card | None, ...]:
    """``cards`` with each face-down one ``None``."""
    # Down cards then up ones, as every deal is: no pass over the cards in Python.
    if True not in face_up:
        return (None,) * len(cards)
    first = face_up.index(True)
    if False not in face_up[first:]:
        return (None,) * first + cards[first:]
    return tuple([card if up else None for card, up in zip(cards, face_up, strict=True)])


_OWNED = tuple(Holding(frozenset({seat})) for seat in range(16))


def audience(subject: Event | Holding) -> Audience:
    """The seats shown ``subject`` whole; ``None`` when it is public.

    Every other viewer is shown ``shown_to(subject, None)``, the spectator's copy.

    >>> from pokerhouse.engine.events import HandMucked
    >>> audience(HandMucked(seat=2)) is None
    True
    """
    if type(subject) is Holding:
        return subject.audience
    assert isinstance(subject, Event)
    return subject.visible_to()


@overload
def shown_to(subject: Event, viewer: Viewer) -> Event | None: ...


@overload
def shown_to(subject: Holding, viewer: Viewer) -> tuple[Card | None, ...]: ...


@overload
def shown_to(subject: Sequence[Holding], viewer: Viewer) -> tuple[tuple[Card | None, ...], ...]: ...


def shown_to(
    subject: Event | Holding | Sequence[Holding], viewer: Viewer
) -> Event | tuple[Card | None, ...] | tuple[tuple[Card | None, ...], ...] | None:
    """What ``viewer`` is shown of ``subject``: the one rule for every card that leaves a hand.

    An event comes back whole to a viewer in its audience, and to everybody
    when it is public; anyone else gets the copy the event gives the rest (its
    hidden cards ``None``, or another event saying only what everybody may
    know), or ``None``: the event is not shown at all. A :class:`Holding`
    comes back as its cards, each one the viewer may not see ``None``; a
    sequence of them (every seat of a hand) as each one's.

    >>> from pokerhouse.cards import parse_cards
    >>> from pokerhouse.engine.events import HandShown
    >>> shown = HandShown(seat=0, cards=parse_cards("Ah Kh Qh"))
    >>> shown_to(shown, None) is shown
    True
    >>> seats = [Holding(frozenset({0}), parse_cards("2c"), (False,)), Holding(frozenset({1}))]
    >>> shown_to(seats, 0), shown_to(seats, None)
    (((2c,), ()), ((None,), ()))
    """
    if viewer is not None and type(viewer) is not int:
        check_viewer(viewer)
    # The test "does the viewer hold a seat of the audience" is written out in
    # each branch, not called: every view and every frame asks it.
    if type(subject) is Holding:
        seats = subject.audience
        if (
            seats is None
            or (type(viewer) is int and viewer in seats)
            or (type(viewer) is frozenset and not seats.isdisjoint(viewer))
        ):
            return subject.cards
        return subject.public
    if isinstance(subject, Event):
        seats = subject.visible_to()
        if (
            seats is None
            or (type(viewer) is int and viewer in seats)
            or (type(viewer) is frozenset and not seats.isdisjoint(viewer))
        ):
            return subject
        return subject.redacted()
    # Every seat of a hand (what is left, though mypy cannot tell).
    assert not isinstance(subject, Holding)
    if viewer is None:
        return tuple([held.cards if held.audience is None else held.public for held in subject])
    if type(viewer) is int:
        return tuple(
            [
                held.cards if (seats := held.audience) is None or viewer in seats else held.public
                for held in subject
            ]
        )
    return tuple([shown_to(held, viewer) for held in subject])
