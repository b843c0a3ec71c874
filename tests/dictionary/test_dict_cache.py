"""The dictionary cache: used when sound, rebuilt when anything about it is off."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from boggle_opt import _version
from boggle_opt.dictionary import cache as dict_cache, dictionary
from boggle_opt.registry import dictionaries
from boggle_opt.boards import make_geometry
from boggle_opt.registry.dictionaries import load_dictionary

WORDS = "cat\nact\ntac\ncats\nscat\nquit\nquits\n"
BOARDS = ["catsquit", "scatquit", "tacsquit"]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(dict_cache.ENV_CACHE, str(folder))
    return folder


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Names of the word lists actually built (not read from the cache)."""
    done: list[str] = []
    real = dictionary.build

    def counting(name, lines, rule, *language):  # type: ignore[no-untyped-def]
        done.append(name)
        return real(name, lines, rule, *language)

    # built by load_dictionary (cache used) or by Dictionary itself (cache off)
    monkeypatch.setattr(dictionaries, "build", counting)
    monkeypatch.setattr(dictionary, "build", counting)
    return done


def scores(d: dictionary.Dictionary) -> list[tuple[int, int]]:
    scorer = d.scorer(make_geometry(2, 4))
    return [scorer.score_count(b) for b in BOARDS]


def words_file(tmp_path: Path, text: str = WORDS) -> str:
    path = tmp_path / "words.txt"
    path.write_text(text)
    return str(path)


def the_file(cache: Path) -> Path:
    (path,) = cache.glob("dictionary-*.bin")
    return path


def test_second_load_reads_the_cache(tmp_path, cache, builds, registries):
    wl = words_file(tmp_path)
    first = load_dictionary(wl, "standard", registries)
    second = load_dictionary(wl, "standard", registries)
    assert builds == [wl]
    assert the_file(cache).stat().st_size > 0
    assert scores(second) == scores(first)
    assert (second.keys, second.points, second.n_words) == (first.keys, first.points, 7)
    assert list(second.trie.nodes) == list(first.trie.nodes)
    assert not list(cache.glob("*.tmp")), "no temporary file is left behind"


def test_changed_word_list_is_rebuilt(tmp_path, cache, builds, registries):
    wl = words_file(tmp_path)
    before = load_dictionary(wl, "standard", registries)
    words_file(tmp_path, WORDS + "tacs\n")
    after = load_dictionary(wl, "standard", registries)
    assert builds == [wl, wl]
    assert after.n_words == before.n_words + 1
    assert len(list(cache.glob("dictionary-*.bin"))) == 2


def test_rule_and_version_are_part_of_the_key(tmp_path, cache, builds, registries, monkeypatch):
    wl = words_file(tmp_path)
    load_dictionary(wl, "standard", registries)
    pow2 = load_dictionary(wl, "pow2", registries)
    monkeypatch.setattr(_version, "__version__", "99.0")
    load_dictionary(wl, "standard", registries)
    assert builds == [wl, wl, wl]
    assert scores(pow2)[0] != scores(load_dictionary(wl, "standard", registries))[0]


@pytest.mark.parametrize(
    "damage",
    ["truncated", "one byte flipped", "padded", "foreign", "empty", "other key"],
)
def test_damaged_file_is_rebuilt_not_trusted(tmp_path, cache, builds, registries, damage):
    wl = words_file(tmp_path)
    good = scores(load_dictionary(wl, "standard", registries))
    path = the_file(cache)
    data = path.read_bytes()
    if damage == "truncated":
        path.write_bytes(data[: len(data) - 9])
    elif damage == "one byte flipped":
        i = len(data) - 20
        path.write_bytes(data[:i] + bytes([data[i] ^ 0x04]) + data[i + 1 :])
    elif damage == "padded":
        path.write_bytes(data + b"\0" * 8)
    elif damage == "foreign":
        path.write_bytes(b"PK\x03\x04 not a dictionary at all" * 100)
    elif damage == "empty":
        path.write_bytes(b"")
    else:  # a sound file of another word list under this one's name
        words_file(tmp_path, "dog\ngod\n")
        load_dictionary(wl, "standard", registries)
        other = [p for p in cache.glob("dictionary-*.bin") if p != path][0]
        path.write_bytes(other.read_bytes())
        words_file(tmp_path)
        builds.clear()
    d = load_dictionary(wl, "standard", registries)
    assert builds[-1] == wl, "the damaged file was rebuilt"
    assert scores(d) == good
    assert dict_cache.decode(path.read_bytes(), dict_cache.cache_key(
        Path(wl).read_text().splitlines(), "standard", "boggle-opt " + _version.__version__
    )) is not None, "and rewritten whole"


def test_no_cache_writes_nothing(tmp_path, cache, builds, registries, monkeypatch):
    wl = words_file(tmp_path)
    load_dictionary(wl, "standard", registries, cache=False)
    monkeypatch.setenv(dictionary.ENV_NO_CACHE, "1")
    load_dictionary(wl, "standard", registries)
    assert builds == [wl, wl]
    assert not cache.exists()


def test_unwritable_cache_still_scores(tmp_path, registries, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(dict_cache.ENV_CACHE, str(blocker / "cache"))
    wl = words_file(tmp_path)
    d = load_dictionary(wl, "standard", registries)
    assert scores(d) == scores(load_dictionary(wl, "standard", registries, cache=False))
    assert not (blocker / "cache").exists()


def test_cli_uses_the_cache_folder_and_no_cache(run_cli, cli_env, tmp_path):
    wl = words_file(tmp_path)
    folder = tmp_path / "cli-cache"
    env = dict(cli_env, BOGGLE_OPT_CACHE=str(folder))
    off = run_cli("--no-cache", "score", "catsquit", "--size", "2x4", "--wordlist", wl, env=env)
    assert off.returncode == 0, off.stderr
    assert not folder.exists()
    on = [run_cli("score", "catsquit", "--size", "2x4", "--wordlist", wl, env=env)
          for _ in range(2)]
    assert [r.stdout for r in on] == [off.stdout, off.stdout]
    assert len(list(folder.glob("dictionary-*.bin"))) == 1


def test_embedded_list_round_trip(registries):
    """The embedded list's real-sized dictionary survives encode and decode."""
    built = dictionary.build("kjxqz", registries.wordlists.get("default").load(),
                             registries.rules.get("standard"))
    again = dict_cache.decode(dict_cache.encode("k", built), "k")
    assert again is not None
    assert list(again.trie.nodes) == list(built.trie.nodes)
    assert list(again.trie.points) == list(built.trie.points)
    assert (again.keys, again.points) == (built.keys, built.points)


def test_folder_is_bounded_least_recently_used_first(tmp_path, cache, builds, registries, monkeypatch):
    """Past ``$BOGGLE_OPT_CACHE_MB`` the least recently used files go (a
    Polish dictionary is 194 MB; one sitting grew the folder to 478 MB)."""
    lists = []
    for i in range(3):  # three lists, three files
        (tmp_path / str(i)).mkdir()
        lists.append(words_file(tmp_path / str(i), WORDS + f"extra{'x' * i}\n"))
    load_dictionary(lists[0], "standard", registries)
    load_dictionary(lists[1], "standard", registries)
    first, second = sorted(cache.glob("dictionary-*.bin"), key=lambda p: p.stat().st_mtime)
    size = first.stat().st_size
    # the first is read again (used now) and the second made older: it is the least recently used
    os.utime(second, (1_000_000, 1_000_000))
    load_dictionary(lists[0], "standard", registries)
    assert first.stat().st_mtime > second.stat().st_mtime
    monkeypatch.setenv(dict_cache.ENV_CACHE_MB, "0")  # room for none but the file just written
    assert dict_cache.cache_limit() == 0
    load_dictionary(lists[2], "standard", registries)
    assert len(list(cache.glob("dictionary-*.bin"))) == 1 and not first.exists() and not second.exists()
    assert size < 2**20
    # a bound that fits them all removes nothing
    kept = the_file(cache)
    assert dict_cache.evict(cache, kept, 2**20) == []


def test_evict_removes_oldest_until_it_fits(tmp_path):
    folder = tmp_path / "c"
    folder.mkdir()
    for i, name in enumerate(("a", "b", "c")):
        path = folder / f"dictionary-{name}.bin"
        path.write_bytes(b"x" * 100)
        os.utime(path, (1_000 + i, 1_000 + i))
    removed = dict_cache.evict(folder, folder / "dictionary-c.bin", 150)
    assert [p.name for p in removed] == ["dictionary-a.bin", "dictionary-b.bin"]
    assert [p.name for p in folder.iterdir()] == ["dictionary-c.bin"]


def test_bad_cache_bound_is_one_line(run_cli, cli_env, tmp_path):
    r = run_cli("score", "catsquit", "--wordlist", words_file(tmp_path),
                env={**cli_env, dict_cache.ENV_CACHE_MB: "lots", dict_cache.ENV_CACHE: str(tmp_path / "c")})
    assert r.returncode == 1 and r.stderr.strip().endswith("BOGGLE_OPT_CACHE_MB must be a whole number of "
                                                           "megabytes, got 'lots'"), r.stderr
