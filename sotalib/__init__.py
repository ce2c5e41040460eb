"""sotalib: reading machine-learning leaderboards honestly.

The library behind the book *What is the state of the art?*: exact
distributions of the best score on a leaderboard, estimators of the state of
the art, consistency tests for reported scores and tools for judging a
competition.  See the book's notation page for the symbols used throughout.
"""

from .binomial import clopper_pearson, prob_at_least
from .maxdist import MaxDistribution, iid_max_distribution, prob_any_at_least
from .summary import Summary

__version__ = "0.1.0"

__all__ = [
    "MaxDistribution",
    "Summary",
    "clopper_pearson",
    "iid_max_distribution",
    "prob_any_at_least",
    "prob_at_least",
    "__version__",
]
