"""Casino Hold'em analysis: advice, the exact house edge, the AA Bonus, simulation.

- :func:`advise`: exact values of calling and folding for two cards and a flop.
- :func:`exact_analysis`: best play's house edge, call rate, element of risk
  and the dealer's qualification rate over every deal.
- :func:`bonus_return`: the AA Bonus's exact return for any pay table.
- :func:`simulate`: Monte Carlo play of any strategy, with confidence intervals.

>>> round(float(bonus_return(BonusPays.named("common")).house_edge), 4)
0.0626
"""

from pokerhouse.analysis.casino_holdem.advice import Advice, Outcomes, advise, call_outcomes
from pokerhouse.analysis.casino_holdem.bonus import BonusReturn, bonus_counts, bonus_return
from pokerhouse.analysis.casino_holdem.exact import (
    COMPLETIONS,
    DEALS,
    ExactResult,
    exact_analysis,
)
from pokerhouse.analysis.casino_holdem.simulate import Estimate, SimulatedEdge, simulate
from pokerhouse.analysis.casino_holdem.strategy import Strategy, StrategyTable, always_call
from pokerhouse.games.casino_holdem.paytables import AntePays, BonusPays

__all__ = [
    "COMPLETIONS",
    "DEALS",
    "Advice",
    "AntePays",
    "BonusPays",
    "BonusReturn",
    "Estimate",
    "ExactResult",
    "Outcomes",
    "SimulatedEdge",
    "Strategy",
    "StrategyTable",
    "advise",
    "always_call",
    "bonus_counts",
    "bonus_return",
    "call_outcomes",
    "exact_analysis",
    "simulate",
]
