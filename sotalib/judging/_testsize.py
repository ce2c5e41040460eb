"""How many test items a precise error estimate needs (Pavão, Section 3.2): the ``testsize`` command."""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import overload

from .._json import json_safe
from .._result import Result
from .._validate import ParameterError, check_int, check_real
from ._sizes import _guyon_size, _rule_of_thumb_size

__all__ = ["DifferenceTestSize", "TestSize", "estimate_test_size"]

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


@dataclass(frozen=True, repr=False)
class DifferenceTestSize(Result):
    """Items that tell two models apart (``estimate_test_size(difference=...)``; ``sotalib testsize --difference``).

    Each model's per-item outcome has the standard deviation ``S`` (both
    models alike); over ``n`` items the difference of their mean scores has
    the standard error ``S sqrt(2 (1 - R) / n)`` on the same items with the
    correlation ``R`` of their per-item outcomes (paired), and
    ``S sqrt(2 / n)`` when the correlation is not used (unpaired: two
    independent samples of ``n`` items, or the same items analysed as if
    independent).  A two-sided z test at level ``alpha`` detects the
    difference ``D`` with probability ``power`` when ``D / se >= z_alpha +
    z_power``.

    Attributes
    ----------
    difference : float
        ``D``, the difference of accuracy (or of mean score) to detect.
    error : float or None
        The error rate ``E`` whose Bernoulli variance ``E (1 - E)`` set ``S``
        (the same for the accuracy ``1 - E``); None when ``sd`` was given.
    sd : float
        ``S``, the per-item standard deviation of each model's outcomes.
    corr : float or None
        ``R``, the correlation of the two models' per-item outcomes; None: unpaired only.
    alpha : float
        Level of the two-sided test.
    power : float
        Probability of detecting ``D``.
    z_alpha, z_power : float
        ``Phi^-1(1 - alpha/2)`` and ``Phi^-1(power)``.
    sd_diff : float or None
        ``S sqrt(2 (1 - R))``, the per-item standard deviation of the paired difference (None without ``corr``).
    paired : int or None
        Items for the paired test: ``ceil((z_alpha + z_power)^2 sd_diff^2 / D^2)``, at least 1 (None without ``corr``).
    unpaired : int
        Items (per model) for the unpaired test: ``ceil((z_alpha + z_power)^2 2 S^2 / D^2)``, at least 1.
    items : int or None
        A number of items ``n`` given to ask what it can detect.
    min_detectable_difference : float or None
        Paired: ``(z_alpha + z_power) sd_diff / sqrt(n)`` at ``items`` (None without ``items`` or ``corr``).
    min_detectable_difference_unpaired : float or None
        Unpaired: ``(z_alpha + z_power) S sqrt(2 / n)`` at ``items`` (None without ``items``).
    """

    __test__ = False

    difference: float
    error: float | None
    sd: float
    corr: float | None
    alpha: float
    power: float
    z_alpha: float
    z_power: float
    sd_diff: float | None
    paired: int | None
    unpaired: int
    items: int | None
    min_detectable_difference: float | None
    min_detectable_difference_unpaired: float | None

    def to_text(self) -> str:
        """Both sizes with what they assume: what ``sotalib testsize --difference`` prints."""
        spread = f"error {self.error:g} (Bernoulli sd {self.sd:.4g})" if self.error is not None else f"sd {self.sd:g}"
        lines = [
            f"items to detect a difference of {self.difference:g} between two models "
            f"(two-sided z test, alpha {self.alpha:g}, power {self.power:g}; per-item {spread})",
        ]
        if self.paired is not None and self.corr is not None:
            lines.append(f"  paired (same items, correlation {self.corr:g}): {self.paired:,}")
        else:
            lines.append("  paired: give the correlation of the two models' per-item outcomes (--corr)")
        lines.append(f"  unpaired (correlation not used): {self.unpaired:,}")
        if self.items is not None:
            paired = "" if self.min_detectable_difference is None else f"{self.min_detectable_difference:.4g} paired, "
            lines.append(
                f"  at {self.items:,} items the minimum detectable difference is {paired}"
                f"{self.min_detectable_difference_unpaired:.4g} unpaired"
            )
        return "\n".join(lines)


def _items(n: float) -> int:
    """Whole items, at least one: ``ceil(n)``, forgiving a relative rounding error of 1e-12 (100/0.01 is 10,000)."""
    return max(1, int(math.ceil(n * (1 - 1e-12))))


@overload
def estimate_test_size(
    error: float,
    *,
    sd: float | None = ...,
    alpha: float | None = ...,
    z: float | None = ...,
    precision: float | None = ...,
    difference: None = ...,
    corr: None = ...,
    power: None = ...,
    items: None = ...,
) -> TestSize: ...


@overload
def estimate_test_size(
    error: float | None = ...,
    *,
    sd: float | None = ...,
    alpha: float | None = ...,
    z: None = ...,
    precision: None = ...,
    difference: float,
    corr: float | None = ...,
    power: float | None = ...,
    items: int | None = ...,
) -> DifferenceTestSize: ...


def estimate_test_size(
    error: float | None = None,
    *,
    sd: float | None = None,
    alpha: float | None = None,
    z: float | None = None,
    precision: float | None = None,
    difference: float | None = None,
    corr: float | None = None,
    power: float | None = None,
    items: int | None = None,
) -> TestSize | DifferenceTestSize:
    """Test-set size for an error rate (or mean loss), or to tell two models apart (``difference``).

    Without ``difference``: the rule of thumb and Guyon's formula.

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
    precision : float, optional
        ``V`` in [-10, 10], significant digits of relative precision; default 1.
        Not with ``difference``.
    difference : float, optional
        ``D > 0``: instead of the sizes above, the items for which a two-sided
        z test at level ``alpha`` (default 0.05) detects a difference ``D`` of
        accuracy between two models with probability ``power``, paired and
        unpaired (see :class:`DifferenceTestSize`).  ``D`` in (0, 1] without
        ``sd``.  The per-item variance of each model's outcome is assumed the
        same for both models: ``sd**2`` when ``sd`` is given (a measured
        standard deviation, e.g. of graded outcomes), else the Bernoulli
        variance ``E (1 - E)`` at the error rate ``error`` (equal to that at
        the accuracy ``1 - E``), else ``0.25``, the largest Bernoulli variance
        (accuracy 0.5: the size is then an upper bound for 0/1 outcomes).
        ``error`` is then in (0, 1).
    corr : float, optional
        ``R`` in [-1, 1), the correlation of the two models' per-item
        outcomes (measured on a benchmark, e.g. ``EvaluationNoise.summary.corr``):
        gives the paired size.  None: the unpaired size only.  Only with
        ``difference``.
    power : float, optional
        In (0, 1); default 0.8.  Only with ``difference``.
    items : int, optional
        ``n >= 1``: also the minimum detectable difference at ``n`` items
        (paired and unpaired).  Only with ``difference``.

    Returns
    -------
    TestSize or DifferenceTestSize
        Without ``difference``, both sizes with ``alpha`` and ``z`` as used;
        with it, the paired and unpaired numbers of items.

    Raises
    ------
    ValueError
        A parameter outside its range (the message names it and the range),
        both ``alpha`` and ``z``, or parameters asking for more than
        ``10**100`` items.

    Notes
    -----
    The difference sizes are the normal power formula
    ``n = (z_{1-alpha/2} + z_power)^2 var / D^2`` with ``var = 2 S^2 (1 - R)``
    (paired) or ``2 S^2`` (unpaired), rounded up; the far tail of the
    two-sided test is neglected, as usual (it adds less than ``alpha/2`` to
    the power).  The paired size assumes the measured correlation holds for
    the two models compared; eval-arena (Wang, 2025) reports such
    correlations per benchmark.

    References
    ----------
    Pavão, *How to judge a competition*, Section 3.2 (test-set size: the rule
    of thumb and Guyon's formula).  Wang, *Measuring all the noises of LLM
    evals* (2025), for the paired standard error of a difference.

    Examples
    --------
    >>> from sotalib.judging import estimate_test_size
    >>> r = estimate_test_size(0.1, sd=0.3)              # 95%: z = 1.96
    >>> r.guyon, round(r.z, 4)
    (3458, 1.96)
    >>> estimate_test_size(0.01, z=1.96).rule_of_thumb
    10000
    >>> d = estimate_test_size(difference=0.02, corr=0.5, error=0.3)   # accuracy 0.7
    >>> d.paired, d.unpaired
    (4121, 8242)
    """
    if difference is not None:
        return _difference_size(
            error,
            sd=sd,
            alpha=alpha,
            z=z,
            precision=precision,
            difference=difference,
            corr=corr,
            power=power,
            items=items,
        )
    unused = [name for name, v in (("corr", corr), ("power", power), ("items", items)) if v is not None]
    if unused:
        raise ParameterError(
            f"{', '.join(unused)} {'applies' if len(unused) == 1 else 'apply'} only with difference "
            "(the items to tell two models apart)",
            *unused,
            "difference",
        )
    if error is None:
        raise ParameterError("give error (an error rate) or difference (between two models)", "error", "difference")
    if alpha is not None and z is not None:
        raise ValueError("give alpha (a level in (0, 1)) or z (a value in standard errors), not both")
    if z is None:
        a = 0.05 if alpha is None else check_real("alpha", alpha, low=0.0, high=1.0, low_open=True, high_open=True)
        k = NormalDist().inv_cdf(1.0 - a / 2.0)
    else:
        k = check_real("z", z, low=0.0, high=math.inf, low_open=True, high_open=True)
        a = 2.0 * NormalDist().cdf(-k)
    return _test_size(error, sd, a, k, 1.0 if precision is None else precision)


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


def _difference_size(
    error: float | None,
    *,
    sd: float | None,
    alpha: float | None,
    z: float | None,
    precision: float | None,
    difference: float,
    corr: float | None,
    power: float | None,
    items: int | None,
) -> DifferenceTestSize:
    """``estimate_test_size(difference=...)``: paired and unpaired items for a two-sided z test."""
    unused = [name for name, v in (("z", z), ("precision", precision)) if v is not None]
    if unused:
        raise ParameterError(
            f"{' and '.join(unused)} {'does' if len(unused) == 1 else 'do'} not apply to a difference "
            "between two models (give alpha, power and corr)",
            *unused,
        )
    a = 0.05 if alpha is None else check_real("alpha", alpha, low=0.0, high=1.0, low_open=True, high_open=True)
    pw = 0.8 if power is None else check_real("power", power, low=0.0, high=1.0, low_open=True, high_open=True)
    e: float | None = None
    if sd is not None:
        s = check_real("sd", sd, low=0.0, high=math.inf, low_open=True, high_open=True)
        d = check_real("difference", difference, low=0.0, high=math.inf, low_open=True, high_open=True)
        if error is not None:
            raise ParameterError("give error (Bernoulli outcomes) or sd (a measured spread), not both", "error", "sd")
    else:
        d = check_real("difference", difference, low=0.0, high=math.inf, low_open=True, high_open=True)
        if d > 1:
            raise ParameterError(f"difference must be in (0, 1] without sd (an accuracy difference), got {d:g}", "sd")
        e = 0.5 if error is None else check_real("error", error, low=0.0, high=1.0, low_open=True, high_open=True)
        s = math.sqrt(e * (1.0 - e))
    r = None if corr is None else check_real("corr", corr, low=-1.0, high=1.0, high_open=True)
    n_given = None if items is None else check_int("items", items, low=1)
    normal = NormalDist()
    za, zb = normal.inv_cdf(1.0 - a / 2.0), normal.inv_cdf(pw)
    k = max(za + zb, 0.0)  # a power below alpha/2 needs no items beyond the first

    def size(sd_d: float) -> int:
        if k == 0.0 or sd_d == 0.0:
            return 1
        log_n = 2 * (math.log10(k) + math.log10(sd_d) - math.log10(d))
        if log_n > math.log10(MAX_ITEMS):
            raise ParameterError(
                f"difference={d:g} (sd {s:g}, alpha {a:g}, power {pw:g}) asks for about 10^{log_n:.0f} "
                "test items, more than 10^100; no test set is that large",
                "difference",
            )
        return _items((k * sd_d / d) ** 2)

    sd_unpaired = s * math.sqrt(2.0)
    sd_paired = None if r is None else s * math.sqrt(2.0 * (1.0 - r))
    mdd = mdd_unpaired = None
    if n_given is not None:  # the one copy of the formula, with evaluation_noise's summary
        from ._eval_noise import minimum_detectable_difference

        mdd_unpaired = max(0.0, minimum_detectable_difference(sd_unpaired / math.sqrt(n_given), alpha=a, power=pw))
        if sd_paired is not None:
            mdd = max(0.0, minimum_detectable_difference(sd_paired / math.sqrt(n_given), alpha=a, power=pw))
    return DifferenceTestSize(
        difference=d,
        error=e,
        sd=s,
        corr=r,
        alpha=a,
        power=pw,
        z_alpha=za,
        z_power=zb,
        sd_diff=sd_paired,
        paired=None if sd_paired is None else size(sd_paired),
        unpaired=size(sd_unpaired),
        items=n_given,
        min_detectable_difference=mdd,
        min_detectable_difference_unpaired=mdd_unpaired,
    )
