"""``--min-letters N`` (issue 78): every command that reads a word list takes
it, a run file records it, ``--resume`` keeps it, ``bnb`` proves and
``verify`` checks the claim it states, and every searcher plays it; and
``run --json`` gives each board's tiles, as ``score --json`` does."""

from __future__ import annotations

import itertools
import json
import string
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from boggle_opt import search
from boggle_opt.boards import size_geometry
from boggle_opt.cli import app as cli
from boggle_opt.cli.report import board_words
from boggle_opt.dictionary.dictionary import Dictionary
from boggle_opt.registry.registries import Registries
from boggle_opt.runs.proof_facts import Hole
from boggle_opt.runs.verify import verify_runs
from boggle_opt.searching.interface import Problem
from helpers import records, run_bnb, unwrapped

Cli = Callable[..., subprocess.CompletedProcess[str]]

#: made-up words: 2 letters, 3, 4 (anagrams of s-e-a-t, and ``aqua``, 4 letters on 3 cells), 5
WORDS = ["at", "ta", "tea", "eat", "ate", "sat", "teat", "seat", "east", "eats", "sate", "teas",
         "etas", "aqua", "state"]
COMMANDS = ("score", "show", "run", "bound", "plan")


@pytest.fixture()
def words(tmp_path: Path) -> Path:
    path = tmp_path / "words.txt"
    path.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    return path


def _start(path: Path) -> dict[str, object]:
    first = records(path)[0]
    assert first["type"] == "start"
    settings = first["settings"]
    assert isinstance(settings, dict)
    return settings


def test_score_with_min_letters_2_counts_two_letter_words(words: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    def score(*args: str) -> str:
        assert cli.main(["score", "--wordlist", str(words), *args]) == 0
        return capsys.readouterr().out

    plain, two = score("--words", "seat"), score("--min-letters", "2", "--words", "seat")
    found = {ln.split("\t")[0].strip() for ln in two.splitlines() if ln.startswith("  ")}
    assert {"at", "ta"} <= found and "at" not in plain.split()
    # 2 letters score as 3 do under the standard rule: 1 each
    assert two.splitlines()[2] == "seat\t12\t12", two
    assert plain.splitlines()[2] == "seat\t10\t10", plain
    assert "rule: standard with words of 2+ letters" in two.splitlines()[0]
    as_json = json.loads(score("--min-letters", "2", "--json", "seat"))
    assert (as_json["min_letters"], as_json["score"]) == (2, 12)
    # a higher minimum than the rule's: 4 letters only
    assert score("--min-letters", "4", "seat").splitlines()[2] == "seat\t6\t6"


def test_a_minimum_below_1_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    for command, value in itertools.product(COMMANDS, ("0", "-2", "two")):
        with pytest.raises(SystemExit) as exited:  # argparse's exit, before any work
            cli.main([command, "--min-letters", value, *(["seat"] if command in ("score", "show") else [])])
        assert exited.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith(f"boggle-opt: error: argument --min-letters: "), err


def brute_force(dictionary: Dictionary, size: str, min_score: int) -> dict[str, int]:
    """Every board of a-z of the size, scored: the canonical ones at or above ``min_score``."""
    geometry = size_geometry(size)
    scorer = dictionary.scorer(geometry)
    out: dict[str, int] = {}
    for letters in itertools.product(string.ascii_lowercase, repeat=geometry.n):
        score = scorer.score("".join(letters))
        if score >= min_score:
            out[geometry.canonical("".join(letters))] = score
    return out


def test_a_proof_at_min_letters_4_lists_brute_forces_boards_and_verifies(
        words: Path, tmp_path: Path, registries: Registries, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "proof.jsonl"
    assert cli.main(["run", "--searcher", "bnb", "--size", "2x2", "--wordlist", str(words),
                     "--min-letters", "4", "--min-score", "1", "--seed", "1", "--top", "100",
                     "--json", "--progress", "none", "--out", str(out)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["min_letters"] == 4 and result["proof"]["complete"] is True
    assert "under the standard rule with words of 4+ letters" in result["proof"]["statement"]
    d = Dictionary("words", WORDS, registries.rules.get("standard"), min_letters=4)
    want = brute_force(d, "2x2", 1)
    # aqua (3 cells) with any fourth letter, and the anagrams of seat
    assert len(want) > 26 and want["aest"] == 6
    assert {b["board"]: b["score"] for b in result["best"]} == want
    assert _start(out)["min_letters"] == 4
    # verify checks the claim the file states, and says it
    assert cli.main(["verify", str(out), "--seed", "1", "--budget", "1"]) == 0  # a small budget: the statement is the same
    assert "standard rule with words of 4+ letters" in " ".join(capsys.readouterr().out.split())
    # the minimum edited afterwards (or dropped: the rule's own, 3) is not what was proved:
    # verify rebuilds the words at the minimum stated, which the fingerprint refuses
    text = out.read_text(encoding="utf-8")
    forged = tmp_path / "edited.jsonl"
    for edited in (text.replace('"min_letters": 4', '"min_letters": 3', 1),
                   text.replace(', "min_letters": 4', "", 1), text.replace('"min_letters": 4', '"min_letters": 5', 1)):
        assert edited != text
        forged.write_text(edited, encoding="utf-8")
        with pytest.raises(Hole, match="fingerprint: the word list's content does not match"):
            verify_runs([str(forged)], registries, recheck=0, seed=1)
    assert cli.main(["verify", str(forged), "--budget", "1"]) == 3
    assert "(words of 5+ letters)" in capsys.readouterr().out
    # a minimum that is no whole number >= 1: a hole too
    forged.write_text(text.replace('"min_letters": 4', '"min_letters": 0', 1), encoding="utf-8")
    with pytest.raises(Hole, match="'min_letters' is not a whole number >= 1"):
        verify_runs([str(forged)], registries, recheck=0, seed=1)


@pytest.mark.parametrize(("min_letters", "size", "min_score"), [(1, "2x2", 3), (1, "1x3", 2), (2, "1x3", 2)])
def test_bnb_finds_brute_forces_boards_with_words_of_one_cell(registries: Registries, min_letters: int,
                                                              size: str, min_score: int) -> None:
    """Words of 1 and 2 letters (a, qu: one cell) through the kernel, as brute force counts them."""
    made_up = ["a", "i", "qu", *WORDS, "quat"]
    d = Dictionary("made-up", made_up, registries.rules.get("standard"), min_letters=min_letters)
    want = brute_force(d, size, min_score)
    assert want
    boards, _, _ = run_bnb(Problem(d, size_geometry(size)), min_score=min_score)
    assert boards == want


def test_resume_keeps_the_minimum_and_refuses_another(words: Path, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run.jsonl"
    search = ["--size", "2x2", "--wordlist", str(words), "--seed", "1", "--progress", "none"]
    assert cli.main(["run", *search, "--min-letters", "4", "--evals", "300", "--out", str(out)]) == 0
    assert "; rule standard with words of 4+ letters; " in unwrapped(capsys.readouterr().out)
    for value in ("3", "4"):  # a resumed run takes its settings from its file
        assert cli.main(["run", "--resume", str(out), "--min-letters", value, "--evals", "300"]) == 1
        err = capsys.readouterr().err
        assert err == "boggle-opt: error: --resume takes the run's settings from its file; drop --min-letters\n"
    assert cli.main(["run", "--resume", str(out), "--evals", "300", "--progress", "none", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["min_letters"] == 4 and result["run"]["segments"] == 2
    assert all(b["score"] <= 6 for b in result["best"])  # aest's 6, without its 3-letter words' 4
    starts = [r for r in records(out) if r["type"] == "start"]
    assert [s["settings"].get("min_letters") for s in starts] == [4, 4]
    # a run file whose minimum was changed since: its dictionary differs, refused by the fingerprint
    edited = tmp_path / "edited.jsonl"
    edited.write_text(out.read_text(encoding="utf-8").replace('"min_letters": 4', '"min_letters": 3'),
                      encoding="utf-8")
    assert cli.main(["run", "--resume", str(edited), "--evals", "300"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--resume refused: the word list's content changed" in err, err


def test_plan_gives_every_shard_the_minimum(words: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["plan", "--size", "2x2", "--wordlist", str(words), "--min-letters", "4",
                     "--min-score", "1", "--sample", "1", "--shards", "2"]) == 0
    out = capsys.readouterr().out
    assert "MIN_LETTERS=4 " in out and "--min-letters 4 --min-score 1" in out, out


def test_annealing_plays_the_minimum(registries: Registries, words: Path) -> None:
    """Every board it reports scores what the min-4 dictionary gives it, which
    is not what the rule's own minimum gives."""
    found = search("annealing", size="3x3", wordlist=str(words), min_letters=4, evals=3000, seed=1,
                   registries=registries)
    assert found.state.settings["min_letters"] == 4
    rule = registries.rules.get("standard")
    four = Dictionary("words", WORDS, rule, min_letters=4).scorer(size_geometry("3x3"))
    assert found.boards and all(four.score(b) == s for b, s in found.boards)
    plain = Dictionary("words", WORDS, rule).scorer(size_geometry("3x3"))
    assert all(plain.score(b) > s for b, s in found.boards[:5])


def test_worker_copies_play_the_minimum(run_cli: Cli, words: Path) -> None:
    """--jobs 2: each copy rebuilds the dictionary in its own process, at the run's minimum."""
    r = run_cli("run", "--size", "2x2", "--wordlist", str(words), "--fix", "aes.", "--min-letters", "4",
                "--jobs", "2", "--evals", "400", "--seed", "1", "--json", "--progress", "none")
    assert r.returncode == 0, r.stderr
    best = json.loads(r.stdout)["best"]
    # 4-letter words only: aest scores 6 (its 3-letter words would add 4)
    assert best[0] == {"board": "aest", "score": 6, "words": 6, "tiles": ["a", "e", "s", "t"]}


def test_report_scores_a_run_at_its_minimum(registries: Registries, words: Path) -> None:
    settings = {"wordlist": str(words), "rule": "standard", "size": "2x2", "min_letters": 2}
    found, why = board_words(settings, registries)
    assert found is not None, why
    assert {w.word for w in found("seat")} >= {"at", "ta"}
    found, _ = board_words({**settings, "min_letters": None}, registries)
    assert found is not None and "at" not in {w.word for w in found("seat")}


def test_run_json_lists_each_boards_tiles(words: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """As score --json gives them: each cell's tile as the letters it spells (q: qu)."""
    assert cli.main(["run", "--size", "2x2", "--wordlist", str(words), "--fix", "q...", "--evals", "300",
                     "--seed", "1", "--top", "3", "--json", "--progress", "none"]) == 0
    best = json.loads(capsys.readouterr().out)["best"]
    assert best and all(len(b["tiles"]) == 4 and b["tiles"][0] == "qu" for b in best)
    assert all("".join(b["tiles"]) == b["board"].replace("q", "qu") for b in best)
    assert cli.main(["score", "--wordlist", str(words), "--json", best[0]["board"]]) == 0
    assert json.loads(capsys.readouterr().out)["tiles"] == best[0]["tiles"]


def test_show_names_the_rule_and_minimum_its_figures_are_counted_under(
        words: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A reader of show's figures (and its picture's) can tell what they count,
    as run's header says it: the rule, with the minimum where one was given."""
    svg = tmp_path / "seat.svg"
    assert cli.main(["show", "--wordlist", str(words), "--rule", "words", "--min-letters", "2",
                     "--top", "0", "--svg", str(svg), "seat"]) == 0
    out = capsys.readouterr().out
    assert "rule words with words of 2+ letters" in out, out
    assert "rule words with words of 2+ letters" in svg.read_text(encoding="utf-8")
    assert cli.main(["show", "--wordlist", str(words), "--top", "0", "seat"]) == 0
    plain = capsys.readouterr().out
    assert "rule standard" in plain and "letters" not in plain, plain
