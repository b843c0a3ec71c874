"""Each language's spelling convention, and the conformance kit on every
shipped language (and English's two)."""

from __future__ import annotations

import pytest

from boggle_opt.dictionary.language import ENGLISH, Language, Speller, census
from boggle_opt.languages.dutch import DUTCH
from boggle_opt.languages.english_dl import ENGLISH_DL
from boggle_opt.languages.french import ELISION, FRENCH
from boggle_opt.languages.german import GERMAN
from boggle_opt.languages.italian import ITALIAN
from boggle_opt.languages.polish import POLISH
from boggle_opt.languages.portuguese import PORTUGUESE
from boggle_opt.languages.spanish import SPANISH
from boggle_opt.languages.swedish import SWEDISH
from boggle_opt.registry.loader import Registries
from boggle_opt.testing import LanguageConformance

SHIPPED = [FRENCH, GERMAN, SPANISH, ITALIAN, PORTUGUESE, DUTCH, SWEDISH, POLISH]


class TestEnglish(LanguageConformance):
    language = ENGLISH
    samples = {"quiz": "quiz", "Apple": "apple", "don't": ""}


class TestEnglishDoubleLetter(LanguageConformance):
    language = ENGLISH_DL
    samples = {"there": "there", "another": "another"}


class TestFrench(LanguageConformance):
    language = FRENCH
    samples = {"été": "ete", "noël": "noel", "français": "francais", "cœur": "coeur",
               "nævus": "naevus", "aujourd'hui": "", "arc-en-ciel": "", "Paris": "", "où": "ou",
               # wfrench writes qu' as qú: an elision, no word (issue 78.12)
               "jusqú": "", "quelqúun": "", "presqúîle": ""}


class TestGerman(LanguageConformance):
    language = GERMAN
    samples = {"Straße": "straße", "Äpfel": "äpfel", "müde": "müde", "Café": "cafe",
               "ABC": "", "McDonald": "", "eBay": "", "Hals-Nasen-Ohren": ""}


class TestSpanish(LanguageConformance):
    language = SPANISH
    samples = {"año": "año", "canción": "cancion", "pingüino": "pinguino", "Madrid": ""}


class TestItalian(LanguageConformance):
    language = ITALIAN
    samples = {"città": "citta", "perché": "perche", "dell'anno": "", "Roma": ""}


class TestPortuguese(LanguageConformance):
    language = PORTUGUESE
    samples = {"coração": "coraçao", "açúcar": "açucar", "Lisboa": "", "guarda-chuva": ""}


class TestDutch(LanguageConformance):
    language = DUTCH
    samples = {"ijs": "ijs", "café": "cafe", "één": "een", "Amsterdam": "", "zee's": ""}


class TestSwedish(LanguageConformance):
    language = SWEDISH
    samples = {"åsna": "åsna", "äpple": "äpple", "öga": "öga", "idé": "ide", "Stockholm": ""}


class TestPolish(LanguageConformance):
    language = POLISH
    samples = {"źdźbło": "źdźbło", "łódź": "łódź", "żółw": "żółw", "quiz": "", "Warszawa": "",
               "wideo": "wideo", "video": "", "taxi": ""}


@pytest.mark.parametrize("language", SHIPPED, ids=lambda lang: lang.name)
def test_shipped_languages_are_registered(registries: Registries, language: Language) -> None:
    assert registries.languages.get(language.name) is language
    assert language.wordlist in registries.wordlists, language.wordlist
    assert language.sources, "a shipped convention cites its source"


def test_a_language_is_found_by_its_own_name_with_its_accents(registries: Registries) -> None:
    """A speaker types ``español``, ``Français``, ``português``: found as the
    aliases written without accents are."""
    for typed, language in (("español", SPANISH), ("Español", SPANISH), ("français", FRENCH),
                            ("português", PORTUGUESE), ("DEUTSCH", GERMAN)):
        assert registries.languages.get(typed) is language, typed


def test_tile_counts() -> None:
    assert len(SPANISH.alphabet) == 27 and len(GERMAN.alphabet) == 30
    assert len(SWEDISH.alphabet) == 29 and len(POLISH.alphabet) == 32
    assert len(ENGLISH_DL.alphabet) == 31 and len(DUTCH.alphabet) == 27
    assert len(FRENCH.alphabet) == len(ITALIAN.alphabet) == 26


def test_qu_where_the_language_has_it() -> None:
    for lang in (FRENCH, GERMAN, SPANISH, ITALIAN, PORTUGUESE, DUTCH):
        assert lang.alphabet.keys("quatre"), lang.name
        assert not lang.alphabet.keys("qatar"), lang.name  # q is the Qu tile
    assert SWEDISH.alphabet.keys("qatar")  # Swedish q is a plain letter
    assert not POLISH.alphabet.keys("quiz")


def test_dutch_ij_spelled_either_way() -> None:
    assert len(DUTCH.alphabet.keys("ijs")) == 2  # [ij]-s and i-j-s


def test_dutch_ij_typed_as_its_one_character() -> None:
    """Unicode's ĳ (and Ĳ), which Dutch keyboards and texts use for IJ, is
    the IJ tile on a board and ``ij`` in a word, as ``[ij]`` is."""
    alphabet = DUTCH.alphabet
    assert alphabet.read("Ĳsbe") == alphabet.read("ĳsbe") == alphabet.read("[ij]sbe")
    assert alphabet.write(alphabet.read("ĳs")) == "[ij]s"
    assert DUTCH.typed("ĳsberg") == DUTCH.typed("IJsberg") == ("ijsberg", "")
    assert DUTCH.spell("ĳs") == "ijs"


def test_census_counts_each_reason() -> None:
    lines = ["été", "ete", "l'été", "Paris", "a", "coq", "", "noël", "b52"]
    got = census(FRENCH, lines)
    assert got.entries == 8 and got.kept == 2  # ete, noel
    assert sum(got.dropped.values()) == got.entries - got.kept
    assert isinstance(FRENCH.spell, Speller)
    assert got.dropped["proper noun (capitalised)"] == 1 and got.dropped["digit"] == 1


def test_french_elision_written_with_an_accent_is_no_word() -> None:
    """wfrench writes 14 entries' ``qu'`` as ``qú`` (``jusqú``): each is an
    elision, dropped with its reason, never the word ``jusqu`` (issue 78.12)."""
    got = census(FRENCH, ["jusqú", "lorsqú", "quelqúun", "jusque"])
    assert got.kept == 1 and got.dropped == {ELISION: 3}
    assert FRENCH.words(["jusqú", "puisqú", "jusque"]) == ["jusque"]


def test_every_registered_language_runs_the_kit(registries: Registries) -> None:
    """Each language the registry holds has a conformance class here, so its
    proofs are checked against brute force (``kernel_against_brute_force``)."""
    kit = {cls.language.name for cls in LanguageConformance.__subclasses__() if hasattr(cls, "language")}
    assert set(registries.languages.names()) <= kit
