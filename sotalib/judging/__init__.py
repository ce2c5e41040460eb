"""Judging a competition (Pavão): test-set size, error bars, staged evaluation, rankings and comparisons.

Pavão's *How to judge a competition* asks how precise a score is (Section 3:
error bars, the bootstrap, the test-set size), how a competition should be
staged (Section 3.3: public and private leaderboards, a final phase), and how
the scores of many judges make one ranking (Section 4: ranking functions and
their properties).  Chapter 8 of the book adds Demšar's (2006) comparison of
many candidates over many data sets, the Bayesian signed-rank test, bootstrap
rank intervals and Bradley--Terry ratings of pairwise battles.

Randomness is one argument, ``rng``: an int seed (the numbers of
``numpy.random.default_rng(int)``), a :class:`numpy.random.Generator`, or
None (fresh entropy).  Every result is a frozen dataclass with ``to_dict()``.

The front door
--------------
One function per command of the command line (``testsize``, ``rank``,
``compare``, ``rank-uncertainty``); ``result.to_dict()`` is what the command
prints with ``--json``.

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

Input files
-----------

.. autosummary::

   read_scores
   read_per_item
   read_battles
   ScoreFile
   PerItem
   BattleFile

How precise is a score?
-----------------------

.. autosummary::

   error_bars
   bootstrap_interval
   paired_bootstrap
   bootstrap_coverage
   achieved_precision
   ErrorBars
   BootstrapInterval
   PairedComparison
   Coverage

Noise of language-model evaluations
-----------------------------------

Wang (2025), *Measuring all the noises of LLM evals*, and Miller (2024),
*Adding error bars to evals*: data and prediction noise, paired standard
errors and exact tests of every pair, clustered standard errors.

.. autosummary::

   evaluation_noise
   minimum_detectable_difference
   benchmark_noise_table
   EvaluationNoise
   ModelNoise
   PairNoise
   NoiseSummary
   BenchmarkNoiseTable

How stable is a ranking?
------------------------

.. autosummary::

   variance_decomposition
   ranking_stability
   kendall_w
   rank_sd_by_granularity
   VarianceDecomposition
   GranularityRanks
   RankingStability

Staged evaluation
-----------------

.. autosummary::

   simulate_public_private
   boosting_attack
   simulate_final_phase
   winner_distribution_exact
   PublicPrivate
   BoostingAttack
   FinalPhase

Ranking functions and their properties
--------------------------------------
The other ranking functions are ``rank_candidates(scores, method)``.

.. autosummary::

   kemeny_young
   search_counterexample
   property_table
   KemenyResult
   SearchResult
   Counterexample

Comparing many candidates, and how sure a ranking is
----------------------------------------------------

.. autosummary::

   nemenyi_cd
   bayesian_signed_rank
   bradley_terry
   plot_cd_diagram
   plot_rank_intervals
   FriedmanTest
   Pairwise
   BayesianSignedRank
   BradleyTerry
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import attach

if TYPE_CHECKING:  # the names attach() loads lazily, for type checkers (the same list as below)
    from .._per_item import PerItem as PerItem
    from .._per_item import read_per_item as read_per_item
    from ._bayes import BayesianSignedRank as BayesianSignedRank
    from ._bayes import bayesian_signed_rank as bayesian_signed_rank
    from ._bradley_terry import BradleyTerry as BradleyTerry
    from ._bradley_terry import bradley_terry as bradley_terry
    from ._cd_diagram import plot_cd_diagram as plot_cd_diagram
    from ._cd_diagram import plot_rank_intervals as plot_rank_intervals
    from ._compare import Comparison as Comparison
    from ._compare import FriedmanTest as FriedmanTest
    from ._compare import compare_candidates as compare_candidates
    from ._compare import nemenyi_cd as nemenyi_cd
    from ._errorbars import BootstrapInterval as BootstrapInterval
    from ._errorbars import Coverage as Coverage
    from ._errorbars import ErrorBars as ErrorBars
    from ._errorbars import PairedComparison as PairedComparison
    from ._errorbars import bootstrap_coverage as bootstrap_coverage
    from ._errorbars import bootstrap_interval as bootstrap_interval
    from ._errorbars import error_bars as error_bars
    from ._errorbars import paired_bootstrap as paired_bootstrap
    from ._eval_noise import BenchmarkNoiseTable as BenchmarkNoiseTable
    from ._eval_noise import EvaluationNoise as EvaluationNoise
    from ._eval_noise import ModelNoise as ModelNoise
    from ._eval_noise import NoiseSummary as NoiseSummary
    from ._eval_noise import PairNoise as PairNoise
    from ._eval_noise import benchmark_noise_table as benchmark_noise_table
    from ._eval_noise import evaluation_noise as evaluation_noise
    from ._eval_noise import minimum_detectable_difference as minimum_detectable_difference
    from ._kemeny import KemenyResult as KemenyResult
    from ._kemeny import kemeny_young as kemeny_young
    from ._properties import SearchResult as SearchResult
    from ._properties import property_table as property_table
    from ._properties import search_counterexample as search_counterexample
    from ._property_checks import Counterexample as Counterexample
    from ._ranking import Aggregation as Aggregation
    from ._ranking import rank_candidates as rank_candidates
    from ._readers import BattleFile as BattleFile
    from ._readers import ScoreFile as ScoreFile
    from ._readers import read_battles as read_battles
    from ._readers import read_scores as read_scores
    from ._sizes import achieved_precision as achieved_precision
    from ._stability import GranularityRanks as GranularityRanks
    from ._stability import RankingStability as RankingStability
    from ._stability import VarianceDecomposition as VarianceDecomposition
    from ._stability import kendall_w as kendall_w
    from ._stability import rank_sd_by_granularity as rank_sd_by_granularity
    from ._stability import ranking_stability as ranking_stability
    from ._stability import variance_decomposition as variance_decomposition
    from ._staged import BoostingAttack as BoostingAttack
    from ._staged import FinalPhase as FinalPhase
    from ._staged import PublicPrivate as PublicPrivate
    from ._staged import boosting_attack as boosting_attack
    from ._staged import simulate_final_phase as simulate_final_phase
    from ._staged import simulate_public_private as simulate_public_private
    from ._staged import winner_distribution_exact as winner_distribution_exact
    from ._testsize import DifferenceTestSize as DifferenceTestSize
    from ._testsize import TestSize as TestSize
    from ._testsize import estimate_test_size as estimate_test_size
    from ._uncertainty import RankUncertainty as RankUncertainty
    from ._uncertainty import estimate_rank_uncertainty as estimate_rank_uncertainty
    from ._wilcoxon import Pairwise as Pairwise

__getattr__, __dir__, __all__ = attach(
    __name__,
    {
        "._testsize": ["TestSize", "DifferenceTestSize", "estimate_test_size"],
        "._ranking": ["Aggregation", "rank_candidates"],
        "._compare": ["Comparison", "FriedmanTest", "compare_candidates", "nemenyi_cd"],
        "._wilcoxon": ["Pairwise"],
        "._uncertainty": ["RankUncertainty", "estimate_rank_uncertainty"],
        "._readers": ["BattleFile", "ScoreFile", "read_battles", "read_scores"],
        ".._per_item": ["PerItem", "read_per_item"],
        "._errorbars": [
            "BootstrapInterval",
            "Coverage",
            "ErrorBars",
            "PairedComparison",
            "bootstrap_coverage",
            "bootstrap_interval",
            "error_bars",
            "paired_bootstrap",
        ],
        "._sizes": ["achieved_precision"],
        "._eval_noise": [
            "BenchmarkNoiseTable",
            "EvaluationNoise",
            "ModelNoise",
            "NoiseSummary",
            "PairNoise",
            "benchmark_noise_table",
            "evaluation_noise",
            "minimum_detectable_difference",
        ],
        "._stability": [
            "GranularityRanks",
            "RankingStability",
            "VarianceDecomposition",
            "kendall_w",
            "rank_sd_by_granularity",
            "ranking_stability",
            "variance_decomposition",
        ],
        "._staged": [
            "BoostingAttack",
            "FinalPhase",
            "PublicPrivate",
            "boosting_attack",
            "simulate_final_phase",
            "simulate_public_private",
            "winner_distribution_exact",
        ],
        "._kemeny": ["KemenyResult", "kemeny_young"],
        "._properties": ["SearchResult", "property_table", "search_counterexample"],
        "._property_checks": ["Counterexample"],
        "._bayes": ["BayesianSignedRank", "bayesian_signed_rank"],
        "._bradley_terry": ["BradleyTerry", "bradley_terry"],
        "._cd_diagram": ["plot_cd_diagram", "plot_rank_intervals"],
    },
)
