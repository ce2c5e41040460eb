"""How many test items a precise error estimate needs (Pavão, Section 3.2): the ``testsize`` command."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .._validate import check_real
from ._errorbars import guyon_size, rule_of_thumb_size

__all__ = ["TestSize", "test_size"]


@dataclass(frozen=True)
class TestSize:
    """Test-set sizes for an error rate (what ``sotalib testsize --json`` prints, via :meth:`to_dict`).

    Attributes
    ----------
    error : float
        The error rate (or mean loss) ``E``.
    sd : float
        Standard deviation ``S`` of the per-item errors (``sqrt(E(1-E))`` for 0/1 errors).
    confidence : float
        ``K``, the half-width in standard errors.
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
    confidence: float
    precision: float
    rule_of_thumb: int | None
    guyon: int

    def to_dict(self) -> dict:
        """JSON-safe form: error, sd, confidence, precision, rule_of_thumb, guyon."""
        return {
            "error": self.error,
            "sd": self.sd,
            "confidence": self.confidence,
            "precision": self.precision,
            "rule_of_thumb": self.rule_of_thumb,
            "guyon": self.guyon,
        }


def _items(n: float) -> int:
    """Whole items, at least one: ``ceil(n)``, forgiving a relative rounding error of 1e-12 (100/0.01 is 10,000)."""
    return max(1, int(math.ceil(n * (1 - 1e-12))))


#: Largest test set :func:`test_size` reports (more items than any evaluation can have).
MAX_ITEMS = 1e100


def test_size(error: float, *, sd: float | None = None, confidence: float = 1.96, precision: float = 1.0) -> TestSize:
    """Test-set size for an error rate (or mean loss): the rule of thumb and Guyon's formula.

    The rule of thumb ``n = 100 / E`` (Guyon et al., 1998) and Guyon's
    ``n = (S^2 / E^2) K^2 10^(2 V)``: the items for which the ``K``-standard-error
    half-width of the mean error is ``10^-V`` times ``E`` (see
    :func:`guyon_size`).  Both are rounded up to whole items.

    Parameters
    ----------
    error : float
        ``E > 0``: an error rate in (0, 1], or, with ``sd``, any finite mean loss > 0.
    sd : float > 0, optional
        ``S``, the standard deviation of the per-item errors; default ``sqrt(E (1 - E))``
        (0/1 errors).
    confidence : float > 0
        ``K``, in standard errors (1.96 for 95%), finite.
    precision : float in [-10, 10]
        ``V``, significant digits of relative precision.

    Returns
    -------
    TestSize

    Raises
    ------
    ValueError
        A parameter outside its range (the message names it and the range),
        or parameters asking for more than ``10**100`` items.

    Every size is at least one item.
    """
    e = check_real("error", error, low=0.0, high=math.inf, low_open=True, high_open=True)
    if sd is None and e > 1:
        raise ValueError(f"error must be in (0, 1] without sd (an error rate), got {e:g}")
    if sd is None:
        s = math.sqrt(e * (1 - e))
    else:
        s = check_real("sd", sd, low=0.0, high=math.inf, low_open=True, high_open=True)
    k = check_real("confidence", confidence, low=0.0, high=math.inf, low_open=True, high_open=True)
    v = check_real("precision", precision, low=-10, high=10)
    # log10 of both sizes first: nothing overflows, and absurd requests are refused before any rounding
    log_rule = 2.0 - math.log10(e)
    log_guyon = (2 * (math.log10(s) - math.log10(e)) if s > 0 else -math.inf) + 2 * math.log10(k) + 2 * v
    if max(log_rule if e <= 1 else -math.inf, log_guyon) > math.log10(MAX_ITEMS):
        raise ValueError(
            f"error={e:g} (sd {s:g}, confidence {k:g}, precision {v:g}) asks for about "
            f"10^{max(log_rule, log_guyon):.0f} test items, more than 10^100; no test set is that large"
        )
    n_rule = _items(rule_of_thumb_size(e)) if e <= 1 else None
    return TestSize(e, s, k, v, n_rule, _items(guyon_size(e, s, k, v)))


test_size.__test__ = False  # a library function, not a pytest test (pytest collects test_* by name)
