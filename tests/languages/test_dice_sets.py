"""The editions' dice each language ships: the right number of dice, six
faces each, every face one of its language's tiles; a set whose face the
language lacks is refused in one line."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from boggle_opt.boards import size_geometry
from boggle_opt.constraints.dice import DiceError
from boggle_opt.constraints.fixed import Constraints
from boggle_opt.dice_sets.french import FRENCH_4X4, FRENCH_5X5
from boggle_opt.dice_sets.italian import ITALIAN_4X4
from boggle_opt.registry.loader import Registries

#: each shipped edition's dice: its language and how many dice
SHIPPED = {"french-4x4": ("french", 16), "french-5x5": ("french", 25), "italian-4x4": ("italian", 16)}


def test_each_language_names_its_dice(registries: Registries) -> None:
    named = {name: lang.name for e in registries.languages.entries()
             for lang in [e.item] for name in lang.dice}
    for name, (language, _) in SHIPPED.items():
        assert named.get(name) == language, name


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_shipped_dice_fit_their_language(registries: Registries, name: str) -> None:
    language, n = SHIPPED[name]
    dice = registries.dice.get(name)
    alphabet = registries.languages.get(language).alphabet
    assert dice.n == n
    assert all(len(die) == 6 for die in dice.dice)
    assert {ch for die in dice.dice for ch in die} <= set(alphabet.symbols)
    dice.check_tiles(alphabet.symbols, language)  # no error
    rng = np.random.default_rng(68)
    for _ in range(5):  # a roll is a board of the language, and rollable
        board = dice.roll(rng)
        assert board is not None and dice.rollable(board)
        assert alphabet.read(alphabet.write(board)) == board


def test_every_language_dice_set_fits(registries: Registries) -> None:
    for entry in registries.languages.entries():
        for name in entry.item.dice:
            dice = registries.dice.get(name)
            assert all(len(die) == 6 for die in dice.dice), name
            dice.check_tiles(entry.item.alphabet.symbols, entry.name)


def test_transcriptions() -> None:
    # the sources' own counts: Il Paroliere's 97 letters (Qu as two), E 13 ... Z 1
    italian = Counter("".join(ITALIAN_4X4.dice))
    assert italian["e"] == 13 and italian["a"] == italian["o"] == 9 and italian["i"] == 8
    assert italian["u"] + italian["q"] == 5 and italian["q"] == italian["z"] == 1
    assert sum(italian.values()) + italian["q"] == 97
    # the French 4x4 set has every letter a-z, one Q (read as Qu) among them
    french = Counter("".join(FRENCH_4X4.dice))
    assert set(french) == set("abcdefghijklmnopqrstuvwxyz") and french["q"] == 1
    assert len(FRENCH_5X5.dice) == 25 and Counter("".join(FRENCH_5X5.dice))["q"] == 2


def test_face_no_tile_spells_is_one_line(registries: Registries) -> None:
    polish = registries.languages.get("polish").alphabet  # no q, v or x
    with pytest.raises(DiceError) as err:
        Constraints.build(size_geometry("4x4"), dice=FRENCH_4X4, alphabet=polish)
    message = str(err.value)
    assert "\n" not in message
    assert message == ("dice set 'french-4x4': die 2 (E V G T I N) has the face 'v', "
                       "which is no tile of polish")


def test_the_qu_face_is_named_as_the_die_shows_it_too(registries: Registries) -> None:
    """The Qu face is named as a board writes it and as the die shows it:
    ``'q'`` alone reads as a plain q to a Polish player."""
    polish = registries.languages.get("polish").alphabet
    classic = registries.dice.get("classic")
    with pytest.raises(DiceError) as err:
        Constraints.build(size_geometry("4x4"), dice=classic, alphabet=polish)
    assert "(A B J M O Qu) has the face 'q' (Qu), which is no tile of polish" in str(err.value)


def test_constraint_with_a_language_dice(registries: Registries) -> None:
    # what ``run --wordlist french --dice french-4x4`` builds: French's tiles
    # and its own dice agree; a board of one face from each die is rollable
    french = registries.languages.get("french").alphabet
    made = Constraints.build(size_geometry("4x4"), dice=FRENCH_4X4, alphabet=french)
    assert made.satisfied("".join(die[0] for die in FRENCH_4X4.dice))
    assert not made.satisfied("z" * 16)
