"""Errors a user can cause. The CLI prints them as one line, never a traceback."""

from __future__ import annotations


class BoggleOptError(Exception):
    """Bad input or configuration, with a message naming the problem."""


class BoardError(BoggleOptError):
    """A malformed board or impossible board dimensions."""


class WordListError(BoggleOptError):
    """A word list that is missing, unreadable or empty."""


class PluginError(BoggleOptError):
    """An unknown, duplicate or broken plugin."""
