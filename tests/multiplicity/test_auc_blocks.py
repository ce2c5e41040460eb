"""The maximum AUC simulated in blocks: bounded memory for any m, the same distribution."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

# private: the simulation kernel and its block size (patched) are the subject: blocked equals whole
from sotalib.multiplicity import _auc_model
from sotalib.multiplicity import _auc_simulate as _auc


def test_blocked_classifiers_same_distribution(monkeypatch):
    """Classifiers split into blocks within a replication (m * n_pos above the chunk) vs all at once.

    Independent streams, so the two means agree within Monte Carlo error (4 standard errors).
    """
    mus, sp = _auc_model._standardized(np.full(200, 0.8), 1.0, 1.0)
    whole = _auc._simulate_max_u(mus, sp, 400, 0.1, 1500, np.random.default_rng(1), 0.0, "fixed")
    monkeypatch.setattr(_auc, "_CHUNK", 500)  # 40 positives: 12 classifiers per block, 17 blocks
    blocked = _auc._simulate_max_u(mus, sp, 400, 0.1, 1500, np.random.default_rng(2), 0.0, "fixed")
    se = np.sqrt(whole.var() / whole.size + blocked.var() / blocked.size)
    assert abs(whole.mean() - blocked.mean()) < 4 * se
    assert np.all((blocked > 0.5) & (blocked <= 1.0))


def test_blocks_do_not_change_small_problems(monkeypatch):
    """Below the chunk nothing changes: the same seed gives the same maxima as before (common random numbers)."""
    a = _auc.expected_max_auc(0.9, 3000, 0.017, m=1000, n_resamples=20, rng=1)
    monkeypatch.setattr(_auc, "_CHUNK", 2**22)
    b = _auc.expected_max_auc(0.9, 3000, 0.017, m=1000, n_resamples=20, rng=1)
    assert (a.mean, a.ci_low, a.ci_high) == (b.mean, b.ci_low, b.ci_high)


@pytest.mark.slow
def test_huge_m_memory_is_bounded():
    """auc-max with m = 2 x 10^6 (10^8 positive scores per challenge) needs under 512 MB more than m = 1,000.

    (It grew to 24 GB at m = 10^7.)  The small run comes first, so that the peak it sets includes
    the one-off cost of compiling the kernels (large on a cold Numba cache); what m adds is the rest.
    """
    code = (
        "import resource\n"
        "from sotalib.multiplicity import summarize_max_auc\n"
        "kw = dict(engine='simulate', n_resamples=2, rng=0, progress=False)\n"
        "summarize_max_auc(3000, 1000, 0.9, 0.017, **kw)\n"
        "base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "s = summarize_max_auc(3000, 2_000_000, 0.9, 0.017, **kw)\n"
        "assert 0.9 < s.mean < 1.0\n"
        "print(base, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    base, peak = map(int, out.split()[-2:])
    assert peak - base < 512 * 1024, (base, peak)  # KB
