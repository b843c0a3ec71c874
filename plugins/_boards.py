"""Helpers shared by the stochastic searchers: random boards and letter codes."""

from __future__ import annotations

import numpy as np

A: int = ord("a")


def random_letters(rng: np.random.Generator, freqs: np.ndarray, shape: int | tuple[int, ...]) -> np.ndarray:
    """Letter codes 0-25 (uint8) drawn from the dictionary's letter frequencies."""
    # inverse-CDF on one batch of uniforms: much cheaper than rng.choice per cell
    cdf = np.cumsum(freqs)
    cdf /= cdf[-1]
    codes = np.searchsorted(cdf, rng.random(shape), side="right")
    return np.minimum(codes, 25).astype(np.uint8)


def board_text(codes: np.ndarray) -> str:
    """Letter codes 0-25 as a board string."""
    return (codes.astype(np.uint8) + A).tobytes().decode("ascii")


def board_codes(board: str) -> np.ndarray:
    """A board string as letter codes 0-25."""
    return np.frombuffer(board.encode("ascii"), dtype=np.uint8) - A
