"""Consistency of reported performance scores (Fazekas & Kovács).

Can the scores a paper reports come from the experiment it describes?  Every
verdict here is exact: a candidate confusion matrix found by interval
arithmetic or an integer program is verified in rational arithmetic, and an
inconsistency is a proof that no confusion matrix gives the reported values.

Verdicts
--------
Every verdict -- one test set or Score of Means (``SingleResult``), Mean of
Scores on known folds (``MosResult``), Mean of Scores over every k-fold
configuration (``KFoldMosResult``) and a whole report (``ReportVerdict``) --
has the same four attributes, also the first four keys of its ``to_dict()``:

consistent : bool
    Some confusion matrix (or per-fold matrices) reproduces every reported
    value.  ``False`` is a proof: no confusion matrix gives the reported values.
evidence : list
    Witnesses of consistency (empty when inconsistent): ``(tp, tn)`` pairs for a
    test set or Score of Means, per-fold ``((tp_1, tn_1), ...)`` for Mean of Scores.
configurations_tested : int or None
    Fold configurations the verdict covers (1 for a known experiment; None:
    too many to count -- the verdict still covers them all).
details : dict
    How the verdict was reached (specific to the test; JSON-safe).

Reports
-------
check_report        -- one report: a test set, or k-fold cross-validation by SoM or MoS (the ``check`` command)
check_batch         -- every row of a table of reports (``check --batch``)
DATASETS, get_dataset -- named test sets (DRIVE, TPEHG, ISIC) so that nobody types counts (``check --dataset``)
ReportVerdict, BatchVerdict -- their result types

The three tests of the paper
----------------------------
check_single        -- one test set (Section 3, Algorithm 1)
check_som           -- Score of Means over folds (Section 4.1, Eqs. 6-7)
check_mos           -- Mean of Scores over known folds (Section 4.2, Eq. 9), an integer program
check_mos_kfold     -- Mean of Scores over every fold configuration of (repeated) k-fold
diagnose, diagnose_mos -- the typo finder: which single reported value, mistyped, explains an inconsistency
typo_candidates     -- the values a mistyped report may have meant (TYPO_UNITS, TYPO_DIGITS)

Beyond binary
-------------
check_multiclass    -- multiclass reports (micro, macro, weighted averages): a test set, SoM or MoS over folds
diagnose_multiclass -- its typo finder (one test set small enough to enumerate)
multiclass_scores, multiclass_score, multiclass_intervals, stratified_class_folds -- their scores and folds
check_regression    -- MAE, MSE, RMSE and R^2 reported together: which bound a report violates
check_n_datasets    -- several data sets, k-fold each, averaged within (SoM or MoS) and then across

Scores and folds
----------------
SCORES, resolve_score, score_value, all_scores, aggregate_scores -- the 20 scores of Table 2
score_intervals     -- the interval of true values each reported (rounded) value allows
stratified_folds, kfold_configurations, count_configurations -- Section 4.3 and Algorithm 2
parse_folds, read_folds -- folds written "p1:n1,..." or in a CSV file (columns p, n)
power_typo, power_oversampling -- the power of the test (Section 5); randomness is one argument, ``rng``
"""

from .._lazy import attach

__getattr__, __dir__, __all__ = attach(
    __name__,
    {
        "._datasets": ["DATASETS", "Dataset", "dataset_experiment", "get_dataset"],
        "._folds": [
            "count_configurations",
            "kfold_configurations",
            "parse_folds",
            "read_folds",
            "repeat_folds",
            "stratified_folds",
        ],
        "._multiclass": [
            "MulticlassResult",
            "check_multiclass",
            "check_multiclass_intervals",
            "diagnose_multiclass",
            "stratified_class_folds",
        ],
        "._multiclass_scores": [
            "AVERAGES",
            "MULTICLASS_SCORES",
            "MulticlassInterval",
            "build_matrix",
            "multiclass_intervals",
            "multiclass_score",
            "multiclass_scores",
            "transport_feasible",
        ],
        "._regression": ["RegressionResult", "check_regression", "regression_scores"],
        "._twolevel": ["TwoLevelResult", "check_n_datasets"],
        "._mos": [
            "MosResult",
            "MosSearch",
            "check_mos",
            "check_mos_intervals",
            "diagnose_mos",
            "search_configurations",
        ],
        "._mos_kfold": ["KFoldMosResult", "check_mos_kfold", "check_mos_kfold_intervals", "count_kfold_configurations"],
        "._power": ["PowerPoint", "power_oversampling", "power_typo", "report_scores"],
        "._report": ["BATCH_COLUMNS", "BatchVerdict", "ReportVerdict", "check_batch", "check_report"],
        "._scores": [
            "ALIASES",
            "LINEAR_SCORES",
            "SCORES",
            "ScoreSpec",
            "aggregate_scores",
            "all_scores",
            "exact_sign",
            "resolve_score",
            "score_float",
            "score_range",
            "score_value",
        ],
        "._single": [
            "MAX_COUNT",
            "MAX_DIGITS",
            "MAX_EXPONENT",
            "ROUNDINGS",
            "TYPO_DIGITS",
            "TYPO_UNITS",
            "ScoreInterval",
            "SingleResult",
            "Suggestion",
            "brute_force",
            "check_intervals",
            "check_single",
            "check_som",
            "diagnose",
            "score_intervals",
            "typo_candidates",
        ],
    },
)
