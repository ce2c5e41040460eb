"""The dependence measured item by item: estimate_dependence beside a plain NumPy loop over resamples."""

import numpy as np

from sotalib.multiplicity import estimate_dependence, simulate_per_item
from sotalib.multiplicity._dependence_measure import _parameters

from ._harness import Case

#: 30 models x 12,000 items under the paper's model (rho0 = 0.6, theta0 = 0.6): the size of MMLU-Pro.
THETA = np.random.default_rng(2024).uniform(0.4, 0.8, 30)
Y = simulate_per_item(12_000, THETA, rho=0.6, theta0=0.6, rng=1)


def plain_numpy(Y: np.ndarray, n_resamples: int, seed: int) -> tuple[float, float]:
    """The same estimator, one resample at a time: resample the rows, standardise, sum the pairs and triples."""
    gen = np.random.default_rng(seed)
    n, m = Y.shape
    rho = np.empty(n_resamples)
    th0 = np.empty(n_resamples)
    for b in range(n_resamples):
        Yb = Y[gen.integers(0, n, n)]
        Z = (Yb - Yb.mean(0)) / Yb.std(0)
        e1, p2, p3 = Z.sum(1), (Z * Z).sum(1), (Z**3).sum(1)
        phi = np.mean(e1 * e1 - p2) / (m * (m - 1))
        tau = np.mean(e1**3 - 3 * e1 * p2 + 2 * p3) / (m * (m - 1) * (m - 2))
        r, t = _parameters(np.array([phi]), np.array([tau]))
        rho[b], th0[b] = r[0], t[0]
    return tuple(np.quantile(rho, [0.025, 0.975]))


_d = estimate_dependence(Y, n_resamples=1000, rng=2)

CASES = [
    Case(
        "dependence (rho0, theta0): 30 models x 12,000 items, 1,000 bootstrap resamples",
        lambda: estimate_dependence(Y, n_resamples=1000, rng=2),
        target=10.0,
        repeat=3,
        reference=lambda: plain_numpy(Y.outcomes, 1000, 2),
        reference_name="plain NumPy loop over resamples",
        note=f"rho0 {_d.rho0:.4f} [{_d.rho0_low:.4f}, {_d.rho0_high:.4f}], theta0 {_d.theta0:.4f} (true 0.6, 0.6)",
    ),
]
