"""Words and points: scoring rules (``rules``), word-list sources (``wordlist``),
the on-disk cache of built tries (``cache``) and the ``Dictionary`` a scorer is made
from (``dictionary``). Loading one by name is ``boggle_opt.registry.dictionaries``.

May import: ``core``, and the base modules (``lazy``, ``defaults``, ``_version``).
"""
