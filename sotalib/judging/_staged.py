"""Staged evaluation: public and private leaderboards, the Ladder, filtering by a baseline.

Section 3.3 of {pavao2024judge}.  Three simulations:

* :func:`simulate_public_private` -- teams that submit many variants and keep
  the one with the best *public* score, which then drops on the *private*
  test set (the public-versus-private scatter of Figure 7 in the second
  version of {mollersen2024multiplicity_v2}); with ``mechanism="ladder"`` the
  public leaderboard is Blum and Hardt's Ladder {blum2015ladder}.
* :func:`boosting_attack` -- Blum and Hardt's attack: a participant with no
  skill at all climbs the public leaderboard by majority-voting random
  submissions that scored above chance; the Ladder stops it.
* :func:`simulate_final_phase` -- the final phase open to everyone, to the
  participants who beat the organisers' baseline in the development phase,
  or to the top ``k``: the true accuracy of the winner.

Every function takes ``rng``: an int seed, a :class:`numpy.random.Generator` or None (SPEC 7).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from .._result import Result
from .._rng import as_generator
from .._validate import check_choice, check_int, check_probability, check_real

__all__ = [
    "BoostingAttack",
    "FinalPhase",
    "PublicPrivate",
    "boosting_attack",
    "simulate_final_phase",
    "winner_distribution_exact",
    "simulate_public_private",
]


def ladder(scores: ArrayLike, eta: float) -> np.ndarray:
    """The Ladder leaderboard (Blum and Hardt 2015, Algorithm 1) for higher-is-better scores.

    The released score starts at the first submission's score rounded to a
    multiple of ``eta``; a later submission replaces it only if it beats the
    released score by more than ``eta``, and is then released rounded to the
    nearest multiple of ``eta``.  Returns the released score after each
    submission.
    """
    eta = check_real("eta", eta, low=0.0, low_open=True)
    s = np.asarray(scores, dtype=float)
    out = np.empty_like(s)
    best = -math.inf
    for t, x in enumerate(s):
        if x > best + eta or t == 0:
            best = round(x / eta) * eta
        out[t] = best
    return out


@dataclass(frozen=True, eq=False, repr=False)
class PublicPrivate(Result):
    """Result of :func:`simulate_public_private`, one entry per team.

    Attributes
    ----------
    theta : ndarray
        True accuracy of the submission each team selected.
    public : ndarray
        The score the leaderboard showed for it.
    private : ndarray
        Its score on the private test set.
    submissions : ndarray of int
        The number of submissions of each team.
    mechanism : str
        ``"kaggle"`` or ``"ladder"``.
    """

    theta: np.ndarray
    public: np.ndarray
    private: np.ndarray
    submissions: np.ndarray
    mechanism: str

    def overfit(self) -> float:
        """Mean of public minus private score (positive: the public leaderboard flatters)."""
        return float(np.mean(self.public - self.private))


def simulate_public_private(
    m: int = 300,
    n_public: int = 1000,
    n_private: int = 4000,
    *,
    theta_range: tuple[float, float] = (0.80, 0.90),
    variant_sd: float = 0.005,
    max_submissions: int = 100,
    mechanism: str = "kaggle",
    eta: float | None = None,
    rng: np.random.Generator | int | None = None,
) -> PublicPrivate:
    """Teams that tune on the public leaderboard, scored on the private one.

    Team ``j`` has skill ``theta_j ~ U(theta_range)`` and makes ``S_j``
    submissions (``S_j`` log-uniform on ``1..max_submissions``); submission
    ``s`` is a variant of true accuracy ``theta_j + N(0, variant_sd^2)``
    (clipped to [0, 1]) whose public and private scores are independent
    binomial proportions on ``n_public`` and ``n_private`` items.  The team
    keeps the submission the leaderboard shows best:

    * ``"kaggle"`` -- every public score is shown; the team selects the
      maximum and the leaderboard displays its public score;
    * ``"ladder"`` -- the leaderboard is :func:`ladder` with step ``eta``
      (default ``1 / sqrt(n_public)``, about two public standard errors
      halved); the team keeps the last submission the Ladder accepted and
      the leaderboard displays the Ladder's (rounded) value.

    Parameters
    ----------
    m : int
        Number of teams, >= 1.
    n_public, n_private : int
        Items of the public and of the private test set, >= 1.
    theta_range : tuple of float
        The teams' skills are uniform on this interval of [0, 1].
    variant_sd : float
        Standard deviation (>= 0) of a submission's accuracy around its team's skill.
    max_submissions : int
        Most submissions of one team, >= 1.
    mechanism : {"kaggle", "ladder"}
        What the public leaderboard shows.
    eta : float, optional
        The Ladder's step (> 0); default ``1 / sqrt(n_public)``.
    rng : int, numpy.random.Generator or None
        Randomness: an int seed gives the numbers of
        ``numpy.random.default_rng(int)``; None draws fresh entropy.

    Returns
    -------
    PublicPrivate
        Per team: true accuracy, public and private score of the selected submission.

    Raises
    ------
    ValueError
        A parameter out of range (the message names it).

    References
    ----------
    Pavão, *How to judge a competition*, Section 3.3 (staged evaluation,
    public and private leaderboards); Blum & Hardt (2015), *The Ladder*.

    Examples
    --------
    >>> from sotalib.judging import simulate_public_private
    >>> pp = simulate_public_private(m=50, rng=1)
    >>> bool(pp.overfit() > 0)                       # the public board flatters
    True
    """
    teams = check_int("m", m, low=1)
    n_public = check_int("n_public", n_public, low=1)
    n_private = check_int("n_private", n_private, low=1)
    max_submissions = check_int("max_submissions", max_submissions, low=1)
    variant_sd = check_real("variant_sd", variant_sd, low=0.0)
    mechanism = check_choice("mechanism", mechanism, ("kaggle", "ladder"))
    lo, hi = (check_probability("theta_range", t) for t in theta_range)
    eta = 1.0 / math.sqrt(n_public) if eta is None else check_real("eta", eta, low=0.0, low_open=True)
    rng = as_generator(rng)
    skill = rng.uniform(lo, hi, size=teams)
    S = np.floor(np.exp(rng.uniform(0, math.log(max_submissions + 1), size=teams))).astype(int)
    S = np.clip(S, 1, max_submissions)
    th, pub, priv = np.empty(teams), np.empty(teams), np.empty(teams)
    for j in range(teams):
        t = np.clip(skill[j] + variant_sd * rng.standard_normal(S[j]), 0.0, 1.0)
        p = rng.binomial(n_public, t) / n_public
        q = rng.binomial(n_private, t) / n_private
        if mechanism == "kaggle":
            k = int(np.argmax(p))
            shown = p[k]
        else:
            released = ladder(p, eta)
            accepted = np.flatnonzero(np.r_[True, released[1:] != released[:-1]])
            k = int(accepted[-1])
            shown = released[-1]
        th[j], pub[j], priv[j] = t[k], shown, q[k]
    return PublicPrivate(th, pub, priv, S, mechanism)


@dataclass(frozen=True, repr=False)
class BoostingAttack(Result):
    """Result of :func:`boosting_attack`: the final submission's accuracies.

    Attributes
    ----------
    public : float
        Accuracy of the final submission on the public items.
    private : float
        Its accuracy on the private items (expectation 1/2: the labels are coin flips).
    n_submissions : int
        Random submissions made.
    n_selected : int
        Submissions the leaderboard let through into the majority vote.
    mechanism : str
        What the public leaderboard showed: ``"kaggle"`` or ``"ladder"``.
    """

    public: float
    private: float
    n_submissions: int
    n_selected: int
    mechanism: str


def boosting_attack(
    n_public: int = 4000,
    n_private: int = 4000,
    *,
    n_submissions: int = 700,
    mechanism: str = "kaggle",
    eta: float | None = None,
    rng: np.random.Generator | int | None = None,
) -> BoostingAttack:
    """Blum and Hardt's boosting attack by a participant who knows nothing.

    The labels are fair coin flips.  The attacker submits ``n_submissions``
    uniformly random label vectors and learns from the leaderboard which of
    them look better than chance: with ``"kaggle"`` those whose public
    accuracy exceeds 1/2; with ``"ladder"`` (step ``eta``, default
    ``1 / sqrt(n_public)``) only those the Ladder accepted.  The final
    submission is the majority vote of the selected vectors.

    Parameters
    ----------
    n_public, n_private : int
        Items of the public and of the private test set, >= 1.
    n_submissions : int
        Random submissions, >= 1.
    mechanism : {"kaggle", "ladder"}
        What the public leaderboard shows.
    eta : float, optional
        The Ladder's step (> 0); default ``1 / sqrt(n_public)``.
    rng : int, numpy.random.Generator or None
        Randomness: an int seed gives the numbers of
        ``numpy.random.default_rng(int)``; None draws fresh entropy.

    Returns
    -------
    BoostingAttack
        The ``public`` and ``private`` accuracy of the final submission (both
        have expectation 1/2 for any honest procedure) and how many
        submissions were selected.

    Raises
    ------
    ValueError
        A parameter out of range (the message names it).

    References
    ----------
    Pavão, *How to judge a competition*, Section 3.3; Blum & Hardt (2015),
    *The Ladder: a reliable leaderboard for machine learning competitions*,
    Section 3 (the boosting attack).

    Examples
    --------
    >>> from sotalib.judging import boosting_attack
    >>> r = boosting_attack(rng=1)
    >>> r.public > 0.55, abs(r.private - 0.5) < 0.05
    (True, True)
    """
    n_public = check_int("n_public", n_public, low=1)
    n_private = check_int("n_private", n_private, low=1)
    k = check_int("n_submissions", n_submissions, low=1)
    mechanism = check_choice("mechanism", mechanism, ("kaggle", "ladder"))
    eta = 1.0 / math.sqrt(n_public) if eta is None else check_real("eta", eta, low=0.0, low_open=True)
    rng = as_generator(rng)
    n = n_public + n_private
    y = rng.integers(0, 2, size=n).astype(bool)
    U = rng.integers(0, 2, size=(k, n)).astype(bool)
    correct = U == y
    pub = correct[:, :n_public].mean(axis=1)
    if mechanism == "kaggle":
        sel = pub > 0.5
    else:
        released = ladder(pub, eta)
        sel = np.r_[True, released[1:] != released[:-1]]
    if not np.any(sel):
        sel[0] = True
    votes = np.where(U[sel], 1, -1).sum(axis=0)
    final = np.where(votes > 0, True, np.where(votes < 0, False, U[sel][0]))
    ok = final == y
    return BoostingAttack(float(ok[:n_public].mean()), float(ok[n_public:].mean()), k, int(sel.sum()), mechanism)


@dataclass(frozen=True, repr=False)
class FinalPhase(Result):
    """Result of :func:`simulate_final_phase` over ``n_resamples`` simulated competitions.

    Attributes
    ----------
    rule : str
        Who entered the final phase.
    winner_theta : float
        Mean true accuracy of the declared winner.
    se : float
        Its Monte Carlo standard error.
    p_best : float
        Probability that the winner is the truly best participant.
    finalists : float
        Mean number of participants admitted.
    n_resamples : int
        Simulated competitions.
    """

    rule: str
    winner_theta: float
    se: float
    p_best: float
    finalists: float
    n_resamples: int


def simulate_final_phase(
    thetas: ArrayLike,
    n_dev: int,
    n_final: int,
    *,
    rule: str = "all",
    baseline: float | None = None,
    n_finalists: int | None = None,
    n_resamples: int = 10_000,
    rng: np.random.Generator | int | None = None,
) -> FinalPhase:
    """Choose a winner in two phases: development (``n_dev`` items) then final (``n_final`` items).

    The winner is the finalist with the best final-phase score (ties broken
    at random).  If nobody beats the baseline, everyone enters.

    Parameters
    ----------
    thetas : array_like
        True accuracies of the participants, in [0, 1].
    n_dev, n_final : int
        Items of the development and of the final phase, >= 1.
    rule : {"all", "baseline", "top-k"}
        Who enters the final phase: everyone; those whose development score
        is strictly above the baseline's development score (the baseline, of
        true accuracy ``baseline``, is scored on the same development items
        as a participant would be: an independent binomial draw); or the
        ``n_finalists`` best development scores.
    baseline : float, optional
        The baseline's true accuracy (for ``rule="baseline"``).
    n_finalists : int, optional
        Finalists (for ``rule="top-k"``), in [1, number of participants].
    n_resamples : int
        Simulated competitions, >= 1.
    rng : int, numpy.random.Generator or None
        Randomness: an int seed gives the numbers of
        ``numpy.random.default_rng(int)``; None draws fresh entropy.

    Returns
    -------
    FinalPhase
        The winner's mean true accuracy, P(best wins) and the finalists.

    Raises
    ------
    ValueError
        A parameter out of range (the message names it).

    References
    ----------
    Pavão, *How to judge a competition*, Section 3.3 (a final phase, and
    filtering by a baseline).

    Examples
    --------
    >>> from sotalib.judging import simulate_final_phase
    >>> fp = simulate_final_phase([0.70, 0.72, 0.80], 500, 500, n_resamples=200, rng=1)
    >>> fp.rule, fp.p_best > 0.9
    ('all', True)
    """
    th = np.asarray(thetas, dtype=float)
    if th.ndim != 1 or th.size < 1 or np.any((th < 0) | (th > 1)):
        raise ValueError("thetas must be a 1-d array of probabilities")
    n_dev = check_int("n_dev", n_dev, low=1)
    n_final = check_int("n_final", n_final, low=1)
    rule = check_choice("rule", rule, ("all", "baseline", "top-k"))
    reps = check_int("n_resamples", n_resamples, low=1)
    rng = as_generator(rng)
    m = th.size
    dev = rng.binomial(n_dev, th, size=(reps, m)) + rng.random((reps, m))  # random tie-break
    fin = rng.binomial(n_final, th, size=(reps, m)) + rng.random((reps, m))
    if rule == "all":
        admit = np.ones((reps, m), dtype=bool)
    elif rule == "baseline":
        b = check_probability("baseline", baseline)
        base = rng.binomial(n_dev, b, size=(reps, 1))
        admit = np.floor(dev) > base
        admit[~admit.any(axis=1)] = True
    else:
        k = check_int("n_finalists", n_finalists, low=1, high=m)
        thr = -np.sort(-dev, axis=1)[:, k - 1 : k]
        admit = dev >= thr
    winner = np.argmax(np.where(admit, fin, -1.0), axis=1)
    wt = th[winner]
    best = th.max()
    return FinalPhase(
        rule,
        float(wt.mean()),
        float(wt.std(ddof=1) / math.sqrt(reps)) if reps > 1 else math.nan,
        float(np.mean(wt == best)),
        float(admit.sum(axis=1).mean()),
        reps,
    )


def winner_distribution_exact(thetas: ArrayLike, n: int) -> np.ndarray:
    """Exact probability that each participant wins one phase of ``n`` items (ties broken at random).

    The participants' counts of correct items are independent binomials
    ``X_j ~ B(n, theta_j)``; the winner is the largest, a tie between ``T + 1``
    participants going to each with probability ``1 / (T + 1)``.  Then

    ``P(j wins) = sum_x P(X_j = x) int_0^1 prod_{i != j} (P(X_i < x) + P(X_i = x) t) dt``,

    since ``int_0^1 t^T dt = 1 / (T + 1)``.  The integrand is a polynomial of
    degree ``m - 1`` in ``t``, integrated exactly by Gauss--Legendre quadrature;
    participants with equal ``theta`` are grouped, and products are taken in
    log space.  This is the ``rule="all"`` case of :func:`simulate_final_phase`
    (the development phase plays no role there), computed without simulation.

    Parameters
    ----------
    thetas : array_like
        True accuracies of the participants, in [0, 1].
    n : int
        Items, >= 1.

    Returns
    -------
    ndarray
        ``P(j wins)`` for each participant (they sum to 1).

    Raises
    ------
    ValueError
        ``thetas`` not a 1-d array of probabilities, or ``n`` < 1.

    References
    ----------
    Pavão, *How to judge a competition*, Section 3.3 (who wins a phase of
    ``n`` items).

    Examples
    --------
    >>> from sotalib.judging import winner_distribution_exact
    >>> p = winner_distribution_exact([0.5, 0.5], 10)
    >>> [round(float(x), 6) for x in p]
    [0.5, 0.5]
    """
    th = np.asarray(thetas, dtype=float)
    if th.ndim != 1 or th.size < 1 or np.any((th < 0) | (th > 1)):
        raise ValueError("thetas must be a 1-d array of probabilities")
    n = check_int("n", n, low=1)
    uniq, inverse, counts = np.unique(th, return_inverse=True, return_counts=True)
    x = np.arange(n + 1)
    pmf = np.array([stats.binom.pmf(x, n, t) for t in uniq])  # (G, n+1)
    below = np.array([stats.binom.cdf(x - 1, n, t) for t in uniq])  # P(X < x)
    nodes, weights = np.polynomial.legendre.leggauss(max(2, (th.size + 2) // 2 + 1))
    t = 0.5 * (nodes + 1.0)
    w = 0.5 * weights
    with np.errstate(divide="ignore"):
        logf = np.log(below[:, :, None] + pmf[:, :, None] * t[None, None, :])  # (G, n+1, K)
    total = np.einsum("g,gxk->xk", counts.astype(float), logf)  # log prod over everyone
    p_group = np.empty(uniq.size)
    for g in range(uniq.size):
        with np.errstate(invalid="ignore"):
            integrand = np.exp(total - logf[g])  # everyone but one member of g
        integrand[~np.isfinite(integrand)] = 0.0  # P(X_g = x) = 0 there anyway
        p_group[g] = float(np.sum(pmf[g] * (integrand @ w)))
    return p_group[inverse]
