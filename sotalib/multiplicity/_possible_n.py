"""The test-set sizes n that can produce a board's printed scores (the lattice of k/n)."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numpy.typing import ArrayLike

from .._validate import check_choice, check_int

__all__ = ["possible_n"]

_ROUNDINGS = ("floor", "round", "ceil", "any")


def possible_n(
    scores: ArrayLike,
    decimals: int,
    candidates: Iterable[int],
    *,
    rounding: str = "floor",
) -> np.ndarray:
    """The test-set sizes ``n`` for which every score is some ``k/n`` shortened to ``decimals``.

    A leaderboard scored on ``n`` items can only show accuracies ``k/n``; shortened to
    ``d`` decimals (Kaggle truncates them), a score ``s`` is possible only if
    ``floor(10**d k / n) / 10**d == s`` for some integer ``0 <= k <= n``.  When ``10**d``
    is well above ``n`` the scores pin ``n`` down (its multiples fit too); when ``n``
    approaches ``10**d`` nearly every size fits, and the board says little.

    Parameters
    ----------
    scores : array_like
        Accuracies in ``[0, 1]`` as printed.  Leave out entries that are no
        accuracy on this test set (empty or broken submissions).
    decimals : int
        Decimals the scores are printed with, 0 to 15.
    candidates : iterable of int
        Candidate sizes ``n >= 1`` to try, e.g. ``range(1000, 20001)``.
    rounding : {"floor", "round", "ceil", "any"}, default "floor"
        How the scores were shortened: truncated (Kaggle), rounded to nearest,
        rounded up, or any of these.

    Returns
    -------
    numpy.ndarray
        The sizes (in the order given) that can produce every score.

    Raises
    ------
    ValueError
        If a score is not a number in ``[0, 1]``, ``decimals`` is outside 0 to 15, a
        size is below 1 or ``rounding`` is not one of the four.

    Notes
    -----
    For each size ``n`` and score ``s`` the candidates are the counts ``k`` next to
    ``s n``; a shortened ``k/n`` equals ``s`` only for ``k`` within one of ``s n``
    when ``n < 10**d``, and for ``n >= 10**d`` the check is the same with the counts
    of the whole interval ``[s, s + 10**-d)`` considered: some ``k`` lies in it
    whenever it is at least ``1/n`` wide.  Costs one pass over the distinct scores
    per size.

    References
    ----------
    Møllersen & Holsbø, Section 5.1: the Obesity board, which the paper reads with the whole
    test set's n = 13,840; its private scores fit only n = 11,072.

    Examples
    --------
    Four teams scored on 41 items, their accuracies truncated to three decimals: only
    41 and its multiples can produce all four scores.

    >>> import numpy as np
    >>> from sotalib.multiplicity import possible_n
    >>> scores = np.floor(np.array([29, 31, 35, 36]) / 41 * 1000) / 1000
    >>> scores
    array([0.707, 0.756, 0.853, 0.878])
    >>> possible_n(scores, 3, range(20, 201)).tolist()
    [41, 82, 123, 164]
    """
    decimals = check_int("decimals", decimals, low=0, high=15)
    rounding = check_choice("rounding", rounding, _ROUNDINGS)
    values = np.asarray(scores, dtype=float).ravel()
    if values.size == 0:
        raise ValueError("scores must hold at least one score")
    if not np.all(np.isfinite(values)) or values.min() < 0 or values.max() > 1:
        raise ValueError("scores must be numbers in [0, 1]")
    unique = np.unique(values)
    scale = 10.0**decimals
    # the printed value as an integer number of units of the last decimal
    printed = np.round(unique * scale)
    if not np.allclose(printed / scale, unique, rtol=0, atol=1e-9 / scale + 1e-12):
        raise ValueError(f"scores must have at most {decimals} decimals (decimals={decimals})")
    # the interval of true values k/n that shorten to each printed value, in units
    lo, hi = {
        "floor": (printed, printed + 1),  # [s, s + u)
        "round": (printed - 0.5, printed + 0.5),  # [s - u/2, s + u/2]
        "ceil": (printed - 1, printed),  # (s - u, s]
        "any": (printed - 1, printed + 1),
    }[rounding]
    closed_low = rounding in ("floor", "round")
    closed_high = rounding in ("round", "ceil")
    out = []
    for size in candidates:
        n = check_int("candidates", size, low=1)
        # k/n * scale must lie in the interval: k in [lo n / scale, hi n / scale]
        k_lo = lo * n / scale
        k_hi = hi * n / scale
        first = np.ceil(k_lo - 1e-9) if closed_low else np.floor(k_lo + 1e-9) + 1
        last = np.floor(k_hi + 1e-9) if closed_high else np.ceil(k_hi - 1e-9) - 1
        first = np.maximum(first, 0)
        last = np.minimum(last, n)
        if np.all(first <= last):
            out.append(n)
    return np.asarray(out, dtype=np.int64)
