"""When branch and bound switches from forcing to the orderly bound: a
proof's choice, read by the ``bnb`` plugin and by the benchmarks that time
classes as its workers solve them (without importing the plugin)."""

from __future__ import annotations

#: the default ``switch`` ratio by size, measured on the anchor samples and
#: the hardest classes of the 40-class 4x4 sample (benchmarks/bnb_classes.py;
#: docs/benchmarks.md): with the orderly bound's max of sums, 3x4 takes
#: 16.6 s at 1.7 and 15.6 s at 2.0 (its hardest class 1.72 and 1.59 s), 4x4's
#: four hardest sample-40 classes 270 s at the published run's 8000 (at
#: 3500), 239 s at 7000, 237 s at 6500 and 252 s at 6000; once each 4x4
#: class is forced in its own cell order, the orderly bound gained more than
#: forcing, and the 640 classes of the full-run estimate took 8% less at
#: 7500 than at 6500 (at 8000, 151 classes, the anchors' 10 among them: 7%)
SWITCH_RATIOS: dict[str, float] = {"3x4": 2.0, "4x4": 7500 / 3500}
DEFAULT_SWITCH = 1.5
