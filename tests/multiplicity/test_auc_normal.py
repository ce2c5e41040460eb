"""The normal approximation of the best empirical AUC (issue 16), checked against independent computations."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate, stats
from scipy.special import ndtr, ndtri
from scipy.stats import multivariate_normal

# private: the normal engine's building blocks, the subject of these tests (private since the front door's second
# pass), the split of a test set into positives and negatives, and the AUC estimator with its engine choice
from sotalib.multiplicity import _auc_normal as an
from sotalib.multiplicity import auc_variance, simulate_auc, summarize_max_auc
from sotalib.multiplicity._auc_model import n_positives
from sotalib.multiplicity._auc_normal import auc_normal_components, auc_skewness, normal_max_auc, normal_max_auc_cdf
from sotalib.multiplicity._sota_shrink_auc import shrink_auc


# ------------------------------------------------- (a) the shared factor, against a direct simulation
def _direct_aucs(aucs, n, prevalence, rho, reps, rng):
    """Empirical AUCs of classifiers correlated through one reference classifier, by ranks (reps, m).

    The model of ``_auc_kernels._max_u_correlated``, written out independently: positive ``i`` scores
    ``mu_j + rho z0_i + c e_ji``, negative ``k`` scores ``rho w0_k + c e_jk``.
    """
    n_pos, n_neg = n_positives(n, prevalence)
    c = math.sqrt(1 - rho * rho)
    gen = np.random.default_rng(rng)
    z0 = gen.standard_normal((reps, n_pos))
    w0 = gen.standard_normal((reps, n_neg))
    out = np.empty((reps, len(aucs)))
    for j, a in enumerate(aucs):
        mu = math.sqrt(2) * ndtri(a)
        pos = mu + rho * z0 + c * gen.standard_normal((reps, n_pos))
        neg = rho * w0 + c * gen.standard_normal((reps, n_neg))
        ranks = np.argsort(np.argsort(np.hstack([pos, neg]), axis=1), axis=1)[:, :n_pos] + 1
        out[:, j] = (ranks.sum(axis=1) - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)
    return out


@pytest.mark.parametrize("rho", [0.0, 0.6, 0.9])
def test_shared_factor_is_the_covariance_of_two_classifiers_on_one_test_set(rho):
    aucs, n, prev, reps = (0.88, 0.9), 2000, 0.3, 3000
    x = _direct_aucs(aucs, n, prev, rho, reps, rng=7)
    sd, beta, tau = auc_normal_components(np.array(aucs), n, prev, rho=rho)
    cov = np.cov(x.T)
    # standard error of a sample covariance of normals: sd1 sd2 sqrt((1 + r^2) / reps)
    r = beta[0] * beta[1] / (sd[0] * sd[1])
    se = sd[0] * sd[1] * math.sqrt((1 + r * r) / reps)
    assert abs(cov[0, 1] - beta[0] * beta[1]) < 4 * se
    for j in range(2):  # the variances are the exact U-statistic variance
        assert cov[j, j] == pytest.approx(sd[j] ** 2, rel=4 * math.sqrt(2 / reps))
    assert np.allclose(beta**2 + tau**2, sd**2, rtol=1e-12)
    if rho == 0.0:
        assert np.all(beta == 0.0)


def test_components_match_the_exact_variance_and_the_projection_at_rho_one():
    n_pos, n_neg = n_positives(5000, 0.2)
    for a in (0.55, 0.8, 0.97, 0.9999):
        sd, beta, tau = auc_normal_components(a, 5000, 0.2, rho=1.0)
        assert sd[0] ** 2 == pytest.approx(auc_variance(a, n_pos, n_neg), rel=1e-10)
        # rho = 1: the shared part is the whole projection, (1/n+ + 1/n-)(Q - A^2), Q the orthant at 1/2
        q = an._excess(np.array([a]), 0.5)[0]
        assert beta[0] ** 2 == pytest.approx((1 / n_pos + 1 / n_neg) * q, rel=1e-12)
    # the projection's variance by quadrature: Var Phi((mu + rho Z) / sqrt(1 + c^2))
    a, rho = 0.9, 0.6
    mu, c2 = math.sqrt(2) * ndtri(a), 1 - rho**2
    m1 = integrate.quad(lambda z: ndtr((mu + rho * z) / math.sqrt(1 + c2)) * math.exp(-z * z / 2), -12, 12)[0]
    m2 = integrate.quad(lambda z: ndtr((mu + rho * z) / math.sqrt(1 + c2)) ** 2 * math.exp(-z * z / 2), -12, 12)[0]
    s2pi = math.sqrt(2 * math.pi)
    var_a = m2 / s2pi - (m1 / s2pi) ** 2
    _, beta, _ = auc_normal_components(a, 5000, 0.2, rho=rho)
    assert beta[0] ** 2 == pytest.approx((1 / n_pos + 1 / n_neg) * var_a, rel=1e-9)


# ------------------------------------------------- (c) closed forms
def test_one_classifier_is_normal_with_the_exact_sd():
    n_pos, n_neg = n_positives(3000, 0.1)
    sd = math.sqrt(auc_variance(0.85, n_pos, n_neg))
    x = np.linspace(0.8, 0.9, 11)
    for rho in (0.0, 0.6, 0.95):  # at rho > 0 the integral over the shared factor gives back the marginal
        f = normal_max_auc_cdf(x, 0.85, 3000, 0.1, m=1, rho=rho, skew=False)
        assert np.allclose(f, ndtr((x - 0.85) / sd), rtol=1e-9, atol=1e-14)
        s = normal_max_auc(0.85, 3000, 0.1, m=1, rho=rho, alpha=0.1, skew=False)
        assert s.mean == pytest.approx(0.85, abs=1e-10 * sd)
        assert s.sd == pytest.approx(sd, rel=1e-8)
        assert s.ci_low == pytest.approx(0.85 + ndtri(0.05) * sd, abs=1e-7 * sd)
        assert s.ci_high == pytest.approx(0.85 + ndtri(0.95) * sd, abs=1e-7 * sd)


def _cornish_fisher_cdf(x, a, sd, gamma):
    """``P(A + sd (Y + g (Y^2 - 1)) <= x)``, ``Y ~ N(0, 1)``, ``g = gamma / 6 < 0``: the quadratic's root."""
    g = gamma / 6
    t = (x - a) / sd
    disc = 1 + 4 * g * (g + t)
    y = np.where(disc >= 0, (-1 + np.sqrt(np.maximum(disc, 0))) / (2 * g), np.inf)
    return ndtr(y)


def test_one_classifier_with_its_skewness_is_the_cornish_fisher_distribution():
    n_pos, n_neg = n_positives(1000, 0.1)
    sd = math.sqrt(auc_variance(0.9, n_pos, n_neg))
    gamma = float(auc_skewness(0.9, 1000, 0.1)[0])
    assert -0.3 < gamma < -0.2  # an AUC near 1 is skewed to the left
    x = np.linspace(0.85, 0.96, 23)
    want = _cornish_fisher_cdf(x, 0.9, sd, gamma)
    for rho in (0.0, 0.6):
        assert np.allclose(normal_max_auc_cdf(x, 0.9, 1000, 0.1, m=1, rho=rho), want, rtol=1e-9, atol=1e-14)
    # the mean is kept, the variance grows by 2 g^2 (g = gamma / 6)
    s = normal_max_auc(0.9, 1000, 0.1, m=1)
    assert s.mean == pytest.approx(0.9, abs=1e-9 * sd)
    assert s.sd == pytest.approx(sd * math.sqrt(1 + 2 * (gamma / 6) ** 2), rel=1e-7)


@pytest.mark.parametrize("auc,n,prevalence", [(0.9, 1000, 0.1), (0.7, 500, 0.2), (0.97, 3000, 0.05)])
def test_skewness_matches_the_simulated_auc(auc, n, prevalence):
    x = simulate_auc(auc, n, prevalence, n_resamples=100_000, rng=1)
    gamma = float(auc_skewness(auc, n, prevalence)[0])
    # standard error of a sample skewness: sqrt(6 / reps); the formula is exact to order 1/sqrt(n)
    assert abs(stats.skew(x) - gamma) < 4 * math.sqrt(6 / x.size) + 0.02


def test_independent_classifiers_multiply_and_their_moments_match_quadrature():
    aucs = np.array([0.9, 0.895, 0.89, 0.87, 0.7])
    n, prev = 4000, 0.25
    sd, _, _ = auc_normal_components(aucs, n, prev)
    x = np.linspace(0.88, 0.93, 21)
    want = np.prod(ndtr((x[:, None] - aucs) / sd), axis=1)
    assert np.allclose(normal_max_auc_cdf(x, aucs, n, prev, skew=False), want, rtol=1e-9, atol=1e-15)
    gamma = auc_skewness(aucs, n, prev)
    want = np.prod(_cornish_fisher_cdf(x[:, None], aucs, sd, gamma), axis=1)
    assert np.allclose(normal_max_auc_cdf(x, aucs, n, prev), want, rtol=1e-9, atol=1e-15)

    def cdf(t):
        return float(np.prod(ndtr((t - aucs) / sd)))

    lo, hi = 0.85, 0.95
    mean = lo + integrate.quad(lambda t: 1 - cdf(t), lo, hi, epsabs=1e-14)[0]
    m2 = integrate.quad(lambda t: 2 * (t - lo) * (1 - cdf(t)), lo, hi, epsabs=1e-14)[0]
    s = normal_max_auc(aucs, n, prev, skew=False)
    assert s.mean == pytest.approx(mean, abs=1e-9)
    assert s.sd == pytest.approx(math.sqrt(m2 - (mean - lo) ** 2), rel=1e-6)
    assert s.teams == 4  # the team at 0.7 cannot reach the maximum


def test_two_correlated_classifiers_match_the_bivariate_normal():
    aucs = np.array([0.9, 0.9])
    sd, beta, _ = auc_normal_components(aucs, 2000, 0.3, rho=0.8)
    r = beta[0] ** 2 / sd[0] ** 2
    mvn = multivariate_normal(mean=[0, 0], cov=[[1, r], [r, 1]])
    for a in (0.885, 0.9, 0.91):
        want = mvn.cdf([(a - 0.9) / sd[0]] * 2)
        assert normal_max_auc_cdf(a, aucs, 2000, 0.3, rho=0.8, skew=False)[0] == pytest.approx(want, abs=1e-6)


@pytest.mark.parametrize("rho", [0.6, 0.95])
def test_the_grids_have_converged(rho):
    aucs = 0.9 - np.abs(np.random.default_rng(3).normal(0, 0.004, 200))
    n_pos, n_neg = n_positives(20000, 0.3)
    model = an._Model.build(aucs, n_pos, n_neg, rho, True)
    z = model.zetas
    z4 = np.linspace(z[0], z[-1], 4 * (z.size - 1) + 1)
    w4 = np.exp(-z4 * z4 / 2)
    finer = an._Model(model.aucs, model.sd, model.g, model.beta, model.tau, z4, w4 / w4.sum(), model.counts)
    x = np.linspace(0.895, 0.915, 41)
    assert np.allclose(model.cdf(x), finer.cdf(x), atol=1e-9)
    # the a-grid: four times as many points change the mean and sd by under 1e-6 of the sd
    s = normal_max_auc(aucs, 20000, 0.3, rho=rho)
    old = an._FINE
    try:
        an._FINE = 4 * old
        s4 = normal_max_auc(aucs, 20000, 0.3, rho=rho)
    finally:
        an._FINE = old
    assert abs(s.mean - s4.mean) < 1e-6 * s.sd and abs(s.sd - s4.sd) < 1e-6 * s.sd
    assert abs(s.ci_high - s4.ci_high) < 1e-4 * s.sd


def test_extremes_stay_finite():
    s = normal_max_auc(0.9999, 200, 0.5, m=2000, rho=0.6)  # the normal tail crosses 1
    assert 0.99 < s.mean <= 1.0 and s.ci_high <= 1.0 and math.isfinite(s.sd)
    s = normal_max_auc(np.full(3000, 0.6), 10**7, 1e-4, rho=0.3)
    assert 0.6 < s.mean < 0.7 and s.ci_low < s.mean < s.ci_high


# ------------------------------------------------- (b) against the simulation
#: Allowed bias of the approximation's E max, in sd of the maximum, at 600 positives (scaled by
#: sqrt(600 / n_pos)).  Measured against the simulation: 0.01 (50 teams), 0.035 (500), 0.07 (3,000) at 600
#: positives; without the skewness correction 0.18, 0.46 and 0.77.
BIAS = {1: 0.02, 50: 0.05, 500: 0.08}


def _against_simulation(m, rho, n, reps):
    prev = 0.3
    n_pos, _ = n_positives(n, prev)
    sim = summarize_max_auc(n, m, 0.9, prev, rho=rho, engine="simulate", n_resamples=reps, rng=11)
    nor = summarize_max_auc(n, m, 0.9, prev, rho=rho, engine="normal")
    allow = BIAS[m] * math.sqrt(600 / n_pos) * sim.sd
    assert abs(nor.mean - sim.mean) < 4 * sim.se_mean + allow
    # the sd and the interval's ends: their Monte Carlo error is about that of the mean (normal maxima)
    assert abs(nor.sd - sim.sd) < 4 * sim.se_mean / math.sqrt(2) + 0.03 * sim.sd * math.sqrt(600 / n_pos)
    for end in ("ci_low", "ci_high"):  # a quantile's standard error is about 1.5 times the mean's here
        assert abs(getattr(nor, end) - getattr(sim, end)) < 6 * sim.se_mean + 2 * allow


@pytest.mark.parametrize("m,rho,n,reps", [(1, 0.0, 2000, 4000), (50, 0.0, 2000, 2000), (50, 0.6, 1000, 1000)])
def test_normal_maximum_agrees_with_the_simulation(m, rho, n, reps):
    _against_simulation(m, rho, n, reps)


@pytest.mark.slow
@pytest.mark.parametrize(
    "m,rho,n,reps", [(500, 0.0, 2000, 2000), (1, 0.6, 2000, 2000), (50, 0.6, 2000, 2000), (500, 0.6, 1000, 1000)]
)
def test_normal_maximum_agrees_with_the_simulation_on_many_teams(m, rho, n, reps):
    _against_simulation(m, rho, n, reps)


# ------------------------------------------------- (d), (e) the shrinkage estimator's engines
def test_shrink_auc_engines_agree_within_the_simulations_error():
    aucs = 0.9 - np.abs(np.random.default_rng(4).normal(0, 0.004, 30))
    n, prev = 20000, 0.05  # 1,000 positives
    sim = shrink_auc(aucs, n, prev, rng=3, engine="simulate")
    nor = shrink_auc(aucs, n, prev, engine="normal")
    assert sim.details["engine"] == "simulate" and nor.details["engine"] == "normal"
    assert "seed" not in nor.details and "se_mean" not in nor.details
    assert nor.details["accuracy"].startswith("normal approximation")
    se = sim.details["se_mean"]
    assert abs(nor.expected_max - sim.expected_max) < 4 * se  # both solve E max = the observed maximum
    # the estimate moves with E max (w enters as w * max + (1 - w)/2): the bias allowance of 30 teams is 0.05 sd
    sd_max = (sim.ci_high - sim.ci_low) / 3.92
    assert abs(nor.estimate - sim.estimate) < 4 * se + 0.05 * math.sqrt(600 / 1000) * sd_max
    assert nor.teams_above == int(np.sum(aucs > nor.estimate))


def test_auto_simulates_small_boards_with_todays_digits_and_approximates_large_ones():
    aucs = np.random.default_rng(2).uniform(0.7, 0.85, 30)
    auto = shrink_auc(aucs, 2000, 0.1, rng=9)
    assert auto.details["engine"] == "simulate"
    assert auto.to_dict() == shrink_auc(aucs, 2000, 0.1, rng=9, engine="simulate").to_dict()
    big = 0.9 - np.abs(np.random.default_rng(0).normal(0, 0.004, 300))
    est = shrink_auc(big, 10**6, 0.3, rho=0.6)
    assert est.details["engine"] == "normal" and est.solved
    assert est.to_dict() == shrink_auc(big, 10**6, 0.3, rho=0.6, engine="normal", rng=5).to_dict()  # no rng


def test_a_small_test_set_is_flagged_in_the_stated_accuracy():
    est = shrink_auc([0.8, 0.85, 0.9], 1000, 0.05, engine="normal")  # 50 positives
    assert "only 50 positives" in est.details["accuracy"] and "engine='simulate'" in est.details["accuracy"]
    assert "only" not in shrink_auc([0.8, 0.85, 0.9], 1000, 0.2, engine="normal").details["accuracy"]


@pytest.mark.parametrize("engine", ["Normal", "mc", "", None, 1])
def test_bad_engine_is_named(engine):
    with pytest.raises(ValueError, match="^engine must be one of 'auto', 'simulate', 'normal'"):
        shrink_auc([0.8, 0.9], 2000, 0.1, engine=engine)


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="^m must be given"):
        normal_max_auc(0.9, 2000, 0.3)
    with pytest.raises(ValueError, match="^auc must be in"):
        normal_max_auc([0.9, 1.0], 2000, 0.3)
    with pytest.raises(ValueError, match="^rho must be"):
        normal_max_auc(0.9, 2000, 0.3, m=3, rho=1.5)
    with pytest.raises(ValueError, match="^alpha must be"):
        normal_max_auc(0.9, 2000, 0.3, m=3, alpha=0.0)
    with pytest.raises(ValueError, match="^x must be"):
        normal_max_auc_cdf([np.nan], 0.9, 2000, 0.3, m=3)
