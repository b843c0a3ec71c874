"""The figures of docs/reference.md that the tests reproduce (shared by API and CLI tests)."""

from __future__ import annotations

PUBLISHED = [
    # size, board, word list, rule, score, words
    ("3x3", "streaedlp", "enable2k", "standard", 545, 267),
    ("3x4", "perslatesind", "enable2k", "standard", 1651, 600),
    ("4x4", "perslatgsineters", "enable2k", "standard", 3625, 1045),
    ("4x4", "serglanepitssero", "enable2k", "standard", 3569, 1158),
    ("4x4", "serglanepitssero", "enable2k", "words", 1158, 1158),
    ("4x4", "rpqaselinifcoita", "enable2k", "pow2", 44726, 229),
    ("4x4", "bestlatepirsseng", "yawl", "standard", 4540, 1351),
    ("5x5", "ligdrmanesietildsracsepes", "enable2k", "standard", 10406, 2344),
]

MULTI = [
    # board, score, demulti, multi (ENABLE2K, standard)
    ("eeesrvrreeesrsrs", 189, 13253, 21953),
    ("perslatgsineters", 3625, 4732, 4747),
]
