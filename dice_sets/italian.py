"""The dice of Il Paroliere, the Italian Boggle (Editrice Giochi), for the
``italian`` language.

Source: the list of its 16 dice in "Il Paroliere ovvero Boggle"
(twrh.noblogs.org/post/2013/01/04/il-paroliere-ovvero-boggle, 2013), with
the letter counts it gives (E 13, A 9, O 9, I 8, ... Q 1, Z 1 of 97 letters,
Qu counted as two), which these dice match. One face is Qu (``q``).
"""

from __future__ import annotations

from collections.abc import Callable

from boggle_opt import DiceSet, hookimpl

ITALIAN_4X4 = DiceSet(
    "italian-4x4",
    "the 16 dice of Il Paroliere, the Italian Boggle (language italian)",
    tuple("aaeiot aboomq abilrt acelrs acdemp acfior adenvz aimors "
          "cenotu denost eefhis eglnou egintv ehinrs eiloru elpstu".split()),
    aliases=("italian", "paroliere"),
)


@hookimpl
def register_dice_sets(register: Callable[[DiceSet], None]) -> None:
    register(ITALIAN_4X4)
