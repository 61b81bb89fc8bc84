"""The house bots measured: the pro bots against the smart ones, an exploiter and a station.

    python bench/house_bots.py                  # 20,000 deals a match (about 25 minutes)
    python bench/house_bots.py --deals 2000     # a short run
    python bench/house_bots.py --styles 2000    # the four extreme styles, 2,000 deals each

Three parts, each printed as a Markdown table for ``docs/bots.md``:

1. **Matches**: heads-up duplicate matches (``pokerhouse arena``: every deal
   played in both seatings, stacks of 200 each hand, the games' default
   stakes) of ``pro`` against ``smart`` (the bots before), ``exploiter``
   (folds to every bet, bets the pot whenever nobody has) and ``station``
   (calls everything), at 3x4 Poker, Razz and Teen Patti: the pro bot's
   winnings per 100 hands with the 95% interval, its style for the match.
2. **CPU per decision** of each bot in those matches (mean, 99th percentile,
   most), and the pro bot's mean as a multiple of the smart bot's measured in
   the same matches: the budget a decision may take is 20 ms (the pro bots
   deal fewer random completions when a decision would take longer).
With ``--styles N`` it plays instead the four extreme styles the pro bots
are drawn between (:data:`pokerhouse.bots.persona.EXTREMES`) against each
opponent in each game, N deals a match.

3. **How they play**: four bots of a kind at one table (each with its own
   style for the pro bots), 1,000 deals: how often they check when nobody
   has bet and raise facing a bet (3x4), complete instead of bringing in
   (Razz), bet exactly the least blind stake and ask for a show with king
   high or worse (Teen Patti).
"""

from __future__ import annotations

import argparse
import platform
import random
from collections import Counter
from dataclasses import dataclass, field

from pokerhouse.arena import ArenaResult, play_match
from pokerhouse.bots import get as get_bot
from pokerhouse.bots.persona import EXTREMES
from pokerhouse.cards import parse_cards
from pokerhouse.engine.actions import SIZED_KINDS, Action, ActionKind
from pokerhouse.engine.hand import RoundView, View
from pokerhouse.evaluate import teen_patti_value
from pokerhouse.games.teen_patti.view import TeenPattiView

GAMES = ("3x4", "razz", "teen-patti")
OPPONENTS = ("smart", "exploiter", "station")
TITLES = {"3x4": "3x4 Poker", "razz": "Razz", "teen-patti": "Teen Patti"}


def warm_up() -> None:
    """Build the evaluators' tables before anything is timed (a process does it once)."""
    for game in GAMES:
        play_match(game, ["pro", "smart"], hands=3, seed=0)


def matches(deals: int, seed: int) -> tuple[list[ArenaResult], dict[tuple[str, str], str]]:
    """Every pool game, the pro bot against each opponent; the pro bot's style in each."""
    results = []
    styles = {}
    for number, (game, opponent) in enumerate(
        (game, opponent) for game in GAMES for opponent in OPPONENTS
    ):
        pro = get_bot("pro", game=game, rng=random.Random(seed + number))
        persona = getattr(pro, "persona", None)
        if persona is not None:
            styles[(game, opponent)] = (
                f"{persona.label} ({persona.tightness:+.2f}, {persona.aggression:.2f})"
            )
        result = play_match(game, [pro, opponent], hands=deals, seed=seed)
        results.append(result)
        mine, other = result.bots
        low, high = mine.interval
        print(
            f"  {TITLES[game]}: pro {mine.per_100:+.1f} [{low:+.1f}, {high:+.1f}] "
            f"per 100 against {other.spec} ({result.seconds:.0f} s)",
            flush=True,
        )
    return results, styles


def print_matches(results: list[ArenaResult], styles: dict[tuple[str, str], str]) -> None:
    print("\n| Game | Pro against | Hands | Pro won per 100 hands | 95% interval | Pro's style |")
    print("|---|---|---:|---:|---|---|")
    for result in results:
        pro, other = result.bots
        low, high = pro.interval
        style = styles.get((result.game, other.spec), "")
        print(
            f"| {TITLES[result.game]} | {other.spec} | {result.hands:,} | "
            f"{pro.per_100:+.1f} | {low:+.1f} to {high:+.1f} | {style} |"
        )


def print_cpu(results: list[ArenaResult]) -> None:
    print("\n| Game | Bot | Decision CPU, mean | p99 | most | Mean, pro / smart |")
    print("|---|---|---:|---:|---:|---:|")
    for game in GAMES:
        smart = next(r for r in results if r.game == game and r.bots[1].spec == "smart")
        pro, other = smart.bots
        ratio = pro.cpu[0] / other.cpu[0] if other.cpu[0] else float("nan")
        for bot in (pro, other):
            mean, p99, most = (1000 * value for value in bot.cpu)
            shown = f"{ratio:.2f}x" if bot is pro else ""
            label = "pro" if bot is pro else bot.spec
            print(
                f"| {TITLES[game]} | {label} | {mean:.2f} ms | {p99:.2f} ms | "
                f"{most:.1f} ms | {shown} |"
            )


@dataclass
class Tally:
    """Decisions of one kind of bot, counted the way the issue counted them."""

    counts: Counter[str] = field(default_factory=Counter)


class Counting:
    """A bot that counts what the bot inside it does."""

    def __init__(self, inner: object, tally: Tally) -> None:
        self.inner = inner
        self.tally = tally
        self.name = str(getattr(inner, "name", "bot"))

    def new_hand(self, players: list[str]) -> None:
        listen = getattr(self.inner, "new_hand", None)
        if callable(listen):
            listen(players)

    def hand_over(self, view: View) -> None:
        listen = getattr(self.inner, "hand_over", None)
        if callable(listen):
            listen(view)

    def choose(self, view: View) -> Action:
        choose = self.inner.choose
        action: Action = choose(view)
        count(self.tally.counts, view, action)
        return action


def count(counts: Counter[str], view: View, action: Action) -> None:
    """Add one decision to the counts."""
    legal = view.legal
    kind = action.kind
    if isinstance(view, RoundView) and view.game == "razz" and ActionKind.BRING_IN in legal:
        counts["bring-in decisions"] += 1
        counts["completed"] += kind is ActionKind.COMPLETE
    elif isinstance(view, RoundView) and view.game == "3x4":
        if ActionKind.CHECK in legal:
            counts["unopened"] += 1
            counts["checked"] += kind is ActionKind.CHECK
        elif ActionKind.CALL in legal:
            counts["facing a bet"] += 1
            counts["raised"] += kind in SIZED_KINDS
    elif isinstance(view, TeenPattiView):
        assert view.seat is not None
        if kind is ActionKind.BET:
            counts["bets"] += 1
            counts["least blind"] += not view.seen[view.seat] and action.amount == view.stake
        if kind is ActionKind.SHOW:
            counts["shows"] += 1
            cards = [card for card in view.my_cards if card is not None]
            if len(cards) == 3:
                weak = teen_patti_value(cards) <= _king_high()
                counts["shows, king high or worse"] += weak


def _king_high() -> int:
    """The best king-high hand's value (K-Q-10 of mixed suits: K-Q-J is a straight)."""
    return teen_patti_value(parse_cards("Kc Qd Th"))


def frequencies(deals: int, seed: int) -> dict[tuple[str, str], Counter[str]]:
    """Four bots of a kind at one table, per game: their counted decisions."""
    found = {}
    for game in GAMES:
        for kind in ("smart", "pro"):
            tally = Tally()
            rng = random.Random(seed)
            bots = [
                Counting(get_bot(kind, game=game, rng=random.Random(rng.random())), tally)
                for _ in range(4)
            ]
            play_match(game, bots, hands=deals, seed=seed)  # type: ignore[arg-type]
            found[(game, kind)] = tally.counts
    return found


def share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}% ({part:,} of {whole:,})" if whole else "none"


def print_frequencies(found: dict[tuple[str, str], Counter[str]]) -> None:
    print("\n| Measure | smart | pro |")
    print("|---|---|---|")
    rows = [
        ("3x4: checks when nobody has bet", "3x4", "checked", "unopened"),
        ("3x4: raises facing a bet", "3x4", "raised", "facing a bet"),
        ("Razz: completes instead of bringing in", "razz", "completed", "bring-in decisions"),
        ("Teen Patti: bets of exactly the least blind stake", "teen-patti", "least blind", "bets"),
        (
            "Teen Patti: shows asked with king high or worse",
            "teen-patti",
            "shows, king high or worse",
            "shows",
        ),
    ]
    for label, game, part, whole in rows:
        cells = [
            share(found[(game, kind)][part], found[(game, kind)][whole])
            for kind in ("smart", "pro")
        ]
        print(f"| {label} | {cells[0]} | {cells[1]} |")


def play_styles(deals: int, seed: int) -> None:
    """Each extreme style against each opponent in each game: one line per game and
    opponent, the pro bot's result per 100 hands and its interval for each style."""
    print("\n| Game | Against | " + " | ".join(p.label for p in EXTREMES) + " |")
    print("|---|---|" + "---:|" * len(EXTREMES))
    for game in GAMES:
        for opponent in OPPONENTS:
            cells = []
            for persona in EXTREMES:
                pro = get_bot("pro", game=game, rng=random.Random(seed), persona=persona)
                mine = play_match(game, [pro, opponent], hands=deals, seed=seed).bots[0]
                low, high = mine.interval
                cells.append(f"{mine.per_100:+.0f} ({low:+.0f} to {high:+.0f})")
            print(f"| {TITLES[game]} | {opponent} | " + " | ".join(cells) + " |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000, help="deals a match (default 20,000)")
    parser.add_argument("--table-deals", type=int, default=1_000, help="deals at the table of four")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--styles", type=int, default=0, help="play the extreme styles instead")
    args = parser.parse_args()
    if args.deals < 1 or args.table_deals < 1 or args.styles < 0:
        parser.error("--deals and --table-deals take a whole number of at least 1")
    if args.styles:
        warm_up()
        print(f"# The pro bots' extreme styles, {args.styles:,} deals a match, seed {args.seed}")
        play_styles(args.styles, args.seed)
        return
    print(f"# House bots, {platform.python_implementation()} {platform.python_version()}")
    print(f"{args.deals:,} deals a match, both seatings of each; seed {args.seed}")
    warm_up()
    results, styles = matches(args.deals, args.seed)
    print_matches(results, styles)
    print_cpu(results)
    print_frequencies(frequencies(args.table_deals, args.seed))


if __name__ == "__main__":
    main()
