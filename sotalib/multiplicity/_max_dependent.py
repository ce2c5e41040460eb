r"""Non-identical and dependent classifiers: the exact distribution of the maximum (Section 4).

The paper (Møllersen & Holsbø, Section 4) extends the iid model of Chapter 2
in two directions and computes both by Monte Carlo:

* **non-identical** classifiers: the probabilities of success ``theta_j`` are
  drawn iid from a distribution ``P(theta)`` (Eq. 1b), by default the uniform
  ``U(a, b)`` with ``theta_SOTA = E max Theta = (m b + a) / (m + 1)`` held fixed
  (:func:`uniform_for_sota`), or form a given fixed vector ``Theta`` (Eq. 4);
* **dependent** classifiers (Boland et al., 1989): a reference classifier
  ``Y_0`` with ``P(Y_0 = 1) = theta0``; given ``Y_0`` the classifiers are
  independent, with correlation ``rho`` to ``Y_0`` and the conditional
  probabilities of Eqs. 6--7 (:func:`conditional_probs`).  The reference
  classifier is either *random* (its number of correct predictions is
  ``K_0 ~ B(n, theta0)``) or *fixed* (exactly ``round(n theta0)`` correct).

Both are computed here exactly.  Given ``K_0 = k_0`` the classifiers are
independent, and the successes of classifier ``j`` are the sum of two
independent binomials,

.. math:: X_j \mid k_0 \sim B(k_0, p_1(\theta_j)) + B(n - k_0, p_0(\theta_j)),

where ``p_1, p_0 = P(Y_j = 1 | Y_0 = 1), P(Y_j = 1 | Y_0 = 0)``.  With
``theta_j`` iid from ``P(theta)`` the ``X_j`` are also identically distributed
given ``k_0``, so

.. math:: P(\max_j X_j \le x) = \sum_{k_0} P(K_0 = k_0)\,
          \bigl[\mathrm{E}_\theta\, P(X \le x \mid k_0, \theta)\bigr]^m ,

and for a fixed vector the bracket is the product over ``j`` (Eq. 4 given
``k_0``).  Numerics (the same in both engines, below):

* the expectation over ``P(theta)`` is a quadrature: Gauss--Legendre on
  ``[a, b]`` for the uniform (:data:`DEFAULT_NODES` rule, convergence checked
  in the tests), the atoms themselves for discrete distributions;
* each binomial pmf is computed on the window where it exceeds ``1e-40`` of its
  mode (ratio recurrence from the mode, normalised on the window), the
  convolution's cdf and survival function are sums of positive terms (left
  sums for the cdf, right sums for the survival function), so both tails keep
  their relative digits; ``[.]^m`` is ``exp(m log G)`` with ``log G`` taken from
  the accurate side;
* the sum over ``k_0`` runs over the central interval of ``B(n, theta0)``
  holding all but ``tol`` of its mass (default ``1e-20``, renormalised), and
  for each ``k_0`` only over the counts ``x`` where ``P(K_0 = k_0)`` times the
  bracket raised to ``m`` (or times one minus it) exceeds ``1e-25``; outside,
  the bracket is 0 or 1.  Each ``k_0`` thus errs by at most ``1e-25``.

The cost grows like ``n^{3/2}`` times the number of quadrature nodes for a
random reference classifier (``sqrt(n)`` values of ``k_0``, each a
convolution on windows of width ``sqrt(n)``): all of Table 1 (``n = 3000``)
takes about a second on two cores, identical classifiers with ``n = 10^5``
and ``rho = 0.6`` about ten seconds, and a uniform ``P(theta)`` multiplies
the time by its number of nodes (which grows like ``d sqrt(n)``).  Without dependence, or with a fixed reference, it is a single
``k_0`` and fast for any ``n`` (``m = n = 10^7`` in about a second).

Three engines compute this: a Numba kernel (:mod:`._max_dependent_kernels`, parallel
over ``k_0``) and a plain-NumPy one (:mod:`._max_dependent_numpy`), which agree to
``1e-12``, and for large problems with a random reference classifier and at
least :data:`_SWAP_MIN_M` classifiers the swap engine
(:func:`sotalib.multiplicity._max_dependent_swap.swap_max`): the pmf of ``X | k_0`` is
built once, at the largest ``k_0``, and carried to ``k_0 - 1`` by removing one
``Bernoulli(p_1)`` and adding one ``Bernoulli(p_0)`` (exact up to rounding,
stable in the direction whose removed Bernoulli has the smaller ``p q``), so the
cost is ``O(window)`` per ``k_0`` instead of a convolution; it agrees with the
NumPy engine to ``1e-12`` (tests) and computes ``n = 10^6`` in seconds with
memory bounded by blocks of ``k_0``.  The NumPy engine is used when a rough count of its work is below
:data:`_NUMPY_WORK` (all of Table 1, dependent identical classifiers up to
``n`` of about ``10^4``): it is then at most about twice as slow as the kernel's
computation, and saves loading Numba and the compiled kernel (about half a
second per process, seconds of compilation on a fresh machine).  Importing
this module imports neither Numba nor SciPy.

The result is the same :class:`~sotalib.multiplicity._max_iid.MaxDistribution` the iid code
returns, so summaries, intervals and the quantile convention are shared.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from .._progress import progress, wants_progress
from .._validate import check_choice, check_int, check_memory, check_probability, check_real
from ._binomial import _table as _binomial_table
from ._dependence_model import check_feasible, conditional_probs
from ._max_dependent_numpy import max_kernel, work_estimate
from ._max_iid import TAIL, MaxDistribution
from ._theta_dist import Empirical, PointMass, Uniform, _as_dist, _quadrature, default_theta0

__all__ = ["max_distribution", "fixed_max_distribution"]

#: Relative size (to the mode) below which a binomial pmf is treated as zero.
_PMF_EPS = 1e-40
#: Per-``k_0`` truncation of the factor ``G(x | k_0)^m`` to 0 or 1.
_FACTOR_EPS = 1e-25
#: Engine of the exact computation: "auto" (NumPy for small and moderate
#: problems, Numba beyond), or "numpy" / "numba" to force one (tests).
_ENGINE = "auto"
#: Work (``_dependent_numpy.work_estimate``) up to which the NumPy engine is used.
_NUMPY_WORK = 1.5e9
#: The swap engine (:func:`sotalib.multiplicity._max_dependent_swap.swap_max`) computes the large problems of a
#: random reference classifier with at least this many classifiers (its ``F`` is summed from the upper
#: tail's side, which keeps its digits when ``G^m`` is small only if ``m`` is not).
_SWAP_MIN_M = 64
#: Its binomials are cut at this many standard deviations (beyond, the pmf is below 1e-42 of its mode),
_SWAP_WIDTH = 14.0
#: and its window starts where ``F`` first exceeds this.
_SWAP_TAIL = 1e-30


def _k0_grid(n: int, theta0: float, rho: float, y0: str, tol: float) -> tuple[np.ndarray, np.ndarray]:
    """Values of ``K_0`` and their probabilities (renormalised on the window)."""
    if rho == 0.0:
        # X_j ~ B(n, theta_j) whatever Y_0: one term, A ~ B(n, theta), B = 0.
        return np.array([n], dtype=np.int64), np.array([1.0])
    if y0 == "fixed":
        return np.array([int(math.floor(n * theta0 + 0.5))], dtype=np.int64), np.array([1.0])
    # the central window of B(n, theta0) holding all but ``tol`` of its mass (NumPy only: no SciPy at start-up)
    start, cdf, sf = _binomial_table(n, theta0)
    lo = start + int(np.searchsorted(cdf, tol / 2))  # smallest k with P(K0 <= k) >= tol / 2
    hi = start + int(np.argmax(sf <= tol / 2)) + 1  # smallest k with P(K0 > k) <= tol / 2, plus one
    lo, hi = max(0, lo - 1), min(n, hi)
    k = np.arange(lo, hi + 1, dtype=np.int64)
    i = np.clip(k - start, 0, cdf.size - 1)
    left = cdf[i] - np.where(i > 0, cdf[np.maximum(i - 1, 0)], 0.0)  # P(K0 = k), accurate left of the mode
    right = np.where(i > 0, sf[np.maximum(i - 1, 0)], 1.0) - sf[i]  # accurate right of the mode
    p = np.where(cdf[i] < 0.5, left, right)
    p = np.where((k >= start) & (k < start + cdf.size), np.maximum(p, 0.0), 0.0)
    return k, p / p.sum()


def _kernel_inputs(
    n: int, thetas: np.ndarray, rho: float, theta0: float, y0: str, tol: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``k0s, pk0, p1, p0``: the values of ``K_0`` with their probabilities and the conditional probabilities."""
    k0s, pk0 = _k0_grid(n, theta0, rho, y0, tol)
    if rho == 0.0:
        p1 = thetas.astype(float).copy()
        p0 = thetas.astype(float).copy()
    else:
        p1, p0 = conditional_probs(thetas, theta0, rho)
    return k0s, pk0, np.clip(p1, 0.0, 1.0), np.clip(p0, 0.0, 1.0)


def _choose_engine(n: int, m_or_zero: int, k0s: np.ndarray, p1: np.ndarray, p0: np.ndarray) -> str:
    """``"numpy"`` for problems small enough that NumPy is about as fast as the Numba kernel, else ``"numba"``."""
    if _ENGINE != "auto":
        return _ENGINE
    if work_estimate(n, k0s.size, p1, p0, m_or_zero) <= _NUMPY_WORK:
        return "numpy"
    return "swap" if k0s.size > 1 and m_or_zero >= _SWAP_MIN_M else "numba"


def _exact_max(
    n: int,
    m_or_zero: int,
    k0s: np.ndarray,
    pk0: np.ndarray,
    p1: np.ndarray,
    p0: np.ndarray,
    w: np.ndarray,
    *,
    engine: str | None = None,
    thetas: np.ndarray | None = None,
    chunked: bool = True,
) -> tuple[int, np.ndarray, np.ndarray]:
    """``(xlo, F, S)`` from one of the engines (``engine``: "numpy", "numba", "swap" or None: choose).

    ``thetas`` (the values behind ``p1, p0``) are needed by the swap engine only.  With ``chunked``, a
    long run whose progress is shown (:func:`sotalib._progress.wants_progress`) goes in chunks of ``K_0``.
    """
    if thetas is None:
        thetas = p1
    engine = _choose_engine(n, m_or_zero, k0s, p1, p0) if engine is None else engine
    if chunked and engine != "numpy" and k0s.size >= 2 * _CHUNK_K0 and wants_progress():
        # a long run on a terminal: the values of K_0 in chunks, a bar over them (F and S are sums over K_0)
        chunks = np.array_split(np.arange(k0s.size), min(_CHUNKS, k0s.size // _CHUNK_K0))
        parts = [
            _exact_max(n, m_or_zero, k0s[i], pk0[i], p1, p0, w, engine=engine, thetas=thetas, chunked=False)
            for i in progress(chunks, total=len(chunks), desc="exact distribution")
        ]
        return _merge(parts)
    args = (
        int(n),
        int(m_or_zero),
        np.ascontiguousarray(k0s, dtype=np.int64),
        np.ascontiguousarray(pk0, dtype=float),
        np.ascontiguousarray(p1, dtype=float),
        np.ascontiguousarray(p0, dtype=float),
        np.ascontiguousarray(w, dtype=float),
    )
    if engine == "numpy":
        return max_kernel(*args, _PMF_EPS, _FACTOR_EPS)
    if engine == "swap" and m_or_zero > 0:
        from ._max_dependent_swap import swap_max  # lazily, as below: the swap engine is a Numba kernel

        return swap_max(*args[:3], args[3], thetas, *args[4:], _SWAP_TAIL, _SWAP_WIDTH)
    if engine not in ("numba", "swap"):
        raise ValueError(f"engine must be 'numpy', 'numba' or 'swap', got {engine!r}")
    import numba  # lazily: importing this module does not import Numba

    from ._max_dependent_kernels import _max_kernel

    # window length bound: mode +- ~13.6 sd for eps = 1e-40, plus slack for skewed (Poisson-like) cases
    pq = float(max(np.max(p1 * (1 - p1)), np.max(p0 * (1 - p0))))
    maxlen = int(min(n + 1, 2 * math.ceil(16 * math.sqrt(n * pq)) + 400))
    nblocks = max(1, min(k0s.size, 4 * numba.get_num_threads()))
    return _max_kernel(*args, _PMF_EPS, _FACTOR_EPS, maxlen, nblocks)


#: A long exact run on a terminal computes the values of ``K_0`` in at most this many chunks, each of
#: at least ``_CHUNK_K0`` values, and draws a bar over them.
_CHUNKS, _CHUNK_K0 = 50, 200


def _merge(parts: list[tuple[int, np.ndarray, np.ndarray]]) -> tuple[int, np.ndarray, np.ndarray]:
    """``(xlo, F, S)`` of the whole sum over ``K_0`` from those of its chunks (each on its own window).

    Below a chunk's window its ``F`` is 0 and its ``S`` its first value (its
    mass); above, ``F`` is its last value and ``S`` is 0.
    """
    lo = min(xlo for xlo, _, _ in parts)
    hi = max(xlo + F.size for xlo, F, _ in parts)
    F_all, S_all = np.zeros(hi - lo), np.zeros(hi - lo)
    for xlo, F, S in parts:
        a, b = xlo - lo, xlo - lo + F.size
        F_all[a:b] += F
        F_all[b:] += F[-1]
        S_all[a:b] += S
        S_all[:a] += S[0]
    return lo, F_all, S_all


def _run(
    n: int,
    m_or_zero: int,
    thetas: np.ndarray,
    w: np.ndarray,
    rho: float,
    theta0: float,
    y0: str,
    *,
    tol: float,
    tail: float,
) -> MaxDistribution:
    check_window_memory(n)
    k0s, pk0, p1, p0 = _kernel_inputs(n, thetas, rho, theta0, y0, tol)
    xlo, F, S = _exact_max(n, m_or_zero, k0s, pk0, p1, p0, w, thetas=thetas)
    F = np.minimum(F, 1.0)
    S = np.clip(S, 0.0, 1.0)
    # trim to the window carrying all but `tail` at each end (as iid_max_distribution)
    i_lo = int(np.argmax(F > tail)) if np.any(F > tail) else F.size - 1
    i_hi_candidates = np.nonzero(S[i_lo:] <= tail)[0]
    i_hi = i_lo + int(i_hi_candidates[0]) if i_hi_candidates.size else F.size - 1
    return MaxDistribution(
        n=int(n), lo=int(xlo + i_lo), cdf=F[i_lo : i_hi + 1].copy(), sf=S[i_lo : i_hi + 1].copy(), engine="exact"
    )


def check_window_memory(n: int, var: float = 0.25) -> None:
    """Refuse (naming ``n``) an exact distribution whose window of counts would not fit in memory.

    The binomial probabilities of a window of about 80 sd around the mode: a
    few arrays of 8-byte floats, the window doubled at most once; ``var`` is
    ``theta (1 - theta)``, at most 1/4 (a spread or a reference classifier:
    the widest).
    """
    check_memory(
        128.0 * (40.0 * math.sqrt(n * var) + 64.0),
        f"n={n} items",
        "the exact distribution of the maximum needs about 80 sqrt(n theta (1 - theta)) binomial "
        "probabilities; give a smaller n",
    )


def _check_common(n, rho, y0, tol):
    n = check_int("n", n, low=1)
    rho = check_real("rho", rho, low=-1.0, high=1.0)
    y0 = check_choice("y0", y0, ("random", "fixed"))
    tol = check_real("tol", tol, low=0.0, high=1e-6, low_open=True)
    return n, rho, y0, tol


def max_distribution(
    n: int,
    m: int,
    theta_dist: Uniform | PointMass | Empirical | float,
    *,
    rho: float = 0.0,
    theta0: float | None = None,
    y0: str = "random",
    tol: float = TAIL,
    nodes: int | None = None,
    tail: float = TAIL,
) -> MaxDistribution:
    r"""Exact distribution of ``max_j X_j`` for ``m`` classifiers with ``theta_j ~ P(theta)`` iid (Section 4).

    .. math:: F(x) = \sum_{k_0} P(K_0 = k_0)\,\bigl[\mathrm{E}_\theta P(X \le x \mid k_0, \theta)\bigr]^m

    with ``X | k_0, theta ~ B(k_0, p_1) + B(n - k_0, p_0)`` (Eqs. 6--7).

    Parameters
    ----------
    n : int
        Test-set size.
    m : int
        Number of classifiers.
    theta_dist : Uniform, PointMass, Empirical or float
        ``P(theta)`` (Eq. 1b); a float means identical classifiers.
    rho : float
        Correlation ``rho_0`` of each classifier with the reference classifier
        ``Y_0``, in ``[-1, 1]``; 0 gives independent classifiers.  Must satisfy
        Eq. 8 and its twin on the support of ``P(theta)``.
    theta0 : float, optional
        ``P(Y_0 = 1)``.  Default: ``theta_SOTA = E max Theta``
        (:func:`default_theta0`), i.e. ``theta`` for identical classifiers.
    y0 : {"random", "fixed"}
        Random reference classifier (``K_0 ~ B(n, theta0)``) or fixed one
        (``K_0 = round(n theta0)``), Section 4.2.
    tol : float
        Mass of ``B(n, theta0)`` left out of the sum over ``k_0``.
    nodes : int, optional
        Gauss--Legendre nodes for a uniform ``P(theta)`` (default grows with
        the width, at least :data:`DEFAULT_NODES`).
    tail : float
        Probability left outside the returned window at each end.

    Returns
    -------
    MaxDistribution
        The distribution of the maximum count on the window that carries
        all but ``tail`` of it at each end.

    Raises
    ------
    ValueError
        If an argument is out of range (the message names it), or if
        ``rho`` and ``theta0`` violate Eq. 8 or its twin somewhere on the
        support of ``P(theta)`` (the message gives the admissible range).

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 4.1 (Eq. 1b), Section 4.2 (Eqs. 6-8),
    Table 1.

    Examples
    --------
    Table 1, row 4.2 (dependent identical classifiers, random reference):

    >>> from sotalib.multiplicity import max_distribution
    >>> s = max_distribution(3000, 1000, 0.9, rho=0.6).summary()
    >>> round(s.mean, 4), round(s.sd, 4), round(s.ci_high, 4)
    (0.914, 0.0035, 0.9207)
    """
    n, rho, y0, tol = _check_common(n, rho, y0, tol)
    m = check_int("m", m, low=1)
    dist = _as_dist(theta_dist)
    if theta0 is None:
        theta0 = default_theta0(dist, m)
    theta0 = check_probability("theta0", theta0)
    tail = check_real("tail", tail, low=0.0, high=1e-6, low_open=True)
    thetas, w = _quadrature(dist, n, nodes)
    if rho != 0.0:
        lo, hi = dist.support
        check_feasible(np.array([lo, hi]) if not isinstance(dist, Empirical) else dist.values, theta0, rho)
    return _run(n, m, thetas, w, rho, theta0, y0, tol=tol, tail=tail)


def fixed_max_distribution(
    n: int,
    thetas: ArrayLike,
    *,
    rho: float = 0.0,
    theta0: float | None = None,
    y0: str = "random",
    tol: float = TAIL,
    tail: float = TAIL,
) -> MaxDistribution:
    """Exact distribution of ``max_j X_j`` for a given vector ``Theta = (theta_1, ..., theta_m)``.

    ``F(x) = sum_k0 P(K_0 = k_0) prod_j P(X_j <= x | k_0, theta_j)`` (Eq. 4 for
    ``rho = 0``; given ``k_0`` for dependent classifiers, Eqs. 6-7).

    Parameters
    ----------
    n : int
        Test-set size, ``>= 1``.
    thetas : array_like of float
        The classifiers' probabilities of success, each in ``[0, 1]`` (``m = len(thetas)``).
    rho : float
        Correlation of each classifier with the reference classifier, in ``[-1, 1]``.
    theta0 : float, optional
        ``P(Y_0 = 1)``; default ``max Theta``.
    y0 : {"random", "fixed"}
        Random reference classifier (``K_0 ~ B(n, theta0)``) or fixed one.
    tol : float
        Mass of ``B(n, theta0)`` left out of the sum over ``k_0``, in ``(0, 1e-6]``.
    tail : float
        Probability left outside the returned window at each end, in ``(0, 1e-6]``.

    Returns
    -------
    MaxDistribution
        The distribution of the maximum count.

    Raises
    ------
    ValueError
        If an argument is out of range, or if a ``theta_j`` violates Eq. 8
        or its twin (the message gives the admissible range).

    References
    ----------
    Møllersen & Holsbø, *Accounting for multiplicity in machine learning
    benchmark performance*, Section 4.1, Eq. 4; Section 4.2, Eqs. 6-8.

    Examples
    --------
    >>> from sotalib.multiplicity import fixed_max_distribution
    >>> s = fixed_max_distribution(1000, [0.80, 0.82, 0.85]).summary()
    >>> round(s.mean, 4)
    0.8502
    """
    n, rho, y0, tol = _check_common(n, rho, y0, tol)
    th = np.asarray(thetas, dtype=float).ravel()
    if th.size == 0 or not np.all(np.isfinite(th)) or np.any((th < 0) | (th > 1)):
        raise ValueError("thetas must be a non-empty array of probabilities in [0, 1]")
    if theta0 is None:
        theta0 = float(th.max())
    theta0 = check_probability("theta0", theta0)
    tail = check_real("tail", tail, low=0.0, high=1e-6, low_open=True)
    if rho != 0.0:
        check_feasible(th, theta0, rho)
    u, counts = np.unique(th, return_counts=True)
    return _run(n, 0, u, counts.astype(float), rho, theta0, y0, tol=tol, tail=tail)
