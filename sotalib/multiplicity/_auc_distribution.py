"""The whole distribution of one classifier's empirical AUC (Section 5.2).

Conditional Monte Carlo for one classifier's distribution.  Given the
``n_neg`` negative scores, the positives are iid and each contributes the
number of negatives below it, whose pmf on ``{0, ..., n_neg}`` is known
exactly (the ``N(mu+, sigma+^2)`` mass between consecutive negative order
statistics).  ``U`` is the sum of ``n_pos`` iid copies, whose pmf is the
``n_pos``-fold convolution (one FFT).  Averaging these conditional pmfs over
simulated negative samples estimates the whole distribution of the empirical
AUC, tails included, with only the (small) variability due to the negatives
left to Monte Carlo.  For ``m`` independent identical classifiers the cdf of
the maximum is ``F^m``.

"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import fft as sfft
from scipy.special import ndtr

from .._result import Result
from .._rng import as_generator, seed_record
from .._validate import check_int, check_probability, check_real
from ._auc_model import _standardized, auc_variance, n_positives
from ._max_distribution import Summary
from ._max_iid import TAIL, MaxDistribution

__all__ = ["AUCDistribution", "auc_distribution"]


def _count_pmfs(w_sorted: np.ndarray, mu: float, sp: float) -> np.ndarray:
    """Pmf of ``C`` = number of negatives below one positive, given the negatives.

    Row ``b`` of ``w_sorted`` holds sorted negative scores; ``P(C = k)`` is the
    ``N(mu, sp^2)`` mass between the ``k``-th and ``(k+1)``-th of them.  Cdf
    differences below the positives' median, survival-function differences
    above it, so both tails keep their relative accuracy.
    """
    t = (w_sorted - mu) / sp
    b = t.shape[0]
    inf = np.full((b, 1), np.inf)
    t = np.hstack([-inf, t, inf])
    lo, hi = t[:, :-1], t[:, 1:]
    below = ndtr(hi) - ndtr(lo)
    above = ndtr(-lo) - ndtr(-hi)
    return np.where(lo >= 0.0, above, below)


@dataclass(frozen=True, eq=False, repr=False)
class AUCDistribution(Result):
    """Distribution of one classifier's empirical AUC, ``U / (n_pos n_neg)``.

    Returned by :func:`auc_distribution`; :meth:`max_distribution` and
    :meth:`max_summary` give the best of ``m`` independent copies.

    Attributes
    ----------
    n_pos, n_neg : int
        Numbers of positives and negatives of the test set.
    pmf : ndarray
        ``P(U = u)`` for ``u = 0, ..., n_pos n_neg``.
    batch_pmfs : ndarray
        The same from each of ``batches`` independent parts of the
        simulation, shape ``(batches, n_pos n_neg + 1)``: their spread gives
        the Monte Carlo error of anything computed from ``pmf``.
    n_resamples : int
        Number of simulated negative samples averaged over.
    seed : int or None
        The int seed given as ``rng`` (None for a Generator or fresh entropy).
    auc, var_true : float
        The true AUC and the exact variance of the empirical AUC
        (:func:`auc_variance`): the expectations of the control variates.
    """

    n_pos: int
    n_neg: int
    pmf: np.ndarray
    batch_pmfs: np.ndarray
    n_resamples: int
    seed: int | None
    auc: float
    var_true: float

    @property
    def grid(self) -> np.ndarray:
        """The possible AUCs ``u / (n_pos n_neg)``."""
        return np.arange(self.pmf.size) / (self.n_pos * self.n_neg)

    def mean(self) -> float:
        """Expected empirical AUC."""
        return float(np.dot(self.grid, self.pmf))

    def var(self) -> float:
        """Variance of the empirical AUC."""
        g = self.grid
        mu = np.dot(g, self.pmf)
        return float(np.dot((g - mu) ** 2, self.pmf))

    def max_distribution(self, m: int, *, pmf: np.ndarray | None = None) -> MaxDistribution:
        """Distribution of the maximum of ``m`` independent copies: cdf ``F^m``.

        Returned as a :class:`~sotalib.multiplicity._max_iid.MaxDistribution` of counts
        ``U`` with ``n = n_pos n_neg`` (so ``theta_hat`` is the AUC), on the
        window that holds all but ``TAIL`` of the probability at each end.
        """
        m = check_int("m", m, low=1)
        f = self.pmf if pmf is None else pmf
        cdf = np.minimum(np.cumsum(f), 1.0)
        sf = np.maximum(np.cumsum(f[::-1])[::-1] - f, 0.0)  # P(U > u)
        with np.errstate(divide="ignore"):
            log_f = np.where(sf < 0.5, np.log1p(-sf), np.log(cdf))
        log_fm = m * log_f
        lo = int(np.argmax(log_fm > math.log(TAIL)))
        upper = -np.expm1(log_fm) <= TAIL
        hi = int(np.argmax(upper)) if upper.any() else f.size - 1
        return MaxDistribution.from_log_cdf(self.n_pos * self.n_neg, lo, log_fm[lo : hi + 1], engine="simulate")

    def _max_stats(self, m: int, alpha: float, pmf: np.ndarray, control: bool) -> np.ndarray:
        """(mean, sd, ci_low, ci_high) of the maximum from one pmf estimate, optionally controlled."""
        s = self.max_distribution(m, pmf=pmf).summary(alpha)
        out = np.array([s.mean, s.sd, s.ci_low, s.ci_high])
        if not control:
            return out
        g = self.grid
        mean_hat = float(np.dot(g, pmf))
        sd_hat = float(np.sqrt(np.dot((g - mean_hat) ** 2, pmf)))
        sd_true = math.sqrt(self.var_true)
        # the estimated F errs mostly by a shift and a stretch: remove both
        for i in (0, 2, 3):
            out[i] = self.auc + (out[i] - mean_hat) * sd_true / sd_hat
        out[1] *= sd_true / sd_hat
        return out

    def max_summary(self, m: int, alpha: float = 0.05, *, control: bool = True) -> Summary:
        """Mean, sd and ``1 - alpha`` interval of the maximum of ``m``, with Monte Carlo error.

        With ``control`` (default) the two control variates whose expectations
        are known exactly -- the mean ``AUC`` and the variance
        :func:`auc_variance` of one classifier's empirical AUC -- correct the
        estimate: every statistic ``x`` of the maximum becomes
        ``AUC + (x - mean_hat) sd / sd_hat`` (and the sd is rescaled), which
        removes the shift and stretch that dominate the error of the
        simulated ``F``.  ``n_resamples`` is the number of simulated negative samples
        and ``se_mean`` the standard error of the mean from the spread over
        batches (see :meth:`max_summary_se`).
        """
        alpha = check_probability("alpha", alpha, open_low=True, open_high=True)
        st = self._max_stats(m, alpha, self.pmf, control)
        se = self.max_summary_se(m, alpha, control=control)
        return Summary(
            float(st[0]),
            float(st[1]),
            float(st[2]),
            float(st[3]),
            engine="simulate",
            n_resamples=self.n_resamples,
            se_mean=se["mean"],
            alpha=alpha,
        )

    def max_summary_se(self, m: int, alpha: float = 0.05, *, control: bool = True) -> dict:
        """Standard errors of the maximum's mean, sd and interval ends, from the spread over batches."""
        rows = np.array([self._max_stats(m, alpha, p, control) for p in self.batch_pmfs])
        se = rows.std(axis=0, ddof=1) / math.sqrt(rows.shape[0])
        return dict(zip(("mean", "sd", "ci_low", "ci_high"), map(float, se)))


def auc_distribution(
    auc: float,
    n: int,
    prevalence: float,
    *,
    n_resamples: int = 1000,
    rng: int | np.random.Generator | None = None,
    batches: int = 10,
    sigma_pos: float = 1.0,
    sigma_neg: float = 1.0,
) -> AUCDistribution:
    """Whole distribution of one binormal classifier's empirical AUC, by conditional Monte Carlo.

    Given the ``n_neg`` negative scores, the positives are iid and each
    contributes ``C`` = the number of negatives below it, with the exact pmf
    of :func:`_count_pmfs`; ``U`` is the sum of ``n_pos`` iid copies, whose pmf
    is the ``n_pos``-fold convolution, computed with one FFT.  Averaging over
    ``draws`` simulated negative samples gives an unbiased estimate of
    ``P(U = u)`` for every ``u`` -- tails included, where plain simulation
    sees nothing -- with only the negatives' (small) share of the variance
    left to chance.

    Parameters
    ----------
    auc : float
        True AUC, in ``(0, 1)``.
    n : int
        Test-set size (``round(n pi)`` positives, at least one of each class).
    prevalence : float
        Share of positives ``pi``, in ``(0, 1)``.
    n_resamples : int
        Number of simulated negative samples (a multiple of ``batches``).
    rng : int, numpy.random.Generator or None
        Source of randomness: an int seed (``numpy.random.default_rng(rng)``),
        a Generator (drawn from directly) or None (fresh entropy).
    batches : int
        Independent batches kept for the Monte Carlo error (>= 2).
    sigma_pos, sigma_neg : float
        Score standard deviations (``mu- = 0``), each ``> 0``.

    Returns
    -------
    AUCDistribution
        ``P(U = u)`` for every ``u``, with the batches' estimates.

    Raises
    ------
    ValueError
        If an argument is out of range, or ``n_pos n_neg`` exceeds ``2**26``
        (the FFT grid; use :func:`simulate_max_auc` then).

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 5.2, Eq. 10 (the binormal model).

    Examples
    --------
    >>> from sotalib.multiplicity import auc_distribution
    >>> d = auc_distribution(0.8, 200, 0.1, n_resamples=20, rng=1, batches=2)
    >>> round(d.mean(), 2), d.pmf.size
    (0.8, 3601)
    """
    auc = check_probability("auc", auc, open_low=True, open_high=True)
    n_pos, n_neg = n_positives(n, prevalence)
    batches = check_int("batches", batches, low=2)
    draws = check_int("n_resamples", n_resamples, low=batches)
    if draws % batches:
        raise ValueError(f"n_resamples must be a multiple of batches={batches}, got {draws}")
    if n_pos * n_neg > 2**26:
        raise ValueError(
            f"n_pos * n_neg must be at most 2**26 for the FFT grid of auc_distribution, got {n_pos} * {n_neg}; "
            "use simulate_max_auc"
        )
    mus, sp = _standardized(auc, sigma_pos, sigma_neg)
    mu = float(mus[0])
    size = n_pos * n_neg + 1
    nfft = sfft.next_fast_len(size, real=True)
    seed = seed_record(rng)
    rng = as_generator(rng)
    per_batch = draws // batches
    block = max(1, min(per_batch, 2**24 // nfft))
    batch_pmfs = np.zeros((batches, size))
    for b in range(batches):
        done = 0
        while done < per_batch:
            k = min(block, per_batch - done)
            w = np.sort(rng.standard_normal((k, n_neg)), axis=1)
            c = _count_pmfs(w, mu, sp)
            spec = sfft.rfft(c, nfft, axis=1) ** n_pos
            u = sfft.irfft(spec, nfft, axis=1)[:, :size]
            batch_pmfs[b] += np.clip(u, 0.0, None).sum(axis=0)
            done += k
        batch_pmfs[b] /= batch_pmfs[b].sum()
    sn = check_real("sigma_neg", sigma_neg, low=0.0, low_open=True)
    var_true = auc_variance(auc, n_pos, n_neg, sp * sn, sn)
    return AUCDistribution(n_pos, n_neg, batch_pmfs.mean(axis=0), batch_pmfs, draws, seed, auc, var_true)
