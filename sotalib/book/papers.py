"""Numbers printed in the papers that the book and the tests compare against.

One home for every value typed in from a paper: the chapters show them beside the book's
own numbers, and the tests check the library against them at their printed precision.
Plain Python, no imports: the library's tests import it without the book's extras.

Mollersen & Holsbo (Appendix A, Tables 2 and 4), Fazekas & Kovacs (Table 5) and
Pavao (Table 4).  The published facts of Mollersen & Holsbo's Section 5 (the
challenges it reads) live with their reconstructions in :mod:`sotalib.book.reconstructions`.
"""

from __future__ import annotations

__all__ = [
    "APPENDIX_A",
    "TABLE1_ROWS",
    "TABLE2_4_OBESITY",
    "TABLE5_PRINTED",
    "TABLE5_FOLDS",
    "TABLE5_COUNTS",
    "PAPER_TABLE4",
]

# -- Mollersen & Holsbo, Accounting for multiplicity ------------------------------------------

#: Appendix A (Table 3 of the JMLR version): (m, n, theta) -> (E max accuracy, sd, version).
#: The m = 500 row is from the first version (2023), which the JMLR version dropped.
APPENDIX_A: dict[tuple[int, int, float], tuple[float, float, str]] = {
    (1000, 3000, 0.90): (0.9173, 0.001817, "JMLR"),
    (100, 3000, 0.90): (0.9135, 0.002250, "JMLR"),
    (5000, 3000, 0.90): (0.9196, 0.001623, "JMLR"),
    (1000, 1000, 0.90): (0.9294, 0.003007, "JMLR"),
    (1000, 10000, 0.90): (0.9096, 0.001022, "JMLR"),
    (1000, 3000, 0.85): (0.8707, 0.002197, "JMLR"),
    (1000, 3000, 0.95): (0.9624, 0.001277, "JMLR"),
    (500, 3000, 0.90): (0.9163, 0.001923, "first version"),
}

#: Table 1 of the JMLR version, plus the fixed-reference row of the second version's Table 2:
#: (model, section, d, rho0, reference, E max, sd, upper end of the 95% interval, source), with
#: n = 3,000, m = 1,000, theta_SOTA = theta0 = 0.90.
TABLE1_ROWS = (
    ("independent, identical", "3.4", 0.0, 0.0, "random", 0.9173, 0.0018, 0.9213, "JMLR Table 1"),
    ("independent, non-identical", "4.1", 0.025, 0.0, "random", 0.9129, 0.0021, 0.9177, "JMLR Table 1"),
    ("dependent, identical (random $Y_0$)", "4.2", 0.0, 0.6, "random", 0.9140, 0.0035, 0.9207, "JMLR Table 1"),
    ("dependent, identical (fixed $y_0$)", "4.2", 0.0, 0.6, "fixed", 0.9140, 0.001484, 0.9173, "v2 Table 2"),
    ("dependent, non-identical", "4.3", 0.025, 0.6, "random", 0.9101, 0.0036, 0.9173, "JMLR Table 1"),
)

#: Table 5b of Fazekas & Kovacs as printed: score -> (MoS, SoM), four decimals.
TABLE5_PRINTED = {
    "acc": (0.8290, 0.8290),
    "bacc": (0.8066, 0.8066),
    "bm": (0.6131, 0.6132),
    "dor": (28.0174, 19.6671),
    "fbn": (0.8709, 0.8719),
    "fbp": (0.7443, 0.7427),
    "fm": (0.7471, 0.7428),
    "gm": (0.8021, 0.8038),
    "ji": (0.5945, 0.5908),
    "kappa": (0.6165, 0.6147),
    "lrn": (0.2975, 0.2985),
    "lrp": (8.1202, 5.8713),
    "mcc": (0.6215, 0.6147),
    "mk": (0.6312, 0.6163),
    "npv": (0.8706, 0.8698),
    "ppv": (0.7606, 0.7465),
    "pt": (0.2795, 0.2921),
    "sens": (0.7391, 0.7390),
    "spec": (0.8741, 0.8741),
    "upm": (0.8025, 0.8022),
}


#: Table 5a: folds (p_i, n_i) and an evaluation (tp_i, tn_i).
TABLE5_FOLDS = ((100, 201), (100, 200), (100, 200), (101, 200), (101, 200))


TABLE5_COUNTS = ((78, 189), (65, 191), (81, 160), (75, 164), (72, 171))


#: Table 4 of the paper: the properties each function is said to satisfy (a blank cell = not satisfied).
PAPER_TABLE4: dict[str, frozenset] = {
    "random-dictator": frozenset({"consistency", "participation", "iia", "liia", "clone-proof"}),
    "mean": frozenset({"consistency", "participation", "iia", "liia", "clone-proof"}),
    "median": frozenset({"iia", "liia", "clone-proof"}),
    "average-rank": frozenset({"consistency", "participation"}),
    "copeland": frozenset({"majority", "condorcet"}),
    "kemeny": frozenset({"majority", "condorcet", "liia"}),
}
