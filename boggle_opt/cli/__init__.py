"""The ``boggle-opt`` command line: the entry point and ``run`` (``app``), one
module per other command (``score``, ``show``, ``bound``, ``plan``, ``dice``,
``report``), shared argument types (``args``) and the live display (``display``).
The only place that imports rich.

May import: anything.
"""
