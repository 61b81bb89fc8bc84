"""Hand evaluators: five-card high, A-5 low and Teen Patti.

Three kinds of entry point per game:

- ``high(cards)``, ``low(cards)``, ``teen_patti(cards)`` check their input
  and return a :class:`HandValue`: ``value``, ``category``, the ``cards``
  that make the hand (most significant first) and a ``description``.
- ``high_value(cards)``, ``low_value(cards)``, ``teen_patti_value(cards)``
  return only the value and skip every check: the fast paths for engines,
  bots and simulations.
- ``high_batch(array)``, ``low_batch(array)``, ``teen_patti_batch(array)``
  score an (N, k) numpy array of card indices at once.

Values are ``int``: higher is better in every game, equal values tie, and
each value names one class of hands, so ``high_category(value)``,
``high_description(value)`` and their ``low_``/``teen_patti_`` siblings work
from the value alone.

>>> from pokerhouse import evaluate
>>> evaluate.high("As Ks Qs Js Ts 2c 3d").description
'Royal flush'
>>> evaluate.low("Kc 8d 7h 4s 3c 2d Kh").description
'8-7-4-3-2 low'
>>> evaluate.teen_patti("Ah Ad Ac").description
'Trail of aces'
"""

from pokerhouse.evaluate.batch import high_batch, low_batch, teen_patti_batch
from pokerhouse.evaluate.exhaustive import (
    high_category_counts,
    high_value_counts,
    low_category_counts,
    low_value_counts,
    teen_patti_category_counts,
)
from pokerhouse.evaluate.high import (
    HIGH_VALUES,
    high,
    high_category,
    high_description,
    high_value,
    is_royal_flush,
)
from pokerhouse.evaluate.low import LOW_VALUES, low, low_category, low_description, low_value
from pokerhouse.evaluate.teen_patti import (
    TEEN_PATTI_VALUES,
    teen_patti,
    teen_patti_category,
    teen_patti_description,
    teen_patti_value,
)
from pokerhouse.evaluate.values import HandValue, HighCategory, LowCategory, TeenPattiCategory

__all__ = [
    "HIGH_VALUES",
    "LOW_VALUES",
    "TEEN_PATTI_VALUES",
    "HandValue",
    "HighCategory",
    "LowCategory",
    "TeenPattiCategory",
    "high",
    "high_batch",
    "high_category",
    "high_category_counts",
    "high_description",
    "high_value",
    "high_value_counts",
    "is_royal_flush",
    "low",
    "low_batch",
    "low_category",
    "low_category_counts",
    "low_description",
    "low_value",
    "low_value_counts",
    "teen_patti",
    "teen_patti_batch",
    "teen_patti_category",
    "teen_patti_category_counts",
    "teen_patti_description",
    "teen_patti_value",
]
