"""Every hand name the server can send is said in the reader's language.

The server names hands in the evaluators' English; the client reads each
name back into its parts (``js/handnames.js``) and says it from the
catalogue. Here every name there is, from every class of every game and
every partial hand, goes through the client in a real browser: in English
it comes back word for word, in Russian with no English left.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest

from pokerhouse.cards import Card
from pokerhouse.evaluate.classes import (
    high_class_description,
    high_classes,
    low_class_description,
    low_classes,
    teen_patti_class_description,
    teen_patti_classes,
)
from pokerhouse.games.naming import partial_high, partial_low
from tests.server.process import ServeProcess
from tests.web.pages import person

TRANSLATE = """async ([lang, names]) => {
  const i18n = await import("./js/i18n.js");
  const { handText } = await import("./js/handnames.js");
  await i18n.setLanguage(lang);
  return names.map(handText);
}"""


def every_name() -> list[str]:
    """Each name the evaluators give a class, and each partial hand's name (one to four cards)."""
    names = {high_class_description(cls) for cls in high_classes()}
    names |= {low_class_description(cls) for cls in low_classes()}
    names |= {teen_patti_class_description(cls) for cls in teen_patti_classes()}
    # Ranks are all a partial name reads; the suits just keep the cards distinct.
    for size in range(1, 5):
        for ranks in itertools.combinations_with_replacement(range(13), size):
            cards = [Card.of(rank, n % 4) for n, rank in enumerate(ranks)]
            names.add(partial_high(cards))
            names.add(partial_low(cards))
    return sorted(names)


@pytest.fixture(scope="module")
def names() -> list[str]:
    return every_name()


def translate(room: ServeProcess, browser: Any, lang: str, names: list[str]) -> list[str]:
    who = person(browser, room.base)
    try:
        who.goto("/")
        result: list[str] = who.page.evaluate(TRANSLATE, [lang, names])
        assert who.errors == []
        return result
    finally:
        who.close()


def test_english_gives_back_the_servers_own_words(
    room: ServeProcess, browser: Any, names: list[str]
) -> None:
    assert len(names) > 4_000
    assert translate(room, browser, "en", names) == names


def test_russian_leaves_no_english(room: ServeProcess, browser: Any, names: list[str]) -> None:
    russian = dict(zip(names, translate(room, browser, "ru", names), strict=True))
    english_left = {n: r for n, r in russian.items() if re.search("[a-z]|T", r)}
    assert english_left == {}
    assert all(re.search("[а-яё]", r) for r in russian.values())
    # The grammar, read by a person: cases and plurals as Russian has them.
    assert russian["Pair of nines, 2 kicker"] == "Пара девяток, кикер 2"
    assert russian["Full house, kings over fours"] == "Фулл-хаус: короли и четвёрки"
    assert russian["Straight, five high"] == "Стрит до пятёрки"
    assert russian["Royal flush"] == "Роял-флеш"
    assert russian["Trail of aces"] == "Трейл тузов"
    assert russian["Pure sequence, A-K-Q"] == "Чистый сиквенс, A-K-Q"
    assert russian["K-Q-J-T-9 low"] == "K-Q-J-10-9, до короля"
    assert (
        russian["8-4-2 low so far, with two eights"] == "8-4-2, пока до восьмёрки; пара восьмёрок"
    )
    assert (
        russian["High card, ace, king, queen, seven, two"]
        == "Старшая карта: туз, король, дама, семёрка, двойка"
    )


def test_a_name_the_client_does_not_know_is_shown_as_sent(room: ServeProcess, browser: Any) -> None:
    odd = ["Pair of jokers", "Something new", ""]
    assert translate(room, browser, "ru", odd) == odd
