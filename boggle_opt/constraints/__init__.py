"""What a board must satisfy: fixed cells and required words (``fixed``) and dice
sets (``dice``).

May import: ``core``, ``dictionary`` and the base modules.
"""
