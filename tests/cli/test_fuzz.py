"""Property tests (hypothesis) for every parser a user's text reaches: boards,
sizes, board classes and buckets, ``-o`` options, word-list lines and run-file
lines. The only outcomes allowed are a correct result or a one-line error;
and a resumed proof never counts a class twice.

The normal suite runs a small, fixed set of examples; ``.ci/run`` runs this
module once more with ``BOGGLE_OPT_FUZZ=ci`` for a larger random budget.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import string
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from boggle_opt.proofs.board_classes import parse_buckets, parse_class
from boggle_opt.boards import make_geometry
from boggle_opt.cli.app import main
from boggle_opt.core.errors import BoggleOptError
from boggle_opt.core.geometry import MAX_SIDE, parse_size
from boggle_opt.searching.options import describe, make_options
from boggle_opt.registry.loader import Registries
from boggle_opt.runs.runfile import read_run_file
from boggle_opt.runs.run import RunSpec
from boggle_opt.searching.interface import Improved, Progress
from boggle_opt.dictionary.wordlist import clean_words

QUICK = settings(max_examples=25, derandomize=True, deadline=None, database=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
FUZZ = settings(QUICK, max_examples=200, derandomize=False, print_blob=True)
FUZZ_SLOW = settings(FUZZ, max_examples=30)  # examples that run a small proof
fuzz = FUZZ if os.environ.get("BOGGLE_OPT_FUZZ") == "ci" else QUICK
fuzz_slow = FUZZ_SLOW if os.environ.get("BOGGLE_OPT_FUZZ") == "ci" else settings(QUICK, max_examples=6)

LETTERS = "aelnrst"
BUCKETS = "aeiou lnrst bcdfghjkmpqvwxyz"
PROOF = ["--searcher", "bnb", "--size", "2x3", "-o", "min-score", "60", "-o", "buckets", BUCKETS,
         "--progress", "none", "--top", "10000"]


@pytest.fixture(scope="module")
def small_words(registries: Registries, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The embedded list's words over 7 letters (700 words): dictionaries in milliseconds."""
    words = [w for w in clean_words(registries.wordlists.get("default").load())
             if len(w) <= 6 and set(w) <= set(LETTERS)]
    path = tmp_path_factory.mktemp("words") / "small.txt"
    path.write_text("\n".join(words) + "\n")
    return str(path)


def cli(*args: str) -> tuple[int, str, str]:
    """``boggle-opt ARGS`` in this process: status, stdout, stderr. Any
    exception other than the command's own exit is a failure of the test."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse's usage errors
            code = exc.code if isinstance(exc.code, int) else 2
    return code, out.getvalue(), err.getvalue()


def one_line_error(code: int, err: str) -> None:
    assert code != 0
    assert err.count("\n") == 1 and err.startswith("boggle-opt: error: "), err
    assert "Traceback" not in err


def one_line(exc: BaseException) -> None:
    assert isinstance(exc, BoggleOptError), repr(exc)
    assert str(exc) and "\n" not in str(exc), repr(str(exc))


# -- boards and sizes ----------------------------------------------------------------

argv_text = st.text(st.characters(exclude_characters="\x00", exclude_categories=["Cs"]), max_size=20)
sizes = st.one_of(
    argv_text,
    st.builds(lambda c, r, x, pad: f"{pad}{c}{x}{r}{pad}", st.integers(-2, 14), st.integers(-2, 14),
              st.sampled_from(["x", "X", "*", "xx"]), st.sampled_from(["", " ", "\t"])),
    st.from_regex(r"\A[0-9٣]{1,5}x[0-9]{1,5}\Z"),
)
boards = st.one_of(argv_text, st.text(string.ascii_letters + " -", min_size=1, max_size=18))


@fuzz
@given(size=sizes)
def test_sizes_parse_or_one_line(size: str) -> None:
    try:
        cols, rows = parse_size(size)
    except BoggleOptError as exc:
        one_line(exc)
        return
    c, r = size.strip().lower().split("x")
    assert (cols, rows) == (int(c), int(r)) and 1 <= cols <= MAX_SIDE and 1 <= rows <= MAX_SIDE


def test_a_size_too_long_for_int_is_one_line() -> None:
    with pytest.raises(BoggleOptError) as caught:
        parse_size("9" * 5000 + "x3")
    one_line(caught.value)


@fuzz
@given(board=boards, size=st.one_of(st.none(), st.sampled_from(["2x3", "3x3", "1x1"]), sizes))
def test_score_prints_the_board_or_one_line(board: str, size: str | None, small_words: str) -> None:
    assume(board != "-")  # the board list's name for stdin, tested in test_score_bulk
    args = ["score", board, "--wordlist", small_words] + (["--size", size] if size is not None else [])
    code, out, err = cli(*args)
    if code != 0:
        one_line_error(code, err)
        return
    assert err == ""
    line = out.splitlines()[-1].split("\t")
    expected = board.strip().lower()
    assert line[0] == expected and int(line[1]) >= 0 and int(line[2]) >= 0
    n = len(expected)
    if size is None:
        assert round(n ** 0.5) ** 2 == n
    else:
        cols, rows = parse_size(size)
        assert cols * rows == n


# -- board classes and buckets --------------------------------------------------------

letter_groups = st.lists(st.text(string.ascii_lowercase + string.ascii_uppercase + "|", min_size=1,
                                 max_size=12), min_size=1, max_size=8).map(" ".join)
partitions = st.permutations(string.ascii_lowercase).flatmap(
    lambda letters: st.lists(st.integers(1, 25), max_size=6, unique=True).map(
        lambda cuts: " ".join("".join(letters[a:b]) for a, b in
                              zip([0, *sorted(cuts)], [*sorted(cuts), 26]))))


@fuzz
@given(text=st.one_of(argv_text, letter_groups, partitions))
def test_buckets_partition_the_alphabet_or_one_line(text: str) -> None:
    try:
        buckets = parse_buckets(text)
    except BoggleOptError as exc:
        one_line(exc)
        return
    joined = "".join(buckets)
    assert sorted(joined) == list(string.ascii_lowercase)
    assert buckets == ["".join(sorted(p)) for p in text.replace("|", " ").lower().split()]


@fuzz
@given(text=st.one_of(argv_text, letter_groups), size=st.sampled_from(["2x2", "2x3", "3x3"]))
def test_classes_parse_or_one_line(text: str, size: str) -> None:
    geometry = make_geometry(*parse_size(size))
    try:
        sets = parse_class(text, geometry)
    except BoggleOptError as exc:
        one_line(exc)
        return
    assert len(sets) == geometry.n
    assert [set(s) for s in sets] == [set(p) for p in text.lower().split()]


@fuzz
@given(text=st.one_of(argv_text, letter_groups), order=st.one_of(st.none(), argv_text,
       st.permutations(range(4)).map(lambda p: ",".join(map(str, p)))))
def test_bound_command_bounds_a_class_or_one_line(text: str, order: str | None,
                                                  small_words: str) -> None:
    args = ["bound", text, "--size", "2x2", "--wordlist", small_words]
    code, out, err = cli(*args, *(["--order", order] if order is not None else []))
    if code != 0:
        one_line_error(code, err)
        return
    fields = dict(line.split("\t", 1) for line in out.splitlines() if "\t" in line)
    assert fields["class"].split() == parse_class(text, make_geometry(2, 2))
    assert int(fields["bound"]) >= 0


# -- -o options ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def searchers(registries: Registries) -> list[tuple[str, type]]:
    return [(e.name, e.item.Options) for e in registries.searchers.entries()]


@fuzz
@given(data=st.data())
def test_options_build_or_one_line(data: st.DataObject, searchers: list[tuple[str, type]]) -> None:
    name, options_cls = data.draw(st.sampled_from(searchers))
    known = [o.name for o in describe(options_cls)]
    values = st.one_of(argv_text, st.integers().map(str), st.floats().map(str),
                       st.sampled_from(["none", "true", "off", "1_000", "1e400", "-0", "nan", "inf"]))
    pairs = data.draw(st.lists(st.tuples(st.one_of(st.sampled_from(known), argv_text), values),
                               max_size=4))
    try:
        options = make_options(name, options_cls, pairs)
    except BoggleOptError as exc:
        one_line(exc)
        return
    for key, _ in pairs:
        assert key.replace("-", "_") in {k.replace("-", "_") for k in known}
    assert isinstance(options, options_cls)


# -- word-list lines ------------------------------------------------------------------

lines = st.lists(st.one_of(st.binary(max_size=12), st.text(LETTERS + "QqUu \t\r", max_size=8).map(
    str.encode), st.sampled_from([b"qua", b"QUEST", b"  rats\r", b"\xff\xfe", b"caf\xc3\xa9s"])),
    max_size=30)


@fuzz
@given(raw=lines, separator=st.sampled_from([b"\n", b"\r\n", b"\r"]))
def test_word_list_lines_count_or_one_line(raw: list[bytes], separator: bytes,
                                           tmp_path_factory: pytest.TempPathFactory) -> None:
    path = tmp_path_factory.mktemp("list") / "words.txt"
    data = separator.join(raw)
    path.write_bytes(data)
    code, out, err = cli("score", "aelnrs", "--size", "2x3", "--wordlist", str(path), "--no-cache")
    expected = clean_words(data.decode("utf-8", errors="replace").splitlines())
    if code != 0:
        one_line_error(code, err)
        assert not expected  # only an empty list is refused
        return
    assert f"({len(expected):,} words)" in out.splitlines()[0]


# -- run-file lines -------------------------------------------------------------------


@pytest.fixture(scope="module")
def proof(small_words: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], str, set[str]]:
    """A whole small proof's run file lines, its printed boards, and its classes."""
    path = tmp_path_factory.mktemp("proof") / "run.jsonl"
    code, out, err = cli("run", *PROOF, "--wordlist", small_words, "--out", str(path))
    assert code == 0, err
    classes = {r["class"] for r in read_run_file(str(path)).checkpoints if "class" in r}
    assert len(classes) > 100
    return path.read_text().splitlines(), ranked(out), classes


def ranked(stdout: str) -> str:
    return "\n".join(line for line in stdout.splitlines() if line[:1].isdigit())


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
FIELDS = ["type", "board", "score", "elapsed", "evaluations", "record", "settings", "class",
          "boards", "min_score", "size", "buckets", "kind", "setup", "searcher", "options",
          "seed", "budget", "wordlist", "rule", "seconds"]


def _edit(record: Any, key: str, value: Any, delete: bool) -> None:
    """Set or delete ``key`` in the record or in the objects it holds."""
    settings = record.get("settings")
    for target in (record, record.get("record"), settings,
                   settings.get("budget") if isinstance(settings, dict) else None):
        if isinstance(target, dict) and (key in target or target is record):
            if delete:
                target.pop(key, None)
            else:
                target[key] = value
            return


@st.composite
def mutated(draw: st.DrawFn, lines: list[str], structural_only: bool) -> list[str]:
    """The proof's run file with lines dropped, duplicated, swapped, fields
    changed or deleted, junk inserted; then maybe cut at a byte."""
    lines = list(lines)
    kinds = ["drop", "dup", "swap"] + ([] if structural_only else ["set", "del", "junk"])
    for _ in range(draw(st.integers(0, 5))):
        kind = draw(st.sampled_from(kinds))
        i = draw(st.integers(0, len(lines) - 1)) if lines else 0
        if not lines and kind != "junk":
            continue
        if kind == "drop":
            del lines[i]
        elif kind == "dup":
            lines.insert(draw(st.integers(0, len(lines))), lines[i])
        elif kind == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "junk":
            lines.insert(i, draw(st.one_of(st.text(max_size=20), json_values.map(json.dumps))))
        else:
            try:
                record = json.loads(lines[i])
            except ValueError:
                continue  # junk inserted before: nothing to edit
            if isinstance(record, dict):
                _edit(record, draw(st.sampled_from(FIELDS)), draw(json_values), kind == "del")
                lines[i] = json.dumps(record)
    text = "".join(line + "\n" for line in lines)
    if draw(st.booleans()):
        text = text[: draw(st.integers(0, len(text)))]
    return [text]


def write(tmp_path_factory: pytest.TempPathFactory, text: str) -> str:
    path = tmp_path_factory.mktemp("resume") / "run.jsonl"
    path.write_text(text)
    return str(path)


@fuzz
@given(data=st.data())
def test_run_file_lines_resume_or_one_line(data: st.DataObject, proof: tuple[list[str], str, set[str]],
                                           registries: Registries,
                                           tmp_path_factory: pytest.TempPathFactory) -> None:
    """Everything ``--resume`` does with the file before it searches: read
    it, rebuild the run, hand the earlier boards to the driver and the
    earlier classes to bnb."""
    [text] = data.draw(mutated(proof[0], structural_only=False))
    path = write(tmp_path_factory, text)
    try:
        spec = RunSpec.resuming(path, registries)
        run = spec.prepare(registries)
        driver = run.driver([])
        if spec.name == "bnb" and spec.options.min_score is not None:
            # up to its first Progress, bnb reads the earlier classes and
            # reports their boards; then it would start solving
            events = run.searcher.search(run.problem, np.random.default_rng(0))
            for event in events:
                if isinstance(event, Progress):
                    break
                if isinstance(event, Improved):
                    driver.add_known(event.board, event.score)
            events.close()  # type: ignore[attr-defined]
    except BoggleOptError as exc:
        one_line(exc)
        return
    assert all(len(board) == spec.geometry.n for board in driver.state.boards)


@fuzz_slow
@given(data=st.data())
def test_a_resumed_proof_counts_each_class_once(data: st.DataObject,
                                                proof: tuple[list[str], str, set[str]],
                                                tmp_path_factory: pytest.TempPathFactory) -> None:
    """Lines dropped, repeated, reordered or torn: the resumed proof redoes
    exactly the classes the file does not show as done, and ends with the
    whole proof's boards."""
    lines, boards, classes = proof
    [text] = data.draw(mutated(lines, structural_only=True))
    path = write(tmp_path_factory, text)
    try:
        earlier = {r["class"] for r in read_run_file(path).checkpoints if "class" in r}
    except BoggleOptError as exc:
        one_line(exc)  # e.g. no start record left
        return
    code, out, err = cli("run", "--resume", path, "--progress", "none", "--top", "10000")
    if code != 0:
        one_line_error(code, err)
        assume(False)
        return
    after = [json.loads(line) for line in Path(path).read_text().splitlines()]
    last_start = max(i for i, r in enumerate(after) if r["type"] == "start")
    redone = [r["record"]["class"] for r in after[last_start:]
              if r["type"] == "checkpoint" and "class" in r["record"]]
    assert len(redone) == len(set(redone)) and not set(redone) & earlier
    assert earlier | set(redone) == classes
    assert ranked(out) == boards
