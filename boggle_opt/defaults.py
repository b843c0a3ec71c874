"""The defaults of a run or a scoring command, named once.

The command line, the library (``boggle_opt.runs.run``), ``load_dictionary`` and
the conformance suite all take these names from here.
"""

from __future__ import annotations

#: the word list given none: the ``embedded`` list (from the kjxqz package)
WORDLIST = "default"
#: the scoring rule given none
RULE = "standard"
#: the board size of a run given none
SIZE = "4x4"
#: the time budget of a run given no budget, for a searcher that is not exhaustive
SECONDS = 60.0
#: worker processes a run may start at most, wherever the number comes from
#: (``--jobs``, a run file, ``search(jobs=...)``): each holds the dictionary, so
#: thousands are a typo, and ``--jobs 9223372036854775807`` tried to spawn that many
MAX_JOBS = 256
#: verify's default check: each class record's chance of being re-solved whole
#: (it costs about that share of the proof's CPU: a 3x4 proof's 1.6 CPU-hours,
#: about 5 minutes; docs/usage.md has the figures) ...
VERIFY_CHANCE = 0.05
#: ... after the lowest draws are re-solved for this many CPU seconds (a proof
#: of a few minutes' CPU is re-solved whole, or nearly)
VERIFY_BUDGET = 30.0
