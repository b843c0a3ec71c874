"""One run from settings to file: the run spec and ``search()`` (``run``), the run
file writer and reader (``runfile``), its record schema (``records``, ``events``),
the lock on it (``lock``) and the fingerprint ``--resume`` checks (``fingerprints``).

May import: everything below it, up to ``registry``; never the package face or ``cli``.
"""
