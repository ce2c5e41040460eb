"""The chapter on comparing many candidates: the paper-against-book comparison of Demšar's worked example.

The worked example of Demšar (2006) is the AUC of four variants of C4.5 on
14 data sets (his Table 6, in :data:`sotalib.book.papers.DEMSAR_TABLE6`).
The printed AUCs are rounded to three decimals.  On *voting* C4.5+cf and
C4.5+m+cf both print as 0.975, but the paper's ranks (from which it computes
its average ranks and statistics) put C4.5+cf second and C4.5+m+cf third;
:func:`table6` breaks that one tie the same way (``as_ranked=True``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .papers import (
    DEMSAR_CLASSIFIERS,
    DEMSAR_DATA_SETS,
    DEMSAR_PRINTED,
    DEMSAR_TABLE6,
)

__all__ = [
    "CLASSIFIERS",
    "DATA_SETS",
    "PRINTED",
    "demsar_comparison",
    "table6",
]

CLASSIFIERS = DEMSAR_CLASSIFIERS
DATA_SETS = DEMSAR_DATA_SETS
#: The numbers the paper prints for this example (Section 3.2.2 and Table 5(a)).
PRINTED = DEMSAR_PRINTED


def table6(as_ranked: bool = True) -> np.ndarray:
    """The AUCs as a candidates x data sets matrix (4 x 14); ``as_ranked`` breaks the voting tie as the paper ranks it."""
    M = np.array(DEMSAR_TABLE6, dtype=float).T
    if as_ranked:
        M[2, DATA_SETS.index("voting")] += 1e-6
    return M


def demsar_comparison(ex, ex10) -> pd.DataFrame:
    """Demšar's printed numbers beside ours, long format: quantity, paper, book, agrees.

    ``ex`` and ``ex10`` are :func:`sotalib.compare_candidates` results at
    ``alpha`` 0.05 and 0.10 without the tie correction; each value is compared
    at the number of decimals the paper prints.
    """
    P = PRINTED
    rows = [
        (f"average rank, {c}", P["average ranks"][i], ex.average_ranks[i], 3)
        for i, c in enumerate(CLASSIFIERS)
    ]
    rows += [
        ("Friedman χ²", P["chi2_F"], ex.friedman.statistic, 2),
        ("Iman–Davenport F", P["F_F"], ex.friedman.iman_davenport_F, 2),
        ("q at α = 0.05", P["q_0.05"], ex.q_alpha, 3),
        ("CD at α = 0.05", P["CD_0.05"], ex.critical_difference, 2),
        ("q at α = 0.10", P["q_0.10"], ex10.q_alpha, 3),
        ("CD at α = 0.10", P["CD_0.10"], ex10.critical_difference, 2),
    ]
    return pd.DataFrame(
        [
            {
                "quantity": q,
                "paper": f"{paper:.{d}f}",
                "book": f"{float(book):.{d}f}",
                "agrees": "yes"
                if f"{paper:.{d}f}" == f"{float(book):.{d}f}"
                else "no",
            }
            for q, paper, book, d in rows
        ]
    )
