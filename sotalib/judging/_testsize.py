"""How many test items a precise error estimate needs (Pavão, Section 3.2): the ``testsize`` command."""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

from .._json import json_safe
from .._result import Result
from .._validate import ParameterError, check_real
from ._sizes import _guyon_size, _rule_of_thumb_size

__all__ = ["TestSize", "estimate_test_size"]

#: Largest test set :func:`estimate_test_size` reports (more items than any evaluation can have).
MAX_ITEMS = 1e100


@dataclass(frozen=True, repr=False)
class TestSize(Result):
    """Test-set sizes for an error rate (what ``sotalib testsize --json`` prints, via :meth:`to_dict`).

    Attributes
    ----------
    error : float
        The error rate (or mean loss) ``E``.
    sd : float
        Standard deviation ``S`` of the per-item errors (``sqrt(E(1-E))`` for 0/1 errors).
    alpha : float
        The level: the half-width is that of a ``1 - alpha`` normal interval
        (``alpha = 2 (1 - Phi(z))`` when ``z`` was given).
    z : float
        ``K``, the half-width in standard errors (1.959964 for ``alpha = 0.05``).
    precision : float
        ``V``, the precision in significant digits.
    rule_of_thumb : int or None
        ``ceil(100 / E)`` items (None when ``E > 1``: not an error rate).
    guyon : int
        ``ceil((S / E)^2 K^2 10^(2 V))`` items.
    """

    __test__ = False  # not a pytest test class, despite its name

    error: float
    sd: float
    alpha: float
    z: float
    precision: float
    rule_of_thumb: int | None
    guyon: int

    def to_dict(self) -> dict:
        """JSON-safe form: error, sd, confidence (the level ``1 - alpha``), alpha, z, precision, rule_of_thumb, guyon."""
        return json_safe(
            {
                "error": self.error,
                "sd": self.sd,
                "confidence": 1.0 - self.alpha,
                "alpha": self.alpha,
                "z": self.z,
                "precision": self.precision,
                "rule_of_thumb": self.rule_of_thumb,
                "guyon": self.guyon,
            }
        )

    def to_text(self) -> str:
        """Both sizes with what they assume: what ``sotalib testsize`` prints."""
        rule = "-" if self.rule_of_thumb is None else format(self.rule_of_thumb, ",")
        return (
            f"test-set size for error {self.error:g} (sd {self.sd:.6g}), confidence {1 - self.alpha:.6g} "
            f"(k={self.z:.6g}), precision nu={self.precision:g}\n"
            f"  rule of thumb n = 100/p:                {rule}\n"
            f"  Guyon n = (sd/E)^2 k^2 10^(2 nu):       {self.guyon:,}"
        )


def _items(n: float) -> int:
    """Whole items, at least one: ``ceil(n)``, forgiving a relative rounding error of 1e-12 (100/0.01 is 10,000)."""
    return max(1, int(math.ceil(n * (1 - 1e-12))))


def estimate_test_size(
    error: float,
    *,
    sd: float | None = None,
    alpha: float | None = None,
    z: float | None = None,
    precision: float = 1.0,
) -> TestSize:
    """Test-set size for an error rate (or mean loss): the rule of thumb and Guyon's formula.

    The rule of thumb ``n = 100 / E`` (Guyon et al., 1998) and Guyon's
    ``n = (S^2 / E^2) K^2 10^(2 V)``: the items for which the ``K``-standard-error
    half-width of the mean error is ``10^-V`` times ``E``.  ``K`` is the
    normal quantile ``z = Phi^-1(1 - alpha/2)`` of the level ``alpha``
    (``alpha = 0.05``, a 95% interval, is ``z = 1.959964``), or ``z`` given
    as it is.  Both sizes are rounded up to whole items, at least one.

    Parameters
    ----------
    error : float
        ``E > 0``: an error rate in (0, 1], or, with ``sd``, any finite mean loss > 0.
    sd : float, optional
        ``S > 0``, the standard deviation of the per-item errors; default
        ``sqrt(E (1 - E))`` (0/1 errors).
    alpha : float, optional
        The level, in (0, 1): the half-width of a ``1 - alpha`` interval.
        Default 0.05 (95%).  Not with ``z``.
    z : float, optional
        ``K > 0``, the half-width in standard errors, instead of ``alpha``
        (the paper's worked numbers use ``z = 1.96``).
    precision : float
        ``V`` in [-10, 10], significant digits of relative precision.

    Returns
    -------
    TestSize
        Both sizes, with ``alpha`` and ``z`` as used.

    Raises
    ------
    ValueError
        A parameter outside its range (the message names it and the range),
        both ``alpha`` and ``z``, or parameters asking for more than
        ``10**100`` items.

    References
    ----------
    Pavão, *How to judge a competition*, Section 3.2 (test-set size: the rule
    of thumb and Guyon's formula).

    Examples
    --------
    >>> from sotalib.judging import estimate_test_size
    >>> r = estimate_test_size(0.1, sd=0.3)              # 95%: z = 1.96
    >>> r.guyon, round(r.z, 4)
    (3458, 1.96)
    >>> estimate_test_size(0.01, z=1.96).rule_of_thumb
    10000
    """
    if alpha is not None and z is not None:
        raise ValueError("give alpha (a level in (0, 1)) or z (a value in standard errors), not both")
    if z is None:
        a = 0.05 if alpha is None else check_real("alpha", alpha, low=0.0, high=1.0, low_open=True, high_open=True)
        k = NormalDist().inv_cdf(1.0 - a / 2.0)
    else:
        k = check_real("z", z, low=0.0, high=math.inf, low_open=True, high_open=True)
        a = 2.0 * NormalDist().cdf(-k)
    return _test_size(error, sd, a, k, precision)


def _test_size(error: float, sd: float | None, a: float, k: float, precision: float) -> TestSize:
    """Validate ``error``, ``sd`` and ``precision`` and compute both sizes for ``z = k`` (level ``a``)."""
    e = check_real("error", error, low=0.0, high=math.inf, low_open=True, high_open=True)
    if sd is None and e > 1:
        raise ValueError(f"error must be in (0, 1] without sd (an error rate), got {e:g}")
    if sd is None:
        s = math.sqrt(e * (1 - e))
    else:
        s = check_real("sd", sd, low=0.0, high=math.inf, low_open=True, high_open=True)
    v = check_real("precision", precision, low=-10, high=10)
    # log10 of both sizes first: nothing overflows, and absurd requests are refused before any rounding
    log_rule = 2.0 - math.log10(e)
    log_guyon = (2 * (math.log10(s) - math.log10(e)) if s > 0 else -math.inf) + 2 * math.log10(k) + 2 * v
    if max(log_rule if e <= 1 else -math.inf, log_guyon) > math.log10(MAX_ITEMS):
        raise ParameterError(  # names every parameter that sets the size (the command line's options)
            f"error={e:g} (sd {s:g}, z {k:g}, precision {v:g}) asks for about "
            f"10^{max(log_rule, log_guyon):.0f} test items, more than 10^100; no test set is that large",
            "sd",
            "z",
            "precision",
        )
    n_rule = _items(_rule_of_thumb_size(e)) if e <= 1 else None
    return TestSize(e, s, a, k, v, n_rule, _items(_guyon_size(e, s, z=k, precision=v)))
