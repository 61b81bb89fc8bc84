"""docs/bots.md shows the example bot the tests play: examples/calling_bot.py, as it is."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_docs_show_the_example_bot_as_it_is_in_its_file() -> None:
    docs = (ROOT / "docs" / "bots.md").read_text()
    example = (ROOT / "examples" / "calling_bot.py").read_text()
    section = docs[docs.index("## Writing a bot for the room") :]
    block = section[section.index("```python\n") + len("```python\n") :]
    block = block[: block.index("```")]
    shown = block[block.index("class CallingBot") :]
    assert shown.strip() in example
    assert "from pokerhouse.client import Decision" in block
