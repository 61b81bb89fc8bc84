"""The arena's tests."""

# A bot module that fails on import, on purpose: only the loader may import it.
collect_ignore = ["raises_on_import.py"]
