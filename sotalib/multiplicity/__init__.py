"""The best of ``m`` classifiers and the state of the art (Møllersen & Holsbø).

The sample maximum of a leaderboard is a biased estimate of the state of the
art.  This subpackage computes its distribution exactly, for identical
independent classifiers (Section 3, Eq. 3), non-identical ones (Section 4.1)
and classifiers dependent through a reference classifier (Section 4.2,
Eqs. 6-8), for accuracy and for the ROC AUC (Section 5.2); it estimates the
state of the art from a leaderboard (Section 5) and reads leaderboard files.

The best score in one call
--------------------------

.. autosummary::

   summarize_max
   summarize_max_auc
   MaxSummary
   AUC_SECONDS_PER_SCORE

One classifier
--------------

.. autosummary::

   prob_at_least
   clopper_pearson

The best of m classifiers
-------------------------

.. autosummary::

   iid_max_distribution
   iid_bias_sd
   prob_any_at_least
   expected_max_extreme_value
   max_distribution
   fixed_max_distribution
   MaxDistribution
   Summary

Non-identical and dependent classifiers: the model's settings
-------------------------------------------------------------

.. autosummary::

   Uniform
   PointMass
   Empirical
   uniform_for_sota
   conditional_probs
   feasible
   feasible_interval
   similarity
   rho_from_similarity

The dependence measured item by item
------------------------------------

.. autosummary::

   estimate_dependence
   dependence_fit
   simulate_per_item
   Dependence
   DependenceFit
   PerItem
   read_per_item

Simulation (the independent check)
----------------------------------

.. autosummary::

   simulate_coin_flip_leaderboard
   simulate_iid_max_counts
   simulate_iid_max
   simulate_max

The ROC AUC
-----------

.. autosummary::

   empirical_auc
   binormal_auc
   binormal_mu_pos
   binormal_roc
   roc_curve_points
   auc_variance
   hanley_mcneil_variance
   delong_variance
   simulate_scores
   simulate_auc
   simulate_max_auc
   simulate_auc_leaderboard
   auc_distribution
   AUCDistribution

The state of the art from a leaderboard
---------------------------------------

.. autosummary::

   estimate_sota
   estimate_sota_batch
   SotaEstimate
   SotaBatch
   SOTA_METHODS
   SOTA_METHOD_OPTIONS
   simulate_leaderboard

The public board against the private board
------------------------------------------

.. autosummary::

   summarize_max_difference
   MaxDifference

Leaderboard files
-----------------

.. autosummary::

   read_leaderboard
   read_kaggle_leaderboard
   read_meta_kaggle
   Leaderboard
   possible_n
"""

from typing import TYPE_CHECKING

from .._lazy import attach

if TYPE_CHECKING:  # the names attach() loads lazily, for type checkers (the same list as below)
    from .._per_item import PerItem as PerItem
    from .._per_item import read_per_item as read_per_item
    from ._auc_distribution import AUCDistribution as AUCDistribution
    from ._auc_distribution import auc_distribution as auc_distribution
    from ._auc_model import auc_variance as auc_variance
    from ._auc_model import binormal_auc as binormal_auc
    from ._auc_model import binormal_mu_pos as binormal_mu_pos
    from ._auc_model import binormal_roc as binormal_roc
    from ._auc_model import delong_variance as delong_variance
    from ._auc_model import empirical_auc as empirical_auc
    from ._auc_model import hanley_mcneil_variance as hanley_mcneil_variance
    from ._auc_model import roc_curve_points as roc_curve_points
    from ._auc_model import simulate_scores as simulate_scores
    from ._auc_simulate import simulate_auc as simulate_auc
    from ._auc_simulate import simulate_auc_leaderboard as simulate_auc_leaderboard
    from ._auc_simulate import simulate_max_auc as simulate_max_auc
    from ._binomial import clopper_pearson as clopper_pearson
    from ._binomial import prob_at_least as prob_at_least
    from ._dependence_measure import Dependence as Dependence
    from ._dependence_measure import DependenceFit as DependenceFit
    from ._dependence_measure import dependence_fit as dependence_fit
    from ._dependence_measure import estimate_dependence as estimate_dependence
    from ._dependence_measure import simulate_per_item as simulate_per_item
    from ._dependence_model import conditional_probs as conditional_probs
    from ._dependence_model import feasible as feasible
    from ._dependence_model import feasible_interval as feasible_interval
    from ._dependence_model import rho_from_similarity as rho_from_similarity
    from ._dependence_model import similarity as similarity
    from ._extreme_value import expected_max_extreme_value as expected_max_extreme_value
    from ._leaderboard import Leaderboard as Leaderboard
    from ._leaderboard import read_kaggle_leaderboard as read_kaggle_leaderboard
    from ._leaderboard import read_leaderboard as read_leaderboard
    from ._leaderboard import read_meta_kaggle as read_meta_kaggle
    from ._max_dependent import fixed_max_distribution as fixed_max_distribution
    from ._max_dependent import max_distribution as max_distribution
    from ._max_difference import MaxDifference as MaxDifference
    from ._max_difference import summarize_max_difference as summarize_max_difference
    from ._max_distribution import Summary as Summary
    from ._max_iid import MaxDistribution as MaxDistribution
    from ._max_iid import iid_bias_sd as iid_bias_sd
    from ._max_iid import iid_max_distribution as iid_max_distribution
    from ._max_iid import prob_any_at_least as prob_any_at_least
    from ._max_summary import AUC_SECONDS_PER_SCORE as AUC_SECONDS_PER_SCORE
    from ._max_summary import MaxSummary as MaxSummary
    from ._max_summary import summarize_max as summarize_max
    from ._max_summary import summarize_max_auc as summarize_max_auc
    from ._possible_n import possible_n as possible_n
    from ._simulate import simulate_coin_flip_leaderboard as simulate_coin_flip_leaderboard
    from ._simulate import simulate_iid_max as simulate_iid_max
    from ._simulate import simulate_iid_max_counts as simulate_iid_max_counts
    from ._simulate import simulate_max as simulate_max
    from ._sota_batch import SotaBatch as SotaBatch
    from ._sota_batch import estimate_sota_batch as estimate_sota_batch
    from ._sota_estimate import estimate_sota as estimate_sota
    from ._sota_methods import SOTA_METHOD_OPTIONS as SOTA_METHOD_OPTIONS
    from ._sota_methods import SOTA_METHODS as SOTA_METHODS
    from ._sota_model import simulate_leaderboard as simulate_leaderboard
    from ._sota_result import SotaEstimate as SotaEstimate
    from ._theta_dist import Empirical as Empirical
    from ._theta_dist import PointMass as PointMass
    from ._theta_dist import Uniform as Uniform
    from ._theta_dist import uniform_for_sota as uniform_for_sota

__getattr__, __dir__, __all__ = attach(
    __name__,
    {
        "._auc_distribution": ["AUCDistribution", "auc_distribution"],
        "._auc_model": [
            "auc_variance",
            "binormal_auc",
            "binormal_mu_pos",
            "binormal_roc",
            "delong_variance",
            "empirical_auc",
            "hanley_mcneil_variance",
            "roc_curve_points",
            "simulate_scores",
        ],
        "._auc_simulate": ["simulate_auc", "simulate_auc_leaderboard", "simulate_max_auc"],
        "._binomial": ["clopper_pearson", "prob_at_least"],
        "._leaderboard": ["Leaderboard", "read_leaderboard", "read_kaggle_leaderboard", "read_meta_kaggle"],
        "._max_summary": ["AUC_SECONDS_PER_SCORE", "MaxSummary", "summarize_max", "summarize_max_auc"],
        "._max_difference": ["MaxDifference", "summarize_max_difference"],
        "._extreme_value": ["expected_max_extreme_value"],
        "._max_iid": ["MaxDistribution", "iid_bias_sd", "iid_max_distribution", "prob_any_at_least"],
        "._dependence_model": [
            "conditional_probs",
            "feasible",
            "feasible_interval",
            "rho_from_similarity",
            "similarity",
        ],
        "._max_dependent": ["fixed_max_distribution", "max_distribution"],
        "._theta_dist": ["Empirical", "PointMass", "Uniform", "uniform_for_sota"],
        "._simulate": ["simulate_coin_flip_leaderboard", "simulate_iid_max", "simulate_iid_max_counts", "simulate_max"],
        "._max_distribution": ["Summary"],
        "._possible_n": ["possible_n"],
        "._dependence_measure": [
            "Dependence",
            "DependenceFit",
            "dependence_fit",
            "estimate_dependence",
            "simulate_per_item",
        ],
        "._sota_estimate": ["estimate_sota"],
        ".._per_item": ["PerItem", "read_per_item"],
        "._sota_result": ["SotaEstimate"],
        "._sota_batch": ["SotaBatch", "estimate_sota_batch"],
        "._sota_model": ["simulate_leaderboard"],
        "._sota_methods": ["SOTA_METHODS", "SOTA_METHOD_OPTIONS"],
    },
)
