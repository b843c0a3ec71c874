"""The dice of the Boggle games: the classic and newer 4x4 sets, and Big Boggle's 25.

The 4x4 sets are as ``../shared/REFERENCE.md`` lists them. The 5x5 set is the
original Big Boggle set as listed in the BoardGameGeek thread "letter
distribution" (boardgamegeek.com/thread/300883) and copied by many open-source
Boggle games; later Big Boggle editions changed a few dice.
"""

from __future__ import annotations

from collections.abc import Callable

from boggle_opt import DiceSet, hookimpl

CLASSIC = DiceSet(
    "classic",
    "the 16 dice of Boggle 1976-1986",
    tuple("aaciot abilty abjmoq acdemp acelrs adenvz ahmors biforx "
          "denosw dknotu eefhiy egkluy egintv ehinps elpstu gilruw".split()),
)
NEW = DiceSet(
    "new",
    "the 16 dice of Boggle from 1987 on",
    tuple("aaeegn abbjoo achops affkps aoottw cimotu deilrx delrvy "
          "distty eeghnw eeinsu ehrtvw eiosst elrtty himnqu hlnnrz".split()),
    aliases=("modern",),
)
BIG = DiceSet(
    "big",
    "the 25 dice of the original Big Boggle (5x5)",
    tuple("aaafrs aaeeee aafirs adennn aeeeem aeegmu aegmnn afirsy bjkqxz ccenst "
          "ceiilt ceilpt ceipst ddhnot dhhlor dhhlor dhlnor eiiitt emottt ensssu "
          "fiprsy gorrvw iprrry nootuw ooottu".split()),
    aliases=("big-boggle",),
)


@hookimpl
def register_dice_sets(register: Callable[[DiceSet], None]) -> None:
    register(CLASSIC)
    register(NEW)
    register(BIG)
