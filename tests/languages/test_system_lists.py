"""System word lists: found by name in their language, read in their own
encoding, a missing one named with its package; a French board finds the
words of wfrench's accented entries."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from boggle_opt.boards import size_geometry
from boggle_opt.core.errors import WordListError
from boggle_opt.registry.dictionaries import load_dictionary
from boggle_opt.registry.loader import Registries
from boggle_opt.wordlists.system import ENV


@pytest.fixture
def dict_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(ENV, str(tmp_path))
    return tmp_path


def test_missing_list_names_its_package(registries: Registries, dict_dir: Path) -> None:
    with pytest.raises(WordListError) as caught:
        registries.wordlists.get("french").load()
    message = str(caught.value)
    assert "\n" not in message and "apt-get install wfrench" in message
    assert "apt-get install wfrench" in (registries.wordlists.get("french").status or str)()


def test_list_read_in_its_language(registries: Registries, dict_dir: Path) -> None:
    (dict_dir / "french").write_text("été\nnoël\nParis\nl'été\n", encoding="utf-8")
    d = load_dictionary("french", "standard", registries, cache=False)
    assert d.language.name == "french" and d.n_words == 2
    assert registries.wordlists.get("german").language == "german"  # an alias of ngerman


def test_latin1_list_read_as_its_package_writes_it(registries: Registries, dict_dir: Path) -> None:
    (dict_dir / "swedish").write_bytes("åsna\näpple\nöga\n".encode("iso-8859-1"))
    assert registries.wordlists.get("swedish").load() == ["åsna", "äpple", "öga"]
    (dict_dir / "swedish").write_text("åsna\n", encoding="utf-8")  # a UTF-8 wswedish reads too
    assert registries.wordlists.get("swedish").load() == ["åsna"]


def test_list_in_an_unexpected_encoding_is_an_error(registries: Registries, dict_dir: Path) -> None:
    (dict_dir / "french").write_bytes("été\n".encode("iso-8859-1"))
    with pytest.raises(WordListError, match="is not UTF-8"):
        registries.wordlists.get("french").load()


@pytest.mark.slow  # heavy: the dictionary of all 346,205 wfrench entries, 3-4 s of CPU (docs/testing.md)
def test_french_board_finds_words_of_accented_entries(system_list: Callable[[str], Path]) -> None:
    system_list("french")
    d = load_dictionary("french", "standard")
    assert d.language.name == "french"
    # e-t-e / n-o-e-l / c-o-e-u-r read along the rows and down
    found = {w.word for w in d.scorer(size_geometry("3x3")).words("etexxxxxx")}
    assert "ete" in found  # été
    found = {w.word for w in d.scorer(size_geometry("4x4")).words("noelxxxxcoeurxxx"[:16])}
    assert "noel" in found  # noël


@pytest.mark.parametrize("name, size, board, word", [
    ("spanish", "3x3", "añoxxxxxx", "año"),
    # heavy: the dictionary of all 356,010 wngerman entries, 4-5 s of CPU (docs/testing.md)
    pytest.param("ngerman", "4x4", "müdexxxxxxxxxxxx", "müde", marks=pytest.mark.slow),
], ids=["spanish", "german"])
def test_spanish_and_german_keep_their_letters(system_list: Callable[[str], Path], name: str, size: str,
                                               board: str, word: str) -> None:
    system_list(name)
    d = load_dictionary(name, "standard")
    assert word in {w.word for w in d.scorer(size_geometry(size)).words(board)}


def test_plugins_shows_which_lists_are_found(
    run_cli: Callable[..., subprocess.CompletedProcess[str]], cli_env: dict[str, str], tmp_path: Path
) -> None:
    (tmp_path / "spanish").write_text("año\n", encoding="utf-8")
    out = run_cli("plugins", env={**cli_env, ENV: str(tmp_path)})
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert f"found: {tmp_path / 'spanish'}" in text
    assert "apt-get install wfrench" in text


@pytest.mark.slow  # every 2x2 board of 27 tiles scored (half a million), a proof and its verify
def test_dutch_2x2_proof_lists_every_board_brute_force_finds(
    system_list: Callable[[str], Path], run_cli: Callable[..., subprocess.CompletedProcess[str]],
    tmp_path: Path,
) -> None:
    """Issue 76: the kernel once scored a word longer than the board at 0
    though [ij] fits it (`blije` is b-l-[ij]-e): the Dutch 2x2 proof at 8
    missed 123 boards and verify found a board recorded 2 points low. Now
    it lists exactly brute force's boards, and verifies."""
    import itertools
    import json

    system_list("dutch")
    d = load_dictionary("dutch", "standard")
    geometry = size_geometry("2x2")
    scorer = d.scorer(geometry)
    brute: dict[str, int] = {}
    for cells in itertools.product(d.alphabet.symbols, repeat=geometry.n):
        board = "".join(cells)
        score = scorer.score(board)
        if score >= 8:
            brute[d.alphabet.write(geometry.canonical(board))] = score
    assert brute["[ij]lst"] == 16
    out = tmp_path / "nl.jsonl"
    made = run_cli("run", "--searcher", "bnb", "--size", "2x2", "--wordlist", "dutch", "--min-score", "8",
                   "--progress", "none", "--json", "--top", "5000", "--out", str(out))
    assert made.returncode == 0, made.stderr
    listed = {b["board"]: b["score"] for b in json.loads(made.stdout)["best"]}
    assert listed == brute
    checked = run_cli("verify", "--recheck", "0", "--budget", "2", str(out))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"{len(brute):,} boards score >= 8" in " ".join(checked.stdout.split())
