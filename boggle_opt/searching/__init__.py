"""Searching: the searcher interface and its events (``interface``), declared
options (``options``) and the ``Driver`` that runs one searcher on one problem,
enforcing its budget (``driver``).

May import: ``core``, ``dictionary``, ``constraints``, ``proofs`` (the executor a
problem names) and the base modules.
"""
