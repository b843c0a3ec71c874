"""What verify knows of a proof before it reads a class record: its facts
recomputed from the run's settings (word list re-read, rule, size, buckets,
the class space's numbering), and the two ways verify fails (``Hole``: not a
complete, consistent proof; ``VerifyError``: not checkable at all).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (boggle_opt.lazy)
    from ..lazy import numpy as np

from ..core.errors import BoggleOptError
from ..core.geometry import Geometry
from ..dictionary.dictionary import Dictionary
from ..registry.dictionaries import load_dictionary
from ..registry.registries import Registries
from ..searching.options import make_options
from .fingerprints import FIELDS, dictionary_fields, kernel_version, recorded_options
from .records import check_registered
from .written import written_label

#: at most this many bucket assignments are tracked (two bytes each)
MAX_ASSIGNMENTS = 1 << 31


class Hole(Exception):
    """What makes a run file not a complete, consistent proof: one line."""


class VerifyError(BoggleOptError):
    """A run file that verify cannot check at all (unreadable, not a bnb proof)."""


@dataclass
class Split:
    """The pieces of one class: part key -> where its record is, and its splits."""

    done: dict[str, str] = field(default_factory=dict)
    splits: dict[str, tuple[list[str], str]] = field(default_factory=dict)


class ProofFacts:
    """The run's facts, recomputed from its settings (not from its summary)."""

    def __init__(self, settings: Mapping[str, Any], registries: Registries, wordlist: str | None,
                 path: str) -> None:
        from ..boards import size_geometry

        if settings.get("searcher") != "bnb":
            raise VerifyError(
                f"verify checks branch-and-bound proofs; this run file is of searcher "
                f"{settings.get('searcher')!r}"
            )
        # a plugin's rule or list: say which is missing, and how to load it
        check_registered(settings, registries, path, ("rule",) if wordlist else ("rule", "wordlist"))
        recorded = settings.get("fingerprint")
        if not isinstance(recorded, dict):
            raise Hole("the run file records no fingerprint (written by an older boggle-opt)")
        self.fingerprint: dict[str, Any] = recorded
        searcher: Any = registries.searchers.get("bnb")
        options = settings.get("options") or {}
        if not isinstance(options, dict):
            raise Hole("settings: 'options' is not an object")
        # typed as recorded; buckets an older run left to since-changed defaults, from its fingerprint
        opts = make_options("bnb", searcher.Options, recorded_options(searcher, options, recorded))
        # the registered bnb (its buckets and switch settings), typed loosely:
        # the package core does not import its plugins
        self.bnb = searcher(opts)
        self.option_min_score: int | None = opts.min_score
        #: the MB of worker memory the kernel re-solves records for (the run's own; verify may set another)
        self.worker_memory: float = float(opts.worker_memory)
        try:
            self.geometry: Geometry = size_geometry(str(settings.get("size")))
        except BoggleOptError as exc:
            raise Hole(f"settings: {exc}") from None
        self.rule = str(settings.get("rule") or "standard")
        self.wordlist = wordlist or str(settings.get("wordlist") or "default")
        # a language other than the list's own (--language) is a setting, as the
        # rule is: the dictionary's fingerprint below checks what it gives
        language = settings.get("language")
        # so is a minimum word length (--min-letters): the proof's claim is for
        # the words it names, and the word list's fingerprint checks them
        letters = settings.get("min_letters")
        if letters is not None and (isinstance(letters, bool) or not isinstance(letters, int) or letters < 1):
            raise Hole(f"settings: 'min_letters' is not a whole number >= 1 ({str(letters)[:40]!r})")
        self.min_letters: int | None = letters
        self.dictionary: Dictionary = load_dictionary(
            self.wordlist, self.rule, registries, cache=False,
            language=str(language) if language else None, min_letters=letters)
        self.scorer = self.dictionary.scorer(self.geometry)
        # the run's language decides the tiles its buckets, classes and parts are written in
        alphabet = self.dictionary.alphabet
        self.symbols: str = alphabet.symbols
        try:
            self.label, self.buckets = self.bnb.buckets(self.geometry, alphabet)
        except BoggleOptError as exc:
            raise Hole(f"settings: {exc}") from None
        self.counts = [len(b) for b in self.buckets]
        computed = {**dictionary_fields(self.dictionary), "size": self.geometry.size, "buckets": self.label}
        for key, value in computed.items():
            then = recorded.get(key)
            if key == "buckets":  # either written form ([ij]aeiou, or an older file's private symbols)
                then, value = written_label(then, alphabet), written_label(value, alphabet)
            if then != value:
                what = FIELDS.get(key, key)
                raise Hole(
                    f"fingerprint: {what} does not match ({key}: {then!r} recorded, "
                    f"{value!r} recomputed from {self._source(key)})"
                )
        self.min_from = "the min-score option"
        if self.option_min_score is not None and recorded.get("min_score") != str(self.option_min_score):
            raise Hole(
                f"fingerprint: the min score does not match (min_score: {recorded.get('min_score')!r} "
                f"recorded, {str(self.option_min_score)!r} in the settings' options)"
            )
        kernel = kernel_version()
        self.kernel_note = "" if recorded.get("kernel") == kernel else (
            f"the run's kernel version {recorded.get('kernel')!r} is not this install's {kernel!r}"
        )
        n = self.geometry.n
        self.weights = [1] * n
        for i in range(n - 2, -1, -1):
            self.weights[i] = self.weights[i + 1] * self.counts[i + 1]
        self.total = self.weights[0] * self.counts[0]
        if self.total > MAX_ASSIGNMENTS:
            raise VerifyError(f"{self.geometry.size} with these buckets has {self.total:,} assignments; too many to verify")

    def _source(self, key: str) -> str:
        return {
            "wordlist": f"the word list {self.wordlist!r} re-read"
                        f"{'' if self.min_letters is None else f' (words of {self.min_letters}+ letters)'}",
            "rule": f"the rule {self.rule!r}",
            "size": "the settings' size",
            "buckets": "the settings' options",
        }[key]

    def class_number(self, name: Any, where: str) -> int:
        """The assignment number of a class name (``"0120..."``), checked."""
        n = self.geometry.n
        if not isinstance(name, str) or len(name) != n:
            raise Hole(f"{where}: class name {str(name)[:40]!r} is not {n} bucket numbers")
        number = 0
        for cell, ch in enumerate(name):
            try:
                digit = int(ch, 36)
            except ValueError:
                raise Hole(f"{where}: class name {name!r} is not {n} bucket numbers") from None
            if digit >= self.counts[cell]:
                raise Hole(f"{where}: class {name!r} has bucket {digit} in cell {cell}, which has {self.counts[cell]}")
            number += digit * self.weights[cell]
        return number

    def letters(self, name: str, part: str, where: str) -> list[str]:
        """Each cell's letters in the class ``name`` narrowed by ``part`` (``"4a.1e"``)."""
        sets = [self.buckets[cell][int(ch, 36)] for cell, ch in enumerate(name)]
        for cell, letter in self.parse_part(part, where):
            if letter not in sets[cell]:
                raise Hole(f"{where}: class {name} part {part!r} fixes cell {cell} to {letter!r}, not a letter it has")
            sets[cell] = letter
        return sets

    def parse_part(self, part: str, where: str) -> list[tuple[int, str]]:
        out: list[tuple[int, str]] = []
        for piece in part.split(".") if part else []:
            cell, letter = piece[:-1], piece[-1:]
            if not (cell.isascii() and cell.isdigit() and int(cell) < self.geometry.n
                    and len(letter) == 1 and letter in self.symbols):
                raise Hole(f"{where}: part {part!r} is not cells fixed to letters (e.g. '4a.1e')")
            out.append((int(cell), letter))
        if len({c for c, _ in out}) != len(out):
            raise Hole(f"{where}: part {part!r} fixes a cell twice")
        return out

    def canonical_mask(self, numbers: np.ndarray) -> np.ndarray:
        """Which assignment numbers are the smallest of their symmetry images,
        computed digit by digit from the board's symmetries."""
        digits = [(numbers // w) % c for w, c in zip(self.weights, self.counts)]
        keep = np.ones(len(numbers), dtype=bool)
        for perm in self.geometry.symmetries[1:]:
            image = np.zeros(len(numbers), dtype=np.int64)
            for i, src in enumerate(perm):  # image[i] = cls[perm[i]]
                image += digits[src] * self.weights[i]
            keep &= numbers <= image
        return keep

    def name_of(self, number: int) -> str:
        return "".join(
            "0123456789abcdefghijklmnopqrstuvwxyz"[(number // w) % c] for w, c in zip(self.weights, self.counts)
        )
