"""The core scorer (installed build, then plain Python) against a deliberately
simple reference scorer, on seeded random boards of several sizes and every
built-in rule."""

from __future__ import annotations

import random
import types
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

from boggle_opt.dictionary.dictionary import to_key
from boggle_opt.registry.loader import Registries
from boggle_opt.dictionary.wordlist import clean_words, read_word_file

T = TypeVar("T")

SIZES = [(2, 2), (3, 3), (3, 4), (4, 4), (5, 5)]
BOARDS_PER_SIZE = 500  # half uniform a-z, half by the list's letter frequencies
RULES = ["standard", "words", "pow2"]
ALPHABET = "abcdefghijklmnopqrstuvwxyz"
#: plain Python scores every tenth board (25 uniform, 25 by frequency a size):
#: the same source as the compiled build, so the same code on fewer boards;
#: the compiled build takes every board
PURE_EVERY = 10
#: the sizes plain Python takes in the tests that score every letter in every
#: cell, or build the solver's own trie: the same source as the compiled build,
#: which takes every size; 4x4 and 5x5 took plain Python 13 s of the quick tier
PURE_SIZES = [(2, 2), (3, 3), (3, 4)]


def skip_plain_python_past_3x4(core: types.SimpleNamespace, size: tuple[int, int]) -> None:
    if core.kind == "pure" and size not in PURE_SIZES:
        pytest.skip("plain Python takes 2x2-3x4 here: the compiled build takes every size")


def sample(core: types.SimpleNamespace, items: list[T], every: int = PURE_EVERY) -> list[T]:
    """``items`` for the compiled build; every ``every``-th of them for plain Python."""
    return items if core.kind == "installed" else items[::every]


class Reference:
    """Every path of the board, extended only while it spells a prefix."""

    def __init__(self, words: list[str]) -> None:
        self.words = set(words)
        self.prefixes = {w[:i] for w in words for i in range(1, len(w) + 1)}

    def paths(self, board: str, cols: int, rows: int) -> dict[str, list[tuple[int, ...]]]:
        def neighbours(c: int) -> list[int]:
            x, y = divmod(c, rows)
            return [
                nx * rows + ny
                for nx in (x - 1, x, x + 1)
                for ny in (y - 1, y, y + 1)
                if (nx, ny) != (x, y) and 0 <= nx < cols and 0 <= ny < rows
            ]

        adjacent = [neighbours(c) for c in range(cols * rows)]  # once a board, not once a step
        found: dict[str, list[tuple[int, ...]]] = {}

        def extend(path: list[int], text: str) -> None:
            if len(text) >= 3 and text in self.words:
                found.setdefault(text, []).append(tuple(path))
            for nb in adjacent[path[-1]]:
                if nb not in path:
                    more = text + ("qu" if board[nb] == "q" else board[nb])
                    if more in self.prefixes:
                        extend([*path, nb], more)

        for c in range(cols * rows):
            start = "qu" if board[c] == "q" else board[c]
            if start in self.prefixes:
                extend([c], start)
        return found


@pytest.fixture(scope="module")
def words(enable2k_path: Path) -> list[str]:
    return clean_words(read_word_file(enable2k_path))


@pytest.fixture(scope="module")
def boards(words: list[str]) -> dict[tuple[int, int], list[str]]:
    counts = Counter("".join(words).replace("qu", "q"))
    letters = list(counts)
    weights = [counts[ch] for ch in letters]
    rng = random.Random(20261121)
    out: dict[tuple[int, int], list[str]] = {}
    for cols, rows in SIZES:
        n = cols * rows
        half = BOARDS_PER_SIZE // 2
        uniform = ["".join(rng.choice(ALPHABET) for _ in range(n)) for _ in range(half)]
        weighted = ["".join(rng.choices(letters, weights, k=n)) for _ in range(half)]
        out[cols, rows] = uniform + weighted
    return out


@pytest.fixture(scope="module")
def expected(
    words: list[str], boards: dict[tuple[int, int], list[str]]
) -> dict[tuple[int, int], list[dict[str, list[tuple[int, ...]]]]]:
    ref = Reference(words)
    return {size: [ref.paths(b, *size) for b in bs] for size, bs in boards.items()}


@pytest.fixture(scope="module")
def tries(
    core: types.SimpleNamespace, words: list[str], registries: Registries
) -> dict[str, object]:
    pairs = sorted((to_key(w), w) for w in words)
    keys = [k for k, _ in pairs]
    out: dict[str, object] = {}
    for rule in RULES:
        points = registries.rules.get(rule).points
        out[rule] = core.trie.PackedTrie(keys, [points(w) for _, w in pairs])
    return out


def test_installed_core_is_compiled_under_ci() -> None:
    import os

    import boggle_opt

    if os.environ.get("CI"):
        assert boggle_opt.COMPILED, "CI must test the mypyc-compiled core"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("rule", RULES)
def test_score_matches_reference(
    core: types.SimpleNamespace,
    tries: dict[str, object],
    registries: Registries,
    boards: dict[tuple[int, int], list[str]],
    expected: dict[tuple[int, int], list[dict[str, list[tuple[int, ...]]]]],
    size: tuple[int, int],
    rule: str,
) -> None:
    points: Callable[[str], int] = registries.rules.get(rule).points
    scorer = core.scorer.Scorer(tries[rule], core.geometry.Geometry(*size))
    got = [scorer.score(b) for b in sample(core, boards[size])]
    want = [sum(points(w) for w in found) for found in sample(core, expected[size])]
    assert got == want
    assert sum(want) > 0


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("rule", RULES)
def test_solvers_scoring_trie_matches_reference(
    core: types.SimpleNamespace,
    tries: dict[str, object],
    registries: Registries,
    boards: dict[tuple[int, int], list[str]],
    expected: dict[tuple[int, int], list[dict[str, list[tuple[int, ...]]]]],
    size: tuple[int, int],
    rule: str,
) -> None:
    """A proof's worker re-scores candidates from the solver's own copy of
    the word list, in which words longer than the board are 0 points."""
    skip_plain_python_past_3x4(core, size)
    points: Callable[[str], int] = registries.rules.get(rule).points
    geometry = core.geometry.Geometry(*size)
    trie = core.branch.ClassSolver(tries[rule], geometry).scoring_trie()
    assert len(trie.nodes) == len(tries[rule].nodes)  # type: ignore[attr-defined]
    scorer = core.scorer.Scorer(trie, geometry)
    got = [scorer.score(b) for b in sample(core, boards[size])]
    assert got == [sum(points(w) for w in found) for found in sample(core, expected[size])]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_words_multi_demulti_match_reference(
    core: types.SimpleNamespace,
    tries: dict[str, object],
    registries: Registries,
    boards: dict[tuple[int, int], list[str]],
    expected: dict[tuple[int, int], list[dict[str, list[tuple[int, ...]]]]],
    size: tuple[int, int],
) -> None:
    points = registries.rules.get("standard").points
    scorer = core.scorer.Scorer(tries["standard"], core.geometry.Geometry(*size))
    # every fifth board (plain Python: every fiftieth, 5 uniform and 5 by frequency a size)
    for board, found in sample(core, list(zip(boards[size], expected[size]))[::5]):
        got = {w.word: w for w in scorer.words(board)}
        assert sorted(got) == sorted(found)
        for word, fw in got.items():
            assert tuple(fw.path) in found[word]
            assert fw.points == points(word)
        multi = sum(points(w) * len(paths) for w, paths in found.items())
        demulti = sum(points(w) * len({frozenset(p) for p in paths}) for w, paths in found.items())
        assert (scorer.multi(board), scorer.demulti(board)) == (multi, demulti)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("rule", RULES)
def test_neighbourhood_matches_rescoring(
    core: types.SimpleNamespace,
    tries: dict[str, object],
    boards: dict[tuple[int, int], list[str]],
    size: tuple[int, int],
    rule: str,
) -> None:
    skip_plain_python_past_3x4(core, size)
    scorer = core.scorer.Scorer(tries[rule], core.geometry.Geometry(*size))
    n = size[0] * size[1]
    # the letter-frequency boards carry more words, so test those (plain
    # Python: the last, every one rescoring 26 letters in every cell, the
    # same code; 2x2 keeps its three, so a scorer's second neighbourhood,
    # which reuses its table of credits, runs in plain Python too)
    for board in boards[size][-3:] if core.kind == "installed" or size == (2, 2) else boards[size][-1:]:
        got = scorer.neighbourhood(board)
        want = [
            scorer.score(board[:c] + letter + board[c + 1 :])
            for c in range(n)
            for letter in ALPHABET
        ]
        assert got == want


@pytest.mark.parametrize("size", [(8, 8), (6, 7), (1, 5), (1, 1)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_other_sizes_match_reference(
    core: types.SimpleNamespace,
    tries: dict[str, object],
    words: list[str],
    registries: Registries,
    size: tuple[int, int],
) -> None:
    """Up to 64 cells: the last cell's bit is the sign bit of the used-cell mask."""
    points = registries.rules.get("standard").points
    ref = Reference(words)
    rng = random.Random(size[0] * 10 + size[1])
    scorer = core.scorer.Scorer(tries["standard"], core.geometry.Geometry(*size))
    n = size[0] * size[1]
    # plain Python: the first 5 of the 15 boards, each with words through the last cells
    for _ in range(15 if core.kind == "installed" else 5):
        board = "".join(rng.choice("aeiostrnlpdcg") for _ in range(n))
        found = ref.paths(board, *size)
        assert scorer.score(board) == sum(points(w) for w in found)
        assert sorted(w.word for w in scorer.words(board)) == sorted(found)
