"""A table over many hands: seats, buy-ins, the button, sitting out, rebuys.

>>> import random
>>> table = Table("razz", seats=4, rng=random.Random(2))
>>> _ = table.sit_together([(0, "Ann", 100), (2, "Bob", 100), (3, "Cy", 100)])
>>> [type(event).__name__ for event in table.events][-4:]
['SeatDrawCard', 'SeatDrawCard', 'SeatDrawCard', 'ButtonPlaced']
"""

from pokerhouse.table.errors import TableError
from pokerhouse.table.events import (
    ButtonPlaced,
    ChipsAdded,
    PlayerBusted,
    PlayerLeft,
    PlayerSat,
    SeatDrawCard,
    SittingOut,
    TableHandEnded,
    TableHandStarted,
)
from pokerhouse.table.seats import SeatInfo, TableLimits
from pokerhouse.table.table import HandSummary, Policy, Table

__all__ = [
    "ButtonPlaced",
    "ChipsAdded",
    "HandSummary",
    "PlayerBusted",
    "PlayerLeft",
    "PlayerSat",
    "Policy",
    "SeatDrawCard",
    "SeatInfo",
    "SittingOut",
    "Table",
    "TableError",
    "TableHandEnded",
    "TableHandStarted",
    "TableLimits",
]
