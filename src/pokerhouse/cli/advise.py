"""``pokerhouse advise casino-holdem HOLE FLOP``: call or fold, with the exact values.

>>> from pokerhouse.cli import main
>>> main(["advise", "casino-holdem", "7c 2d", "As Kh 9d"])
Casino Hold'em: 7c 2d on As Kh 9d
  call  -1.4417 antes
  fold  -1 ante
  best  FOLD (folding saves 0.4417 antes)
  over 1,070,190 ways to finish:
    dealer does not qualify 25.4%, box wins 5.1%, stand-off 8.0%, dealer wins 61.6%
  an AA Bonus on these cards lost at the flop (below a pair of aces)
0
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from pokerhouse.analysis.casino_holdem import advise
from pokerhouse.errors import InvalidSpec
from pokerhouse.games import get_game
from pokerhouse.games.casino_holdem.paytables import AntePays, BonusCategory, BonusPays


def register(subparsers: Any) -> None:
    """Add ``advise`` to the command line."""
    parser = subparsers.add_parser(
        "advise",
        help="exact value of calling and folding after the flop (Casino Hold'em)",
        description=(
            "The exact expected result of calling and of folding for two hole cards and a "
            "flop, over every way the turn, river and dealer's cards can fall."
        ),
    )
    parser.add_argument("game", help="casino-holdem")
    parser.add_argument("hole", help='the box\'s two cards, e.g. "As Kd"')
    parser.add_argument("flop", help='the three flop cards, e.g. "Qh 7c 2d"')
    parser.add_argument(
        "--ante-pays",
        default=None,
        help='Ante pay table, royal flush first, e.g. "100,20,10,3,2,1", or "flush=3,..."',
    )
    parser.add_argument(
        "--max-payout",
        default=None,
        help="cap on a box's winnings on Ante plus Call, in antes (default: none)",
    )
    parser.add_argument(
        "--bonus-pays",
        default=None,
        help='AA Bonus table for the bonus line: "flat" (default), "common" or odds',
    )
    parser.add_argument("--json", action="store_true", help="print the advice as JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Print the advice (text, or JSON with ``--json``)."""
    info = get_game(args.game)
    if info.name != "casino-holdem":
        raise InvalidSpec("no_advisor", f"advice is for Casino Hold'em, not {info.title}")
    pays = AntePays.parse(args.ante_pays) if args.ante_pays else AntePays()
    bonus_pays = BonusPays.coerce(args.bonus_pays) if args.bonus_pays else BonusPays()
    advice = advise(args.hole, args.flop, pays, max_payout=args.max_payout, bonus_pays=bonus_pays)
    if args.json:
        print(json.dumps(advice.to_dict(), indent=2))
        return 0
    data = advice.to_dict()
    ways = advice.outcomes.ways
    outcomes = advice.outcomes

    def share(count: int) -> str:
        return f"{100 * count / ways:.1f}%"

    better = "calling gains" if advice.action == "call" else "folding saves"
    print(f"Casino Hold'em: {data['hole']} on {data['flop']}")
    print(f"  call  {float(advice.call_ev):+.4f} antes")
    print("  fold  -1 ante")
    print(f"  best  {advice.action.upper()} ({better} {abs(float(advice.margin)):.4f} antes)")
    print(
        f"  over {ways:,} ways to finish:\n"
        f"    dealer does not qualify {share(outcomes.dealer_not_qualified)}, "
        f"box wins {share(outcomes.won)}, stand-off {share(outcomes.stand_off)}, "
        f"dealer wins {share(outcomes.lost)}"
    )
    if advice.bonus is BonusCategory.LOSES:
        print("  an AA Bonus on these cards lost at the flop (below a pair of aces)")
    else:
        hand = advice.bonus.name.replace("_", " ").lower()
        print(f"  an AA Bonus on these cards won at the flop: {hand}, {advice.bonus_result}:1")
    if args.ante_pays or args.max_payout:
        cap = f"; max payout {args.max_payout} antes" if args.max_payout else ""
        print(f"  ante pays: {pays.describe()}{cap}")
    return 0
