"""Several nodes of one room: the bus between them, relaying a table's inputs and frames,
spreading tables.
"""
