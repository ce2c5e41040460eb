"""The best of ``m`` classifiers and the state of the art (Møllersen & Holsbø).

The sample maximum of a leaderboard is a biased estimate of the state of the
art.  This subpackage computes its distribution exactly, for identical
independent classifiers (Section 3, Eq. 3), non-identical ones (Section 4.1)
and classifiers dependent through a reference classifier (Section 4.2,
Eqs. 6-8), for accuracy and for the ROC AUC (Section 5.2); it estimates the
state of the art from a leaderboard (Section 5) and reads leaderboard files.

Distributions of the best accuracy
----------------------------------
max_summary             -- mean, sd and interval of the best accuracy (the ``maxdist`` command)
iid_max_distribution    -- exact distribution for m identical independent classifiers (Eq. 3)
iid_bias_sd             -- its bias and sd over a grid of n, m, theta (Figure 4)
max_distribution        -- exact distribution for non-identical and dependent classifiers (Eqs. 6-8)
fixed_max_distribution  -- the same for given accuracies theta_1, ..., theta_m
simulate_max            -- Monte Carlo of the same models (an independent check)
MaxSummary, MaxDistribution, Summary -- the result types

The ROC AUC
-----------
expected_max_auc        -- distribution of the best empirical AUC (the ``auc-max`` command)
auc_distribution        -- exact distribution of one classifier's empirical AUC
MaxAUCSummary          -- its result type
normal_max_auc          -- the same by the normal approximation of the empirical AUCs (large test sets)
NormalMaxAUC            -- its result type; auc_normal_components, auc_skewness, normal_max_auc_cdf
simulate_max_auc, empirical_auc, binormal_auc, delong_variance, ...

The state of the art from a leaderboard
---------------------------------------

.. autosummary::

   estimate_sota
   SotaEstimate
   simulate_leaderboard

Leaderboard files
-----------------

.. autosummary::

   read_leaderboard
   read_kaggle_leaderboard
   read_meta_kaggle
   Leaderboard
"""

from .._lazy import attach

__getattr__, __dir__, __all__ = attach(
    __name__,
    {
        "._auc": [
            "AUCDistribution",
            "SKIP_TOL",
            "auc_distribution",
            "auc_variance",
            "binormal_auc",
            "binormal_mu_pos",
            "binormal_roc",
            "delong_variance",
            "empirical_auc",
            "expected_max_auc",
            "hanley_mcneil_variance",
            "MaxAUCSummary",
            "n_positives",
            "roc_curve_points",
            "simulate_auc",
            "simulate_auc_leaderboard",
            "simulate_max_auc",
            "simulate_scores",
        ],
        "._auc_normal": [
            "NORMAL_AUC_ACCURACY",
            "NormalMaxAUC",
            "auc_normal_components",
            "auc_skewness",
            "normal_max_auc",
            "normal_max_auc_cdf",
        ],
        "._binomial": ["clopper_pearson", "count_at_least", "log_cdf", "log_sf", "prob_at_least"],
        "._leaderboard": ["Leaderboard", "read_leaderboard", "read_kaggle_leaderboard", "read_meta_kaggle"],
        "._max_summary": ["MaxSummary", "max_summary"],
        "._maxdist": [
            "TAIL",
            "MaxDistribution",
            "iid_bias_sd",
            "iid_max_distribution",
            "max_cdf",
            "max_log_cdf",
            "max_pmf",
            "max_sf",
            "prob_any_at_least",
        ],
        "._noniid": [
            "DEFAULT_NODES",
            "Empirical",
            "PointMass",
            "Uniform",
            "check_feasible",
            "conditional_probs",
            "default_theta0",
            "expected_max_theta",
            "feasible",
            "feasible_interval",
            "fixed_max_distribution",
            "max_distribution",
            "rho_from_similarity",
            "similarity",
            "simulate_max",
            "uniform_for_sota",
        ],
        "._simulate": ["simulate_coin_flip_leaderboard", "simulate_iid_max", "simulate_iid_max_counts"],
        "._estimate": ["estimate_sota"],
        "._sota_result": ["SotaEstimate"],
        "._sota_model": ["simulate_leaderboard"],
        "._summary": ["Summary"],
    },
    deprecated={
        # the state-of-the-art estimators: one door, estimate_sota(method=...)
        "shrink": ("._shrink", "shrink", "sotalib.multiplicity.estimate_sota(..., method='shrink')"),
        "cap": ("._shrink", "cap", "sotalib.multiplicity.estimate_sota(..., method='cap')"),
        "crop": ("._crop", "crop", "sotalib.multiplicity.estimate_sota(..., method='crop')"),
        "crop_distribution": ("._crop", "crop_distribution"),
        "PAPER_GRID": ("._crop", "PAPER_GRID"),
        "naive": ("._observed", "naive", "sotalib.multiplicity.estimate_sota(..., method='naive')"),
        "observed": ("._observed", "observed", "sotalib.multiplicity.estimate_sota(..., method='observed')"),
        "observed_distribution": ("._observed", "observed_distribution"),
        "deconvolve": ("._deconvolve", "deconvolve", "sotalib.multiplicity.estimate_sota(..., method='deconvolve')"),
        "npmle": ("._deconvolve", "npmle"),
        "npmle_bin_width": ("._deconvolve", "npmle_bin_width"),
        "abc": ("._abc", "abc", "sotalib.multiplicity.estimate_sota(..., method='abc')"),
        "shrink_auc": ("._shrink_auc", "shrink_auc", "sotalib.multiplicity.estimate_sota(..., metric='auc')"),
        "auc_simulation_cost": ("._shrink_auc", "auc_simulation_cost"),
        "AUC_SIMULATION_LIMIT": ("._shrink_auc", "AUC_SIMULATION_LIMIT"),
        "AUC_ENGINES": ("._shrink_auc", "AUC_ENGINES"),
        "prepare": ("._sota_model", "prepare"),
        "RHO0": ("._sota_model", "RHO0"),
    },
)
