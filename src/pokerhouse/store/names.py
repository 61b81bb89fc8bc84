"""The names a new account may take: no look-alikes, no invisible letters, no bot's name.

:func:`pokerhouse.store.users.username_key` says what a name is at all (NFKC,
3 to 20 letters, digits, ``_`` or ``-``) and finds an account by it; these
rules are for new accounts only, so an older account keeps its name:

* **One script.** A name's letters come from one script (digits, ``_`` and
  ``-`` belong to none), or from a mix that reads as one writing system
  (Latin with Han and Japanese kana; Latin with Han and Bopomofo; Latin
  with Han and Hangul: Unicode's "highly restrictive" level, UTS #39): a
  Cyrillic ``а`` amid Latin letters (``Аdа_bоt``) is refused.
* **Nothing invisible.** No default-ignorable code point (Unicode's
  ``Default_Ignorable_Code_Point``): the Hangul fillers U+3164, U+115F,
  U+1160 and U+FFA0 are letters to Python, and blank on screen.
* **No bot's name.** A person's name may not end in ``_bot``, ``-bot``,
  ``_tb`` or ``-tb`` (with digits after it or not): the room's bots are
  ``Ada_bot``, ``Ada_bot2``..., its tournament bots ``Jax_tb``, ``Jax_tb9``...,
  and a bot account is created as such, by the room.
* **No look-alike.** Each name has a *skeleton*: letters that look like
  ASCII ones mapped to them (Cyrillic, Greek, Armenian and Latin variants,
  from Unicode's confusables data as the ``confusable-homoglyphs`` package
  ships it), ``0`` to ``O``, ``1`` and ``I`` to ``l``, then case-folded. The
  store keeps it with a unique index: a name whose skeleton is another
  account's is ``username_taken``.

>>> new_username("Ada_42", bot=False)
('Ada_42', 'ada_42', 'ada_42')
>>> [username_skeleton(name) for name in ("\u0410d\u0430_b\u043et", "AIice", "B0b1")]
['ada_bot', 'alice', 'bobl']
>>> new_username("\u0410d\u0430", bot=False)
Traceback (most recent call last):
...
pokerhouse.store.errors.AccountError: a username is written in one script, not Cyrillic and Latin
>>> new_username("Ada_bot2", bot=False)
Traceback (most recent call last):
...
pokerhouse.store.errors.AccountError: names ending in _bot or _tb are the room's bots'
>>> new_username("Jax_tb9", bot=False)
Traceback (most recent call last):
...
pokerhouse.store.errors.AccountError: names ending in _bot or _tb are the room's bots'
>>> new_username("Ada_bot2", bot=True)[2]
'ada_bot2'
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable

from pokerhouse.store.errors import AccountError
from pokerhouse.store.users import username_key

#: Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, Unicode 15.1):
#: code points that render as nothing. Only the Hangul fillers among them pass as
#: letters, but a name holds none of them.
DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)  # fmt: skip

#: Scripts that may share a name (UTS #39, "highly restrictive"); one script alone
#: always may. Common (digits, ``_``, ``-``) and Inherited marks belong to none.
SCRIPT_MIXES: tuple[frozenset[str], ...] = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
_NEUTRAL = frozenset({"COMMON", "INHERITED"})

#: Names the room's bots play under (``Ada_bot``, ``Ada_bot2``, ``Ada_tb``): no bot
#: account may take one.
HOUSE_BOT_NAMES = (
    "Ada", "Boris", "Chen", "Dara", "Emil", "Fay", "Gus", "Hana", "Ivo", "Jun",
    "Kira", "Lev", "Mara", "Nils", "Olga", "Pavel", "Quinn", "Rosa", "Sami", "Tove",
    "Ugo", "Vera", "Wes", "Xena", "Yuri", "Zoe", "Anya", "Bela", "Cato", "Dima",
    "Edda", "Finn", "Gala", "Hugo", "Ines", "Jora", "Kai", "Lina", "Milo", "Nina",
    "Oleg", "Pia", "Rafe", "Sela", "Timo", "Una", "Vito", "Wren", "Yara", "Zeno",
    "Arlo", "Bea", "Cyra", "Dov", "Elin", "Fox", "Gita", "Hal", "Ivy", "Jax",
)  # fmt: skip

#: The room's bots' names end so (``Ada_bot``, ``Ada_bot2``), in skeleton form (where the
#: digits 0 and 1 read ``o`` and ``l``: ``Ada_bot10`` is ``ada_botlo``).
BOT_NAME = re.compile(r"[_-]bot[0-9lo]*$")
#: Endings no person's name may have: a bot's (above) or a tournament bot's (``Jax_tb9``).
RESERVED_ENDING = re.compile(r"[_-](bot|tb)[0-9lo]*$")

#: ASCII look-alikes within ASCII (UTS #39's confusables): applied before case folding.
_ASCII_PROTOTYPES = {"0": "O", "1": "l", "I": "l"}


def new_username(name: object, *, bot: bool) -> tuple[str, str, str]:
    """``(shown, key, skeleton)`` of a new account's name, or ``bad_username``."""
    shown, key = username_key(name)
    for char in shown:
        if is_default_ignorable(char):
            raise AccountError(
                "bad_username",
                f"a username has no invisible characters (U+{ord(char):04X} is one)",
            )
    scripts = {script_of(char) for char in shown} - _NEUTRAL
    if len(scripts) > 1 and not any(scripts <= mix for mix in SCRIPT_MIXES):
        named = " and ".join(sorted(s.title() for s in scripts))
        raise AccountError("bad_username", f"a username is written in one script, not {named}")
    skeleton = username_skeleton(shown)
    if not bot and RESERVED_ENDING.search(skeleton):
        raise AccountError("bad_username", "names ending in _bot or _tb are the room's bots'")
    return shown, key, skeleton


def is_default_ignorable(char: str) -> bool:
    """Whether ``char`` is a Default_Ignorable_Code_Point (renders as nothing).

    >>> is_default_ignorable("\\u3164"), is_default_ignorable("a")
    (True, False)
    """
    point = ord(char)
    return any(low <= point <= high for low, high in DEFAULT_IGNORABLE)


def script_of(char: str) -> str:
    """The Unicode script of ``char``, upper case (``LATIN``, ``CYRILLIC``, ``COMMON``...).

    >>> script_of("a"), script_of("\\u0430"), script_of("_"), script_of("\\u548c")
    ('LATIN', 'CYRILLIC', 'COMMON', 'HAN')
    """
    from confusable_homoglyphs import categories

    return str(categories.alias(char)).upper()


def username_skeleton(name: str) -> str:
    """What ``name`` looks like: each letter that looks like an ASCII one replaced by it,
    ``0``, ``1`` and ``I`` by ``O``, ``l`` and ``l``, NFKC and case-folded. Two names
    with one skeleton are told apart by few readers."""
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(char, char) for char in unicodedata.normalize("NFKC", name))
    mapped = "".join(_ASCII_PROTOTYPES.get(char, char) for char in mapped)
    return unicodedata.normalize("NFKC", mapped.casefold())


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each non-ASCII character that Unicode's confusables data says looks like one ASCII
    letter or digit, and that letter (loaded once, on the first new name)."""
    from confusable_homoglyphs import utils

    data = utils.load("confusables.json")
    return dict(_ascii_prototypes(data.items()))


def _ascii_prototypes(
    entries: Iterable[tuple[str, list[dict[str, str]]]],
) -> Iterable[tuple[str, str]]:
    for char, glyphs in entries:
        if len(char) != 1 or char.isascii():
            continue
        ascii_ = sorted(
            glyph["c"]
            for glyph in glyphs
            if len(glyph["c"]) == 1 and glyph["c"].isascii() and glyph["c"].isalnum()
        )
        if ascii_:
            # Letters before digits: an O-shaped letter is an O, not a zero.
            yield char, min(ascii_, key=lambda c: (c.isdigit(), c))
