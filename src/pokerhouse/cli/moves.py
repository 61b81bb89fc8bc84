"""The words a player types at ``pokerhouse play``, game by game, and what each costs now.

Each game has its own words (:class:`Moves`): 3x4 Poker has no ``look``,
Teen Patti no ``check``. What a move costs is said where it is offered
(``call 84``, ``show 36``), a fixed-limit bet or raise needs no amount, and
a move refused is refused in the words the player typed, never the
engine's names (``bring_in``, ``show_hand``).

>>> from pokerhouse.games import new_hand
>>> hand = new_hand("3x4", [200, 200], seed=7, options={"ante": 2, "small_bet": 4})
>>> _ = hand.act(Action.bet(10))
>>> moves = Moves("3x4")
>>> view = hand.view(1)
>>> moves.offers(view)
'fold | call 10 | raise to 20-198'
>>> str(moves.parse("c", view)), str(moves.parse("r 40", view)), str(moves.parse("a", view))
('call', 'raise 40', 'raise 198')
>>> moves.parse("l", view)
Traceback (most recent call last):
...
pokerhouse.errors.IllegalAction: 'l' is not a move at 3x4 Poker: type ? for its moves
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pokerhouse.engine.actions import Action, ActionKind, LegalAction, parse_amount
from pokerhouse.engine.betting import Limit
from pokerhouse.engine.hand import RoundView, View
from pokerhouse.errors import IllegalAction, InvalidAction
from pokerhouse.games import get_game
from pokerhouse.games.casino_holdem import CasinoHoldemView
from pokerhouse.games.teen_patti import TeenPattiView

__all__ = ["Moves", "Word"]

#: Intents a typed word may stand for besides an action kind.
ALL_IN = "all-in"
LEAST = "least"  # Teen Patti: bet the minimum

_FOLD = {"f": ActionKind.FOLD, "fold": ActionKind.FOLD}
_ROUND = {
    **_FOLD,
    "k": ActionKind.CHECK,
    "x": ActionKind.CHECK,
    "check": ActionKind.CHECK,
    "c": ActionKind.CALL,
    "call": ActionKind.CALL,
    "b": ActionKind.BET,
    "bet": ActionKind.BET,
    "r": ActionKind.RAISE,
    "raise": ActionKind.RAISE,
}
_ALL_IN = {"a": ALL_IN, "all-in": ALL_IN, "allin": ALL_IN, "shove": ALL_IN}
_RAZZ = {
    "bring-in": ActionKind.BRING_IN,
    "bringin": ActionKind.BRING_IN,
    "complete": ActionKind.COMPLETE,
}
_TEEN_PATTI = {
    **_FOLD,
    "l": ActionKind.LOOK,
    "look": ActionKind.LOOK,
    "c": LEAST,
    "call": LEAST,
    "b": ActionKind.BET,
    "bet": ActionKind.BET,
    "s": ActionKind.SHOW,
    "show": ActionKind.SHOW,
}
_SIDESHOW = {
    "ss": ActionKind.SIDESHOW,
    "sideshow": ActionKind.SIDESHOW,
    "y": ActionKind.ACCEPT,
    "yes": ActionKind.ACCEPT,
    "accept": ActionKind.ACCEPT,
    "n": ActionKind.DECLINE,
    "no": ActionKind.DECLINE,
    "decline": ActionKind.DECLINE,
}
_CASINO = {**_FOLD, "c": ActionKind.CALL, "call": ActionKind.CALL}

#: Every word some game knows: typed at another game, it is "not a move here", not unknown.
_EVERY_WORD = frozenset(
    {*_ROUND, *_ALL_IN, *_RAZZ, *_TEEN_PATTI, *_SIDESHOW, *_CASINO}
    | {kind.value for kind in ActionKind}
)

#: Two-word phrases read as one word.
_PHRASES = {
    "all in": "all-in",
    "bring in": "bring-in",
    "raise to": "raise",
    "complete to": "complete",
}

_SIZED = (ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE)

#: Each kind of action in a player's words, where its engine name will not do.
KIND_WORDS = {
    ActionKind.BRING_IN: "bring in",
    ActionKind.SHOW: "pay for a show",
    ActionKind.SHOW_HAND: "show your hand",
    ActionKind.SIDESHOW: "ask for a sideshow",
    ActionKind.ACCEPT: "accept a sideshow",
    ActionKind.DECLINE: "decline a sideshow",
}


@dataclass(frozen=True, slots=True)
class Word:
    """One line of a game's help: what to type and what it does."""

    typed: str
    meaning: str


class Moves:
    """The words of one game (``spec``: the table's settings, for fixed amounts and options).

    :meth:`parse` reads a typed move against a seat's view, :meth:`offers`
    says what may be done now and at what cost, :meth:`help` lists the words.
    """

    def __init__(self, game: str, spec: Any = None) -> None:
        self.info = get_game(game)
        self.spec = spec if spec is not None else self.info.spec()
        name = self.info.name
        self.fixed_limit = getattr(self.spec, "limit", None) is Limit.FIXED_LIMIT or name == "razz"
        words: dict[str, ActionKind | str]
        if name == "teen-patti":
            words = {**_TEEN_PATTI, **_ALL_IN}
            if self.spec.sideshow:
                words.update(_SIDESHOW)
        elif name == "casino-holdem":
            words = dict(_CASINO)
        elif name == "razz":
            words = {**_ROUND, **_RAZZ}
        else:
            # In fixed limit every bet has its size: "all-in" means nothing there.
            words = dict(_ROUND) if self.fixed_limit else {**_ROUND, **_ALL_IN}
        self.words = words

    # ------------------------------------------------------------ what may be done

    def offer(self, legal: LegalAction, view: View) -> str:
        """One legal action as offered, with its cost: ``call 84``, ``raise to 20-198``."""
        kind = legal.kind
        seat = view.seat
        stack = view.stacks[seat] if seat is not None else 0
        if kind is ActionKind.CALL:
            cost = self.call_cost(view)
            return f"call {cost:,}" + (" (all-in)" if cost and cost == stack else "")
        if kind is ActionKind.BRING_IN:
            return f"bring in {min(self.spec.bring_in, stack):,}"
        if kind is ActionKind.SHOW and isinstance(view, TeenPattiView):
            return f"show {view.show_cost:,}" if view.show_cost is not None else "show"
        if kind is ActionKind.SIDESHOW and isinstance(view, TeenPattiView):
            asked = view.sideshow_cost
            return f"sideshow {asked:,}" if asked is not None else "sideshow"
        if kind in _SIZED and legal.min_amount is not None:
            verb = {ActionKind.RAISE: "raise to", ActionKind.COMPLETE: "complete to"}.get(
                kind, kind.value
            )
            low, high = legal.min_amount, legal.max_amount
            amounts = f"{low:,}" if low == high else f"{low:,}-{high:,}"
            return f"{verb} {amounts}"
        return kind.value

    def offers(self, view: View) -> str:
        """Everything ``view``'s seat may do now, with costs: ``fold | call 84 | raise to ...``."""
        return " | ".join(self.offer(legal, view) for legal in view.legal)

    @staticmethod
    def call_cost(view: View) -> int:
        """The chips a call adds for ``view``'s seat."""
        if isinstance(view, RoundView):
            return view.to_call
        if isinstance(view, CasinoHoldemView):
            return view.call_amount or 0
        return 0

    def help(self, view: View | None = None) -> str:
        """The words of this game, one a line, and (given a view) what may be done now."""
        lines = [f"At {self.info.title} you type:"]
        width = max(len(word.typed) for word in self.help_words())
        lines += [f"  {word.typed:<{width}}  {word.meaning}" for word in self.help_words()]
        if view is not None and view.legal:
            lines.append(f"Now you may: {self.offers(view)}.")
        return "\n".join(lines)

    def help_words(self) -> list[Word]:
        """The help's lines for this game and its settings."""
        name = self.info.name
        fold = Word("f", "fold")
        end = [Word("?", "this help"), Word("q", "leave the table (the session's summary follows)")]
        if name == "casino-holdem":
            return [
                Word("c", "call: bet twice your ante and play your hand against the dealer's"),
                Word("f", "fold: give up your ante"),
                Word("hint", "the advisor's exact values of calling and folding your box"),
                Word("pays", "the pay tables"),
                *end,
            ]
        if name == "teen-patti":
            words = [
                fold,
                Word("l", "look at your cards (you then bet as a seen player)"),
                Word("c", "bet the least you may: the stake while blind, twice it once seen"),
                Word("b N", "bet N chips (blind: at least the stake; seen: at least twice it)"),
                Word("s", "pay for a show, when two players are left"),
            ]
            if self.spec.sideshow:
                words += [
                    Word("ss", "bet and ask the player before you for a sideshow"),
                    Word("y / n", "accept / decline a sideshow you are asked for"),
                ]
            return [*words, Word("a", "all-in: bet everything you have"), *end]
        words = [
            fold,
            Word("x or k", "check (when nothing is owed)"),
            Word("c", "call what you owe (checks when nothing is owed)"),
        ]
        if name == "razz":
            spec = self.spec
            words[2] = Word("c", f"call; at your bring-in, bring in for {spec.bring_in}")
            words += [
                Word(
                    "b or r",
                    f"bet or raise the fixed amount: {spec.small_bet} on third and fourth "
                    f"street, {spec.big_bet} after",
                ),
                Word("complete", f"complete the bring-in to {spec.small_bet} (b or r too)"),
            ]
        elif self.fixed_limit:
            words += [
                Word("b", "bet the fixed amount"),
                Word("r", "raise by the fixed amount"),
            ]
        else:
            words += [
                Word("b N", "bet N"),
                Word("r N", "raise to N: your whole bet this round"),
                Word("a", "all-in: the most you may put in"),
            ]
        return [*words, *end]

    # ------------------------------------------------------------ reading a move

    def parse(self, text: str, view: View, names: Sequence[str] = ()) -> Action:
        """The action ``text`` asks for, checked against what ``view``'s seat may do.

        ``names`` are the players by hand seat, for the reasons a move is
        refused. Raises a :class:`~pokerhouse.errors.PokerError` in the words
        of the game; a legal action is returned as the engine takes it.
        """
        words = _normalise(text)
        if not words:
            raise InvalidAction("empty_action", "no move given: type ? for the moves")
        typed = words[0]
        intent = self.words.get(typed)
        if intent is None:
            if self.info.name == "teen-patti" and typed in _SIDESHOW:
                raise IllegalAction("sideshow_disabled", "there are no sideshows at this table")
            if typed in _EVERY_WORD:
                raise IllegalAction(
                    "action_not_allowed",
                    f"{typed!r} is not a move at {self.info.title}: type ? for its moves",
                )
            raise InvalidAction(
                "unknown_action",
                f"unknown action {typed!r}: type ? for the moves of {self.info.title}",
            )
        if len(words) > 2:
            raise InvalidAction(
                "malformed_action", f"one move and at most one amount, as in 'b 20', not {text!r}"
            )
        kind = self._kind(intent, view)
        if kind not in view.legal:
            raise self._refusal(kind, typed, view, names)
        amount = parse_amount(words[1]) if len(words) == 2 else None
        return view.legal.check(self._sized(intent, kind, amount, view, typed))

    def _kind(self, intent: ActionKind | str, view: View) -> ActionKind:
        """The kind of action a typed word stands for here and now."""
        legal = view.legal
        if intent == ALL_IN:
            sized = [a for a in legal if a.max_amount is not None]
            if sized:
                return max(sized, key=lambda a: a.max_amount or 0).kind
            return ActionKind.CALL if ActionKind.CALL in legal else ActionKind.BET
        if intent == LEAST:
            return ActionKind.BET
        assert isinstance(intent, ActionKind)
        # The cheap way in: a bring-in, or a check when no call is owed.
        if intent is ActionKind.CALL and intent not in legal:
            for other in (ActionKind.BRING_IN, ActionKind.CHECK):
                if other in legal:
                    return other
        # On third street at Razz the bet is the completion.
        bets = (ActionKind.BET, ActionKind.RAISE)
        if intent in bets and intent not in legal and ActionKind.COMPLETE in legal:
            return ActionKind.COMPLETE
        return intent

    def _sized(
        self, intent: ActionKind | str, kind: ActionKind, amount: int | None, view: View, typed: str
    ) -> Action:
        """The action of ``kind`` (allowed now) with its amount, typed or implied."""
        option = view.legal.get(kind)
        assert option is not None
        low, high = option.min_amount, option.max_amount
        if intent in (ALL_IN, LEAST):
            if amount is not None:
                what = "all-in" if intent == ALL_IN else "the least you may"
                raise InvalidAction(
                    "unexpected_amount", f"{typed} bets {what}: give no amount, or type b N"
                )
            return Action(kind, high if intent == ALL_IN else low)
        if kind in _SIZED:
            if amount is not None:
                return Action(kind, amount)
            if low is not None and low == high:
                return Action(kind, low)  # fixed limit: the one amount there is
            raise InvalidAction(
                "amount_required", f"say how much: {typed} {low:,} to {typed} {high:,}"
            )
        if amount is None:
            return Action(kind)
        if kind is ActionKind.CALL:
            cost = self.call_cost(view)
            if amount in (cost, view.legal.call_total):
                return Action.call()
            raise IllegalAction(
                "wrong_call_amount", f"a call costs {cost:,} here, not {amount:,}: type c"
            )
        raise InvalidAction("unexpected_amount", f"{typed} takes no amount (you gave {amount:,})")

    def word_for(self, kind: ActionKind) -> str:
        """What to type for ``kind`` here: ``c``, ``b N``, ``r`` (a fixed-limit raise)."""
        if kind in _SIZED:
            shortcut = {ActionKind.BET: "b", ActionKind.RAISE: "r"}.get(kind, kind.value)
            return shortcut if self.fixed_limit else f"{shortcut} N"
        for word, intent in self.words.items():
            if intent == kind:
                return word
        return kind.value

    def _refusal(
        self, kind: ActionKind, typed: str, view: View, names: Sequence[str]
    ) -> IllegalAction:
        """Why ``kind`` is not allowed now, in the game's words."""
        legal = view.legal
        if isinstance(view, TeenPattiView):
            reason = _teen_patti_refusal(kind, view, names)
            if reason is not None:
                return IllegalAction(*reason)
        if kind is ActionKind.RAISE and ActionKind.BET in legal:
            return IllegalAction(
                "bet_required",
                f"there is no bet to raise: bet instead ({self.word_for(ActionKind.BET)})",
            )
        if kind is ActionKind.BET and ActionKind.RAISE in legal:
            return IllegalAction(
                "raise_required",
                f"there is a bet already: raise ({self.word_for(ActionKind.RAISE)}) or call (c)",
            )
        if kind is ActionKind.CHECK and ActionKind.CALL in legal:
            owed = self.call_cost(view)
            return IllegalAction(
                "cannot_check", f"there is {owed:,} to call: call (c) or fold (f), not check"
            )
        if kind in _SIZED:
            return IllegalAction(
                "raise_not_allowed", f"no more betting is possible now: {self.offers(view)}"
            )
        doing = KIND_WORDS.get(kind, kind.value)
        return IllegalAction("action_not_allowed", f"you cannot {doing} now: {self.offers(view)}")


def _normalise(text: str) -> list[str]:
    """The typed words, lower case, with two-word phrases (``all in``, ``raise to``) joined."""
    line = " ".join(text.strip().lower().split())
    for phrase, word in _PHRASES.items():
        if line == phrase or line.startswith(phrase + " "):
            line = word + line[len(phrase) :]
    return line.split()


def _teen_patti_refusal(
    kind: ActionKind, view: TeenPattiView, names: Sequence[str]
) -> tuple[str, str] | None:
    """Teen Patti's own reasons against a move (code, message), in players' names.

    ``None`` for the reasons every game shares.
    """
    seat = view.seat
    if seat is None:
        return None

    def name(other: int) -> str:
        return names[other] if 0 <= other < len(names) else f"seat {other + 1}"

    if view.sideshow is not None:
        asker = name(view.sideshow[0])
        return ("sideshow_pending", f"{asker} asks you for a sideshow: accept (y) or decline (n)")
    live = [other for other in range(len(view.folded)) if not view.folded[other]]
    if kind is ActionKind.LOOK:
        return ("already_seen", "you have already looked at your cards")
    if kind in (ActionKind.ACCEPT, ActionKind.DECLINE):
        return ("no_sideshow", "nobody asked you for a sideshow")
    if kind is ActionKind.SHOW:
        if len(live) != 2:
            return ("show_needs_two_players", f"a show needs two players left, not {len(live)}")
        other = live[0] if live[1] == seat else live[1]
        if view.seen[seat] and not view.seen[other]:
            return (
                "show_against_blind",
                f"you have looked and {name(other)} is blind: a seen player may not ask a "
                "blind one for a show",
            )
    if kind is ActionKind.SIDESHOW:
        if not view.seen[seat]:
            return (
                "sideshow_needs_seen",
                "only a seen player may ask for a sideshow: look (l) first",
            )
        if len(live) < 3:
            return ("sideshow_needs_three_players", "a sideshow needs three or more players in")
        return (
            "sideshow_against_blind",
            "the player before you is blind: a sideshow needs a seen one",
        )
    return None
