"""Tables of every size for the layout tests, and what the page drew there, measured.

``full_view`` is a snapshot of the room's shape (as ``serve`` sends it) of a
full table in its most crowded moment: every seat taken by a twenty-letter
name with a seven-figure stack, every hand dealt (seven cards at Razz), a bet
at every seat, side pots, and the viewer's own decision with every size
preset. ``measure`` reads the boxes the page drew; ``layout_faults`` says
which of them meet where they must not.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

#: The seat counts each game's table allows (Casino Hold'em: its seven boxes).
SIZES: dict[str, list[int]] = {
    "3x4": list(range(2, 11)),
    "teen-patti": list(range(2, 11)),
    "razz": list(range(2, 9)),
    "casino-holdem": [7],
}

SPECS: dict[str, dict[str, Any]] = {
    "3x4": {"ante": 1, "small_bet": 2, "big_bet": None, "limit": "no-limit", "max_raises": 3},
    "teen-patti": {"ante": 1, "limit": "no-limit", "sideshow": True},
    "razz": {"ante": 1, "bring_in": 1, "small_bet": 2, "big_bet": 4, "max_raises": 3},
    "casino-holdem": {
        "min_ante": 1,
        "max_ante": 100,
        "max_payout": 10000,
        "ante_pays": {
            "royal_flush": 100,
            "straight_flush": 20,
            "four_of_a_kind": 10,
            "full_house": 3,
            "flush": 2,
            "straight_or_less": 1,
        },
        "bonus_pays": {"pair_of_aces": 7},
        "bonus_min": None,
    },
}

TITLES = {
    "3x4": "3x4 Poker",
    "teen-patti": "3 Card Poker (Teen Patti)",
    "razz": "Razz",
    "casino-holdem": "Casino Hold'em",
}

#: Each game's table name in the room's own wording (said again in Russian by the page).
NAMES = {
    "3x4": "3x4 No-Limit, ante 1, bet 2",
    "teen-patti": "Teen Patti No-Limit, boot 1",
    "razz": "Razz 2/4, ante 1",
    "casino-holdem": "Casino Hold'em, ante 1 to 100",
}

MY_CARDS = {
    "3x4": ["Ah", "Kd", "Qc"],
    "teen-patti": ["As", "Ad", "Ac"],
    "razz": ["Ah", "2d", "3c", "4s", "5h", "6d", "Tc"],
    "casino-holdem": ["Ah", "Kh"],
}
THEIR_CARDS: dict[str, list[str | None]] = {
    "3x4": [None, None, None],
    "teen-patti": [None, None, None],
    "razz": [None, None, "Kc", "Qd", "Jh", "Ts", None],
    "casino-holdem": [None, None],
}
HAND_NAMES = {
    "3x4": "Three of a kind, queens",
    "teen-patti": "Trail of aces",
    "razz": "6-5-4-3-2 low",
    "casino-holdem": "Pair of aces",
}


def presets(low: int, high: int, pot: int) -> list[dict[str, Any]]:
    return [
        {"name": "min", "amount": low},
        {"name": "half_pot", "amount": pot // 2},
        {"name": "pot", "amount": pot},
        {"name": "all_in", "amount": high},
    ]


def decision(game: str, size: int, stack: int) -> dict[str, Any]:
    """The longest decision each game offers the viewer."""
    if game == "3x4":
        actions = [
            {"kind": "fold"},
            {"kind": "call", "cost": 4000},
            {"kind": "raise", "min": 8000, "max": stack, "presets": presets(8000, stack, 98765)},
        ]
    elif game == "teen-patti":
        last = {"kind": "show", "cost": 4000} if size == 2 else {"kind": "sideshow", "cost": 4000}
        actions = [
            {"kind": "fold"},
            {"kind": "bet", "min": 4000, "max": stack, "presets": presets(4000, stack, 98765)},
            last,
        ]
    elif game == "razz":
        actions = [
            {"kind": "fold"},
            {"kind": "call", "cost": 4},
            {"kind": "raise", "min": 8, "max": 8},
        ]
    else:
        actions = [{"kind": "fold"}, {"kind": "call", "cost": 200}]
    return {"hand_seat": 0, "actions": actions, "stack": stack}


def full_view(game: str, size: int, user: str, table: int, mine: tuple[int, ...]) -> dict[str, Any]:
    """A full ``size``-seat table of ``game`` on its last street, the viewer (``user``, at
    seats ``mine``) to act at the first of them."""
    seats = []
    for seat in range(size):
        own = seat in mine
        cards = list(MY_CARDS[game] if own else THEIR_CARDS[game])
        entry: dict[str, Any] = {
            "seat": seat,
            "player": user if own else f"Konstantinopolsky_{seat:02d}"[:20],
            "stack": 1_234_567 + seat,
            "in_hand": True,
            "sitting_out": False,
            "leaving": False,
            "busted": False,
            "ante": 0,
            "bonus": 0,
            "bet": 0 if own else 12_345 + seat,
            "contributed": 20_000,
            "cards": cards,
            "face_up": [False, False, True, True, True, True, False] if game == "razz" else [],
            "folded": not own and seat % 4 == 3,
            "all_in": not own and seat % 4 == 1 and game != "casino-holdem",
        }
        if game == "teen-patti":
            entry.update(seen=seat % 2 == 0, bets_made=3, bets_since_seen=1)
        if game == "casino-holdem":
            entry.update(ante=100, bonus=50, bet=0, called=not own and seat % 2 == 0)
        seats.append(entry)
    to_act = mine[0]
    hand: dict[str, Any] = {
        "number": 41,
        "hand_seats": list(range(size)),
        "street": {"3x4": "river", "razz": "seventh", "casino-holdem": "flop"}.get(game),
        "board": {"3x4": ["2c", "7d", "Js", "Qh"], "casino-holdem": ["Qs", "8d", "3c"]}.get(
            game, []
        ),
        "pot": 987_654,
        "pots": [
            {"amount": 900_000, "eligible": list(range(size))},
            {"amount": 80_000, "eligible": list(range(1, size))},
            {"amount": 7_654, "eligible": list(range(2, size))},
        ]
        if game != "casino-holdem"
        else [],
        "to_act": to_act,
        "facts": {
            "3x4": {"current_bet": 4000, "bets_and_raises": 1},
            "razz": {"current_bet": 4, "bets_and_raises": 1, "bring_in": None},
            "teen-patti": {
                "stake": 2000,
                "blind_min": 2000,
                "seen_min": 4000,
                "limit": "no-limit",
                "sideshow": None,
                "show_cost": None,
                "sideshow_cost": 4000,
            },
            "casino-holdem": {
                "dealer_cards": [None, None],
                "dealer_qualifies": None,
                "max_payout": 10000,
                "house_result": None,
            },
        }[game],
        "mine": {
            str(seat): {
                "hand_name": HAND_NAMES[game],
                "decision": decision(game, size, seats[seat]["stack"]) if seat == to_act else None,
            }
            for seat in mine
        },
    }
    return {
        "game": game,
        "size": size,
        "seq": 100,
        "hands_played": 40,
        "button": None if game == "casino-holdem" else (to_act + 1) % size,
        "seats": seats,
        "hand": hand,
        "table": {
            "id": table,
            "name": NAMES[game],
            "game": game,
            "title": TITLES[game],
            "spec": SPECS[game],
            "min_buy_in": 20,
            "max_buy_in": 1000,
            "max_boxes": 3 if game == "casino-holdem" else 1,
            "decision_seconds": 20,
            "time_bank_seconds": 30,
            "rake_bps": 0,
            "rake_cap": 0,
            "tournament": None,
            "people_only": False,
            "bots_only": False,
            "bot_chat": True,
        },
        "bots": [seat for seat in range(size) if seat not in mine],
        "clock": {"seat": to_act, "limit_ms": 20000, "bank_ms": 30000},
        "window": {"open": False, "placed": []} if game == "casino-holdem" else None,
    }


#: Every box the page drew at the table: each seat's parts (the plate with the name and
#: stack, each card, the bet or wagers, the badges, a shown hand's name, the result, the
#: dealer button; a free seat as a whole), the centre's, the felt's and the action bar's.
MEASURE = """() => {
  const box = (e, what) => {
    const r = e.getBoundingClientRect();
    return {what, left: r.left, top: r.top + scrollY, right: r.right, bottom: r.bottom + scrollY};
  };
  const shown = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const PARTS = ['.plate', '.hole .card', '.money', '.badges', '.shown-name', '.result',
                 '.dealer-button'];
  const seats = [...document.querySelectorAll('.felt .seat')].map((seat) => {
    const parts = [];
    for (const selector of PARTS) {
      for (const e of seat.querySelectorAll(selector)) {
        if (shown(e)) parts.push(box(e, selector));
      }
    }
    if (!parts.length) parts.push(box(seat, 'free seat'));
    return {seat: seat.dataset.seat, parts};
  });
  const centre = [...document.querySelectorAll(
    '.felt .centre .card, .felt .centre .pot, .felt .centre .street, .felt .centre .dealer,'
    + ' .felt .centre .awards')].filter(shown).map((e) => box(e, e.className));
  const felt = document.querySelector('.felt');
  window.scrollTo(0, 0);
  const bar = document.querySelector('#action-bar');
  const upTo = bar ? [...bar.children] : [];
  const actions = upTo.findIndex((e) => e.matches('.actions'));
  const deciding = actions >= 0 ? upTo.slice(0, actions + 1).filter(shown) : [];
  return {
    seats,
    centre,
    felt: felt ? box(felt, 'felt') : null,
    bar: deciding.map((e) => {
      const r = e.getBoundingClientRect();
      return {what: e.id || e.className, left: r.left, top: r.top, right: r.right,
              bottom: r.bottom};
    }),
    width: document.documentElement.clientWidth,
    height: window.innerHeight,
    scrollWidth: document.documentElement.scrollWidth,
  };
}"""


def _meet(a: dict[str, Any], b: dict[str, Any], slack: float = 1.0) -> bool:
    return (
        a["left"] < b["right"] - slack
        and b["left"] < a["right"] - slack
        and a["top"] < b["bottom"] - slack
        and b["top"] < a["bottom"] - slack
    )


def _inside(part: dict[str, Any], frame: dict[str, Any], slack: float = 1.0) -> bool:
    return (
        part["left"] >= frame["left"] - slack
        and part["right"] <= frame["right"] + slack
        and part["top"] >= frame["top"] - slack
        and part["bottom"] <= frame["bottom"] + slack
    )


def layout_faults(drawn: dict[str, Any]) -> list[str]:
    """What is wrong with the table as drawn: two seats' boxes that meet, a bet on its own
    seat's name or cards, a seat on the board or the pot, a box outside the felt or the
    window, the page wider than the window."""
    faults: list[str] = []
    seats = drawn["seats"]
    for a, b in combinations(seats, 2):
        for x in a["parts"]:
            for y in b["parts"]:
                if _meet(x, y):
                    faults.append(f"seat {a['seat']} {x} meets seat {b['seat']} {y}")
    for seat in seats:
        money = [part for part in seat["parts"] if part["what"] == ".money"]
        others = [part for part in seat["parts"] if part["what"] in (".plate", ".hole .card")]
        for bet in money:
            for part in others:
                if _meet(bet, part):
                    faults.append(f"seat {seat['seat']}'s bet {bet} is on its own {part}")
        for part in seat["parts"]:
            for middle in drawn["centre"]:
                if _meet(part, middle):
                    faults.append(f"seat {seat['seat']} {part} is on the centre's {middle}")
            if drawn["felt"] and not _inside(part, drawn["felt"]):
                faults.append(f"seat {seat['seat']} {part} is outside the felt {drawn['felt']}")
            if part["left"] < 0 or part["right"] > drawn["width"]:
                faults.append(f"seat {seat['seat']} {part} is outside the window")
    if drawn["scrollWidth"] > drawn["width"]:
        faults.append(f"the page is {drawn['scrollWidth']} px wide in {drawn['width']}")
    return faults


def bar_faults(drawn: dict[str, Any]) -> list[str]:
    """What of the decision (the words "Your turn" and every action) is out of the window
    as the page opens at its top; nothing when the whole of it is in view."""
    if not drawn["bar"]:
        return ["no decision is drawn"]
    window = {"left": 0, "top": 0, "right": drawn["width"], "bottom": drawn["height"]}
    return [
        f"{part} is out of view in {window}" for part in drawn["bar"] if not _inside(part, window)
    ]
