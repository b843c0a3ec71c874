"""Languages as their players meet them (issue 78): a typed word spelled as
the language spells its list (``été``), a language's own default list, what a
list given by path loses said in one line, errors that name the tile and the
language's tiles, and ``boggle-opt languages``.

Each runs the CLI's own entry function in this process on tiny made-up
lists (``BOGGLE_OPT_DICT_DIR`` stands in for /usr/share/dict)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boggle_opt.cli.app import build_parser, main
from boggle_opt.dictionary.language import ENGLISH
from boggle_opt.languages.french import FRENCH
from boggle_opt.languages.german import GERMAN
from boggle_opt.wordlists.system import ENV


@pytest.fixture
def dict_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder of made-up system lists, in place of /usr/share/dict."""
    folder = tmp_path / "dict"
    folder.mkdir()
    monkeypatch.setenv(ENV, str(folder))
    return folder


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    got = capsys.readouterr()
    return code, got.out, got.err


def one_error(code: int, err: str) -> str:
    assert code != 0 and err.count("\n") == 1 and err.startswith("boggle-opt: error: "), err
    return err


# -- defect 11: a word as its player types it ----------------------------------


def test_language_spells_a_typed_word_as_its_list() -> None:
    assert FRENCH.typed("Été") == ("ete", "")
    assert FRENCH.typed("garçon") == ("garcon", "")
    assert GERMAN.typed("Straße") == ("straße", "")
    assert FRENCH.typed("l'été")[0] == "" and "apostrophe" in FRENCH.typed("l'été")[1]
    assert ENGLISH.typed("café") == ("", "letters a-z only")


def test_run_word_typed_with_accents(capsys: pytest.CaptureFixture[str], dict_dir: Path) -> None:
    (dict_dir / "french").write_text("été\nthé\nnoël\n", encoding="utf-8")
    code, out, err = cli(capsys, "run", "--wordlist", "french", "--word", "été", "--size", "3x3",
                         "--evals", "50", "--seed", "1", "--progress", "none", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["constraints"]["word"] == "ete"
    code, _, err = cli(capsys, "run", "--wordlist", "french", "--word", "l'été", "--size", "3x3",
                       "--evals", "50", "--progress", "none")
    assert "no word of french: apostrophe" in one_error(code, err)


def test_show_word_typed_with_accents(capsys: pytest.CaptureFixture[str], dict_dir: Path) -> None:
    (dict_dir / "french").write_text("garçon\narc\n", encoding="utf-8")
    # g a r down the first column, then c o n up the second
    code, out, err = cli(capsys, "show", "--wordlist", "french", "garnocxxx", "--word", "Garçon")
    assert code == 0, err
    assert "GARCON" in out and "3 points" in out


# -- defect 12: wfrench's qú is an elision -------------------------------------


def test_french_elision_is_no_word_on_a_board(capsys: pytest.CaptureFixture[str], dict_dir: Path) -> None:
    (dict_dir / "french").write_text("jusqú\njus\nlorsqú\n", encoding="utf-8")
    code, out, err = cli(capsys, "score", "--wordlist", "french", "--words", "jusxxqxxx")
    assert code == 0, err
    found = [line.split("\t")[0].strip() for line in out.splitlines() if line.startswith("  ")]
    assert found == ["jus"]  # never jusqu


# -- a language's own default list ---------------------------------------------


def test_language_plays_its_own_default_list(capsys: pytest.CaptureFixture[str], dict_dir: Path) -> None:
    (dict_dir / "ngerman").write_text("Äpfel\nmüde\n", encoding="utf-8")
    code, out, err = cli(capsys, "score", "--language", "german", "müdexxxxx")
    assert code == 0, err
    assert out.splitlines()[0] == "# word list: ngerman (2 words); rule: standard; language: german"
    code, out, err = cli(capsys, "run", "--language", "de", "--size", "3x3", "--evals", "30",
                         "--seed", "1", "--progress", "none", "--json")
    assert code == 0, err
    assert json.loads(out)["wordlist"]["name"] == "ngerman"


def test_language_default_list_missing_names_its_package(
    capsys: pytest.CaptureFixture[str], dict_dir: Path
) -> None:
    code, _, err = cli(capsys, "score", "--language", "german", "müdexxxxx")
    assert "apt-get install wngerman" in one_error(code, err)


def test_score_names_the_language(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("tea\neat\n", encoding="ascii")
    code, out, err = cli(capsys, "score", "--wordlist", str(words), "teaxxxxxx")
    assert code == 0 and out.splitlines()[0].endswith("; language: english"), (out, err)
    code, out, err = cli(capsys, "score", "--wordlist", str(words), "--json", "teaxxxxxx")
    assert code == 0 and json.loads(out)["language"] == "english", err


# -- a list given by path: what it lost, in one line ---------------------------


def test_latin1_list_without_language_says_what_it_lost(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "mots.txt"
    path.write_bytes("été\ncoeur\nl'eau\n".encode("latin-1"))
    code, out, err = cli(capsys, "score", "--wordlist", str(path), "etecoeurx")
    assert code == 0, err
    (note,) = err.splitlines()
    assert note.startswith("boggle-opt: note: ") and "Windows-1252" in note
    assert "2 entries dropped" in note and "1 a letter other than a-z" in note and "1 apostrophe" in note
    assert "--language" in note
    # in French, été is a word: only the elision is lost
    code, out, err = cli(capsys, "score", "--wordlist", str(path), "--language", "french", "etecoeurx")
    assert code == 0 and "1 entry dropped: 1 apostrophe" in err and "2 words" in out, (out, err)


def test_list_that_loses_only_short_or_repeated_words_is_quiet(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "words.txt"
    path.write_text("tea\nTEA\nat\n", encoding="ascii")
    code, _, err = cli(capsys, "score", "--wordlist", str(path), "teaxxxxxx")
    assert code == 0 and err == ""


def test_utf16_list(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "unicode.txt"
    path.write_bytes("été\ncoeur\n".encode("utf-16"))  # with its byte-order mark, as Windows saves it
    code, out, err = cli(capsys, "score", "--wordlist", str(path), "--language", "french", "etecoeurx")
    assert code == 0 and "(2 words)" in out, err
    path.write_bytes("tea\neat\n".encode("utf-16-le"))  # no mark: said, not "no usable words"
    code, _, err = cli(capsys, "score", "--wordlist", str(path), "teaxxxxxx")
    assert "UTF-16" in one_error(code, err)


def test_no_usable_words_says_what_was_dropped(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "words.txt"
    path.write_text("b52\nit's\n", encoding="ascii")
    code, _, err = cli(capsys, "score", "--wordlist", str(path), "teaxxxxxx")
    assert "no usable words" in one_error(code, err) and "1 digit" in err and "1 apostrophe" in err


# -- errors that name the tile and the language's tiles ------------------------


@pytest.mark.parametrize(
    "args, needles",
    [
        (["score", "--wordlist", "french", "[th]xxxxxxx"], ["[th] is not a tile of french (a-z)"]),
        (["score", "--wordlist", "french", "étéxxxxxx"], ["'é' is not a letter a-z", "write 'e'"]),
        (["score", "--wordlist", "polish", "vxxxxxxxx"], ["not a tile of polish", "ą ć ę ł ń ó ś ź ż)"]),
        (["run", "--wordlist", "french", "--size", "3x3", "--fix", "[th]........", "--evals", "9"],
         ["--fix pattern", "[th] is not a tile of french (a-z)"]),
        (["run", "--wordlist", "french", "--size", "3x3", "--fix", "é........", "--evals", "9"],
         ["--fix pattern", "write 'e' for it"]),
    ],
)
def test_bad_tile_errors(capsys: pytest.CaptureFixture[str], dict_dir: Path, args: list[str],
                         needles: list[str]) -> None:
    for name, text in (("french", "tea\n"), ("polish", "żółw\n")):
        (dict_dir / name).write_text(text, encoding="utf-8")
    code, _, err = cli(capsys, *args, *(["--progress", "none"] if args[0] == "run" else []))
    err = one_error(code, err)
    for needle in needles:
        assert needle in err, err


# -- boggle-opt languages ------------------------------------------------------


def test_languages_command(capsys: pytest.CaptureFixture[str], dict_dir: Path) -> None:
    (dict_dir / "french").write_text("été\n", encoding="utf-8")
    code, out, err = cli(capsys, "languages")
    assert code == 0, err
    text = " ".join(out.split())
    for needle in ("german (de, deutsch)", "tiles: a-z ä ö ü ß (30 tiles; q is the Qu tile)",
                   "word list: ngerman (package wngerman): not installed", "apt-get install wngerman",
                   f"word list: french (package wfrench): found: {dict_dir / 'french'}",
                   "dice sets: french-4x4, french-5x5", "word list: embedded: installed with boggle-opt",
                   "tiles: a-z [an] [er] [he] [in] [th] (31 tiles", "(32 tiles; no q)"):
        assert needle in text, needle
    helps = build_parser().format_help()
    assert "languages" in helps and "list searchers, rules and word lists" not in helps
