"""Consistency of reported performance scores (Fazekas & Kovács).

Can the scores a paper reports come from the experiment it describes?  Every
verdict here is exact: a candidate confusion matrix found by interval
arithmetic or an integer program is verified in rational arithmetic, and an
inconsistency is a proof that no confusion matrix gives the reported values.

Every verdict has the same four attributes, also the first four keys of its
``to_dict()``: ``consistent`` (False is a proof), ``evidence`` (witnesses of
consistency: ``(tp, tn)`` pairs, or per-fold pairs for a Mean of Scores),
``configurations_tested`` (fold configurations covered; None: too many to
count, the verdict still covers them all) and ``details`` (how the verdict
was reached).

Reports
-------
One report or a table of them, against a test set, explicit folds, or k-fold
cross-validation with known or unknown folds, by Score of Means or Mean of
Scores (the ``sotalib check`` command); or an accuracy on a benchmark of n
items (``check_report(scores, n_items=N)``): one run (k/n), the mean of R runs,
pass@k over K samples per item, a macro average over subsets and the subsets'
own scores, each lattice decided exactly, with the fewest runs a value needs.

.. autosummary::

   check_report
   check_batch
   get_dataset
   DATASETS
   benchmark
   BENCHMARKS
   ReportVerdict
   BatchVerdict
   Dataset
   Benchmark

The tests of the paper
----------------------
One test set and Score of Means (Sections 3 and 4.2), Mean of Scores over
known folds (Section 4.3) or over every fold configuration (Section 4.4),
and the typo finder.

.. autosummary::

   check_single
   check_som
   check_mos
   check_mos_kfold
   search_configurations
   diagnose
   diagnose_mos
   SingleResult
   MosResult
   KFoldMosResult
   MosSearch
   Suggestion

Folds and scores
----------------
The fold configurations of k-fold cross-validation (Table 6, Algorithm 2) and
the 20 scores of Table 2.

.. autosummary::

   stratified_folds
   kfold_configurations
   count_configurations
   read_folds
   SCORES
   all_scores
   aggregate_scores

Beyond binary classification
----------------------------
Multiclass reports (micro, macro and weighted averages), regression reports
(MAE, MSE, RMSE, R²) and several data sets averaged in two levels.

.. autosummary::

   check_multiclass
   diagnose_multiclass
   multiclass_scores
   stratified_class_folds
   check_regression
   regression_scores
   check_n_datasets
   MulticlassResult
   RegressionResult
   TwoLevelResult

The power of the tests
----------------------
How often a typo, or a report from an oversampled data set, is detected
(Section 5).

.. autosummary::

   power_typo
   power_oversampling
   PowerPoint
"""

from typing import TYPE_CHECKING

from .._lazy import attach

if TYPE_CHECKING:  # the names attach() loads lazily, for type checkers (the same list as below)
    from ._batch import BatchVerdict as BatchVerdict
    from ._batch import check_batch as check_batch
    from ._benchmarks import BENCHMARKS as BENCHMARKS
    from ._benchmarks import Benchmark as Benchmark
    from ._benchmarks import benchmark as benchmark
    from ._datasets import DATASETS as DATASETS
    from ._datasets import Dataset as Dataset
    from ._datasets import get_dataset as get_dataset
    from ._folds import count_configurations as count_configurations
    from ._folds import kfold_configurations as kfold_configurations
    from ._folds import read_folds as read_folds
    from ._folds import stratified_folds as stratified_folds
    from ._mos import MosResult as MosResult
    from ._mos import MosSearch as MosSearch
    from ._mos import check_mos as check_mos
    from ._mos import search_configurations as search_configurations
    from ._mos_kfold import KFoldMosResult as KFoldMosResult
    from ._mos_kfold import check_mos_kfold as check_mos_kfold
    from ._multiclass import MulticlassResult as MulticlassResult
    from ._multiclass import check_multiclass as check_multiclass
    from ._multiclass import diagnose_multiclass as diagnose_multiclass
    from ._multiclass import stratified_class_folds as stratified_class_folds
    from ._multiclass_scores import multiclass_scores as multiclass_scores
    from ._n_datasets import TwoLevelResult as TwoLevelResult
    from ._n_datasets import check_n_datasets as check_n_datasets
    from ._power import PowerPoint as PowerPoint
    from ._power import power_oversampling as power_oversampling
    from ._power import power_typo as power_typo
    from ._regression import RegressionResult as RegressionResult
    from ._regression import check_regression as check_regression
    from ._regression import regression_scores as regression_scores
    from ._report import ReportVerdict as ReportVerdict
    from ._report import check_report as check_report
    from ._scores import SCORES as SCORES
    from ._scores import aggregate_scores as aggregate_scores
    from ._scores import all_scores as all_scores
    from ._single import SingleResult as SingleResult
    from ._single import check_single as check_single
    from ._single import check_som as check_som
    from ._typos import Suggestion as Suggestion
    from ._typos import diagnose as diagnose
    from ._typos import diagnose_mos as diagnose_mos

__getattr__, __dir__, __all__ = attach(
    __name__,
    {
        "._batch": ["BatchVerdict", "check_batch"],
        "._benchmarks": ["BENCHMARKS", "Benchmark", "benchmark"],
        "._datasets": ["DATASETS", "Dataset", "get_dataset"],
        "._folds": ["count_configurations", "kfold_configurations", "read_folds", "stratified_folds"],
        "._multiclass": ["MulticlassResult", "check_multiclass", "diagnose_multiclass", "stratified_class_folds"],
        "._multiclass_scores": ["multiclass_scores"],
        "._mos": ["MosResult", "MosSearch", "check_mos", "search_configurations"],
        "._mos_kfold": ["KFoldMosResult", "check_mos_kfold"],
        "._power": ["PowerPoint", "power_oversampling", "power_typo"],
        "._regression": ["RegressionResult", "check_regression", "regression_scores"],
        "._report": ["ReportVerdict", "check_report"],
        "._scores": ["SCORES", "aggregate_scores", "all_scores"],
        "._single": ["SingleResult", "check_single", "check_som"],
        "._n_datasets": ["TwoLevelResult", "check_n_datasets"],
        "._typos": ["Suggestion", "diagnose", "diagnose_mos"],
    },
)
