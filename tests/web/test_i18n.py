"""The catalogues: one per language, the same keys and placeholders, every key the client uses."""

from __future__ import annotations

import json
import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "src" / "pokerhouse" / "web"


def catalogue(lang: str) -> dict[str, object]:
    return dict(json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8")))


def placeholders(value: object) -> set[str]:
    texts = value.values() if isinstance(value, dict) else [value]
    return {name for text in texts for name in re.findall(r"\{(\w+)\}", str(text))}


def test_english_and_russian_have_the_same_strings_and_placeholders() -> None:
    en, ru = catalogue("en"), catalogue("ru")
    assert sorted(en) == sorted(ru)
    for key in en:
        assert placeholders(en[key]) == placeholders(ru[key]), key
        assert str(ru[key]).strip(), key


def test_every_string_the_client_names_is_in_the_catalogue() -> None:
    en = catalogue("en")
    used: set[str] = set()
    for path in WEB.joinpath("js").rglob("*.js"):
        used |= set(re.findall(r"\bt\(\s*\"([a-z0-9_.-]+)\"", path.read_text(encoding="utf-8")))
    assert used, "no t() calls found"
    assert sorted(used - set(en)) == []


def test_russian_is_really_russian() -> None:
    ru = catalogue("ru")
    latin = {k for k, v in ru.items() if not re.search("[а-яё]", str(v), re.IGNORECASE)}
    # Everything but strings of placeholders and digits, and the abbreviations Russian
    # players use as they are (VPIP, PFR), reads in Russian.
    assert latin <= {"stats.vpip", "stats.pfr"} | {
        k for k in latin if not re.search("[A-Za-z]", re.sub(r"\{\w+\}", "", str(ru[k])))
    }


def test_every_phrase_a_house_bot_says_is_in_every_catalogue() -> None:
    from pokerhouse.server.table.bot_chat import PHRASES

    for lang in ("en", "ru"):
        words = catalogue(lang)
        assert all(f"chat.phrase.{key}" in words for key in PHRASES), lang
    assert all(catalogue("en")[f"chat.phrase.{key}"] == text for key, text in PHRASES.items())
