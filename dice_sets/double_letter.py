"""Big Boggle with the Double Letter cube: 25 dice, one of them the cube
An Er He In Qu Th, for the ``english-dl`` language (its tiles).

As github.com/rtvu/boggle_engine lists the later Big Boggle set
(resource/big_boggle.txt): the Double Letter cube carries the Qu face, and
four other dice differ from the original set (``big``). Hasbro's rules
(ultraboardgames.com, "Big Boggle game rules") list the cube as a bonus
for an optional variant; they do not list the faces.
"""

from __future__ import annotations

from collections.abc import Callable

from boggle_opt import DiceSet, hookimpl
from boggle_opt.dictionary.language import DOUBLE_LETTER_TILES

#: the cube's faces as the alphabet's symbols (one character a face)
CUBE = DOUBLE_LETTER_TILES.read("[an][er][he][in][qu][th]")

BIG_DL = DiceSet(
    "big-dl",
    "Big Boggle's 25 dice with the Double Letter cube (language english-dl)",
    (CUBE, *"aaafrs aaeeee aafirs adennn aeeeem aeegmu aegmnn afirsy bbjkxz ccenst "
     "eiilst ceipst ddhnot dhhlor dhhnow dhlnor eiiitt eilpst emottt ensssu "
     "gorrvw iprsyy nootuw ooottu".split()),
    aliases=("bigdl",),
    alphabet=DOUBLE_LETTER_TILES,  # its faces are english-dl's tiles: that language plays it
)


@hookimpl
def register_dice_sets(register: Callable[[DiceSet], None]) -> None:
    register(BIG_DL)
