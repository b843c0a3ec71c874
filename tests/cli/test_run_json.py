"""``boggle-opt run`` without ``--searcher`` anneals (a resumed run keeps its
own searcher), and ``run --json`` prints the results as one JSON object for
a program (issue 43, item 9), through the real command line."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from helpers import SMALL, records

Cli = Callable[..., subprocess.CompletedProcess[str]]

#: a small proof: the 2x2 boards on the embedded list, in about a second
PROOF_2X2 = ["run", "--searcher", "bnb", "--size", "2x2", "--min-score", "5", "--seed", "1"]
#: a short search of 3x3 boards
SEARCH_3X3 = ["--size", "3x3", "--evals", "2000", "--seed", "1"]


def one_object(result: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    """stdout as the one JSON object it must be, alone on one line."""
    lines = result.stdout.splitlines()
    assert len(lines) == 1, result.stdout
    value = json.loads(lines[0])
    assert isinstance(value, dict)
    return value


# -- the default searcher -------------------------------------------------------


def test_run_without_a_searcher_anneals(run_cli: Cli) -> None:
    r = run_cli("run", *SEARCH_3X3, "--progress", "none")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("# searcher annealing ("), r.stdout
    assert "# rank\tboard\tscore\twords" in r.stdout
    # the same run named: the same boards
    named = run_cli("run", "--searcher", "annealing", *SEARCH_3X3, "--progress", "none")
    assert named.returncode == 0, named.stderr
    assert [ln for ln in named.stdout.splitlines() if ln[:1].isdigit()] == \
        [ln for ln in r.stdout.splitlines() if ln[:1].isdigit()]


def test_run_help_names_the_default_searcher(main_cli: Cli) -> None:
    r = main_cli("run", "--help")
    assert r.returncode == 0, r.stderr
    assert "default: annealing" in " ".join(r.stdout.split())


def test_a_resumed_run_keeps_its_own_searcher(run_cli: Cli, tmp_path: Path) -> None:
    """The default is for a new run: a resumed one takes the searcher its
    file records, whatever the default."""
    out = tmp_path / "climb.jsonl"
    first = run_cli("run", *SMALL, "--evals", "2000", "--out", str(out), "--progress", "none")
    assert first.returncode == 0, first.stderr
    again = run_cli("run", "--resume", str(out), "--evals", "2000", "--progress", "none", "--json")
    assert again.returncode == 0, again.stderr
    result = one_object(again)
    assert result["searcher"] == "hillclimb" and result["options"]["pool-size"] == 20
    assert result["size"] == "3x3" and result["seed"] == 1
    assert result["run"]["segments"] == 2
    assert result["run"]["evaluations"] > result["evaluations"] >= 2000
    starts = [rec for rec in records(out) if rec["type"] == "start"]
    assert [rec["searcher"] for rec in starts] == ["hillclimb", "hillclimb"]


# -- run --json -------------------------------------------------------------------


def test_json_results_of_a_search(run_cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    r = run_cli("run", *SMALL, "--evals", "20000", "--top", "3", "--json", "--progress", "plain",
                "--out", str(out))
    assert r.returncode == 0, r.stderr
    result = one_object(r)
    assert result["searcher"] == "hillclimb" and result["options"]["pool-size"] == 20
    assert (result["rule"], result["size"], result["seed"], result["jobs"]) == ("standard", "3x3", 1, 1)
    assert result["min_letters"] == 3  # the rule's own
    assert result["wordlist"] == {"name": "embedded", "words": 188208}  # as score --json has it
    assert result["language"] == "english"  # as score --json has it, English too
    assert result["constraints"] == {} and result["notes"] == []
    assert result["stop_reason"] == "used 20,000 evaluations"
    assert result["stopped"].startswith("budget of 20,000 evaluations reached")
    assert result["evaluations"] >= 20000 and result["seconds"] > 0
    assert result["run"] == {"segments": 1, "evaluations": result["evaluations"], "seconds": result["seconds"]}
    assert result["boards_canonical"] is True and result["proof"] is None
    best = result["best"]
    assert len(best) == 3 and result["boards_found"] > 3  # --top cuts the list
    assert [b["score"] for b in best] == sorted((b["score"] for b in best), reverse=True)
    # the same boards as the run file's finish record, and as the text results of the same run
    finish = records(out)[-1]
    assert finish["type"] == "finish" and finish["best"][:3] == best  # each with its tiles, as --json
    text = run_cli("run", *SMALL, "--evals", "20000", "--top", "3", "--progress", "none")
    rows = [ln.split("\t") for ln in text.stdout.splitlines() if ln[:1].isdigit()]
    assert [[b["board"], str(b["score"]), str(b["words"])] for b in best] == [row[1:] for row in rows]
    # each score is the board's, as `score` gives it
    scored = json.loads(run_cli("score", "--json", best[0]["board"]).stdout)
    assert (scored["score"], scored["words"]) == (best[0]["score"], best[0]["words"])
    # progress on stderr as without --json; the run file said once, as without
    assert r.stderr.splitlines()[0].startswith("[")
    assert r.stderr.splitlines()[-1] == f"wrote {out}"


def test_json_results_of_a_proof(run_cli: Cli) -> None:
    r = run_cli(*PROOF_2X2, "--top", "2", "--json", "--progress", "none")
    assert r.returncode == 0, r.stderr
    result = one_object(r)
    assert result["searcher"] == "bnb" and result["size"] == "2x2"
    assert result["stop_reason"] == "searcher finished"
    proof = result["proof"]
    assert proof["complete"] is True
    assert proof["classes_done"] == proof["classes_total"] > 0 and proof["failed"] == 0
    assert proof["min_score"] == 5 and proof["min_score_from"] == "given"
    assert proof["boards"] == result["boards_found"] > 0
    assert proof["statement"].startswith("proved: ") and proof["resume_command"] is None
    assert len(result["best"]) == 2
    assert (proof["best_board"], proof["best_score"]) == (result["best"][0]["board"], result["best"][0]["score"])
    # the statement is the one the text results print
    text = run_cli(*PROOF_2X2, "--top", "2", "--progress", "none")
    assert text.returncode == 0, text.stderr
    assert proof["statement"] in " ".join(text.stdout.split())


def test_json_results_of_an_unfinished_proof(run_cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "p.jsonl"
    r = run_cli(*PROOF_2X2, "--evals", "1", "--json", "--progress", "none", "--out", str(out))
    assert r.returncode == 3, r.stderr  # exit status as without --json
    result = one_object(r)  # no "# to finish the proof" line: it is in the object
    proof = result["proof"]
    assert proof["complete"] is False and proof["classes_done"] < proof["classes_total"]
    assert proof["statement"].startswith("not proved: ")
    assert proof["resume_command"] == f"boggle-opt run --resume {out}"
    finish = records(out)[-1]
    assert {k: v for k, v in proof.items() if k != "resume_command"} == finish["proof"]
    # the command it gives finishes the proof
    done = run_cli(*proof["resume_command"].split()[1:], "--json", "--progress", "none")
    assert done.returncode == 0, done.stderr
    assert one_object(done)["proof"]["complete"] is True
