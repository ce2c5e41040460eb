"""Judging a competition (Pavão): error bars, test-set size, staged evaluation and rankings.

Error bars and test-set size
----------------------------
error_bars, bootstrap_interval, paired_bootstrap, bootstrap_coverage -- how precise is a score?
test_size           -- the rule of thumb n = 100/p and Guyon's formula (the ``testsize`` command)
guyon_size, rule_of_thumb_size, achieved_precision
variance_decomposition, ranking_stability, rank_sd_by_granularity, kendall_w

Rankings
--------
rank_candidates     -- fuse a candidates x judges score matrix into one ranking (the ``rank`` command)
read_scores         -- a score matrix from a CSV file (as ``sotalib rank --scores`` reads it)
mean_score, median_score, average_rank, weighted_average_rank, copeland, relative_difference,
random_dictator, kemeny_young -- the ranking functions of the paper's Section 3
condorcet_winner, pairwise_wins, kendall_tau_distance, kemeny_objective
property_table, search_counterexample -- which properties of social choice each function has

Comparing many candidates
-------------------------
compare             -- Demšar's procedure: average ranks, Friedman and Iman-Davenport tests, Nemenyi
                       critical difference and groups, Wilcoxon-Holm pairs (the ``compare`` command)
average_ranks, friedman_test, q_alpha, nemenyi_cd, nemenyi_groups, wilcoxon_signed_rank, holm,
pairwise_wilcoxon   -- its parts
plot_cd_diagram     -- the critical-difference diagram (needs matplotlib)
bayesian_signed_rank -- P(a better), P(equivalent), P(b better) with a region of practical equivalence

How sure is the ranking?
------------------------
rank_uncertainty    -- paired bootstrap of the test items: score and rank intervals, P(first)
                       (the ``rank-uncertainty --per-item`` command); read_per_item reads its CSV
bradley_terry       -- Bradley-Terry ratings of pairwise battles with bootstrap intervals
                       (``rank-uncertainty --battles``); read_battles reads its CSV
plot_rank_intervals -- each candidate's rank distribution and interval (needs matplotlib)

Staged evaluation
-----------------
ladder, simulate_public_private, boosting_attack, simulate_final_phase, winner_distribution_exact

Randomness is one argument, ``rng``: an int seed (the numbers of
``numpy.random.default_rng(int)``), a :class:`numpy.random.Generator`, or None.
Results of the front-door functions are frozen and have a JSON-safe ``to_dict()``.
"""

from .._lazy import attach

__getattr__, __dir__, __all__ = attach(
    __name__,
    {
        "._bayes": ["BayesianSignedRank", "bayesian_signed_rank"],
        "._bradley_terry": ["BattleFile", "TIE_WORDS", "bradley_terry", "bradley_terry_mle", "read_battles"],
        "._cd_diagram": ["plot_cd_diagram", "plot_rank_intervals"],
        "._compare": [
            "Comparison",
            "FriedmanTest",
            "Pairwise",
            "average_ranks",
            "compare",
            "friedman_test",
            "holm",
            "nemenyi_cd",
            "nemenyi_groups",
            "pairwise_wilcoxon",
            "q_alpha",
            "wilcoxon_signed_rank",
        ],
        "._errorbars": [
            "BootstrapInterval",
            "Coverage",
            "ErrorBars",
            "GranularityRanks",
            "PairedComparison",
            "VarianceDecomposition",
            "accuracy",
            "achieved_precision",
            "bootstrap_coverage",
            "bootstrap_interval",
            "cv_bootstrap_schema",
            "error_bars",
            "guyon_size",
            "kendall_w",
            "paired_bootstrap",
            "rank_sd_by_granularity",
            "ranking_stability",
            "rule_of_thumb_size",
            "variance_decomposition",
        ],
        "._properties": [
            "Counterexample",
            "FUNCTIONS",
            "PROPERTIES",
            "SearchResult",
            "format_counterexample",
            "outcomes",
            "property_table",
            "search_counterexample",
        ],
        "._ranking": [
            "Aggregation",
            "KemenyResult",
            "METHODS",
            "TIE_RTOL",
            "average_rank",
            "condorcet_winner",
            "copeland",
            "kemeny_objective",
            "kemeny_young",
            "kendall_tau_distance",
            "mean_score",
            "median_score",
            "pairwise_wins",
            "random_dictator",
            "rank",
            "rank_candidates",
            "read_scores",
            "relative_difference",
            "ScoreFile",
            "weighted_average_rank",
        ],
        "._staged": [
            "FinalPhase",
            "PublicPrivate",
            "boosting_attack",
            "ladder",
            "simulate_final_phase",
            "simulate_public_private",
            "winner_distribution_exact",
        ],
        "._testsize": ["TestSize", "test_size"],
        "._uncertainty": [
            "PerItemFile",
            "RankUncertainty",
            "bootstrap_scores",
            "rank_uncertainty",
            "read_per_item",
            "summarize_ranks",
        ],
    },
)
