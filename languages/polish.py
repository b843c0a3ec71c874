"""Polish: its 32 letters a ą b c ć d e ę f g h i j k l ł m n ń o ó p r s ś t u w y z ź ż (no q v x)."""

from __future__ import annotations

from collections.abc import Callable

from boggle_opt import hookimpl
from boggle_opt import latin
from boggle_opt.dictionary.language import Language, Speller

TILES = latin("polish", extra=tuple("ąćęłńóśźż"), qu=False, drop="qvx")

POLISH = Language(
    "polish",
    "Polish: its 32 letters (ą ć ę ł ń ó ś ź ż, no q v x)",
    TILES,
    Speller(TILES, keep="ąćęłńóśźż"),
    wordlist="polish",
    aliases=("pl", "polski"),
    sources=(
        "Polish Scrabble has these 32 letters and no Q, V or X: Wikipedia, 'Scrabble letter distributions' (en.wikipedia.org/wiki/Scrabble_letter_distributions), Polish",
    ),
)


@hookimpl
def register_languages(register: Callable[[Language], None]) -> None:
    register(POLISH)
