"""Numbers printed in the papers that the book and the tests compare against.

Fazekas & Kovacs (Table 5) and Pavao (Table 4).  The constants of
Mollersen & Holsbo's Table 1 live in :mod:`sotalib.book.noniid_paper` and the
published facts of its Section 5 in :mod:`sotalib.book.reconstructions`.
"""

from __future__ import annotations

__all__ = ["TABLE5_PRINTED", "TABLE5_FOLDS", "TABLE5_COUNTS", "PAPER_TABLE4"]

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


# --------------------------------------------------------------------------
# Chapters 6 (06_consistency, 06b_drive, 06c_multiclass), 7 (07_judging) and
# 8 (08_comparing)
# --------------------------------------------------------------------------

#: Fazekas & Kovacs, Section 3.3: the worked example as printed (p, n, scores)
#: and the two (tp, tn) pairs it names as the only compatible ones.
SEC33_REPORT = {"acc": "0.6801", "npv": "0.9401", "f1": "0.4004"}
SEC33_P, SEC33_N = 1000, 6000
SEC33_PAIRS = ((743, 4031), (743, 4032))

#: Fazekas & Kovacs, Section 5.2 and Figure 3: the TPEHG report, the number of
#: fold configurations the paper tests, and the power it reads off its Figure 3
#: at four decimals.
TPEHG_REPORT = {"acc": "0.9447", "sens": "0.9139", "spec": "0.9733"}
TPEHG_CONFIGURATIONS = 918
FIG3_POWER = {4: 0.71}

#: Demsar (2006), Table 6: AUC of four variants of C4.5 on 14 data sets as
#: printed (rows: data sets, columns: classifiers), and the numbers the paper
#: prints for this example (Section 3.2.2 and Table 5(a)).
DEMSAR_CLASSIFIERS = ("C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf")
DEMSAR_DATA_SETS = (
    "adult (sample)",
    "breast cancer",
    "breast cancer wisconsin",
    "cmc",
    "ionosphere",
    "iris",
    "liver disorders",
    "lung cancer",
    "lymphography",
    "mushroom",
    "primary tumor",
    "rheum",
    "voting",
    "wine",
)
DEMSAR_TABLE6 = (
    (0.763, 0.768, 0.771, 0.798),
    (0.599, 0.591, 0.590, 0.569),
    (0.954, 0.971, 0.968, 0.967),
    (0.628, 0.661, 0.654, 0.657),
    (0.882, 0.888, 0.886, 0.898),
    (0.936, 0.931, 0.916, 0.931),
    (0.661, 0.668, 0.609, 0.685),
    (0.583, 0.583, 0.563, 0.625),
    (0.775, 0.838, 0.866, 0.875),
    (1.000, 1.000, 1.000, 1.000),
    (0.940, 0.962, 0.965, 0.962),
    (0.619, 0.666, 0.614, 0.669),
    (0.972, 0.981, 0.975, 0.975),
    (0.957, 0.978, 0.946, 0.970),
)
DEMSAR_PRINTED = {
    "average ranks": (3.143, 2.000, 2.893, 1.964),
    "chi2_F": 9.28,
    "F_F": 3.69,
    "q_0.05": 2.569,
    "CD_0.05": 1.25,
    "q_0.10": 2.291,
    "CD_0.10": 1.12,
}
