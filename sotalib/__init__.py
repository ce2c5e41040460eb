"""sotalib: reading machine-learning leaderboards honestly.

The library behind the book *What is the state of the art?*.  It reproduces
and extends three papers; each has a subpackage, and the names a user needs
first are here at the top level.  The symbols follow the book's notation page.

The front door
==============
Each command of the ``sotalib`` command line is one function here, with the
command's options as its arguments.  Each returns a small frozen result whose
``to_dict()`` is exactly what ``sotalib COMMAND --json`` prints, and whose
``to_text()`` is what it prints without ``--json``.

The best score of many
----------------------

.. autosummary::

   summarize_max
   summarize_max_auc
   MaxSummary

The state of the art behind a leaderboard
-----------------------------------------

.. autosummary::

   estimate_sota
   estimate_sota_batch
   read_leaderboard
   SotaEstimate
   SotaBatch
   Leaderboard

Per-item results
----------------

Items as rows, models as columns, in every function that takes them (a
pandas DataFrame read from a per-item file is laid out so; a bare array is
wrapped as ``PerItem(array)``).

.. autosummary::

   PerItem
   read_per_item

The dependence between models, measured item by item
----------------------------------------------------

.. autosummary::

   estimate_dependence
   dependence_fit
   Dependence
   DependenceFit

Can reported scores be right?
-----------------------------

.. autosummary::

   check_report
   check_batch
   check_multiclass
   check_regression
   ReportVerdict
   BatchVerdict
   MulticlassResult
   RegressionResult

Judging a competition
---------------------

.. autosummary::

   estimate_test_size
   rank_candidates
   compare_candidates
   estimate_rank_uncertainty
   TestSize
   DifferenceTestSize
   Aggregation
   Comparison
   RankUncertainty

Noise of language-model evaluations
-----------------------------------

.. autosummary::

   evaluation_noise
   minimum_detectable_difference
   benchmark_noise_table
   EvaluationNoise
   BenchmarkNoiseTable

The papers
==========
``multiplicity``
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*: the best of m classifiers, the AUC, estimators of
    the state of the art, leaderboard files.
``consistency``
    Fazekas & Kovács, *Testing the consistency of performance scores reported
    for binary classification problems*: one test set, SoM, MoS, folds, the
    typo finder; multiclass and regression reports, several data sets.
``judging``
    Pavão, *How to judge a competition*: error bars, test-set size, staged
    evaluation, rankings and comparisons of many candidates.

``results``
    Every result class the library returns, listed on one page (the
    results of the three papers' functions included).

Subpackages and their functions load on first use, so ``import sotalib`` is
instant.  ``sotalib.book`` holds what only the book needs; it is not public API.

One vocabulary
==============
The same idea has the same name everywhere, in the library and (in brackets)
on the command line, whose option names predate this list and stay.

Names of functions
    A function that answers a question is a verb on what it answers:
    ``estimate_...`` (a quantity from data), ``summarize_...`` (a
    distribution's mean, sd and interval), ``check_...`` (a verdict),
    ``rank_...``, ``compare_...``, ``simulate_...``, ``read_...``.  A
    function that evaluates a formula is named by its quantity, as in
    :mod:`scipy.special` (``max_cdf``, ``empirical_auc``).
Symbols
    ``n`` test items, ``m`` classifiers or teams, ``theta`` a true accuracy,
    ``rho`` the dependence on the reference classifier, ``theta0`` its
    accuracy, ``p`` positives (``n`` negatives in the consistency tests,
    where the paper writes so), ``prevalence`` the share of positives,
    ``classes`` the number of classes or the class counts, ``chance`` a
    chance level (``1/classes`` unless given; 0 where a task has none).
``scores``
    The scores under study: a leaderboard's scores (an array), reported
    scores (a mapping from score name to value) or a score matrix
    (candidates by judges or data sets; ``candidates="columns"`` reads it
    the other way).  ``candidates=`` says which axis holds the candidates,
    never their names, which come with the data (a DataFrame's index, a
    mapping's keys, a PerItem's models, what ``read_scores`` returns).
Per-item results
    One table, :class:`PerItem`: items as rows, models as columns, in every
    function that takes them; a DataFrame is read so, a bare array is
    refused (wrap it as ``PerItem(array)``).
``method=``
    *Which* estimator or rule: ``estimate_sota(method="shrink")``,
    ``rank_candidates(method="copeland")`` [``--method``].
``engine=``
    *How* a number is computed, never what it means: ``"auto"`` (the
    default: exact where it takes seconds), ``"exact"``, ``"normal"`` (a
    stated approximation) or ``"simulate"`` (Monte Carlo) [``--engine``].
    A result records the engine that computed it in its ``engine`` field
    (never ``method``), with these values; where several exact solvers
    exist an exact engine is named by its solver (the multiclass
    consistency tests' ``"exhaustive"``, ``"search"`` and ``"ilp"``).
``n_resamples=``
    The number of Monte Carlo replications or bootstrap resamples, under
    this one name [``--reps``], keyword-only, with one default per kind:

    * the Monte Carlo of a distribution of accuracies (a simulated check of
      an exact one): ``10_000`` replications (``summarize_max``,
      ``simulate_max``, ``summarize_max_difference``, ...);
    * simulated AUC challenges, each drawing every score of every team:
      ``1_000`` (``summarize_max_auc``, ``simulate_auc``, ...);
    * bootstrap resamples: ``1_000``;
    * resamples inside an estimator, each a fit: the estimator's own,
      stated where it is chosen (``estimate_sota``'s ``n_resamples=None``).

    A result of random work records its count in ``n_resamples``.
``m=``, ``z=``, ``se``
    ``m`` is the number of candidates (classifiers, teams, models), ``z`` a
    z value, ``se`` a standard error (``se_mean`` that of a Monte Carlo
    mean) -- in parameters and in result fields alike.
``rng=``
    Randomness, one argument with one default policy, as in SciPy: ``None``
    (the default) draws fresh entropy, an ``int`` seeds
    ``numpy.random.default_rng(int)`` and gives reproducible results, a
    :class:`numpy.random.Generator` is used as it is.  Results of random
    work record the int seed.  The command line seeds with 0 unless told
    otherwise [``--seed``; ``--rng`` is its alias].
``alpha=``
    A level, always a probability in (0, 1): the significance level of a
    test, or one minus the coverage of an interval (``alpha=0.05`` is a 95%
    interval).  A z value is never called a level: where a z value may be
    given it is ``z=``, and a value given under the other name is refused.
``k``
    The number of folds of k-fold cross-validation, and nothing else: ``m``
    counts candidates, ``n_submissions`` submissions, and a z value is ``z``.
``evidence``
    What a consistency verdict found that proves consistency (compatible
    counts, per-fold counts, confusion matrices), the one name in every
    verdict; empty when the report is inconsistent.
``se``
    A standard error, in parameters, result fields and JSON.
``lower_is_better=``
    ``False`` by default (accuracy, AUC); ``True`` for losses and errors.
``progress=``
    ``None`` (a bar on stderr when it is a terminal), ``True`` or ``False``.
Order of arguments
    The data or the experiment first, in the notation's order, then the
    scores, positional; every option after them is keyword-only.
Results
    Frozen dataclasses inheriting one base: ``to_dict()`` (JSON-safe: no NaN,
    no infinity), ``to_text()``, a readable repr, and a small table in
    notebooks; :mod:`sotalib.results` lists them all.  The summaries of a
    distribution share one set of fields: ``mean, sd, ci_low, ci_high,
    alpha, engine, n_resamples, se_mean, seed``.
Errors
    Bad input raises :class:`ValueError` naming the argument and its allowed
    range.  Former names keep working for one minor version with a
    :class:`DeprecationWarning` naming the new one.
"""

from typing import TYPE_CHECKING

from ._lazy import attach

if TYPE_CHECKING:  # the names attach() loads lazily, for type checkers (the same list as below)
    from . import consistency as consistency
    from . import judging as judging
    from . import multiplicity as multiplicity
    from . import results as results
    from ._per_item import PerItem as PerItem
    from ._per_item import read_per_item as read_per_item
    from ._version import __version__ as __version__
    from .consistency import BatchVerdict as BatchVerdict
    from .consistency import MulticlassResult as MulticlassResult
    from .consistency import RegressionResult as RegressionResult
    from .consistency import ReportVerdict as ReportVerdict
    from .consistency import check_batch as check_batch
    from .consistency import check_multiclass as check_multiclass
    from .consistency import check_regression as check_regression
    from .consistency import check_report as check_report
    from .judging import Aggregation as Aggregation
    from .judging import BenchmarkNoiseTable as BenchmarkNoiseTable
    from .judging import Comparison as Comparison
    from .judging import DifferenceTestSize as DifferenceTestSize
    from .judging import EvaluationNoise as EvaluationNoise
    from .judging import RankUncertainty as RankUncertainty
    from .judging import TestSize as TestSize
    from .judging import benchmark_noise_table as benchmark_noise_table
    from .judging import compare_candidates as compare_candidates
    from .judging import estimate_rank_uncertainty as estimate_rank_uncertainty
    from .judging import estimate_test_size as estimate_test_size
    from .judging import evaluation_noise as evaluation_noise
    from .judging import minimum_detectable_difference as minimum_detectable_difference
    from .judging import rank_candidates as rank_candidates
    from .multiplicity import Dependence as Dependence
    from .multiplicity import DependenceFit as DependenceFit
    from .multiplicity import Leaderboard as Leaderboard
    from .multiplicity import MaxSummary as MaxSummary
    from .multiplicity import SotaBatch as SotaBatch
    from .multiplicity import SotaEstimate as SotaEstimate
    from .multiplicity import dependence_fit as dependence_fit
    from .multiplicity import estimate_dependence as estimate_dependence
    from .multiplicity import estimate_sota as estimate_sota
    from .multiplicity import estimate_sota_batch as estimate_sota_batch
    from .multiplicity import read_leaderboard as read_leaderboard
    from .multiplicity import summarize_max as summarize_max
    from .multiplicity import summarize_max_auc as summarize_max_auc

__getattr__, __dir__, __all__ = attach(
    __name__,
    {
        ".multiplicity": [
            "multiplicity",
            "summarize_max",
            "summarize_max_auc",
            "MaxSummary",
            "estimate_sota",
            "estimate_sota_batch",
            "read_leaderboard",
            "SotaEstimate",
            "SotaBatch",
            "Leaderboard",
            "estimate_dependence",
            "dependence_fit",
            "Dependence",
            "DependenceFit",
        ],
        ".consistency": [
            "consistency",
            "check_report",
            "check_batch",
            "check_multiclass",
            "check_regression",
            "ReportVerdict",
            "BatchVerdict",
            "MulticlassResult",
            "RegressionResult",
        ],
        ".judging": [
            "judging",
            "estimate_test_size",
            "rank_candidates",
            "compare_candidates",
            "estimate_rank_uncertainty",
            "TestSize",
            "DifferenceTestSize",
            "Aggregation",
            "Comparison",
            "RankUncertainty",
            "evaluation_noise",
            "minimum_detectable_difference",
            "benchmark_noise_table",
            "EvaluationNoise",
            "BenchmarkNoiseTable",
        ],
        ".results": ["results"],
        "._per_item": ["PerItem", "read_per_item"],
        "._version": ["__version__"],
    },
)
