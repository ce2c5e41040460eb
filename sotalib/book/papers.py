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
    "REAL_BOARDS",
    "TABLE2_4_OBESITY",
    "TABLE5_PRINTED",
    "TABLE5_FOLDS",
    "TABLE5_COUNTS",
    "PAPER_TABLE4",
    "SEC33_REPORT",
    "SEC33_PAIRS",
    "TPEHG_REPORT",
    "TPEHG_CONFIGURATIONS",
    "FIG3_POWER",
    "DEMSAR_CLASSIFIERS",
    "DEMSAR_DATA_SETS",
    "DEMSAR_TABLE6",
    "DEMSAR_PRINTED",
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

#: Section 5.1 and Tables 2 and 4 about the two real accuracy boards, as printed.
REAL_BOARDS = {
    "obesity": {
        "m": 3558,
        "n": 13840,
        "sample_max": 0.9116,
        "naive_ci": (0.9067, 0.9162),
        "teams_inside": 921,
        "observed_expected_max": 0.9159,
        "observed_ci": (0.9128, 0.9191),
        "shrink_estimate": 0.9070,
        "shrink_ci": (0.9084, 0.9148),
        "shrink_teams_above": 841,
        "shrink_upper_estimate": 0.9036,
        "shrink_upper_expected_max": 0.9082,
        "shrink_upper_ci_low": 0.9050,
        "shrink_upper_teams_above": 1726,
        "crop_estimate": 0.9063,
        "crop_ci": (0.9084, 0.9148),
        "crop_teams_above": 1134,
        "crop_upper_estimate": 0.9026,
        "crop_upper_expected_max": 0.9083,
        "crop_upper_ci_low": 0.9050,
        "crop_upper_teams_above": 1844,
    },
    "cassava": {
        "m": 3752,
        "n": 15000,
        "top": (0.9132, 0.9043, 0.9028),
        "naive_ci": (0.9086, 0.9177),
        "shrink_solution": None,
    },
}


#: Tables 2 and 4 for the private Obesity board (n = 13,840) as printed, per approach: the state
#: of the art max Θ', the 95% interval, E max(Θ̂') and the teams above the estimate ("--": not
#: printed; "θ̂max": the observed maximum, 0.9116).  The cap is not in the paper.
TABLE2_4_OBESITY = {
    "no multiplicity": ("θ̂max", "(0.9067, 0.9162)", "--", "--"),
    "Θ' = Θ̂": ("θ̂max", "(0.9128, 0.9191)", "0.9159", "--"),
    "shrinking": ("0.9070", "(0.9084, 0.9148)", "θ̂max", "841"),
    "shrinking, upper": ("0.9036", "(0.9050, θ̂max)", "0.9082", "1,726"),
    "cropping": ("0.9063", "(0.9084, 0.9148)", "θ̂max", "1,134"),
    "cropping, upper": ("0.9026", "(0.9050, θ̂max)", "0.9083", "1,844"),
    "cap": ("--", "--", "--", "--"),
    "cap, upper": ("--", "--", "--", "--"),
}

#: Table 1 of the JMLR version, plus the fixed-reference row of the second version's Table 2:
#: (model, section, d, rho0, reference, E max, sd, upper end of the 95% interval, source), with
#: n = 3,000, m = 1,000, theta_SOTA = theta0 = 0.90.
TABLE1_ROWS = (
    (
        "independent, identical",
        "3.4",
        0.0,
        0.0,
        "random",
        0.9173,
        0.0018,
        0.9213,
        "JMLR Table 1",
    ),
    (
        "independent, non-identical",
        "4.1",
        0.025,
        0.0,
        "random",
        0.9129,
        0.0021,
        0.9177,
        "JMLR Table 1",
    ),
    (
        "dependent, identical (random $Y_0$)",
        "4.2",
        0.0,
        0.6,
        "random",
        0.9140,
        0.0035,
        0.9207,
        "JMLR Table 1",
    ),
    (
        "dependent, identical (fixed $y_0$)",
        "4.2",
        0.0,
        0.6,
        "fixed",
        0.9140,
        0.001484,
        0.9173,
        "v2 Table 2",
    ),
    (
        "dependent, non-identical",
        "4.3",
        0.025,
        0.6,
        "random",
        0.9101,
        0.0036,
        0.9173,
        "JMLR Table 1",
    ),
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
    "random-dictator": frozenset(
        {"consistency", "participation", "iia", "liia", "clone-proof"}
    ),
    "mean": frozenset(
        {"consistency", "participation", "iia", "liia", "clone-proof"}
    ),
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
