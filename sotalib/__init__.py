"""sotalib: reading machine-learning leaderboards honestly.

The library behind the book *What is the state of the art?*.  It reproduces
and extends three papers; each has a subpackage, and the names a user needs
first are here at the top level.  The symbols follow the book's notation page.

The front door
--------------
Each command of the ``sotalib`` command line is one function here, with the
command's options as its arguments.  Each returns a small frozen result whose
``to_dict()`` is what ``sotalib COMMAND --json`` prints.

max_summary        -- the best accuracy of m classifiers on n items: iid, non-identical or
                      dependent, exact or Monte Carlo (``sotalib maxdist``)
expected_max_auc   -- the best ROC AUC of m classifiers (``sotalib auc-max``)
estimate_sota      -- the state of the art behind a leaderboard, every estimator and target,
                      accuracy or AUC (``sotalib sota``)
read_leaderboard   -- a leaderboard file in any format the command line reads
check_report       -- can reported scores come from the stated experiment? (``sotalib check``)
check_batch        -- the same for every row of a table of reports (``sotalib check --batch``)
check_multiclass   -- the same for a multiclass report: known class counts, micro/macro/weighted
                      scores (``sotalib check --classes``)
check_regression   -- can MAE, MSE, RMSE and R^2 come from n items? (``sotalib check --task regression``)
rank_candidates    -- one ranking from a candidates x judges score matrix (``sotalib rank``)
test_size          -- how many test items a precise error estimate needs (``sotalib testsize``)
compare            -- many candidates on many data sets: Friedman, Nemenyi, Wilcoxon-Holm (``sotalib compare``)
rank_uncertainty   -- score and rank intervals and P(first) by a paired bootstrap (``sotalib rank-uncertainty``)

Building blocks
---------------
iid_max_distribution, max_distribution -- exact distributions of the best accuracy
MaxDistribution, Summary               -- their result types
prob_at_least, prob_any_at_least, clopper_pearson -- one classifier, m classifiers, an interval

The papers
----------
multiplicity  -- Møllersen & Holsbø, *Accounting for multiplicity in machine learning benchmark
                 performance*: the best of m classifiers, the AUC, estimators of the state of the art
consistency   -- Fazekas & Kovács, *Testing the consistency of performance scores reported for
                 binary classification problems*: single test set, SoM, MoS, folds, typo finder;
                 multiclass and regression reports, several data sets
judging       -- Pavão, *How to judge a competition*: error bars, test-set size, staged
                 evaluation, ranking functions and their properties

Subpackages and their functions load on first use, so ``import sotalib`` is
instant.  Randomness is always one argument, ``rng``: an int seed or a
:class:`numpy.random.Generator`.  ``sotalib.book`` holds what only the book
needs (figures, cached experiments, reconstructions); it is not public API.
"""

from ._lazy import attach

__getattr__, __dir__, __all__ = attach(
    __name__,
    {
        ".multiplicity": [
            "multiplicity",
            "max_summary",
            "expected_max_auc",
            "estimate_sota",
            "read_leaderboard",
            "iid_max_distribution",
            "max_distribution",
            "MaxDistribution",
            "Summary",
            "prob_at_least",
            "prob_any_at_least",
            "clopper_pearson",
        ],
        ".consistency": ["consistency", "check_report", "check_batch", "check_multiclass", "check_regression"],
        ".judging": ["judging", "rank_candidates", "test_size", "compare", "rank_uncertainty"],
        "._version": ["__version__"],
    },
)
