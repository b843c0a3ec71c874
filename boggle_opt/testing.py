"""A conformance suite every searcher passes, built-in or third-party.

Subclass it in your package's tests (pytest collects it)::

    from boggle_opt.testing import SearcherConformance
    from boggle_opt_tabu import TabuSearch

    class TestTabu(SearcherConformance):
        searcher_cls = TabuSearch
        bad_options = [("tenure", "-1")]

Class attributes set the problem (``size``, ``wordlist``, ``rule``), options
for every run (``options``), an evaluation budget small enough to be quick
(``evals``) and option values that must be rejected (``bad_options``).
A searcher with ``honours_constraints = True`` is run under fixed cells, a
word and a dice set, and every board it reports must meet them; any other
must refuse constraints with a one-line error.

``LanguageConformance`` checks a language plugin the same way (its tiles,
that ``spell`` gives words in their letters, and that branch and bound's
boards in its alphabet are brute force's: ``kernel_against_brute_force``).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from typing import Any, ClassVar

import pytest

from . import defaults
from .boards import size_geometry
from .constraints.fixed import ConstraintError, Constraints, supports
from .constraints.dice import DiceSet
from .core.alphabet import MAX_TILES
from .dictionary.dictionary import Dictionary
from .dictionary.language import Language, tile_letters
from .registry.dictionaries import load_dictionary
from .searching.driver import Budget, Driver, RunState, StopRun
from .searching.options import OptionError, describe, make_options
from .registry.loader import load_plugins
from .searching.interface import Checkpoint, Event, Improved, Problem, Progress, summary_of

FINISHED = "searcher finished"
#: boards a constrained run reports before the constraint test stops it
CONSTRAINED_BOARDS = 5

#: dice for the constraint tests, cycled to one per cell: common letters, so
#: rollable boards score
TEST_DICE = ("aeiost", "lnrstd", "aeeiou", "crstlp", "aeimno", "bdgkmp")

_DICTIONARIES: dict[tuple[str, str], Dictionary] = {}


def _dictionary(wordlist: str, rule: str) -> Dictionary:
    key = (wordlist, rule)
    if key not in _DICTIONARIES:
        _DICTIONARIES[key] = load_dictionary(wordlist, rule, load_plugins())
    return _DICTIONARIES[key]


class Recorder:
    """A consumer that keeps every event; with ``boards``, it ends the run once
    that many boards are reported."""

    def __init__(self, boards: int = 0) -> None:
        self.events: list[Event] = []
        self.started = self.finished = 0
        self.boards = boards

    def start(self, state: RunState) -> None:
        self.started += 1

    def event(self, event: Event, state: RunState) -> None:
        self.events.append(event)
        if self.boards and sum(isinstance(e, Improved) for e in self.events) >= self.boards:
            raise StopRun(f"{self.boards} boards reported")

    def finish(self, state: RunState) -> None:
        self.finished += 1


class SearcherConformance:
    searcher_cls: ClassVar[Any]
    size: ClassVar[str] = "3x3"
    wordlist: ClassVar[str] = defaults.WORDLIST
    rule: ClassVar[str] = defaults.RULE
    options: ClassVar[Sequence[tuple[str, str]]] = ()
    evals: ClassVar[int] = 20_000
    seconds: ClassVar[float] = 1.0
    bad_options: ClassVar[Sequence[tuple[str, str]]] = ()

    # -- helpers -----------------------------------------------------------

    def problem(self) -> Problem:
        return Problem(_dictionary(self.wordlist, self.rule), size_geometry(self.size))

    def run(
        self, budget: Budget, seed: int = 1, constraints: Constraints | None = None, boards: int = 0
    ) -> tuple[RunState, Recorder, Problem]:
        """One run of the searcher; ``boards``: stop once it has reported that many."""
        problem = self.problem()
        if constraints is not None:
            problem.constraints = constraints
        options = make_options(self.searcher_cls.name, self.searcher_cls.Options, self.options)
        recorder = Recorder(boards)
        state = Driver(self.searcher_cls(options), problem, budget, seed, [recorder]).run()
        return state, recorder, problem

    # -- the interface -----------------------------------------------------

    def test_declares_name_summary_and_options(self) -> None:
        cls = self.searcher_cls
        assert isinstance(cls.name, str) and cls.name and " " not in cls.name
        assert summary_of(cls), "needs a one-line summary (summary attribute or docstring)"
        assert isinstance(cls.Options, type) and dataclasses.is_dataclass(cls.Options)
        params: Any = getattr(cls.Options, "__dataclass_params__")
        assert params.frozen, "Options must be a frozen dataclass"
        for info in describe(cls.Options):
            assert info.help, f"option {info.name!r} needs help text (metadata={{'help': ...}})"

    def test_default_options_valid(self) -> None:
        options = self.searcher_cls.Options()
        self.searcher_cls(options)

    def test_unknown_option_rejected(self) -> None:
        with pytest.raises(OptionError, match="no-such-option"):
            make_options(self.searcher_cls.name, self.searcher_cls.Options, [("no-such-option", "1")])

    def test_bad_options_rejected_naming_the_option(self) -> None:
        cases = list(self.bad_options)
        for info in describe(self.searcher_cls.Options):
            if info.type in ("int", "float"):
                cases.append((info.name, "not-a-number"))
        for name, value in cases:
            with pytest.raises(OptionError) as caught:
                make_options(self.searcher_cls.name, self.searcher_cls.Options, [(name, value)])
            message = str(caught.value)
            assert "\n" not in message
            assert name in message or name.replace("-", "_") in message, message

    # -- behaviour ---------------------------------------------------------

    def test_deterministic_for_a_seed(self) -> None:
        budget = Budget(evaluations=self.evals)
        first, rec1, _ = self.run(budget, seed=7)
        second, rec2, _ = self.run(budget, seed=7)
        improved1 = [e for e in rec1.events if isinstance(e, Improved)]
        improved2 = [e for e in rec2.events if isinstance(e, Improved)]
        assert improved1, "no Improved event within the evaluation budget"
        assert improved1 == improved2
        assert first.evaluations == second.evaluations

    def test_improved_boards_rescore_to_their_score(self) -> None:
        state, rec, problem = self.run(Budget(evaluations=self.evals), seed=3)
        fresh = problem.dictionary.scorer(problem.geometry)
        improved = [e for e in rec.events if isinstance(e, Improved)]
        assert improved
        for ev in improved:
            assert len(ev.board) == problem.n_cells
            assert ev.board.isascii() and ev.board.isalpha() and ev.board.islower()
            assert fresh.score(ev.board) == ev.score, ev
        assert state.best_score == max(e.score for e in improved)

    def test_events_are_events(self) -> None:
        _, rec, _ = self.run(Budget(evaluations=self.evals), seed=5)
        for ev in rec.events:
            assert isinstance(ev, (Improved, Progress, Checkpoint)), ev
        assert rec.started == rec.finished == 1

    def _may_finish(self) -> bool:
        return bool(getattr(self.searcher_cls, "exhaustive", False))

    def _check_not_finished(self, state: RunState, budget: str) -> None:
        assert state.stop_reason != FINISHED or self._may_finish(), (
            f"{self.searcher_cls.name} is not exhaustive but ended on its own before its "
            f"{budget} budget; set options (e.g. restarts 0) so that it runs until stopped"
        )

    def test_stops_within_evaluation_budget(self) -> None:
        evals = self.evals
        state, _, _ = self.run(Budget(evaluations=evals), seed=11)
        self._check_not_finished(state, "evaluation")
        if state.stop_reason == FINISHED:
            # an exhaustive searcher ended first: a budget of half its work must stop it
            if state.evaluations < 2:
                pytest.skip("the search ended without scoring boards: no budget to test")
            evals = state.evaluations // 2
            state, _, _ = self.run(Budget(evaluations=evals), seed=11)
        assert state.stop_reason == f"used {evals:,} evaluations", state.stop_reason
        assert state.evaluations >= evals
        # the driver stops at the first event past the budget
        assert state.evaluations <= 2 * evals + 10_000, state.evaluations

    def test_stops_within_time_budget(self) -> None:
        # the CPU this process spent, not the wall clock: on a busy machine a
        # run gets a share of a core, and the seconds past its budget that it
        # waits for its turn are not the searcher's
        start = time.process_time()
        state, _, _ = self.run(Budget(seconds=self.seconds), seed=13)
        took = time.process_time() - start
        assert took < self.seconds + 2.0, f"{took:.2f} s of CPU for a {self.seconds} s budget"
        self._check_not_finished(state, "time")
        if state.stop_reason != FINISHED:
            assert state.stop_reason == f"used {self.seconds:g} s", state.stop_reason
            assert state.elapsed() >= self.seconds

    def constraint_cases(self) -> list[Constraints]:
        """Fixed corner cells, a word, a dice set, and all three at once."""
        geometry = size_geometry(self.size)
        n = geometry.n
        fix = "s" + "." * (n - 2) + "e" if n >= 2 else "s"
        dice = DiceSet("test", "conformance dice", tuple(TEST_DICE[i % 6] for i in range(n)))
        cases = [Constraints.build(geometry, fix=fix), Constraints.build(geometry, dice=dice)]
        if n >= 3:
            cases.append(Constraints.build(geometry, word="tea"))
            cases.append(Constraints.build(geometry, fix=fix, word="tea", dice=dice))
        return cases

    def test_constraints_honoured_or_refused(self) -> None:
        cases = self.constraint_cases()
        if not supports(self.searcher_cls):
            with pytest.raises(ConstraintError) as caught:
                self.run(Budget(evaluations=self.evals), constraints=cases[0])
            assert "\n" not in str(caught.value) and "cannot honour" in str(caught.value)
            return
        for constraints in cases:
            # a constrained search may score far fewer boards a second: it stops
            # at its evaluations or its fifth board, never at a time (a busy
            # machine would leave it no board)
            _, rec, problem = self.run(Budget(evaluations=self.evals), seed=19, constraints=constraints,
                                       boards=CONSTRAINED_BOARDS)
            fresh = problem.dictionary.scorer(problem.geometry)
            improved = [e for e in rec.events if isinstance(e, Improved)]
            assert improved, f"no board reported under {constraints.describe()}"
            for ev in improved:
                assert constraints.satisfied(ev.board), (constraints.describe(), ev)
                assert fresh.score(ev.board) == ev.score, ev

    def test_stops_at_target(self) -> None:
        # the first board it reports becomes the target of a second run
        state, rec, _ = self.run(Budget(evaluations=self.evals), seed=17)
        first = next(e for e in rec.events if isinstance(e, Improved))
        again, _, _ = self.run(Budget(evaluations=self.evals, target=first.score), seed=17)
        assert again.best_score >= first.score
        assert again.stop_reason.startswith("reached target")


class LanguageConformance:
    """Checks every language plugin passes, built-in or third-party::

        from boggle_opt.testing import LanguageConformance
        from boggle_opt_klingon import KLINGON

        class TestKlingon(LanguageConformance):
            language = KLINGON
            samples = {"Qapla'": "", "tlhIngan": "tlhingan"}

    ``samples`` maps entries of a word list to the word each must give
    (``""``: no word); ``probes`` are extra entries spell must survive."""

    language: ClassVar[Language]
    samples: ClassVar[dict[str, str]] = {}
    #: entries of every kind a list holds: spell must give a word in the
    #: tiles' letters or "", never raise
    probes: ClassVar[Sequence[str]] = (
        "word", "Word", "WORD", "l'eau", "arc-en-ciel", "two words", "b2b", "naïve", "œuvre",
        "Straße", "ñandú", "źdźbło", "ijs", "quiz", "x", "é", "Ü", "a.b.", "ǅemal", "ﬁn",
    )

    def test_name_and_summary(self) -> None:
        lang = self.language
        assert lang.name and lang.name == lang.name.strip() and " " not in lang.name
        assert lang.summary and "\n" not in lang.summary

    def test_tiles_fit(self) -> None:
        alphabet = self.language.alphabet
        assert 1 <= len(alphabet.tiles) <= MAX_TILES
        symbols = [t.symbol for t in alphabet.tiles]
        assert len(set(symbols)) == len(symbols), "two tiles share a symbol"
        assert len({t.letters for t in alphabet.tiles}) == len(symbols), "two tiles spell the same"
        for t in alphabet.tiles:
            assert t.letters == t.letters.lower() and t.letters.isalpha(), t
            assert t.face, f"tile {t.letters!r} has no face"

    def test_spell_gives_tile_letters_or_nothing(self) -> None:
        letters = tile_letters(self.language.alphabet)
        for entry in [*self.probes, *self.samples]:
            word = self.language.spell(entry)
            assert isinstance(word, str), (entry, word)
            if word:
                assert word == word.lower(), (entry, word)
                assert set(word) <= letters, f"{entry!r} -> {word!r}: a letter no tile spells"

    def test_samples(self) -> None:
        for entry, want in self.samples.items():
            assert self.language.spell(entry) == want, entry

    def test_words_of_samples_are_tiled(self) -> None:
        words = self.language.words([*self.samples, *self.probes], min_letters=1)
        assert words == sorted(set(words))
        for word in words:
            assert self.language.alphabet.keys(word), f"{word!r} has no tiling"

    def test_boards_read_back(self) -> None:
        alphabet = self.language.alphabet
        board = "".join(t.symbol for t in alphabet.tiles)
        assert alphabet.read(alphabet.write(board)) == board

    def test_kernel_finds_what_brute_force_finds(self) -> None:
        # a proof in the language is right: branch and bound against every
        # board of random small classes, words spelled in the tiles
        assert kernel_against_brute_force(self.language) > 0

    def test_dice_sets_fit(self) -> None:
        # the dice sets it names are registered (its plugin or another's),
        # each die six faces, every face one of its tiles
        if not self.language.dice:
            return
        from .registry.loader import load_plugins

        regs = load_plugins()
        for name in self.language.dice:
            dice = regs.dice.get(name)
            assert dice.n in (9, 12, 16, 25, 36), f"{name}: {dice.n} dice fit no square board"
            assert all(len(die) == 6 for die in dice.dice), name
            dice.in_alphabet(self.language.alphabet)  # every face a tile of the language, the same tile


def kernel_against_brute_force(language: Language, seed: int = 1, classes: int = 12) -> int:
    """Solve random small classes (2x2, 2x3, 3x3 with few tiles a cell) of
    ``language`` with the branch-and-bound kernel and with brute force (every
    board of the class scored by the scorer), on a made-up word list of the
    language's own tiles, its multi-letter ones first; assert both list the
    same boards at or above each min score. Returns the boards compared.

    The words are longer than the boards have cells where multi-letter
    tiles let them fit (``blije`` is b-l-[ij]-e on 2x2): the case the
    kernel once scored as 0."""
    import itertools
    import random

    from .core.geometry import Geometry
    from .dictionary.rules import ScoringRule
    from .proofs.class_tasks import ClassContext, ClassTask, TrieTiles
    from .proofs.switch import DEFAULT_SWITCH

    rng = random.Random(seed)
    alphabet = language.alphabet
    multi = [t for t in alphabet.tiles if len(t.letters) > 1]
    singles = [t for t in alphabet.tiles if len(t.letters) == 1]
    # the letters of the multi-letter tiles as tiles of their own too, so that
    # a word is spelled several ways; then common letters to fill
    wanted = {ch for t in multi for ch in t.letters} | set("aesnrt")
    chosen = multi[:3] + [t for t in singles if t.letters in wanted][:6]
    chosen += [t for t in singles if t not in chosen][: max(0, 7 - len(chosen))]
    words: set[str] = set()
    while len(words) < 80:
        word = "".join(rng.choice(chosen).letters for _ in range(rng.randint(2, 7)))
        if language.spell(word) == word:
            words.add(word)
    rule = load_plugins().rules.get("standard")
    assert isinstance(rule, ScoringRule)
    d = Dictionary(f"made-up-{language.name}", sorted(words), rule, language=language)
    symbols = alphabet.symbols
    pool = [t.symbol for t in chosen]
    compared = 0
    for cols, rows, most in ((2, 2, 4), (2, 3, 3), (3, 3, 2)):
        geometry = Geometry(cols, rows)
        scorer = d.scorer(geometry)
        for _ in range(classes):
            sets = ["".join(sorted(rng.sample(pool, rng.randint(1, most)), key=symbols.index))
                    for _ in range(geometry.n)]
            brute: dict[str, int] = {}
            for cells in itertools.product(*sets):
                board = "".join(cells)
                brute[board] = scorer.score(board)
            scores = sorted(s for s in brute.values() if s > 0)
            if not scores:
                continue
            min_score = scores[rng.randrange(len(scores))]
            want = sorted((b, s) for b, s in brute.items() if s >= min_score)
            switch = rng.choice((100, int(DEFAULT_SWITCH * 100), 100_000))
            context = ClassContext(d.keys, d.points, cols, rows, [[s] for s in sets], min_score,
                                   switch, 0, tiles=TrieTiles.of(d.trie))
            got = sorted(context.run(ClassTask((0,) * geometry.n)).boards)
            assert got == want, (
                f"{language.name} {geometry.size} class {' '.join(alphabet.write(s) for s in sets)} "
                f"at {min_score}: the kernel lists {[(alphabet.write(b), s) for b, s in got][:5]}, "
                f"brute force {[(alphabet.write(b), s) for b, s in want][:5]}")
            compared += len(want)
    return compared
