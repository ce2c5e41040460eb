"""``sotalib testsize``: how many test items a precise error estimate needs."""

from __future__ import annotations

import argparse

from ._types import real

_LEVEL = real("--confidence", 0.0, 1.0, low_open=True, high_open=True)


def _level(text: str) -> float:
    """``--confidence``: a level in (0, 1); the message of a refusal points to ``--z`` for a z value."""
    try:
        return _LEVEL(text)
    except argparse.ArgumentTypeError as exc:
        raise argparse.ArgumentTypeError(
            f"{exc} (a level: 0.95 is 95%; give a z value such as 1.96 with --z)"
        ) from None


_level.numeric = True  # type: ignore[attr-defined]  # marks the option as numeric (tests discover these)


def register(sub) -> None:
    """Add the ``sotalib testsize`` subcommand and its options to the subparsers ``sub``."""
    p = sub.add_parser(
        "testsize",
        help="test-set size: the rule of thumb n = 100/p and Guyon's formula",
        description="Test-set size for an error rate (or mean loss) E: the rule of thumb n = 100/E "
        "and Guyon's n = (S^2/E^2) K^2 10^(2V), K the normal quantile of the confidence level "
        "(1.96 for 0.95) or a z value given with --z.",
    )
    p.add_argument(
        "--error",
        type=real("--error", 1e-12, 1e12),
        required=True,
        help="error rate E in [1e-12, 1] (or, with --sd, a mean loss up to 1e12)",
    )
    p.add_argument(
        "--sd",
        type=real("--sd", 0.0, 1e12, low_open=True),
        default=None,
        help="standard deviation S > 0 of the per-item errors, up to 1e12; default sqrt(E(1-E)) (0/1 errors)",
    )
    level = p.add_mutually_exclusive_group()
    level.add_argument(
        "--confidence",
        type=_level,
        default=0.95,
        metavar="LEVEL",
        help="confidence level in (0, 1), e.g. 0.95 for 95%% (K = 1.96); default 0.95. "
        "A z value such as 1.96 is given with --z",
    )
    level.add_argument(
        "--z",
        type=real("--z", 0.0, 100.0, low_open=True),
        default=None,
        help="K as a z value (half-width in standard errors), in (0, 100], instead of --confidence",
    )
    p.add_argument(
        "--precision",
        type=real("--precision", -10.0, 10.0),
        default=1.0,
        help="precision V in significant digits, in [-10, 10]; default 1",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``sotalib testsize`` with the parsed ``args``; return the exit status."""
    from ..judging import estimate_test_size
    from . import emit

    if args.z is not None:
        r = estimate_test_size(args.error, sd=args.sd, z=args.z, precision=args.precision)
    else:
        alpha = float(f"{1.0 - args.confidence:.15g}")  # 1 - 0.95 is 0.050000000000000044 in binary: print 0.05
        r = estimate_test_size(args.error, sd=args.sd, alpha=alpha, precision=args.precision)
    # every other option is checked once, by estimate_test_size; its messages name the options
    text = (
        f"test-set size for error {r.error:g} (sd {r.sd:.6g}), confidence {1 - r.alpha:.6g} (k={r.z:.6g}), "
        f"precision nu={r.precision:g}\n"
        f"  rule of thumb n = 100/p:                "
        f"{'-' if r.rule_of_thumb is None else format(r.rule_of_thumb, ',')}\n"
        f"  Guyon n = (sd/E)^2 k^2 10^(2 nu):       {r.guyon:,}"
    )
    emit(args, r.to_dict(), text)
    return 0
