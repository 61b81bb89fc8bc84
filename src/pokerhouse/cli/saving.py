"""Hand histories written by the commands that play hands, for ``pokerhouse replay``.

:class:`HistoryFolder` refuses a folder that already holds hand histories,
so that nothing is overwritten, and makes it when the first hand comes;
:meth:`HistoryFolder.save` writes one finished hand as ``hand-0001.json``
(the full server-side JSON history, every game) and, for Razz,
``hand-0001.phh`` too, with the players' names.

>>> import tempfile
>>> from pokerhouse.cards import Deck
>>> from pokerhouse.engine import Action
>>> from pokerhouse.games import new_hand
>>> from pokerhouse.history import load_history
>>> hand = new_hand("razz", [100, 100], deck=Deck.stacked("Ah 2c 3d 4s Kc 5h"))
>>> _ = hand.act(Action.parse("bring_in")), hand.act(Action.fold())
>>> with tempfile.TemporaryDirectory() as folder:
...     written = HistoryFolder(Path(folder) / "hands").save(hand, 1, ["Ann", "Bob"])
...     print([path.name for path in written], load_history(written[1]).names)
['hand-0001.json', 'hand-0001.phh'] ('Ann', 'Bob')
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pokerhouse.engine.hand import Hand
from pokerhouse.errors import HistoryError
from pokerhouse.history import to_json, to_phh

#: The games whose hands are also written as PHH.
PHH_GAMES = ("razz",)

#: The files a folder of saved hands holds.
PATTERNS = ("hand-*.json", "hand-*.phh")


class HistoryFolder:
    """A folder that receives one history file (or two, for Razz) per finished hand.

    ``width`` is the least number of digits of a hand's number in its file
    name (``hand-0001``), so that the files list in playing order.
    """

    def __init__(self, path: str | Path, *, width: int = 4) -> None:
        self.path = Path(path)
        self.width = width
        if self.path.exists() and not self.path.is_dir():
            raise HistoryError("unwritable", f"cannot save hands in {self.path}: not a folder")
        if self.path.is_dir():
            held = sorted(name.name for pattern in PATTERNS for name in self.path.glob(pattern))
            if held:
                raise HistoryError(
                    "history_exists",
                    f"{self.path} already holds hand histories ({held[0]}, ...): "
                    "save to a new or empty folder",
                )

    def save(self, hand: Hand, number: int, names: Sequence[str] | None = None) -> tuple[Path, ...]:
        """Write ``hand`` (finished) as hand ``number``; returns the files written.

        ``names`` are the players in the hand's seat order; PHH keeps them
        (``players``), JSON has no place for them.
        """
        if not hand.is_over:
            raise HistoryError("hand_not_over", f"hand {number} is not over: nothing to save")
        stem = f"hand-{number:0{self.width}d}"
        files = [(self.path / f"{stem}.json", to_json(hand))]
        if hand.game in PHH_GAMES:
            files.append((self.path / f"{stem}.phh", to_phh(hand, players=names)))
        for path, text in files:
            try:
                self.path.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
            except OSError as error:
                raise HistoryError(
                    "unwritable", f"cannot write {path}: {error.strerror or error}"
                ) from None
        return tuple(path for path, _ in files)
