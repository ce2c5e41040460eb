"""Test-set size formulas (Pavão, Section 3.2): the rule of thumb ``100 / p`` and Guyon's formula."""

from __future__ import annotations

import math

from .._validate import check_probability, check_real

__all__ = ["achieved_precision", "guyon_size", "rule_of_thumb_size"]


def rule_of_thumb_size(p: float) -> float:
    """Guyon et al.'s (1998) rule of thumb ``n = 100 / p`` for an error rate ``p``.

    Parameters
    ----------
    p : float
        The error rate, in (0, 1].

    Returns
    -------
    float
        ``100 / p`` test items (not rounded).

    Raises
    ------
    ValueError
        If ``p`` is not in (0, 1].

    References
    ----------
    Pavão, *How to judge a competition*, Section 3.2 (the rule of thumb).

    Examples
    --------
    >>> from sotalib.judging import rule_of_thumb_size
    >>> rule_of_thumb_size(0.05)
    2000.0
    """
    p = check_probability("p", p, open_low=True)
    return 100.0 / p


def guyon_size(mu: float, sigma: float | None = None, k: float = 1.96, nu: float = 1.0) -> float:
    """Guyon's test-set size ``n = (sigma^2 / mu^2) k^2 10^(2 nu)``.

    The number of items for which the ``k``-standard-error half-width
    ``k sigma / sqrt(n)`` of the mean error is ``10^-nu`` times the mean
    error ``mu`` -- ``nu`` significant digits of relative precision at
    ``k`` standard errors.  :func:`estimate_test_size` rounds it up and takes
    a level ``alpha`` instead of ``k``.

    Parameters
    ----------
    mu : float
        Mean error (loss) of the model evaluated, > 0.
    sigma : float, optional
        Standard deviation (>= 0) of the per-item errors; default
        ``sqrt(mu (1 - mu))``, that of 0/1 errors (then ``mu`` must be <= 1).
    k : float
        The half-width in standard errors, > 0 (the paper's 1.96 for 95%).
    nu : float
        Precision in decimal digits, in [-10, 10].

    Returns
    -------
    float
        The number of items (not rounded).

    Raises
    ------
    ValueError
        A parameter outside its range (the message names it).

    References
    ----------
    Pavão, *How to judge a competition*, Section 3.2 (Guyon's formula).

    Examples
    --------
    >>> from sotalib.judging import guyon_size
    >>> round(guyon_size(0.01, k=1, nu=1))
    9900
    """
    mu = check_real("mu", mu, low=0.0, low_open=True)
    if sigma is None:
        mu = check_real("mu", mu, low=0.0, high=1.0, low_open=True)
        sigma = math.sqrt(mu * (1 - mu))
    sigma = check_real("sigma", sigma, low=0.0)
    k = check_real("k", k, low=0.0, low_open=True)
    nu = check_real("nu", nu, low=-10, high=10)
    return (sigma / mu) ** 2 * k**2 * 10.0 ** (2 * nu)


def achieved_precision(n: float, mu: float, sigma: float | None = None, k: float = 1.96) -> float:
    """The precision ``nu`` that ``n`` items reach: Guyon's formula solved for ``nu``.

    Parameters
    ----------
    n : float
        Test items, > 0.
    mu : float
        Mean error, > 0.
    sigma : float, optional
        Standard deviation of the per-item errors (default ``sqrt(mu (1 - mu))``).
    k : float
        The half-width in standard errors, > 0.

    Returns
    -------
    float
        ``nu = 0.5 log10(n / n_0)`` with ``n_0`` Guyon's size at ``nu = 0``.

    Raises
    ------
    ValueError
        A parameter outside its range.

    References
    ----------
    Pavão, *How to judge a competition*, Section 3.2 (Guyon's formula).

    Examples
    --------
    >>> from sotalib.judging import achieved_precision
    >>> round(achieved_precision(9900, 0.01, k=1), 6)
    1.0
    """
    n = check_real("n", n, low=0.0, low_open=True)
    return 0.5 * math.log10(n / guyon_size(mu, sigma, k, 0.0))
