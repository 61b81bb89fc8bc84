"""Bots: decision policies that see only their seat's view.

A bot is anything with ``choose(view) -> Action`` (:class:`Bot`). The random
bot plays every game; each game has an equity ("smart") bot and a reading,
sizing, bluffing one with a style of its own ("pro", the room's house bots);
the exploiter and the calling station are fixed strategies to measure bots
against.

>>> import random
>>> from pokerhouse.games import new_hand
>>> hand = new_hand("razz", [100, 100, 100], seed=5)
>>> bot = get("random", rng=random.Random(2))
>>> hand.act(bot.choose(hand.view(hand.to_act))) != ()
True
"""

from pokerhouse.bots.base import Bot
from pokerhouse.bots.casino_holdem import CasinoHoldemBot, best_play_table
from pokerhouse.bots.equity_bot import EquityBot, decide_by_equity
from pokerhouse.bots.fixed import ExploiterBot, StationBot
from pokerhouse.bots.persona import Persona
from pokerhouse.bots.pro import ProBot, RazzProBot, ThreeByFourProBot
from pokerhouse.bots.pro_teen_patti import TeenPattiProBot
from pokerhouse.bots.random_bot import RandomBot
from pokerhouse.bots.razz import RazzBot
from pokerhouse.bots.registry import BOT_NAMES, PRO_BOTS, SMART_BOTS, get, register_smart
from pokerhouse.bots.teen_patti import TeenPattiBot, hand_strength
from pokerhouse.bots.three_by_four import ThreeByFourBot

__all__ = [
    "BOT_NAMES",
    "PRO_BOTS",
    "SMART_BOTS",
    "Bot",
    "CasinoHoldemBot",
    "EquityBot",
    "ExploiterBot",
    "Persona",
    "ProBot",
    "RandomBot",
    "RazzBot",
    "RazzProBot",
    "StationBot",
    "TeenPattiBot",
    "TeenPattiProBot",
    "ThreeByFourBot",
    "ThreeByFourProBot",
    "best_play_table",
    "decide_by_equity",
    "get",
    "hand_strength",
    "register_smart",
]
