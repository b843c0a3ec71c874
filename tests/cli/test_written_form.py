"""One written form for multi-letter tiles (issue 78, defects 1-10): a board,
a die, a class, a fixed-cell pattern and a word are written the same way
(``[ij]``, ``[th]``, ``ß``, ``q`` for Qu) everywhere a person reads or types
them, and a tile's private symbol (``0`` for IJ) is never shown nor read from
what a person types. Tiny made-up word lists, or the embedded list."""

from __future__ import annotations

import gzip
import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from boggle_opt.languages.dutch import DUTCH
from boggle_opt.languages.english_dl import ENGLISH_DL

Cli = Callable[..., subprocess.CompletedProcess[str]]

#: made-up Dutch words with IJ (no real list ships with the tests)
DUTCH_WORDS = ["ijs", "rijst", "lijst", "tijd", "wijs", "bijt", "prijs", "strijd", "list", "rits", "stil",
               "ster", "rest", "nest", "tien", "sein"]
#: made-up German words with ß and umlauts
GERMAN_WORDS = ["straße", "straßen", "maß", "maße", "fuß", "tee", "rase", "rast"]
IJ = DUTCH.alphabet.read("[ij]")  # the private symbol, which no person may see


def _list(tmp_path: Path, name: str, words: list[str]) -> str:
    path = tmp_path / name
    path.write_text("\n".join(words) + "\n", encoding="utf-8")
    return str(path)


def _one_line_error(r: subprocess.CompletedProcess[str], *parts: str) -> str:
    assert r.returncode != 0, r.stdout
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    for part in parts:
        assert part in lines[0], lines[0]
    return lines[0]


# -- 1, 5: boards as typed ----------------------------------------------------------------


@pytest.mark.parametrize("language", ["english", "french"])
def test_qu_in_brackets_reads_in_a_z_languages(main_cli: Cli, language: str, tmp_path: Path) -> None:
    """Defect 1: ``[qu]`` is the Qu tile in English and French as in German
    (a board is read alike with any list: a tiny one, not the language's own)."""
    words = _list(tmp_path, "qu.txt", ["quite", "quit", "suite", "tie"])
    r = main_cli("score", "--language", language, "--wordlist", words, "[qu]itexxxxx")
    plain = main_cli("score", "--language", language, "--wordlist", words, "qitexxxxx")
    assert r.returncode == 0, r.stderr
    assert r.stdout == plain.stdout and "qitexxxxx\t" in r.stdout


def test_private_symbols_are_refused_as_typed(main_cli: Cli, tmp_path: Path) -> None:
    """Defect 5: a digit is no tile a person types; the one line names it and
    how a tile of more letters is written."""
    r = main_cli("score", "--language", "english-dl", "4ere3tnhe")
    _one_line_error(r, "'4'", "english-dl", "[an]")
    words = _list(tmp_path, "nl.txt", DUTCH_WORDS)
    r = main_cli("score", "--language", "dutch", "--wordlist", words, "--size", "3x3", f"{IJ}sxxxxxxx")
    _one_line_error(r, f"'{IJ}'", "[ij]")
    ok = main_cli("score", "--language", "dutch", "--wordlist", words, "--size", "3x3", "[ij]sxxxxxxx")
    assert ok.returncode == 0 and "[ij]sxxxxxxx\t" in ok.stdout, ok.stderr
    r = main_cli("run", "--language", "dutch", "--wordlist", words, "--size", "3x3", "--fix", f"{IJ}........",
                "--evals", "10")
    _one_line_error(r, "--fix", f"'{IJ}'", "[ij]")


# -- 2, 3, 4: dice ----------------------------------------------------------------------------


def test_double_letter_cube_is_listed_by_its_faces(main_cli: Cli) -> None:
    """Defect 2: the cube is An Er He In Qu Th, not its symbols."""
    r = main_cli("dice", "--dice", "big-dl")
    assert r.returncode == 0, r.stderr
    assert "1\tAn Er He In Qu Th\n" in r.stdout, r.stdout


def test_dice_reads_what_run_prints(main_cli: Cli) -> None:
    """Defect 3: ``dice`` reads a big-dl board as ``run`` prints it, and
    takes ``--language`` (a board with an umlaut can be checked)."""
    board = "[er]irednatesgntspseiaerdllb"
    r = main_cli("dice", "--dice", "big-dl", board)
    assert r.returncode == 0, r.stderr
    assert f"{board}\tbig-dl\tyes\t" in r.stdout, r.stdout
    r = main_cli("dice", "--language", "english-dl", board)  # every set of 25 dice its tiles fit
    assert f"{board}\tbig-dl\tyes\t" in r.stdout and f"{board}\tbig\tno: " in r.stdout, r.stdout
    r = main_cli("dice", "--language", "german", "--dice", "big", "ä" + "e" * 24)
    # read as German (ä is a tile), and no die of the English set shows it
    _one_line_error(r, "cannot roll")
    assert ("\n" + "ä" + "e" * 24 + "\tbig\tno: ") in r.stdout, r.stdout


def test_a_dice_set_plays_its_own_tiles(run_cli: Cli, tmp_path: Path) -> None:
    """Defect 4: ``run --dice big-dl`` plays english-dl's tiles; with another
    language the error names the face as written and the language to give."""
    r = run_cli("run", "--dice", "big-dl", "--size", "5x5", "--evals", "50", "--seed", "1", "--json",
                "--progress", "none")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["language"] == "english-dl"
    words = _list(tmp_path, "nl.txt", DUTCH_WORDS)
    for language in (["--language", "dutch", "--wordlist", words], ["--language", "english"]):
        r = run_cli("run", "--dice", "big-dl", "--size", "5x5", "--evals", "50", *language)
        line = _one_line_error(r, "big-dl", "'[an]'", "--language english-dl")
        assert "'0'" not in line and "0123" not in line


# -- 6: what run writes ---------------------------------------------------------------------------


def test_run_writes_tiles_in_brackets(run_cli: Cli, tmp_path: Path) -> None:
    """Defect 6: the header, ``--json``, plain and jsonl progress and the run
    file name IJ as ``[ij]``; the run file resumes, and a file written before
    (private symbols) resumes too."""
    words = _list(tmp_path, "nl.txt", DUTCH_WORDS)
    common = ["--language", "dutch", "--wordlist", words, "--size", "3x3", "--fix", "[ij]........",
              "--evals", "300", "--seed", "3"]
    out = tmp_path / "run.jsonl"
    r = run_cli("run", *common, "--progress", "plain", "--progress-every", "0.001", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "constraints --fix [ij]........" in " ".join(r.stdout.replace("#", "").split()), r.stdout
    shown = re.findall(r"\] best \d+ (\S+) evals", r.stderr)
    assert shown and all(b.startswith("[ij]") for b in shown), r.stderr
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    boards = [rec["board"] for rec in records if rec["type"] == "improved"]
    boards += [b["board"] for rec in records if rec["type"] == "finish" for b in rec["best"]]
    assert boards and all(b.startswith("[ij]") and IJ not in b for b in boards), boards
    # and the annealer's checkpoint (what --resume continues from) as well
    states = [rec["record"]["state"] for rec in records if rec["type"] == "checkpoint"]
    assert states and all(s["best"][0].startswith("[ij]") for s in states), states
    assert all(b.startswith("[ij]") for s in states for b in [s.get("board") or "[ij]", *s["pool"]]), states
    # the finish record lists each board's tiles as run --json does
    finish = records[-1]
    assert all(b["tiles"][0] == "ij" and "".join(b["tiles"]) == b["board"].replace("[ij]", "ij")
               for b in finish["best"]), finish
    assert records[0]["settings"]["constraints"]["fix"] == "[ij]........"
    assert records[0]["settings"]["fingerprint"]["constraints"].startswith("--fix [ij]........")
    j = run_cli("run", *common, "--json", "--progress", "jsonl")
    result = json.loads(j.stdout)
    assert result["constraints"]["fix"] == "[ij]........" and result["language"] == "dutch"
    assert all(b["board"].startswith("[ij]") for b in result["best"]), result["best"]
    progress = [json.loads(line) for line in j.stderr.splitlines()]
    assert all(rec["board"].startswith("[ij]") for rec in progress if rec["type"] == "improved")
    # resumed: as written now, and as an older file wrote it (private symbols)
    old = tmp_path / "old.jsonl"
    old.write_text(out.read_text(encoding="utf-8").replace("[ij]", IJ), encoding="utf-8")
    for path in (out, old):
        again = run_cli("run", "--resume", str(path), "--evals", "100", "--progress", "none")
        assert again.returncode == 0, again.stderr
        assert "constraints --fix [ij]........" in " ".join(again.stdout.replace("#", "").split())
        assert "\n1\t[ij]" in again.stdout, again.stdout


#: made-up words whose best 2x2 english-dl boards hold [er] and [in] (25 points)
DL_WORDS = ["inerts", "insert", "inters", "sinter", "inert", "inter", "serin", "ers", "erst", "ins", "ser",
            "sin", "tin", "tins", "nest", "rent", "stern"]


@pytest.fixture(scope="module")
def dl_proof(run_cli: Cli, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A 2x2 english-dl proof's run file, and what the run printed."""
    folder = tmp_path_factory.mktemp("dl-proof")
    words = _list(folder, "dl.txt", DL_WORDS)
    out = folder / "proof.jsonl"
    r = run_cli("run", "--searcher", "bnb", "--language", "english-dl", "--wordlist", words, "--size", "2x2",
                "--min-score", "23", "--out", str(out), "--progress", "none")
    assert r.returncode == 0, r.stderr
    return out, r.stdout


def test_english_dl_run_file_and_verify_name_tiles_as_written(
        run_cli: Cli, tmp_path: Path, dl_proof: tuple[Path, str]) -> None:
    """Defect 6: an english-dl proof's run file holds ``[er]st[in]``, not
    ``1st3``, and verify's messages name a board so."""
    out, printed = dl_proof
    assert "[er]st[in]" in printed, printed
    text = out.read_text(encoding="utf-8")
    er, in_ = ENGLISH_DL.alphabet.read("[er]"), ENGLISH_DL.alphabet.read("[in]")
    assert '"[er]st[in]"' in text and f'"{er}st{in_}"' not in text
    # a board recorded with a wrong score: the message names it as written
    bad = [json.dumps({**rec, "score": rec["score"] + 1}) if rec["type"] == "improved" else json.dumps(rec)
           for rec in map(json.loads, text.splitlines())]
    wrong = tmp_path / "wrong.jsonl"
    wrong.write_text("\n".join(bad) + "\n", encoding="utf-8")
    v = run_cli("verify", "--recheck", "0", "--budget", "0.1", str(wrong))
    assert v.returncode != 0
    said = v.stdout + v.stderr
    named = re.search(r"board (\S+) is recorded as 26 points but scores 25", said)
    assert named and "[er]" in named[1] and "[in]" in named[1], said
    assert f"{er}st{in_}" not in said


def test_older_run_files_still_verify(run_cli: Cli, tmp_path: Path, dl_proof: tuple[Path, str]) -> None:
    """A run file written before (``"board": "1st3"``, buckets and classes'
    boards in symbols) verifies, gzipped, and is stated as written."""
    out, _ = dl_proof
    alphabet = ENGLISH_DL.alphabet
    text = out.read_text(encoding="utf-8")
    for tile in ("an", "er", "he", "in", "th"):
        text = text.replace(f"[{tile}]", alphabet.read(f"[{tile}]"))
    assert not re.search(r"\[(an|er|he|in|th)\]", text)
    old = tmp_path / "old.jsonl.gz"
    old.write_bytes(gzip.compress(text.encode("utf-8")))
    v = run_cli("verify", "--recheck", "0", "--budget", "0.1", str(old))
    assert v.returncode == 0, v.stdout + v.stderr
    proved = " ".join(v.stdout.split()).split("proved: ")[1].split(" (25)")[0]  # the best boards, named
    first = proved.split(",")[0]
    assert "[er]" in first and "[in]" in first and not any(ch.isdigit() for ch in first), v.stdout


def test_finish_record_tiles_are_checked_and_older_files_without_them_read(
        run_cli: Cli, tmp_path: Path, dl_proof: tuple[Path, str]) -> None:
    """A proof's finish record lists each best board's tiles (``["er", "s",
    "t", "in"]``); verify checks them, and a file written before it listed
    them verifies and reports as it did."""
    out, _ = dl_proof
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    finish = records[-1]
    assert finish["type"] == "finish" and finish["best"]
    alphabet = ENGLISH_DL.alphabet
    for best in finish["best"]:
        assert best["tiles"] == alphabet.cells(alphabet.read(best["board"])), best
    assert any("er" in b["tiles"] and "in" in b["tiles"] for b in finish["best"]), finish["best"]

    def written(name: str, best: list[dict[str, object]]) -> Path:
        path = tmp_path / name
        path.write_text("".join(json.dumps({**rec, "best": best} if rec["type"] == "finish" else rec) + "\n"
                                for rec in records), encoding="utf-8")
        return path

    old = written("old.jsonl", [{k: v for k, v in b.items() if k != "tiles"} for b in finish["best"]])
    v = run_cli("verify", "--recheck", "0", "--budget", "0.1", str(old))
    assert v.returncode == 0, v.stdout + v.stderr
    wrong = written("wrong.jsonl", [{**finish["best"][0], "tiles": ["e", "r", "s", "t"]}, *finish["best"][1:]])
    v = run_cli("verify", "--recheck", "0", "--budget", "0.1", str(wrong))
    assert v.returncode != 0 and "finish record lists the tiles ['e', 'r', 's', 't']" in v.stdout + v.stderr, (
        v.stdout + v.stderr)


# -- 7, 8: the live panel -------------------------------------------------------------------------


def _panel(language: str, board: str, size: str = "3x3") -> list[str]:
    from rich.console import Console

    from boggle_opt.boards import size_geometry
    from boggle_opt.cli.display import RichDisplay, panel_grid
    from boggle_opt.registry.loader import load_plugins
    from boggle_opt.searching.driver import Budget, RunState

    alphabet = load_plugins().languages.get(language).alphabet
    state = RunState("annealing", {}, Budget(seconds=60))
    state.stats = {"temperature": 1.5}
    state.best_board, state.best_score = alphabet.read(board), 12
    console = Console(width=80, record=True, color_system=None)
    display = RichDisplay("annealing · standard · 3x3", panel_grid(size_geometry(size), alphabet), console)
    display._state = state
    console.print(display._render())
    return console.export_text().rstrip("\n").splitlines()


def _board_rows(lines: list[str]) -> list[str]:
    """The panel's three board rows (the cells left of the figures)."""
    return [line.split("│")[1][:11].strip() for line in lines[1:4]]


def test_panel_draws_ij_and_in_as_their_faces() -> None:
    """Defect 7: IJ is drawn ``IJ`` (not ``0``), In ``In`` (not ``3``)."""
    rows = _board_rows(_panel("dutch", "[ij]tsei[ij]ne[ij]"))
    assert rows == ["IJ E  N", "T  I  E", "S  IJ IJ"], rows
    rows = _board_rows(_panel("english-dl", "[in]ate[th]rs[er]a"))
    assert rows == ["In E  S", "A  Th Er", "T  R  A"], rows


def test_run_draws_its_panel_so(run_cli: Cli, tmp_path: Path) -> None:
    """Defects 7 and 8 through ``run`` itself: the panel it draws (rich, to a
    pipe: its last frame) shows IJ and ß as their dice do."""
    dutch = _list(tmp_path, "nl.txt", DUTCH_WORDS)
    r = run_cli("run", "--language", "dutch", "--wordlist", dutch, "--size", "3x3", "--fix", "[ij]...[ij]...[ij]",
                "--evals", "100", "--seed", "1", "--progress", "rich")
    assert r.returncode == 0, r.stderr
    rows = [line.split("│")[1][:11].strip() for line in r.stderr.splitlines()[1:4]]
    assert rows[0].startswith("IJ ") and rows[1][3:5] == "IJ" and rows[2].endswith("IJ"), r.stderr
    german = _list(tmp_path, "de.txt", GERMAN_WORDS)
    r = run_cli("run", "--language", "german", "--wordlist", german, "--size", "3x3", "--fix", "ä..ß..ü..",
                "--evals", "100", "--seed", "1", "--progress", "rich")
    assert r.returncode == 0, r.stderr
    rows = [line.split("│")[1] for line in r.stderr.splitlines()[1:4]]
    assert rows[0].strip().startswith("Ä  ß  Ü") and "SS" not in r.stderr, r.stderr
    assert rows[0].index("best score") == rows[1].index("evaluations") == rows[2].index("elapsed"), rows


def test_panel_draws_sharp_s_in_its_row() -> None:
    """Defect 8: ß is drawn ``ß``, not ``SS``, and its row is as wide as any
    other: the figures beside the board stay in their column."""
    plain = _panel("german", "äeeeeeüee")
    sharp = _panel("german", "äeeßeeüee")
    assert _board_rows(sharp) == ["Ä  ß  Ü", "E  E  E", "E  E  E"], _board_rows(sharp)
    assert not any("SS" in line for line in sharp)
    for label in ("best score", "evaluations", "elapsed"):
        assert [line.find(label) for line in plain] == [line.find(label) for line in sharp], label


# -- 9: show --------------------------------------------------------------------------------------


def test_show_writes_a_word_in_its_own_letters(main_cli: Cli, tmp_path: Path) -> None:
    """Defect 9: ``straße`` is titled ``STRAßE`` (never ``STRASSE``), in the
    terminal and the SVG, and ``--word STRASSE`` finds it."""
    words = _list(tmp_path, "de.txt", GERMAN_WORDS)
    svg = tmp_path / "b.svg"
    r = main_cli("show", "--language", "german", "--wordlist", words, "streßaxxx", "--word", "straße",
                "--svg", str(svg))
    assert r.returncode == 0, r.stderr
    assert "STRAßE" in r.stdout and "STRASSE" not in r.stdout, r.stdout
    picture = svg.read_text(encoding="utf-8")
    assert "STRAßE" in picture and "STRASSE" not in picture
    for typed in ("STRASSE", "STRAßE", "Straße"):
        again = main_cli("show", "--language", "german", "--wordlist", words, "streßaxxx", "--word", typed)
        assert again.returncode == 0, again.stderr
        assert "STRAßE" in again.stdout and "3 points ─" in again.stdout, again.stdout


# -- 10: bound ------------------------------------------------------------------------------------


def test_bound_reads_and_prints_classes_as_written(main_cli: Cli, tmp_path: Path) -> None:
    """Defect 10: a class's sets are typed and printed with ``[ij]``; the
    private symbol is refused as any typed board's is."""
    words = _list(tmp_path, "nl.txt", DUTCH_WORDS)
    common = ["--language", "dutch", "--wordlist", words]
    r = main_cli("bound", *common, "[ij]aeiou lnrst [ij]aeiou lnrst", "--min-score", "1")
    assert r.returncode == 0, r.stderr
    assert "class\t[ij]aeiou lnrst [ij]aeiou lnrst\n" in r.stdout, r.stdout
    assert IJ not in r.stdout.split("class\t")[1].split("\n")[0]
    r = main_cli("bound", *common, f"{IJ}aeiou lnrst {IJ}aeiou lnrst")
    _one_line_error(r, f"'{IJ}'", "[ij]")


def test_bound_names_a_classs_tiles_as_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A class's ĳ is IJ, as on a board; what is wrong with a class names its
    tiles as people write them (``a-z [ij]``, never ``a-z 0``)."""
    from boggle_opt.cli import app

    words = _list(tmp_path, "nl.txt", DUTCH_WORDS)
    common = ["bound", "--language", "dutch", "--wordlist", words, "--min-score", "1"]
    assert app.main([*common, "ĳaeiou lnrst ĳaeiou lnrst"]) == 0
    assert "class\t[ij]aeiou lnrst [ij]aeiou lnrst\n" in capsys.readouterr().out
    for cls, said in (("ñaeiou lnrst aeiou lnrst", "character 'ñ' is not a tile of dutch (a-z [ij])"),
                      ("[ij]abcdefghijklmnopqrstuvwxyz a b c", "the set '[ij]abcdefghijklmnopqrstuvwxyz' has 27")):
        assert app.main([*common, cls]) != 0
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and said in err and f"{IJ}" not in err, err


# -- bnb's buckets, as typed ---------------------------------------------------------------------


def test_bnb_buckets_take_the_written_form_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``-o buckets`` (and ``-o corner-buckets``, and ``plan``'s) take
    ``[ij]``; its private symbol is refused in one line as ``--fix`` refuses
    it, and the messages about buckets write IJ as ``[ij]``. A run file
    written when ``0`` was taken still resumes."""
    from boggle_opt.cli import app

    def cli(*args: str) -> tuple[int, str, str]:
        code = app.main(list(args))
        out, err = capsys.readouterr()
        return code, out, err

    def one_line(code: int, err: str, *parts: str) -> str:
        assert code != 0 and err.count("\n") == 1 and "Traceback" not in err, err
        assert all(part in err for part in parts), err
        return err

    words = _list(tmp_path, "nl.txt", DUTCH_WORDS)
    common = ["--searcher", "bnb", "--size", "2x2", "--language", "dutch", "--wordlist", words,
              "--min-score", "3", "--progress", "none"]
    written, private = "[ij]aeiou bcdfgjmpqvwxz hklnrsty", f"{IJ}aeiou bcdfgjmpqvwxz hklnrsty"
    for option in ("buckets", "corner-buckets"):
        code, _, err = cli("run", *common, "-o", option, private)
        one_line(code, err, f"character {IJ!r} is not a tile of dutch (a-z [ij])", "as [ij]")
    code, _, err = cli("plan", "--size", "2x2", "--language", "dutch", "--wordlist", words, "--min-score", "3",
                       "-o", "buckets", private)
    one_line(code, err, f"character {IJ!r} is not a tile of dutch")
    code, _, err = cli("run", *common, "-o", "buckets", "[ij]aeiou bcdfgmpqvwxz hklnrsty")  # no j
    assert f" {IJ})" not in one_line(code, err, "'j' are in no bucket", "(a-z [ij])")
    out = tmp_path / "proof.jsonl"
    code, printed, err = cli("run", *common, "-o", "buckets", written, "--out", str(out))
    assert code == 0 and "IJ" in printed, printed + err
    old = tmp_path / "old.jsonl"
    old.write_text(out.read_text(encoding="utf-8").replace("[ij]", IJ), encoding="utf-8")
    assert f'"buckets": "{private}"' in old.read_text(encoding="utf-8")
    code, _, err = cli("run", "--resume", str(old), "--progress", "none")
    assert code == 0, err
