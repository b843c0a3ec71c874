"""One run from settings to file: the run spec and ``search()`` (``run``), the run
file writer and reader (``runfile``), its record schema (``records``, ``events``),
the lock on it (``lock``), the fingerprint ``--resume`` checks (``fingerprints``)
and what may be read and written (``files``: regular files, no output over a run file).

May import: everything below it, up to ``registry``; never the package face or ``cli``.
"""
