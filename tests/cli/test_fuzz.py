"""Property tests (hypothesis) for every parser a user's text reaches: boards,
sizes, board classes and buckets, ``-o`` options, word-list lines and run-file
lines. The only outcomes allowed are a correct result or a one-line error;
and a resumed proof never counts a class twice.

The normal suite runs a small, fixed set of examples; ``.ci/run`` runs this
module once more with ``BOGGLE_OPT_FUZZ=ci`` for a larger random budget.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import signal
import string
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from helpers import assert_one_line_error, exe
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from boggle_opt.proofs.board_classes import parse_buckets, parse_class
from boggle_opt.boards import make_geometry
from boggle_opt.cli.app import build_parser, main
from boggle_opt.cli.bound import class_text
from boggle_opt.cli.args import DeprecatedAlias, IgnoredOption
from boggle_opt.core.errors import BoggleOptError
from boggle_opt.core.geometry import MAX_SIDE, parse_size
from boggle_opt.searching.options import describe, make_options
from boggle_opt.registry.loader import Registries
from boggle_opt.runs.records import is_record_line
from boggle_opt.runs.runfile import read_run_file
from boggle_opt.runs.run import RunSpec
from boggle_opt.searching.interface import Improved, Progress
from boggle_opt.dictionary.wordlist import clean_words

QUICK = settings(max_examples=25, derandomize=True, deadline=None, database=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
FUZZ = settings(QUICK, max_examples=200, derandomize=False, print_blob=True)
FUZZ_SLOW = settings(FUZZ, max_examples=30)  # examples that run a small proof
fuzz = FUZZ if os.environ.get("BOGGLE_OPT_FUZZ") == "ci" else QUICK
fuzz_cli = settings(FUZZ, max_examples=100) if os.environ.get("BOGGLE_OPT_FUZZ") == "ci" else settings(
    QUICK, max_examples=20)  # examples that start a process
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
    rows = [row for row in out.splitlines() if not row.startswith("#")]
    line = rows[-1].split("\t")
    expected = board.strip().lower()
    notes = [row for row in out.splitlines()[2:] if row.startswith("#")]
    # a board given in another orientation gets one line naming its canonical form
    assert notes == [] or (len(notes) == 1 and notes[0].startswith(f"# {expected} is ")), out
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
    # one word of 4 letters is a board of 2x2, a letter a cell
    assert fields["class"].split() == parse_class(class_text(text, (2, 2)), make_geometry(2, 2))
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
    text = data.decode("utf-8", errors="replace")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):  # a byte-order mark says UTF-16
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError:
            pass
    expected = clean_words(text.splitlines())
    if code != 0:
        one_line_error(code, err)
        # only an empty list is refused, or one holding a NUL byte (no text
        # list does: UTF-16 without its byte-order mark, said so)
        assert not expected or (b"\0" in data and "NUL" in err), err
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


# -- run files at the edges: junk tails, junk within, split records, foreign runs ----------


class Hung(BaseException):
    """Raised by ``time_limit`` (a BaseException: no ``except Exception`` hides a hang)."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    def hung(signum: int, frame: Any) -> None:
        raise Hung(f"no answer within {seconds} s")

    old = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def resumed(path: str) -> tuple[int, str, str]:
    with time_limit(60):
        return cli("run", "--resume", path, "--progress", "none", "--top", "10000")


def refused(path: str, line: int, *needles: str) -> None:
    """``--resume`` and ``report`` both refuse the file in one line naming the
    line and holding the needles; the file is untouched."""
    before = Path(path).read_bytes()
    for args in (["run", "--resume", path], ["report", path, "--out", path + ".html"]):
        with time_limit(60):
            code, _, err = cli(*args)
        one_line_error(code, err)
        assert re.search(rf"line {line}(?![0-9])", err), (line, err)
        for needle in needles:
            assert needle in err, (needle, err)
    assert Path(path).read_bytes() == before


def redone_classes(path: str) -> list[tuple[str, str]]:
    """The (class, part) of each task the last segment of the run file solved."""
    after = [json.loads(line) for line in Path(path).read_text().splitlines()]  # every line a record
    last_start = max(i for i, r in enumerate(after) if r["type"] == "start")
    return [(r["record"]["class"], r["record"].get("part", "")) for r in after[last_start:]
            if r["type"] == "checkpoint" and "class" in r["record"]]


junk_lines = st.one_of(
    st.binary(min_size=1, max_size=40),
    st.text(min_size=1, max_size=20).map(str.encode),
    st.sampled_from([b"\0" * 100, b"garbage", b"[[[", b"{", b"}", b"null", b"[{}]", b"\xff\xfe",
                     b'{"type": "checkpoint", "record": {"kind"']),
)


@fuzz_slow
@given(data=st.data())
def test_a_junk_tail_is_cut_by_the_resume(data: st.DataObject, proof: tuple[list[str], str, set[str]],
                                          tmp_path_factory: pytest.TempPathFactory) -> None:
    """Whatever follows the last whole record (NUL bytes, garbage, ``[[[``, a
    torn record) is skipped by the reader and cut before the resume appends:
    the proof ends whole, and the file is all records again."""
    lines, boards, classes = proof
    keep = data.draw(st.integers(2, len(lines)))
    torn = data.draw(st.sampled_from(lines[1:]))
    pieces = data.draw(st.lists(st.one_of(junk_lines, st.integers(1, len(torn) - 1).map(
        lambda n: torn.encode()[:n])), min_size=1, max_size=4))
    tail = data.draw(st.sampled_from([b"\n", b""])).join(pieces)
    assume(not any(is_record_line(line) for line in tail.split(b"\n")))
    head = "".join(line + "\n" for line in lines[:keep]).encode()
    path = write(tmp_path_factory, "")
    Path(path).write_bytes(head + tail)
    earlier = {r["class"] for r in read_run_file(path).checkpoints if "class" in r}
    code, out, err = resumed(path)
    assert code == 0, err
    assert ranked(out) == boards
    assert Path(path).read_bytes().startswith(head)
    redone = [name for name, _ in redone_classes(path)]
    assert len(redone) == len(set(redone)) and not set(redone) & earlier
    assert earlier | set(redone) == classes


@fuzz
@given(data=st.data())
def test_junk_before_the_last_record_is_one_line_naming_it(data: st.DataObject,
                                                           proof: tuple[list[str], str, set[str]],
                                                           tmp_path_factory: pytest.TempPathFactory) -> None:
    lines = [line.encode() for line in proof[0][: data.draw(st.integers(2, 40))]]
    at = data.draw(st.integers(0, len(lines) - 1))
    junk = data.draw(junk_lines.map(lambda b: b.replace(b"\n", b" ")))
    assume(junk.strip() and not is_record_line(junk))
    path = write(tmp_path_factory, "")
    Path(path).write_bytes(b"".join(line + b"\n" for line in lines[:at] + [junk] + lines[at:]))
    refused(path, at + 1)


def class_letters_of(name: str) -> list[str]:
    """Each cell's letters in a class of the proof (its buckets, the same for every cell)."""
    buckets = BUCKETS.split()
    return [buckets[int(b)] for b in name]


@st.composite
def split_pieces(draw: st.DrawFn, letters: list[str]) -> list[str]:
    """A split's ``into``: one cell fixed to each of its letters, then maybe
    spoilt: pieces dropped or repeated, empty, longer, of another cell, of a
    letter not in the class, past the board, or any text."""
    cell = draw(st.integers(0, len(letters) - 1))
    pieces = [f"{cell}{x}" for x in draw(st.permutations(letters[cell]))]
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(["drop", "dup", "empty", "longer", "other-cell", "wrong-letter",
                                     "past-board", "leading-zero", "text"]))
        i = draw(st.integers(0, max(len(pieces) - 1, 0)))
        if kind == "drop" and pieces:
            del pieces[i]
        elif kind == "dup" and pieces:
            pieces.insert(draw(st.integers(0, len(pieces))), pieces[i])
        elif kind == "empty":
            pieces.insert(i, "")
        elif kind == "longer" and pieces:
            other = (cell + 1) % len(letters)
            pieces[i] = f"{pieces[i]}.{other}{letters[other][0]}"
        elif kind == "other-cell" and pieces:
            other = draw(st.integers(0, len(letters) - 1))
            pieces[i] = f"{other}{pieces[i][-1:]}"  # (an empty piece stays without a letter)
        elif kind == "wrong-letter" and pieces:
            pieces[i] = pieces[i][:-1] + draw(st.sampled_from(string.ascii_letters))
        elif kind == "past-board":
            pieces.insert(i, f"{draw(st.integers(len(letters), 99))}a")
        elif kind == "leading-zero" and pieces:
            pieces[i] = "0" + pieces[i]
        elif kind == "text":
            pieces.insert(i, draw(argv_text))
    return pieces


def well_formed(pieces: list[str], letters: list[str]) -> bool:
    """What the resume must accept: pieces that fix one cell to each of its letters once."""
    parsed = [re.fullmatch(r"(0|[1-9][0-9]*)([a-z])", p) for p in pieces]
    if not pieces or not all(parsed):
        return False
    cells = {int(m.group(1)) for m in parsed if m}
    if len(cells) != 1 or (cell := cells.pop()) >= len(letters):
        return False
    return sorted(m.group(2) for m in parsed if m) == sorted(letters[cell])


@fuzz_slow
@given(data=st.data())
def test_a_split_record_resumes_its_pieces_or_is_refused(data: st.DataObject,
                                                         proof: tuple[list[str], str, set[str]],
                                                         tmp_path_factory: pytest.TempPathFactory) -> None:
    """A class recorded as split into ``into``: a well-formed split resumes by
    solving exactly its pieces, to the whole proof's boards; any other is
    refused in one line naming its line, never a hang."""
    lines, boards, _ = proof
    at = data.draw(st.sampled_from([i for i, line in enumerate(lines) if '"class"' in line]))
    record = json.loads(lines[at])
    name = record["record"]["class"]
    letters = class_letters_of(name)
    pieces = data.draw(split_pieces(letters))
    keep = {k: record["record"][k] for k in ("kind", "size", "buckets", "min_score")}
    record["record"] = {**keep, "split": name, "part": "", "into": pieces}
    path = write(tmp_path_factory, "".join(line + "\n" for line in lines[:at] + [json.dumps(record)]
                                           + lines[at + 1:]))
    if not well_formed(pieces, letters):
        refused(path, at + 1, "bnb class")
        return
    code, out, err = resumed(path)
    assert code == 0, err
    assert ranked(out) == boards
    assert sorted(redone_classes(path)) == sorted((name, p) for p in pieces)


OTHER_SIZES = ["2x2", "3x3", "3x2", "4x4", "2x3x"]


@fuzz
@given(data=st.data())
def test_a_foreign_run_in_the_file_is_refused(data: st.DataObject, proof: tuple[list[str], str, set[str]],
                                              registries: Registries,
                                              tmp_path_factory: pytest.TempPathFactory) -> None:
    """Another searcher's or size's run appended, or its start record in the
    middle: refused in one line naming that line, the file untouched."""
    lines = proof[0][: data.draw(st.integers(2, len(proof[0])))]
    start = json.loads(lines[0])
    settings = dict(start["settings"])
    changes = data.draw(st.fixed_dictionaries({}, optional={
        "searcher": st.sampled_from([e.name for e in registries.searchers.entries() if e.name != "bnb"]),
        "size": st.sampled_from(OTHER_SIZES)}))
    assume(changes)
    settings.update(changes)
    foreign = [json.dumps({**start, "settings": settings, "searcher": settings["searcher"]})]
    foreign += data.draw(st.lists(st.sampled_from(
        ['{"type": "improved", "board": "streaedlp", "score": 556, "elapsed": 1.0, "evaluations": 9}',
         *lines[1:]]), max_size=3))
    at = data.draw(st.integers(1, len(lines)))
    path = write(tmp_path_factory, "".join(line + "\n" for line in lines[:at] + foreign + lines[at:]))
    refused(path, at + 1, "starts another run")


@fuzz_slow
@given(data=st.data())
def test_a_recorded_score_changed_is_refused(data: st.DataObject, proof: tuple[list[str], str, set[str]],
                                             tmp_path_factory: pytest.TempPathFactory) -> None:
    """Boards are scored again as the file is read: a score edited by hand
    (or by a bit flip) is a one-line error naming the line."""
    lines = list(proof[0][:60])  # short: every board of the file is scored again
    at = data.draw(st.sampled_from([i for i, line in enumerate(lines) if '"boards": [[' in line]))
    record = json.loads(lines[at])
    board = data.draw(st.sampled_from(record["record"]["boards"]))
    delta = data.draw(st.one_of(st.integers(-100, 100), st.integers(min_value=2**63),
                                st.integers(max_value=-(2**63))).filter(bool))
    board[1] += delta
    lines[at] = json.dumps(record)
    path = write(tmp_path_factory, "".join(line + "\n" for line in lines))
    refused(path, at + 1)


# -- numbers at their limits, for every numeric option of every command ---------------

#: what each command with a numeric option runs with, fast whatever the number
BASES = {
    "show": ["show", "aelnrs", "--size", "2x3"],
    "score": ["score", "aelnrs", "--size", "2x3"],
    "bound": ["bound", "lnrst aeiou lnrst aeiou", "--size", "2x2"],
    "plan": ["plan", "--size", "2x2", "--min-score", "40", "--sample", "2", "--jobs", "1"],
    "run": ["run", "--size", "2x2", "--progress", "none", "--evals", "10", "--time", "2"],
    "verify": ["verify"],
    "merge": ["merge"],
    "report": ["report"],
}


def commands() -> dict[str, argparse.ArgumentParser]:
    """Each command's parser (as test_cli_vocabulary finds them)."""
    [sub] = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(sub.choices)


def current(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """The options a command offers (not help, not deprecated spellings)."""
    return [a for a in parser._actions if a.option_strings
            and not isinstance(a, (argparse._HelpAction, DeprecatedAlias, IgnoredOption))]


def numeric_options(registries: Registries) -> list[tuple[str, str, str]]:
    """(command, searcher or "", option) for each option that takes a number:
    the commands' own (their argparse type turns "1" into a number) and every
    searcher's ``-o`` ones (``plan`` takes bnb's)."""
    found = []
    for name, parser in commands().items():
        for action in current(parser):
            if action.type is None or action.nargs == 0:
                continue
            try:
                value = action.type("1")  # type: ignore[operator]
            except Exception:
                continue
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                found += [(name, s, action.option_strings[-1]) for s in
                          ([e.name for e in registries.searchers.entries()] if name == "run" else [""])]
        if any("-o" in a.option_strings for a in current(parser)):
            for entry in registries.searchers.entries():
                if name == "run" or entry.name == "bnb":
                    found += [(name, entry.name, f"-o {o.name}") for o in describe(entry.item.Options)
                              if "int" in o.type or "float" in o.type]
    return found


numbers = st.one_of(
    st.integers(min_value=2**63 - 1).map(str),
    st.integers(max_value=0).map(str),
    st.floats().map(repr),
    st.sampled_from(["1e400", "-1e400", "inf", "-inf", "nan", "-nan", "1e-400", "-0", "-0.0", "1e308",
                     "9" * 40, "-" + "9" * 40, str(2**64), str(-(2**63) - 1), "1_0000_0000_0000_0000_0000"]),
)


@fuzz_cli
@given(data=st.data())
@pytest.mark.slow  # 9 s or more on two busy cores (docs/testing.md)
def test_huge_and_negative_numbers_run_or_one_line(data: st.DataObject, registries: Registries,
                                                   small_words: str,
                                                   proof: tuple[list[str], str, set[str]],
                                                   tmp_path_factory: pytest.TempPathFactory) -> None:
    """In a real process with a time limit: exit 0 (3 for a proof its budget
    stopped), or a one-line error; never a traceback or a hang."""
    command, searcher, option = data.draw(st.sampled_from(numeric_options(registries)))
    assert command in BASES, f"{command} takes a number: give it a fast BASES entry"
    value = data.draw(numbers)
    args = list(BASES[command])
    if command in ("verify", "merge", "report"):
        args.append(write(tmp_path_factory, "".join(line + "\n" for line in proof[0])))
        if command == "merge":  # a new file each time: merge never writes over one
            args += ["--out", str(tmp_path_factory.mktemp("merged") / "proof.jsonl")]
        if command == "report":
            args += ["--out", str(tmp_path_factory.mktemp("page") / "report.html")]
    else:
        args += ["--wordlist", small_words]
    if command == "run":
        args += ["--searcher", searcher] + (["-o", "min-score", "40"] if searcher == "bnb" else [])
    args += [*option.split(), value]
    result = subprocess.run([exe(), *args], capture_output=True, text=True, timeout=300,
                            env={**os.environ, "NO_COLOR": "1"})
    assert "Traceback" not in result.stdout + result.stderr, result.stderr
    stopped = result.returncode == 3 and searcher == "bnb" and "--resume" in result.stdout + result.stderr
    if result.returncode == 0 or stopped:
        return
    assert_one_line_error(result)
