"""Branch and bound in other alphabets: buckets, classes and part keys in the
alphabet's symbols, English's exactly as before, and proofs of boards whose
tiles are not a-z checked against brute force."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import assert_one_line_error, run_bnb

from boggle_opt.core.alphabet import ENGLISH, Alphabet, Tile
from boggle_opt.core.geometry import Geometry
from boggle_opt.core.trie import LATIN
from boggle_opt.dictionary.dictionary import Dictionary
from boggle_opt.dictionary.language import Language
from boggle_opt.proofs.board_classes import (
    BUCKETS_1, BUCKETS_3, MAX_CELL_TILES, BucketError, CostModel, base_letter, cell_buckets, check_alphabet,
    default_buckets, letter_mask, parse_buckets, parse_class,
)
from boggle_opt.proofs.class_records import RecordChecker
from boggle_opt.proofs.class_tasks import (
    ClassContext, ClassTask, Ledger, TrieTiles, check_task_record, label_buckets, parse_part, part_key,
)
from boggle_opt.registry.registries import Registries
from boggle_opt.searching.interface import Problem
from boggle_opt.languages.dutch import DUTCH
from boggle_opt.languages.german import GERMAN
from boggle_opt.languages.polish import POLISH
from boggle_opt.plugins.bnb import BranchAndBound


def _sizes() -> list[Geometry]:
    return [Geometry(3, 3), Geometry(3, 4), Geometry(4, 4)]


def test_english_buckets_and_labels_are_as_before() -> None:
    """The labels of every published English proof (results/): byte for byte."""
    bnb = BranchAndBound()
    assert default_buckets(Geometry(3, 3)) == (BUCKETS_3, "")
    assert default_buckets(Geometry(4, 4), LATIN, list(LATIN)) == (BUCKETS_3, BUCKETS_1)
    assert bnb.buckets(Geometry(3, 3))[0] == "aeijou bcdfgmpqvwxz hklnrsty"
    assert bnb.buckets(Geometry(3, 4), ENGLISH)[0] == (
        "aeijou bcdfgmpqvwxz hklnrsty / corners abcdefghijklmnopqrstuvwxyz")
    assert part_key(((4, 0), (1, 4), (2, 25))) == "4a.1e.2z"
    assert parse_part("4a.1e.2z") == ((4, 0), (1, 4), (2, 25))
    assert letter_mask("aez") == 1 | 1 << 4 | 1 << 25


@pytest.mark.parametrize("language", [GERMAN, POLISH, DUTCH], ids=lambda lang: lang.name)
def test_default_buckets_hold_every_tile_once(language: Language) -> None:
    alphabet = language.alphabet
    for geometry in _sizes():
        label, buckets = BranchAndBound().buckets(geometry, alphabet)
        for cell in buckets:
            assert sorted("".join(cell)) == sorted(alphabet.symbols)  # every tile once
            assert all(0 < len(b) <= MAX_CELL_TILES for b in cell)
            assert all(list(b) == sorted(b) for b in cell)
        assert label_buckets(label, geometry, alphabet.symbols) == buckets
    # each tile in its base letter's bucket; letters the alphabet lacks dropped
    main = default_buckets(Geometry(3, 3), alphabet.symbols, [t.letters for t in alphabet.tiles])[0].split()
    assert len(main) == 3


def test_tiles_join_their_base_letters_bucket() -> None:
    assert [base_letter(t) for t in ("ä", "å", "à", "ñ", "ß", "ł", "ij", "ø", "æ", "ж")] == \
        ["a", "a", "a", "n", "s", "l", "i", "o", "a", ""]
    g = GERMAN.alphabet
    main, corners = default_buckets(Geometry(3, 4), g.symbols, [t.letters for t in g.tiles])
    assert main == "aeijouäöü bcdfgmpqvwxz hklnrstyß"
    # 30 tiles are more than a cell's set holds: the corners take two buckets
    assert corners == "aeiosuyßäöü bcdfghjklmnpqrtvwxz"
    p = POLISH.alphabet
    main = default_buckets(Geometry(3, 3), p.symbols, [t.letters for t in p.tiles])[0]
    assert main == "aeijouóąę bcdfgmpwzćźż hklnrstyłńś"  # no q v x
    d = DUTCH.alphabet
    ij = d.read("[ij]")
    assert default_buckets(Geometry(3, 3), d.symbols, [t.letters for t in d.tiles])[0].split()[0] == \
        "".join(sorted(ij + "aeijou"))


def test_symbols_round_trip_in_part_keys_and_labels() -> None:
    symbols = GERMAN.alphabet.symbols
    code = {s: i for i, s in enumerate(symbols)}
    part = ((4, code["ä"]), (1, code["ß"]), (0, code["e"]))
    assert max(c for _, c in part) >= 26
    assert part_key(part, symbols) == "4ä.1ß.0e"
    assert parse_part("4ä.1ß.0e", symbols) == part
    geometry = Geometry(3, 3)
    label, buckets = BranchAndBound().buckets(geometry, GERMAN.alphabet)
    task = ClassTask((0, 2, 1, 0, 0, 0, 0, 0, 0))
    pieces = task.split_on(buckets, 0, symbols)
    assert [p.key(symbols) for p in pieces] == [f"0{s}" for s in buckets[0][0]]
    assert [p.letters(buckets, symbols)[0] for p in pieces] == list(buckets[0][0])
    assert pieces[-1].label(symbols) == "021000000/0ü"
    # a split record of those pieces passes the run file's checks, with the alphabet or without it
    rec = {"kind": "bnb", "size": "3x3", "buckets": label, "min_score": 5, "split": task.name, "part": "",
           "into": [p.key(symbols) for p in pieces]}
    check_task_record(rec, geometry, "here", symbols)
    check_task_record(rec, geometry, "here", None)
    ledger = Ledger()
    ledger.add(rec)
    assert ledger.state()[1] == {task.name: [p.key(symbols) for p in pieces]}
    # the class in German tiles, as `bound` takes it
    assert parse_class("äöü ß e ab c d e f g", geometry, symbols)[:2] == ["äöü", "ß"]


def test_a_symbol_not_in_the_alphabet_is_one_line() -> None:
    symbols = GERMAN.alphabet.symbols
    german_label = BranchAndBound().buckets(Geometry(3, 3), GERMAN.alphabet)[0]
    for bad, needle in [
        (german_label + " ñ", "'ñ' is not a tile of this alphabet"),
        (BUCKETS_3, "tiles 'äöüß' are in no bucket"),
        (german_label.replace("ß", "ßß"), "tile 'ß' is in more than one bucket"),
    ]:
        with pytest.raises(BucketError, match=needle) as exc:
            parse_buckets(bad, symbols)
        assert "\n" not in str(exc.value)
    with pytest.raises(BucketError, match="'ñ' is not a tile") as exc:
        parse_class("ñ a b c d e f g h", Geometry(3, 3), symbols)
    with pytest.raises(BucketError, match="4ñ"):
        parse_part("4ñ", symbols)
    with pytest.raises(BucketError, match="at most 26"):
        parse_class(symbols + " a b c d e f g h", Geometry(3, 3), symbols)
    with pytest.raises(BucketError, match="at most 32 tiles"):
        check_alphabet("big", "".join(chr(0x100 + i) for i in range(33)))
    # English's messages are today's
    with pytest.raises(BucketError, match="letters 'bcdfghklmnpqrstvwxyz' are in no bucket; every a-z"):
        parse_buckets("aeiou j")
    with pytest.raises(BucketError, match="'ä' is not a letter a-z"):
        parse_buckets(BUCKETS_3 + " ä")


def test_a_record_in_another_alphabet_is_checked_in_it() -> None:
    """A run file is never trusted: a German record's board or part with a
    symbol German lacks is one line."""
    geometry = Geometry(3, 3)
    symbols = GERMAN.alphabet.symbols
    label = BranchAndBound().buckets(geometry, GERMAN.alphabet)[0]
    checker = RecordChecker(geometry, label, 1, lambda board: 1, symbols)
    base = {"kind": "bnb", "size": "3x3", "buckets": label, "min_score": 1, "class": "000000000"}
    with pytest.raises(Exception, match="does not fix distinct cells") as exc:
        checker.structure({**base, "part": "0ñ"}, "line 3")
    assert "\n" not in str(exc.value)
    with pytest.raises(Exception, match="is not a 3x3 board"):
        checker.solved({**base, "boards": [["ñaaaaaaaa", 1]]}, "line 3")
    with pytest.raises(Exception, match="'ä' is not a letter a-z"):
        RecordChecker(geometry, label, 1, lambda board: 1)  # an English proof's checker


def test_cost_model_counts_tiles_past_z() -> None:
    symbols = GERMAN.alphabet.symbols
    code = {s: i for i, s in enumerate(symbols)}
    keys = sorted(bytes(97 + code[ch] for ch in w) for w in ("äße", "äßen", "eße"))
    geometry = Geometry(2, 2)
    buckets = cell_buckets(geometry, parse_buckets(BranchAndBound().buckets(geometry, GERMAN.alphabet)[0],
                                                   symbols))
    model = CostModel(keys, geometry, buckets, symbols)
    assert model._words("ä", "ß", "e") == 2.0 and model._words("e", "ß", "e") == 1.0


# -- proofs in a small alphabet that is not a-z --------------------------------

#: four tiles, one of them two letters (written [ij], symbol "0"): every 3x3
#: board is 4 ** 9 = 262,144 boards, few enough to score them all
MINI = Alphabet("mini", ["i", "j", "s", Tile("ij", "IJ")])
MINI_WORDS = ["ijs", "sijs", "jis", "sis", "iis", "jij", "sijsi", "ijsijs", "jisi", "sjiss", "issi"]


def _mini_spell(entry: str) -> str:
    return entry if entry and all(ch in "ijs" for ch in entry) else ""


MINI_LANGUAGE = Language("mini", "a test alphabet: i j s and [ij]", MINI, _mini_spell)


@pytest.fixture(scope="module")
def mini(registries: Registries) -> Dictionary:
    return Dictionary("mini", MINI_WORDS, registries.rules.get("standard"), language=MINI_LANGUAGE)


def _brute(d: Dictionary, geometry: Geometry, min_score: int) -> dict[str, int]:
    scorer = d.scorer(geometry)
    found: dict[str, int] = {}
    for cells in itertools.product(d.alphabet.symbols, repeat=geometry.n):
        board = "".join(cells)
        score = scorer.score(board)
        if score >= min_score:
            found[geometry.canonical(board)] = score
    return found


def test_a_proof_in_a_small_alphabet_finds_what_brute_force_finds(mini: Dictionary) -> None:
    """Words such as ``ijs`` are spelled two ways (i j s, [ij] s) and count
    once: the proof's boards and scores are brute force's, whole classes or
    split into pieces whose keys name the [ij] tile by its symbol."""
    geometry = Geometry(3, 3)
    assert len(mini.trie.aliases) > 0  # words of two spellings
    expected = _brute(mini, geometry, 1)
    # the highest score that some 20 boards reach
    min_score = sorted(expected.values(), reverse=True)[19]
    expected = {b: s for b, s in expected.items() if s >= min_score}
    assert 20 <= len(expected) < 2000
    boards, records, _ = run_bnb(Problem(mini, geometry), min_score=min_score)
    assert boards == expected
    assert records[0]["buckets"] == "0ij s"
    split, split_records, _ = run_bnb(Problem(mini, geometry), min_score=min_score, node_budget=500)
    assert split == expected
    keys = [k for r in split_records if "split" in r for k in r["into"]]
    assert any(k.endswith("0") for k in keys)  # a piece fixing a cell to [ij]
    checker = RecordChecker(geometry, records[0]["buckets"], min_score, mini.scorer(geometry).score, MINI.symbols)
    ledger = Ledger()
    for r in split_records[1:]:
        (checker.solved if "class" in r else checker.structure)(r, "here")
        ledger.add(r)
    finished, partial = ledger.state()
    assert not partial and finished == {r["class"] for r in records if "class" in r}


def test_a_worker_rescores_in_the_alphabet(mini: Dictionary) -> None:
    """The worker's trie and rescorer are the dictionary's alphabet's: a
    board's score counts a word of two spellings once, as the dictionary's
    scorer does."""
    geometry = Geometry(3, 3)
    label, buckets = BranchAndBound().buckets(geometry, MINI)
    context = ClassContext(mini.keys, mini.points, 3, 3, buckets, 1, 100, 0, 0, 0.0, TrieTiles.of(mini.trie))
    board = "0sijsjis0"
    task = ClassTask((0,) * 9, tuple((c, MINI.code(board[c])) for c in range(9)))
    result = context.run(task)
    assert result.boards == [(board, mini.scorer(geometry).score(board))]


def test_bnb_refuses_a_symbol_that_separates_buckets(registries: Registries) -> None:
    odd = Alphabet("odd", ["a", "e", Tile("ch", "Ch", "|")])
    with pytest.raises(BucketError, match="'\\|' separates buckets"):
        BranchAndBound().buckets(Geometry(2, 2), odd)


#: a made-up word list in German tiles (the tests never ship a real list):
#: the strings of 30 seeded paths of 5-8 cells on one board of ä ö ü ß
#: (tile codes 26-29, past a-z). A board's other tiles spell nothing, so the
#: best board is one of the 4 ** 9 boards of these letters, and the boards
#: of these letters at or above a score are brute force's
GERMAN_LETTERS = "äöüß"
GERMAN_BOARD = "äößüäßöüä"


def _german_words() -> list[str]:
    geometry = Geometry(3, 3)
    rng = random.Random(1)
    words: set[str] = set()
    while len(words) < 30:
        path = [rng.randrange(geometry.n)]
        length = rng.randint(5, 8)
        while len(path) < length:
            free = [c for c in geometry.neighbours(path[-1]) if c not in path]
            if not free:
                break
            path.append(rng.choice(free))
        if len(path) == length:
            words.add("".join(GERMAN_BOARD[c] for c in path))
    return sorted(words)


GERMAN_WORDS = _german_words()


@pytest.fixture(scope="module")
def german(registries: Registries) -> Dictionary:
    return Dictionary("tiny-german", GERMAN_WORDS, registries.rules.get("standard"), language=GERMAN)


def _german_brute(d: Dictionary, geometry: Geometry) -> dict[str, int]:
    scorer = d.scorer(geometry)
    found: dict[str, int] = {}
    for cells in itertools.product(GERMAN_LETTERS, repeat=geometry.n):
        board = "".join(cells)
        found[geometry.canonical(board)] = scorer.score(board)
    return found


@pytest.mark.slow  # every 3x3 board of its letters canonicalised in Python, then two whole proofs: a minute of CPU
def test_a_german_proof_finds_what_brute_force_finds(german: Dictionary) -> None:
    """30 tiles, 4 of them past z: the proof's best is brute force's, and its
    boards of those 4 letters are exactly brute force's at or above the min
    score, with the default buckets, with buckets of one's own, and split."""
    geometry = Geometry(3, 3)
    brute = _german_brute(german, geometry)
    min_score = sorted(brute.values(), reverse=True)[9]
    expected = {b: s for b, s in brute.items() if s >= min_score}
    boards, records, _ = run_bnb(Problem(german, geometry), min_score=min_score)
    assert records[0]["buckets"] == "aeijouäöü bcdfgmpqvwxz hklnrstyß"
    assert max(boards.values()) == max(brute.values()) == german.scorer(geometry).score(GERMAN_BOARD)
    assert {b: s for b, s in boards.items() if set(b) <= set(GERMAN_LETTERS)} == expected
    rest = "".join(sorted(set(GERMAN.alphabet.symbols) - set(GERMAN_LETTERS)))  # 26 tiles: the most a bucket holds
    own, own_records, _ = run_bnb(Problem(german, geometry), min_score=min_score,
                                  buckets=f"{GERMAN_LETTERS} {rest}", node_budget=200)
    assert own == boards
    assert any(k[-1] in "äöüß" for r in own_records if "split" in r for k in r["into"])


@pytest.fixture
def german_list(tmp_path: Path) -> Path:
    path = tmp_path / "tiny-german.txt"
    path.write_text("\n".join(GERMAN_WORDS) + "\n", encoding="utf-8")
    return path


@pytest.mark.slow  # 9 s or more on two busy cores (docs/testing.md)
def test_a_german_proof_verifies(german_list: Path, tmp_path: Path,
                                 run_cli: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    """``run --language german`` with a word list of German words, split
    pieces and all, is a proof that ``verify`` passes and ``bound`` agrees."""
    out = tmp_path / "proof.jsonl"
    words = ["--language", "german", "--wordlist", str(german_list)]
    r = run_cli("run", "--searcher", "bnb", "--size", "3x3", *words, "--min-score", "90",
                "-o", "node-budget", "2000", "--out", str(out))
    assert r.returncode == 0, r.stderr
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert records[0]["settings"]["language"] == "german"
    v = run_cli("verify", str(out))
    assert v.returncode == 0, v.stderr
    assert "verified:" in v.stdout
    r = run_cli("bound", " ".join([GERMAN_LETTERS] * 9), *words, "--min-score", "90")
    assert r.returncode == 0, r.stderr
    best = max(rec["score"] for rec in records if rec.get("type") == "improved")
    assert f"\t{best}\n" in r.stdout


def test_german_buckets_not_in_the_alphabet_are_one_line(
        german_list: Path, run_cli: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    words = ["--language", "german", "--wordlist", str(german_list)]
    r = run_cli("run", "--searcher", "bnb", "--size", "2x2", *words, "-o", "buckets", BUCKETS_3)
    assert_one_line_error(r, "'äöüß' are in no bucket")
    r = run_cli("run", "--searcher", "bnb", "--size", "2x2", *words, "-o", "buckets", BUCKETS_3 + "äöüß ñ")
    assert_one_line_error(r, "'ñ' is not a tile")
    r = run_cli("bound", "ñ a b c", *words)
    assert_one_line_error(r, "'ñ' is not a tile")


#: a made-up word list of Dutch words with IJ (the tests never ship a real list)
DUTCH_WORDS = ["ijs", "rijst", "lijst", "tijd", "wijs", "bijt", "prijs", "strijd", "list", "rits", "stil"]


@pytest.mark.slow  # 9 s or more on two busy cores (docs/testing.md)
def test_dutch_buckets_are_written_with_the_ij_tile(
        tmp_path: Path, run_cli: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    """``-o buckets`` takes [ij] as the board does, and verify and plan
    write it so: a private symbol is never shown."""
    path = tmp_path / "tiny-dutch.txt"
    path.write_text("\n".join(DUTCH_WORDS) + "\n", encoding="utf-8")
    out = tmp_path / "proof.jsonl"
    buckets = "[ij]aeijou bcdfgmpqvwxz hklnrsty"
    words = ["--language", "dutch", "--wordlist", str(path)]
    r = run_cli("run", "--searcher", "bnb", "--size", "2x3", *words, "--min-score", "4",
                "-o", "buckets", buckets, "--out", str(out))
    assert r.returncode == 0, r.stderr
    setup = next(json.loads(line)["record"] for line in out.read_text(encoding="utf-8").splitlines()
                 if '"setup": true' in line)
    symbol = DUTCH.alphabet.read("[ij]")
    # the run file writes a tile as people do, [ij], never its private symbol (issue 78.6)
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    shown = [r["settings"]["fingerprint"]["buckets"] for r in records if r["type"] == "start"]
    shown += [r["record"]["buckets"] for r in records if r["type"] == "checkpoint"]
    shown += [b for r in records if r["type"] == "checkpoint" for b, _ in r["record"].get("boards", [])]
    shown += [r["board"] for r in records if r["type"] == "improved"]
    shown += [b["board"] for r in records if r["type"] == "finish" for b in r["best"]]
    assert setup["buckets"] == buckets and any("[ij]" in t for t in shown[-3:])
    assert not any(symbol in t for t in shown), shown
    v = run_cli("verify", str(out))
    assert v.returncode == 0, v.stderr
    text = " ".join(line.lstrip("# ") for line in v.stdout.splitlines())  # lines wrapped at 80 columns
    assert f"buckets {buckets}, min score" in text, text
    assert "proved: d[ij]lrts" in text, text  # the best board's IJ
    # a file written before (its tiles' private symbols: "0aeijou", "d0lrts") still verifies
    old = tmp_path / "old.jsonl"
    old.write_text(out.read_text(encoding="utf-8").replace("[ij]", symbol), encoding="utf-8")
    v = run_cli("verify", str(old))
    assert v.returncode == 0, v.stderr
    assert "proved: d[ij]lrts" in " ".join(line.lstrip("# ") for line in v.stdout.splitlines()), v.stdout
    # merged shards write each board as people do, as verify reads them back
    shards = [tmp_path / f"s{k}.jsonl" for k in (1, 2)]
    for k, shard in enumerate(shards, 1):
        r = run_cli("run", "--searcher", "bnb", "--size", "2x3", *words, "--min-score", "4",
                    "-o", "buckets", buckets, "-o", "shard", f"{k}/2", "--out", str(shard))
        assert r.returncode == 0, r.stderr
    merged = tmp_path / "merged.jsonl"
    m = run_cli("merge", *map(str, shards), "--out", str(merged))
    assert m.returncode == 0, m.stderr
    assert '"board": "d[ij]lrts"' in merged.read_text(encoding="utf-8")
    # its finish record lists each board's tiles, as a run's does
    finish = [json.loads(line) for line in merged.read_text(encoding="utf-8").splitlines()][-1]
    assert finish["best"][0]["tiles"] == ["d", "ij", "l", "r", "t", "s"], finish["best"][0]
    v = run_cli("verify", str(merged))
    assert v.returncode == 0, v.stderr
    assert "proved: d[ij]lrts" in " ".join(line.lstrip("# ") for line in v.stdout.splitlines()), v.stdout
    r = run_cli("run", "--searcher", "bnb", "--size", "2x3", *words, "--min-score", "4",
                "-o", "buckets", "[ji]aeiou bcdfgmpqvwxz hklnrsty")
    assert_one_line_error(r, "[ji] is not a tile of dutch")


def test_a_word_longer_than_the_board_through_its_multi_letter_tiles_counts(registries: Registries) -> None:
    """``inerts`` is 6 letters, 4 tiles on 2x2 ([in][er]ts): the proof at 23
    lists ``[er]st[in]`` (25), and every 2x2 board brute force finds there
    (the kernel once gave such a word no points: issue 76)."""
    from boggle_opt.languages.english_dl import ENGLISH_DL

    d = Dictionary("dl-words", ["inerts", "insert", "inters", "sinter", "inert", "inter", "serin", "ers",
                                "erst", "ins", "ser", "sin", "tin", "tins", "nest", "rent", "stern"],
                   registries.rules.get("standard"), language=ENGLISH_DL)
    geometry = Geometry(2, 2)
    scorer = d.scorer(geometry)
    tiles = [ENGLISH_DL.alphabet.read(t) for t in ("e", "i", "n", "r", "s", "t", "[er]", "[in]", "[an]")]
    brute: dict[str, int] = {}
    for cells in itertools.product(tiles, repeat=4):
        board = "".join(cells)
        score = scorer.score(board)
        if score >= 23:
            brute[geometry.canonical(board)] = score
    assert brute[geometry.canonical(ENGLISH_DL.alphabet.read("[er]st[in]"))] == 25
    boards, _, _ = run_bnb(Problem(d, geometry), min_score=23)
    assert boards == brute
