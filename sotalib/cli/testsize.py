"""``sotalib testsize``: how many test items a precise error estimate needs."""

from __future__ import annotations

import argparse

from ._types import real


def register(sub) -> None:
    p = sub.add_parser(
        "testsize",
        help="test-set size: the rule of thumb n = 100/p and Guyon's formula",
        description="Test-set size for an error rate (or mean loss) E: the rule of thumb n = 100/E "
        "and Guyon's n = (S^2/E^2) K^2 10^(2V).",
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
    p.add_argument(
        "--confidence",
        type=real("--confidence", 0.0, 100.0, low_open=True),
        default=1.96,
        help="confidence K in standard errors, in (0, 100]; default 1.96",
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
    from ..judging import test_size
    from . import emit

    # every option is checked once, by test_size; its messages name the options (sotalib.cli.in_option_terms)
    r = test_size(args.error, sd=args.sd, confidence=args.confidence, precision=args.precision)
    text = (
        f"test-set size for error {r.error:g} (sd {r.sd:.6g}), confidence k={r.confidence:g}, "
        f"precision nu={r.precision:g}\n"
        f"  rule of thumb n = 100/p:                "
        f"{'-' if r.rule_of_thumb is None else format(r.rule_of_thumb, ',')}\n"
        f"  Guyon n = (sd/E)^2 k^2 10^(2 nu):       {r.guyon:,}"
    )
    emit(args, r.to_dict(), text)
    return 0
