"""Proving a best board: board classes (``board_classes``), the tasks a proof
splits into (``class_tasks``), the executor interface (``executor``) and the local
process pool with the session bnb and longword share (``local``).

May import: ``core``, ``dictionary``, ``constraints`` and the base modules
(``signals`` for quiet workers).
"""
