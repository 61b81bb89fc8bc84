"""Test collection settings shared by the test suite and the doctests."""

collect_ignore = ["src/pokerhouse/__main__.py"]
