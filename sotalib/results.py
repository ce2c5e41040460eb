"""Every result sotalib returns, in one place.

A function of sotalib that answers a question returns a small frozen
dataclass: a *result*.  Results are made by the functions, not by hand:
read their fields, call ``to_dict()`` for JSON-safe values (what
``sotalib COMMAND --json`` prints) and ``to_text()`` for the lines the
command prints without ``--json``; their repr fits on a screen, and a
notebook shows them as a small table.  All of them inherit one base,
whose methods are described once here:

``to_dict()``
    The fields as JSON-safe Python values: no NaN, no infinity (a missing
    number is None), no NumPy types, so ``json.dumps(result.to_dict(),
    allow_nan=False)`` never fails.
``to_text()``
    The result in words and numbers, one line per fact: for the results of
    the front door, exactly what the command prints; for the others, one
    line per scalar field.

This page is the list, as SciPy lists the results of :mod:`scipy.stats`
on one page; each class is also importable from the package whose function
returns it (``sotalib.MaxSummary`` is ``sotalib.results.MaxSummary``), and
a test holds that every public function returning a class returns one listed
here.

The front door
--------------
What the functions of ``sotalib`` (and the commands of the command line)
return.

.. autosummary::

   MaxSummary
   SotaEstimate
   SotaBatch
   Dependence
   DependenceFit
   ReportVerdict
   BatchVerdict
   MulticlassResult
   RegressionResult
   TestSize
   DifferenceTestSize
   Aggregation
   Comparison
   RankUncertainty

Data read from files
--------------------

.. autosummary::

   Leaderboard
   ScoreFile
   PerItem
   BattleFile
   Dataset
   Benchmark

The best of m classifiers
-------------------------

.. autosummary::

   MaxDistribution
   Summary
   AUCDistribution
   MaxDifference

Can reported scores be right?
-----------------------------

.. autosummary::

   SingleResult
   MosResult
   MosSearch
   KFoldMosResult
   TwoLevelResult
   Suggestion
   PowerPoint

Judging a competition
---------------------

.. autosummary::

   ErrorBars
   RankingStability
   BradleyTerry
   BoostingAttack
   BootstrapInterval
   PairedComparison
   Coverage
   VarianceDecomposition
   GranularityRanks
   PublicPrivate
   FinalPhase
   KemenyResult
   SearchResult
   Counterexample
   FriedmanTest
   Pairwise
   BayesianSignedRank

Noise of language-model evaluations
-----------------------------------

.. autosummary::

   EvaluationNoise
   ModelNoise
   PairNoise
   NoiseSummary
   BenchmarkNoiseTable
"""

from typing import TYPE_CHECKING

from ._lazy import attach

if TYPE_CHECKING:  # the names attach() loads lazily, for type checkers (the same list as below)
    from .consistency import BatchVerdict as BatchVerdict
    from .consistency import Benchmark as Benchmark
    from .consistency import Dataset as Dataset
    from .consistency import KFoldMosResult as KFoldMosResult
    from .consistency import MosResult as MosResult
    from .consistency import MosSearch as MosSearch
    from .consistency import MulticlassResult as MulticlassResult
    from .consistency import PowerPoint as PowerPoint
    from .consistency import RegressionResult as RegressionResult
    from .consistency import ReportVerdict as ReportVerdict
    from .consistency import SingleResult as SingleResult
    from .consistency import Suggestion as Suggestion
    from .consistency import TwoLevelResult as TwoLevelResult
    from .judging import Aggregation as Aggregation
    from .judging import BattleFile as BattleFile
    from .judging import BayesianSignedRank as BayesianSignedRank
    from .judging import BenchmarkNoiseTable as BenchmarkNoiseTable
    from .judging import BoostingAttack as BoostingAttack
    from .judging import BootstrapInterval as BootstrapInterval
    from .judging import BradleyTerry as BradleyTerry
    from .judging import Comparison as Comparison
    from .judging import Counterexample as Counterexample
    from .judging import Coverage as Coverage
    from .judging import DifferenceTestSize as DifferenceTestSize
    from .judging import ErrorBars as ErrorBars
    from .judging import EvaluationNoise as EvaluationNoise
    from .judging import FinalPhase as FinalPhase
    from .judging import FriedmanTest as FriedmanTest
    from .judging import GranularityRanks as GranularityRanks
    from .judging import KemenyResult as KemenyResult
    from .judging import ModelNoise as ModelNoise
    from .judging import NoiseSummary as NoiseSummary
    from .judging import PairedComparison as PairedComparison
    from .judging import PairNoise as PairNoise
    from .judging import Pairwise as Pairwise
    from .judging import PerItem as PerItem
    from .judging import PublicPrivate as PublicPrivate
    from .judging import RankingStability as RankingStability
    from .judging import RankUncertainty as RankUncertainty
    from .judging import ScoreFile as ScoreFile
    from .judging import SearchResult as SearchResult
    from .judging import TestSize as TestSize
    from .judging import VarianceDecomposition as VarianceDecomposition
    from .multiplicity import AUCDistribution as AUCDistribution
    from .multiplicity import Dependence as Dependence
    from .multiplicity import DependenceFit as DependenceFit
    from .multiplicity import Leaderboard as Leaderboard
    from .multiplicity import MaxDifference as MaxDifference
    from .multiplicity import MaxDistribution as MaxDistribution
    from .multiplicity import MaxSummary as MaxSummary
    from .multiplicity import SotaBatch as SotaBatch
    from .multiplicity import SotaEstimate as SotaEstimate
    from .multiplicity import Summary as Summary

# each name loads from the public package that exports it (absolute names: this is a module, not a package)
__getattr__, __dir__, __all__ = attach(
    __name__,
    {
        "sotalib.multiplicity": [
            "MaxSummary",
            "SotaEstimate",
            "SotaBatch",
            "Dependence",
            "DependenceFit",
            "Leaderboard",
            "MaxDistribution",
            "Summary",
            "AUCDistribution",
            "MaxDifference",
        ],
        "sotalib.consistency": [
            "ReportVerdict",
            "BatchVerdict",
            "MulticlassResult",
            "RegressionResult",
            "Dataset",
            "Benchmark",
            "SingleResult",
            "MosResult",
            "MosSearch",
            "KFoldMosResult",
            "TwoLevelResult",
            "Suggestion",
            "PowerPoint",
        ],
        "sotalib.judging": [
            "TestSize",
            "DifferenceTestSize",
            "Aggregation",
            "Comparison",
            "RankUncertainty",
            "ScoreFile",
            "PerItem",
            "RankingStability",
            "BradleyTerry",
            "BoostingAttack",
            "BattleFile",
            "ErrorBars",
            "BootstrapInterval",
            "PairedComparison",
            "Coverage",
            "VarianceDecomposition",
            "GranularityRanks",
            "PublicPrivate",
            "FinalPhase",
            "KemenyResult",
            "SearchResult",
            "Counterexample",
            "FriedmanTest",
            "Pairwise",
            "BayesianSignedRank",
            "EvaluationNoise",
            "ModelNoise",
            "PairNoise",
            "NoiseSummary",
            "BenchmarkNoiseTable",
        ],
    },
)
