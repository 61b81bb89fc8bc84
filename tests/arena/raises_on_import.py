"""A user's bot module that fails as it is imported."""

raise RuntimeError("this module is broken")
