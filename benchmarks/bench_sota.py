"""Chapter 4: the shrinkage fit on an obesity-sized leaderboard (m = 3,558, n = 13,840)."""

from sotalib.book.reconstructions import reconstruct
from sotalib.multiplicity import shrink

from ._harness import Case


def _shrink_obesity():
    lb = reconstruct("obesity")
    return shrink(lb.scores, 13840, classes=7)


CASES = [
    Case(
        "sota shrink: obesity reconstruction m=3,558 n=13,840 (Table 2 row 3)",
        _shrink_obesity,
        target=60.0,
        repeat=1,
        warmup=False,
    ),
]
