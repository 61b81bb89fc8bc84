"""A table over many hands: seats, buy-ins, the button, sitting out, added chips.

One door, :meth:`Table.apply`, takes the typed commands of
:mod:`pokerhouse.table.commands` and returns a :class:`Step`: the numbered
events each caused and the records (:mod:`pokerhouse.table.records`) to store.

>>> import random
>>> table = Table("razz", seats=4, rng=random.Random(2))
>>> step = table.apply(SitTogether(((0, "Ann", 100), (2, "Bob", 100), (3, "Cy", 100))))
>>> [type(logged.event).__name__ for logged in step][-4:]
['SeatDrawCard', 'SeatDrawCard', 'SeatDrawCard', 'ButtonPlaced']
"""

from pokerhouse.table import records
from pokerhouse.table.commands import (
    Act,
    AddChips,
    Command,
    Leave,
    SetStakes,
    SetWager,
    Sit,
    SitIn,
    SitOut,
    SitTogether,
    StartHand,
    Timeout,
    VoidHand,
)
from pokerhouse.table.errors import TableError
from pokerhouse.table.events import (
    ButtonPlaced,
    ChipsAdded,
    HandVoided,
    PlayerBusted,
    PlayerLeaving,
    PlayerLeft,
    PlayerSat,
    RakeTaken,
    SeatDrawCard,
    SittingOut,
    StakesSet,
    TableHandEnded,
    TableHandStarted,
    TimedOut,
    WagerSet,
)
from pokerhouse.table.journal import Logged, Step
from pokerhouse.table.rake import Rake
from pokerhouse.table.seats import SeatInfo, TableLimits
from pokerhouse.table.table import HandResult, Policy, Table

__all__ = [
    "Act",
    "AddChips",
    "ButtonPlaced",
    "ChipsAdded",
    "Command",
    "HandResult",
    "HandVoided",
    "Leave",
    "Logged",
    "PlayerBusted",
    "PlayerLeaving",
    "PlayerLeft",
    "PlayerSat",
    "Policy",
    "Rake",
    "RakeTaken",
    "SeatDrawCard",
    "SeatInfo",
    "SetStakes",
    "SetWager",
    "Sit",
    "SitIn",
    "SitOut",
    "SitTogether",
    "SittingOut",
    "StakesSet",
    "StartHand",
    "Step",
    "Table",
    "TableError",
    "TableHandEnded",
    "TableHandStarted",
    "TableLimits",
    "TimedOut",
    "Timeout",
    "VoidHand",
    "WagerSet",
    "records",
]
