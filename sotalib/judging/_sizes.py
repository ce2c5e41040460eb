"""Test-set size formulas (Pavão, Section 3.2): the rule of thumb ``100 / E`` and Guyon's formula.

:func:`estimate_test_size` is the one public test-set size (both formulas, rounded up); here are
the formulas themselves and :func:`achieved_precision`, Guyon's formula solved for the precision.
"""

from __future__ import annotations

import math

from .._validate import check_real

__all__ = ["achieved_precision"]


def _rule_of_thumb_size(error: float) -> float:
    """Guyon et al.'s (1998) rule of thumb ``n = 100 / E`` for an error rate ``E`` in (0, 1] (not rounded)."""
    return 100.0 / error


def _guyon_size(error: float, sd: float, *, z: float, precision: float) -> float:
    """Guyon's size ``n = (S^2 / E^2) z^2 10^(2 V)`` (not rounded), for checked ``E > 0``, ``S >= 0``, ``z > 0``.

    The number of items for which the ``z``-standard-error half-width ``z S / sqrt(n)`` of the
    mean error is ``10^-V`` times the mean error ``E``.
    """
    return (sd / error) ** 2 * z**2 * 10.0 ** (2 * precision)


def achieved_precision(n: float, error: float, *, sd: float | None = None, z: float = 1.96) -> float:
    """The precision ``V`` that ``n`` items reach: Guyon's formula solved for ``V``.

    The inverse of :attr:`TestSize.guyon <sotalib.judging.TestSize>` (before rounding): with
    ``n`` items the ``z``-standard-error half-width of the mean error is ``10^-V`` times ``error``.

    Parameters
    ----------
    n : float
        Test items, > 0.
    error : float
        ``E > 0``: the error rate (or, with ``sd``, the mean loss).
    sd : float, optional
        Standard deviation of the per-item errors (default ``sqrt(E (1 - E))``, 0/1 errors,
        then ``error`` must be <= 1).
    z : float
        The half-width in standard errors, > 0 (the paper's 1.96).

    Returns
    -------
    float
        ``V = 0.5 log10(n / n_0)`` with ``n_0`` Guyon's size at ``V = 0``.

    Raises
    ------
    ValueError
        A parameter outside its range (the message names it).

    References
    ----------
    Pavão, *How to judge a competition*, Section 3.2 (Guyon's formula).

    Examples
    --------
    >>> from sotalib.judging import achieved_precision
    >>> round(achieved_precision(9900, 0.01, z=1), 6)
    1.0
    """
    n = check_real("n", n, low=0.0, low_open=True)
    error = check_real("error", error, low=0.0, low_open=True)
    if sd is None:
        error = check_real("error", error, low=0.0, high=1.0, low_open=True)
        sd = math.sqrt(error * (1 - error))
    sd = check_real("sd", sd, low=0.0, low_open=True)
    z = check_real("z", z, low=0.0, low_open=True)
    return 0.5 * math.log10(n / _guyon_size(error, sd, z=z, precision=0.0))
