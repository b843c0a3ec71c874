"""``boggle-opt languages``: each language, its tiles, its default word list
(where it comes from and whether it is here) and its dice sets."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from ..dictionary.language import Language
from ..registry.registries import Registries
from . import output

#: where a language's facts start (its name and aliases before them)
COLUMN = 16


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "languages",
        help="list the languages: tiles, default word list (installed here?), dice sets",
        description="Each language --language takes: its tiles as boards write them, its "
                    "default word list (the package that installs it, and whether it is "
                    "installed here) and its dice sets.",
    )
    p.set_defaults(run=cmd_languages)


def tiles(language: Language) -> str:
    """The tiles as a board writes them, how many, and what ``q`` stands for."""
    letters = {t.letters for t in language.alphabet.tiles}
    q = "q is the Qu tile" if "qu" in letters else "q is a plain letter" if "q" in letters else "no q"
    return f"{language.alphabet.describe()} ({len(letters)} tiles; {q})"


def wordlist(language: Language, regs: Registries) -> str:
    """The default list: its name, the package that installs it, whether it is here."""
    name = language.wordlist or "embedded"
    if name not in regs.wordlists:
        return f"{name} (not registered: a plugin that provides it is not loaded)"
    source = regs.wordlists.get(name)
    package = f" (package {source.package})" if source.package else ""
    if source.status is None:  # shipped with its plugin (the embedded list with boggle-opt)
        return f"{source.name}{package}: installed with {regs.wordlists.entry(name).origin.release}"
    return f"{source.name}{package}: {source.status()}"


def cmd_languages(ns: argparse.Namespace, regs: Registries, out: TextIO) -> int:
    for entry in regs.languages.entries():
        language = entry.item
        name = entry.name + (f" ({', '.join(entry.aliases)})" if entry.aliases else "")
        out.write(output.columns(name, language.summary, COLUMN, indent="") + "\n")
        facts = (("tiles", tiles(language)), ("word list", wordlist(language, regs)),
                 ("dice sets", ", ".join(language.dice) or "none"))
        for label, text in facts:
            out.write(output.fill(f"{label}: {text}", " " * COLUMN, " " * (COLUMN + 2)) + "\n")
    out.write(output.fill("--language NAME plays a language; with no --wordlist, its default list "
                          "(docs/usage.md, \"Languages and editions\")", "# ", "# ") + "\n")
    return 0
