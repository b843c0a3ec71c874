"""Helpers the test folders share (importable as ``helpers``: pyproject's
``pythonpath = ["tests"]``): the installed console script, run-file records, a small
run's arguments, a random-board searcher and a direct ``bnb`` run, and the core
kernels' small words, kernel modules and brute force."""

from __future__ import annotations

import importlib
import itertools
import json
import os
import pty
import random
import re
import select
import shutil
import signal
import subprocess
import sys
import time
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from boggle_opt.boards import make_geometry
from boggle_opt.core.alphabet import Alphabet
from boggle_opt.core.geometry import Geometry
from boggle_opt.core.scorer import Scorer
from boggle_opt.dictionary.dictionary import Dictionary, to_key
from boggle_opt.dictionary.wordlist import clean_words
from boggle_opt.plugins.bnb import BranchAndBound
from boggle_opt.registry.loader import Registries
from boggle_opt.searching.interface import Checkpoint, Event, Improved, Problem, Progress, SearcherBase
from boggle_opt.searching.options import check

#: how every one-line error of the CLI starts
PREFIX = "boggle-opt: error: "

#: a run of a few seconds: the pool climber on 3x3
SMALL = ["--searcher", "hillclimb", "--size", "3x3", "-o", "pool-size", "20", "--seed", "1"]


#: a 3x3 proof on ENABLE2K that takes minutes: long enough to be stopped mid-way (a test
#: using it asks for the list)
PROOF_3X3 = ["--searcher", "bnb", "--size", "3x3", "--wordlist", "enable2k", "-o", "min-score", "400"]


def wait_for(predicate: Callable[[], bool], proc: subprocess.Popen[Any], timeout: float = 60) -> None:
    """Wait until ``predicate()`` holds; fail if ``proc`` ends first or time runs out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        assert proc.poll() is None, f"the run ended first: {proc.communicate()}"
        time.sleep(0.02)
    raise AssertionError("timed out waiting")


def run_until(args: list[str], env: dict[str, str], cwd: Path, ready: Callable[[], bool],
              timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``boggle-opt ARGS`` run until ``ready()`` holds, then stopped as Ctrl-C
    stops it: a budget of what the test needs (records written), not of
    seconds, which a busy machine can leave with nothing done. ``timeout``
    is only a ceiling."""
    proc = start_cli(args, env, cwd)
    try:
        wait_for(ready, proc, timeout)
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=timeout)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)


def exe() -> str:
    """The installed ``boggle-opt`` console script."""
    script = Path(sys.executable).with_name("boggle-opt")
    found = str(script) if script.exists() else shutil.which("boggle-opt")
    assert found
    return found


def _default_signals() -> None:
    # a test run started under nohup (SIGHUP ignored) or as a background job
    # (SIGINT ignored) would hand that on, and boggle-opt keeps an ignored
    # signal ignored, as it should; the signal tests are about its handlers
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


def start_cli(args: list[str], env: dict[str, str], cwd: Path, new_session: bool = False) -> subprocess.Popen[str]:
    """``boggle-opt ARGS`` started in the background with the stopping signals at
    their defaults; ``new_session``: its own process group, for group signals."""
    return subprocess.Popen([exe(), *args], cwd=cwd, env=env, text=True, start_new_session=new_session,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_default_signals)


def unwrapped(text: str) -> str:
    """A command's results with the lines it wrapped to 80 columns joined
    again (``#   `` continues a ``#`` line, two spaces a statement)."""
    return re.sub(r"\n(?:#   |  (?=\S))", " ", text)


def records(path: Path) -> list[dict[str, Any]]:
    """Every record of a run file (JSON lines), blank lines skipped."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def short_words(registries: Registries, tiles: int) -> list[str]:
    """The embedded list's lines of at most ``tiles`` tiles (``qu`` is one):
    a board of that many cells spells no longer word, so its proofs find
    what they find on the whole list, with a dictionary a fraction the size
    (verify builds it again each time). The entries the reader drops (short
    words, q without u) are kept, so its note stays."""
    return [w for w in registries.wordlists.get("embedded").load() if len(w.lower().replace("qu", "q")) <= tiles]


class RandomBoards(SearcherBase):
    """Score random boards; report each new best."""

    name = "random-boards"

    @dataclass(frozen=True, kw_only=True)
    class Options:
        batch: int = field(default=50, metadata={"help": "boards between progress events"})
        letters: str = field(default="", metadata={"help": "letters drawn (empty: a to z)"})
        temperature: float | None = field(default=None, metadata={"help": "unused"})
        fancy: bool = field(default=False, metadata={"help": "unused"})
        label: str = field(default="x", metadata={"help": "unused"})

        def __post_init__(self) -> None:
            check(self.batch >= 1, "batch", "must be >= 1")

    def search(self, problem: Problem, rng: np.random.Generator) -> Iterator[Event]:
        best = -1
        letters = list(self.options.letters)
        while True:
            for _ in range(self.options.batch):
                if letters:
                    board = "".join(rng.choice(letters, problem.n_cells))
                else:
                    board = "".join(chr(97 + int(c)) for c in rng.integers(0, 26, problem.n_cells))
                score = problem.score(board)
                if score > best:
                    best = score
                    yield Improved(board, score)
            yield Progress({"best": best})


def run_bnb(problem: Problem, **options: Any) -> tuple[dict[str, int], list[dict[str, Any]], list[Progress]]:
    """Canonical boards reported, checkpoint records, progress events."""
    searcher = BranchAndBound(BranchAndBound.Options(**options))
    scorer = problem.dictionary.scorer(problem.geometry)
    boards: dict[str, int] = {}
    records: list[dict[str, Any]] = []
    progress: list[Progress] = []
    for ev in searcher.search(problem, np.random.default_rng(1)):
        if isinstance(ev, Improved):
            assert scorer.score(ev.board) == ev.score
            if records:  # proved boards: canonical, at least the min score
                assert problem.geometry.canonical(ev.board) == ev.board
                assert ev.score >= records[0]["min_score"]
                boards[ev.board] = ev.score
            else:  # before the setup record only the climb that sets a missing min score reports
                assert options.get("min_score") is None
        elif isinstance(ev, Checkpoint):
            assert records or ev.record.get("setup"), "the setup record comes first"
            records.append(dict(ev.record))
        else:
            progress.append(ev)
    return boards, records, progress


def assert_one_line_error(result: subprocess.CompletedProcess[Any], *needles: str) -> str:
    """A failed command's one error line (no traceback, non-zero exit), holding each needle."""
    out = result.stdout if isinstance(result.stdout, str) else result.stdout.decode(errors="replace")
    err = result.stderr if isinstance(result.stderr, str) else result.stderr.decode(errors="replace")
    assert "Traceback" not in out + err, err
    assert result.returncode != 0, (out, err)
    lines = err.splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got:\n{err}"
    (line,) = lines
    assert line.startswith(PREFIX), line
    for needle in needles:
        assert needle in line, f"{needle!r} not in {line!r}"
    return line


# the core kernels' tests (tests/core): words, kernels and brute force on small classes


def small_words(registries: Registries, alphabet: str, max_len: int) -> list[str]:
    """Words of the embedded list spelled from ``alphabet`` only (``q`` as "qu")."""
    lines = registries.wordlists.get("default").load()
    allowed = set(alphabet)
    return [
        w for w in clean_words(lines)
        if len(to_key(w)) <= max_len and set(to_key(w).decode()) <= allowed
    ]


def kernels(core: types.SimpleNamespace) -> tuple[Any, Any]:
    package = core.geometry.__name__.rsplit(".", 1)[0]
    return (
        importlib.import_module(f"{package}.tree"),
        importlib.import_module(f"{package}.branch"),
    )


def tree_builder(core: types.SimpleNamespace, d: Dictionary, size: tuple[int, int]) -> tuple[Any, list[int], Any]:
    """The kernels' geometry of ``size``, their cell order and a tree builder for ``d``."""
    tree_mod, _ = kernels(core)
    geometry = core.geometry.Geometry(*size)
    order = tree_mod.cell_order(geometry)
    return geometry, order, core.builder.TreeBuilder(core.trie.PackedTrie(d.keys, d.points), geometry, order)


@pytest.fixture(scope="module")
def small(registries: Registries) -> tuple[dict[bytes, int], Dictionary]:
    words = small_words(registries, "aeilnrstq", 9)
    d = Dictionary("small", words, registries.rules.get("standard"))
    return dict(zip(d.keys, d.points)), d


#: (size, buckets, cutoff): small classes whose boards branch and bound must find exactly
SOLVER_CASES = [((2, 2), "ae lnr ist", 6), ((2, 3), "ae lnr st", 20), ((3, 2), "aeq lnrt s", 15)]

#: plain Python's cases of the same tests: the compiled cases' letters in
#: fewer classes (2x3: 64, not 729) and a cutoff near the top (144 and 248
#: boards), so that it forces only where those boards are. Each build costs
#: plain Python milliseconds whatever its size (the families' table cleared,
#: the radix passes): the compiled cases' thousands of builds took it 10-20 s
#: a test. The same source, so the same code; the compiled build keeps
#: SOLVER_CASES. Branch coverage of the plain-Python core: every arc the old
#: pure runs of SOLVER_CASES reached, these cases reach, but for two branches
#: of Tree.force (a cell no word uses, a letter the cell lacks), which
#: test_forced_bounds_are_exact and the other pure tests of tests/core reach
PURE_SOLVER_CASES = [((2, 2), "ae lnr ist", 14), ((2, 3), "ae lnrst", 80)]


def skip_the_other_builds_case(core: types.SimpleNamespace, case: tuple[tuple[int, int], str, int],
                               pure: list[tuple[tuple[int, int], str, int]] = PURE_SOLVER_CASES) -> None:
    """A test over ``SOLVER_CASES + PURE_SOLVER_CASES`` runs the first in the
    compiled build and ``pure`` (by default the second) in plain Python."""
    if core.kind == "pure" and case not in pure:
        pytest.skip("a compiled build's case: plain Python runs smaller ones (PURE_SOLVER_CASES)")
    if core.kind != "pure" and case not in SOLVER_CASES:
        pytest.skip("plain Python's case: the compiled build runs SOLVER_CASES")


def random_class(rng: random.Random, n: int, alphabet: str) -> list[str]:
    return ["".join(sorted(rng.sample(alphabet, rng.randint(1, 4)))) for _ in range(n)]


def brute_force(scorer: Scorer, geometry: Geometry, alphabet: str, cutoff: int) -> dict[str, int]:
    out = {}
    for letters in itertools.product(alphabet, repeat=geometry.n):
        board = "".join(letters)
        score = scorer.score(board)
        if score >= cutoff:
            out[board] = score
    return out


def word_paths(
    words: dict[bytes, int], geometry: Geometry, sets: list[str]
) -> Iterator[tuple[bytes, list[int], list[str]]]:
    """Every path over a class's letters (``sets`` by cell) that spells a
    word: the word, its cells, their letters. A brute-force walk, for
    reference trees."""
    prefixes = {w[:i] for w in words for i in range(1, len(w) + 1)}

    def visit(path: list[int], letters: list[str], key: bytes) -> Iterator[tuple[bytes, list[int], list[str]]]:
        if key in words:
            yield key, path, letters
        for nb in geometry.neighbours(path[-1]):
            if nb not in path:
                for ch in sets[nb]:
                    if key + ch.encode() in prefixes:
                        yield from visit([*path, nb], [*letters, ch], key + ch.encode())

    for c in range(geometry.n):
        for ch in sets[c]:
            if ch.encode() in prefixes:
                yield from visit([c], [ch], ch.encode())


class ReferenceTree:
    """The orderly tree as nested dicts, built from every path of the class."""

    def __init__(self, words: dict[bytes, int], geometry: Geometry, sets: list[str], order: list[int]) -> None:
        pos_of = {c: p for p, c in enumerate(order)}
        self.root: dict[str, Any] = {"points": 0, "kids": {}}
        seen: set[tuple[int, bytes]] = set()
        for key, path, letters in word_paths(words, geometry, sets):
            node = self.root
            for p, letter in sorted((pos_of[c], ch) for c, ch in zip(path, letters)):
                choice = node["kids"].setdefault(p, {})
                node = choice.setdefault(letter, {"points": 0, "kids": {}})
            if (id(node), key) not in seen and words[key] > 0:
                seen.add((id(node), key))
                node["points"] += words[key]

    def bound(self, node: dict[str, Any] | None = None) -> int:
        node = self.root if node is None else node
        return int(node["points"]) + sum(
            max(self.bound(s) for s in choice.values()) for choice in node["kids"].values()
        )

    def nodes(self, node: dict[str, Any] | None = None) -> int:
        node = self.root if node is None else node
        return 1 + sum(1 + sum(self.nodes(s) for s in c.values()) for c in node["kids"].values())


#: a 48-letter word, YAWL's longest plus "sis": pow2 gives it 2**45 points
LONG_WORD = "pneumonoultramicroscopicsilicovolcanoconiosis" + "sis"


def snake_board(word: str, cols: int, rows: int, filler: str = "x") -> str:
    """A board that spells ``word`` along its columns, every other column
    upside down, so that each next cell is adjacent (column-major cells)."""
    order = [c * rows + (r if c % 2 == 0 else rows - 1 - r) for c in range(cols) for r in range(rows)]
    cells = [filler] * (cols * rows)
    for i, ch in enumerate(word):
        cells[order[i]] = ch
    return "".join(cells)


def brute_score(alphabet: Alphabet, board: str, cols: int, rows: int,
                words: dict[str, int]) -> int:
    """Points of the distinct words any path spells, each once however the
    tiles spell it: a depth-first search over the tiles' letters, in Python."""
    geometry = make_geometry(cols, rows)
    spelled = alphabet.cells(board)
    prefixes = {w[:i] for w in words for i in range(1, len(w) + 1)}
    found: set[str] = set()

    def walk(cell: int, text: str, used: int) -> None:
        if text not in prefixes:
            return
        if text in words:
            found.add(text)
        for nb in geometry.neighbours(cell):
            if not used >> nb & 1:
                walk(nb, text + spelled[nb], used | 1 << nb)

    for c in range(geometry.n):
        walk(c, spelled[c], 1 << c)
    return sum(words[w] for w in found)


def on_a_terminal(args: list[str], env: dict[str, str], cwd: Path) -> tuple[int, str]:
    """The console script run with ``args`` on a pseudo-terminal (stdin,
    stdout and stderr all the terminal): its exit status and all it wrote,
    read until it closes the terminal (or 60 s pass with nothing: a hang)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([exe(), *args], stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd)
    os.close(slave)
    output = b""
    while True:
        ready, _, _ = select.select([master], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        output += chunk
    os.close(master)
    return proc.wait(timeout=300), output.decode("utf-8", "replace")
