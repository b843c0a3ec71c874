"""The dice of the French Boggle, 4x4 and 5x5, for the ``french`` language.

Source: B@ggle, a free online Boggle in French (Edouard de Labareyre,
GPL), whose rules say its draws follow "les dés utilisés dans le jeu
d'origine" and list each die's six letters, 16 for 4x4 and 25 for 5x5
(baggle.org/regles.php; the same page is doc/regles.md in
github.com/inouire/baggle, and its solver's GameBoard.java holds the same
dice). The 4x4 set is reproduced, the same 16 dice, by other open-source
French Boggle games (github.com/abodelot/boggle, src/Boggle.cpp). The 5x5
set has only that one source, and its dice (five with vowels only, five with
no vowel) look unlike the English Big Boggle's: treat it as B@ggle's.

B@ggle prints the Q face as ``Q`` and plays it as a plain Q; the ``french``
language's only Q tile is Qu (``q``), so the face is read as Qu here.
"""

from __future__ import annotations

from collections.abc import Callable

from boggle_opt import DiceSet, hookimpl

FRENCH_4X4 = DiceSet(
    "french-4x4",
    "the 16 dice of the French Boggle (language french; B@ggle's rules)",
    tuple("etukno evgtin decamp ielruw ehifse recals entdos ofxria "
          "navedz eioata glenyu bmaqjo tlibra spulte aimsor enhris".split()),
    aliases=("french",),
)
FRENCH_5X5 = DiceSet(
    "french-5x5",
    "the 25 dice of B@ggle's French Big Boggle (language french)",
    tuple("mdnsnh gfstey lmtrxs ttrsch bmlndl tmrdbt eiueao rlxssb naateq "
          "tcjfsh ieeaoa ndhsnm iaaieo oeueia lcprjs dstlsm nklpfn dwrnlp "
          "rznntq rglrvf rvcgrt iioeae euiaeo uiaeoa nsevae".split()),
    aliases=("french-big",),
)


@hookimpl
def register_dice_sets(register: Callable[[DiceSet], None]) -> None:
    register(FRENCH_4X4)
    register(FRENCH_5X5)
