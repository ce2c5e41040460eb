"""Issue 33: error bars and every pair of a language-model board (evaluation_noise), beside a plain implementation.

The reference computes what eval-arena computes, pair by pair with NumPy (its
``Paired.from_bernoulli_prob`` and ``binomtest`` per pair), on a board small
enough for a loop; the large boards are timed against the issue's targets
(1,000 models x 1,000 items with every pair in under 10 s; 4,500 x 12,000,
the Open LLM Leaderboard's size on MMLU-Pro, summary only, in under a minute).
"""

import numpy as np
from scipy import stats

from sotalib import PerItem
from sotalib.judging import evaluation_noise

from ._harness import Case


def _board(n: int, m: int, seed: int) -> PerItem:
    rng = np.random.default_rng(seed)
    skill = rng.uniform(-1.5, 1.5, m).astype(np.float32)
    ease = rng.normal(0, 1.5, n).astype(np.float32)
    p = 1 / (1 + np.exp(-(ease[:, None] + skill[None, :])))
    return PerItem((rng.random((n, m), dtype=np.float32) < p).astype(np.float64))


def _plain_pairs(y: np.ndarray) -> list:
    """Every pair, one at a time, as eval-arena writes it (se, corr, sign test)."""
    n, m = y.shape
    out = []
    for a in range(m):
        for b in range(a + 1, m):
            pa, pb = y[:, a], y[:, b]
            cov = np.mean((pa - pa.mean()) * (pb - pb.mean()))
            var = pa.mean() * (1 - pa.mean()) + pb.mean() * (1 - pb.mean()) - 2 * cov
            wa, wb = int(np.sum(pa * (1 - pb))), int(np.sum((1 - pa) * pb))
            p = stats.binomtest(wa, wa + wb, 0.5).pvalue if wa + wb else 1.0
            out.append((np.sqrt(var / n), np.corrcoef(pa, pb)[0, 1], p))
    return out


SMALL = _board(1_000, 60, 1)
MEDIUM = _board(1_000, 1_000, 2)
LARGE = _board(12_000, 4_500, 3)

CASES = [
    Case(
        "evaluation_noise, every pair: 1,000 items x 60 models (1,770 pairs)",
        lambda: evaluation_noise(SMALL),
        target=0.5,
        repeat=3,
        reference=lambda: _plain_pairs(SMALL.outcomes),
        reference_name="NumPy pair by pair",
    ),
    Case(
        "evaluation_noise, every pair: 1,000 items x 1,000 models (499,500 pairs)",
        lambda: evaluation_noise(MEDIUM),
        target=10.0,
        repeat=1,
    ),
    Case(
        "evaluation_noise, summary only: 12,000 items x 4,500 models (10.1 M pairs)",
        lambda: evaluation_noise(LARGE, pairs=False),
        target=60.0,
        repeat=1,
        warmup=False,
        note="about 0.5 GB besides the 0.43 GB table (tracemalloc)",
    ),
]
