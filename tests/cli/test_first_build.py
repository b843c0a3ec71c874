"""A list's first build is said on a terminal (issue 78: Polish's first
``score`` sat silent for about a minute while its dictionary was built), and
only there and only then: a pipe or a log reads what it did before, and the
next command, which reads the cache, says nothing of it."""

from __future__ import annotations

import subprocess
from pathlib import Path

from helpers import exe, on_a_terminal

#: as the header names the list (a file: its path)
LINE = "boggle-opt: building the dictionary of {}, 4 lines (the first time; the cache keeps it)"


def terminal_text(args: list[str], env: dict[str, str], cwd: Path) -> str:
    """What a command that succeeds writes to a terminal."""
    status, text = on_a_terminal(args, env, cwd)
    assert status == 0, text
    return text.replace("\r\n", "\n")


def test_the_first_build_of_a_list_is_said_on_a_terminal_once(cli_env: dict[str, str], tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("cat\ncats\nact\ntack\n", encoding="ascii")
    env = {**cli_env, "BOGGLE_OPT_CACHE": str(tmp_path / "cache")}
    env.pop("BOGGLE_OPT_NO_CACHE", None)
    args = ["score", "--wordlist", str(words), "--size", "2x2", "cats"]
    first = terminal_text(args, env, tmp_path)
    line = LINE.format(words)
    assert line in first.splitlines(), first
    assert first.index(line) < first.index("# board"), "said before the wait, not after"
    again = terminal_text(args, env, tmp_path)
    assert "building the dictionary" not in again and "cats\t3\t3" in again, again
    # a pipe: nothing of it, on a cold cache too
    piped = subprocess.run([exe(), *args], capture_output=True, text=True, cwd=tmp_path, timeout=300,
                           env={**env, "BOGGLE_OPT_CACHE": str(tmp_path / "cold")})
    assert piped.returncode == 0, piped.stderr
    assert "building the dictionary" not in piped.stderr + piped.stdout
