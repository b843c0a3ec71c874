"""A dictionary by word-list and rule name: the registries say what the names mean.

It sits above the registries (it may load the plugins), so ``dictionary/`` itself
never imports them.
"""

from __future__ import annotations

import os

from .. import defaults
from ..core.errors import BoggleOptError, PluginError
from ..dictionary.cache import cache_key, cached
from ..dictionary.dictionary import ENV_NO_CACHE, Dictionary, build, drops
from ..dictionary.language import ENGLISH, OTHER_LETTER, SAME_WORD, Language
from ..dictionary.wordlist import WordListSource, looks_like_path, path_source
from .registries import Registries, failure


def wordlist_source(spec: str, registries: Registries) -> WordListSource:
    """A registered word list by name or alias, else a file path."""
    if spec not in registries.wordlists and looks_like_path(spec):
        return path_source(spec)
    return registries.wordlists.get(spec)  # unknown: lists the available names


def wordlist_file(spec: str, registries: Registries) -> str | None:
    """The file the word list ``spec`` (a name or a path) is read from here,
    if its source says (a plugin's list may not): an input of every command
    that reads it, which no output may overwrite."""
    try:
        source = wordlist_source(spec, registries)
    except BoggleOptError:
        return None  # unknown: the command says so when it reads it
    try:
        return source.file() if source.file is not None else None
    except Exception:  # a plugin's own code: its failure is said when the list is read
        return None


def _load_lines(source: WordListSource, spec: str, registries: Registries) -> list[str]:
    """The list's lines; a registered list whose loader fails (a plugin's
    bug, a missing file it did not expect) is a one-line error naming the
    plugin, not a traceback."""
    if spec not in registries.wordlists:
        return source.load()  # a file: read_word_file says what is wrong
    origin = registries.wordlists.entry(spec).origin
    try:
        return source.load()
    except BoggleOptError:
        raise  # already one line
    except Exception as exc:
        raise PluginError(f"{origin} failed to load word list {source.name!r}: {failure(exc)}") from None


def language_of(source: WordListSource, language: str | None, registries: Registries) -> Language:
    """The language named (``--language``), else the word list's own; English
    where neither is registered (a plugin list that names none)."""
    name = language if language else source.language
    if language or name in registries.languages:
        return registries.languages.get(name)  # unknown: lists the available names
    return ENGLISH


def default_wordlist(language: str | None, registries: Registries) -> str:
    """The list played when none is named: ``language``'s own default list
    (``--language german``: ``ngerman``), else the embedded English list."""
    if language:
        return registries.languages.get(language).wordlist or defaults.WORDLIST  # unknown: lists the names
    return defaults.WORDLIST


def load_dictionary(
    wordlist: str | None = None,
    rule: str = defaults.RULE,
    registries: Registries | None = None,
    cache: bool | None = None,
    language: str | None = None,
    min_letters: int | None = None,
) -> Dictionary:
    """Build the dictionary for a word list (name or path) and a rule name,
    in ``language`` (a registered language's name; by default the list's own:
    English for a file), with words of ``min_letters`` letters or more
    (``--min-letters``; None: the rule's own minimum). Without ``wordlist``,
    the language's own default list (``default_wordlist``: the embedded list
    for English).

    Without ``registries`` the plugins are loaded (as the command line loads
    them). Built dictionaries are kept in the cache folder (``dict_cache``);
    ``cache=False`` skips it (``--no-cache``; a run's spec carries the
    choice to its worker processes), and ``None`` uses it unless the user set
    ``$BOGGLE_OPT_NO_CACHE``.
    """
    if registries is None:
        from .loader import load_plugins  # loads plugins: only when asked to

        registries = load_plugins()
    check_min_letters(min_letters)
    if wordlist is None:
        wordlist = default_wordlist(language, registries)
    source = wordlist_source(wordlist, registries)
    entry = registries.rules.entry(rule)
    lang = language_of(source, language, registries)
    lines = _load_lines(source, wordlist, registries)
    if cache is None:
        cache = not os.environ.get(ENV_NO_CACHE, "").strip()
    lang_key = ""
    if lang is not ENGLISH:
        if lang.name not in registries.languages:
            cache = False
        else:
            lang_entry = registries.languages.entry(lang.name)
            lang_key = f"{lang.name} from {lang_entry.origin.release}"
            cache = cache and bool(lang_entry.origin.version)
    # a rule from a local file or module has no version to key the cache on
    if not cache or not entry.origin.version:
        made = Dictionary(source.name, lines, entry.item, language=lang, min_letters=min_letters)
    else:
        rule_item = entry.item.with_min_letters(min_letters)
        # the rule's own minimum is keyed by its release; another one by its number
        moved = min_letters if rule_item is not entry.item else None
        key = cache_key(lines, entry.name, entry.origin.release, lang_key, moved)
        built = cached(key, lambda: build(source.name, lines, rule_item, lang),
                       what=f"{source.name}, {len(lines):,} lines")
        made = Dictionary(source.name, lines, entry.item, built, lang, min_letters)
    if wordlist not in registries.wordlists:  # a file: what it lost is said (a registered list's census is in the docs)
        made.note = list_note(made, source.encoding() if source.encoding else "", language is None)
    return made


def check_min_letters(min_letters: object) -> None:
    """``--min-letters`` (or a run file's ``min_letters``): None, or a whole number >= 1."""
    if min_letters is None:
        return
    if isinstance(min_letters, bool) or not isinstance(min_letters, int) or min_letters < 1:
        raise BoggleOptError(f"min letters must be a whole number >= 1, got {str(min_letters)[:40]}")


def list_note(dictionary: Dictionary, encoding: str, own_language: bool) -> str:
    """One line on what a list given by path lost, as a census counts it
    (``""`` if it lost only repeated or short words): the encoding it was read in where not UTF-8, and
    ``--language`` where English dropped accented words."""
    if all(why == SAME_WORD or why.startswith("fewer than ") for why in dictionary.dropped):
        return ""  # a word again, or too short for the rule: what every list loses
    read = f" (read as {encoding}: not UTF-8)" if encoding and encoding != "UTF-8" else ""
    text = f"word list {dictionary.name!r}{read}: {drops(dictionary.dropped)}"
    if dictionary.dropped.get(OTHER_LETTER) and own_language:
        text += "; --language NAME keeps a language's letters (`boggle-opt languages` lists them)"
    return text
