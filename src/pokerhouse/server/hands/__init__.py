"""Hand histories over HTTP: a player's hands, one hand's history and downloads, its
equity.
"""
