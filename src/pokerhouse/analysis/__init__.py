"""Analysis: exact odds, house edges, strategy advice and simulation, one package per game.

Casino Hold'em's lives in :mod:`pokerhouse.analysis.casino_holdem`.
"""
