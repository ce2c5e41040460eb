"""``sotalib testsize``: how many test items a precise error estimate needs."""

from __future__ import annotations

import argparse


def register(sub) -> None:
    p = sub.add_parser(
        "testsize",
        help="test-set size: the rule of thumb n = 100/p and Guyon's formula",
        description="Test-set size for an error rate (or mean loss) E: the rule of thumb n = 100/E "
        "and Guyon's n = (S^2/E^2) K^2 10^(2V).",
    )
    p.add_argument("--error", type=float, required=True, help="error rate (or mean loss) E > 0")
    p.add_argument(
        "--sd",
        type=float,
        default=None,
        help="standard deviation S of the per-item errors; default sqrt(E(1-E)) (0/1 errors)",
    )
    p.add_argument("--confidence", type=float, default=1.96, help="confidence K in standard errors, > 0; default 1.96")
    p.add_argument("--precision", type=float, default=1.0, help="precision V in significant digits; default 1")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from .._validate import check_real
    from ..judging import test_size
    from . import emit

    # the options are checked under their own names; test_size checks its parameters again
    e = check_real("--error", args.error, low=0.0, low_open=True)
    if args.sd is None and e > 1:
        raise ValueError(f"--error must be in (0, 1] without --sd (an error rate), got {e:g}")
    sd = None if args.sd is None else check_real("--sd", args.sd, low=0.0)
    k = check_real("--confidence", args.confidence, low=0.0, low_open=True)
    v = check_real("--precision", args.precision, low=-10, high=10)
    r = test_size(e, sd=sd, confidence=k, precision=v)
    text = (
        f"test-set size for error {r.error:g} (sd {r.sd:.6g}), confidence k={r.confidence:g}, "
        f"precision nu={r.precision:g}\n"
        f"  rule of thumb n = 100/p:                "
        f"{'-' if r.rule_of_thumb is None else format(r.rule_of_thumb, ',')}\n"
        f"  Guyon n = (sd/E)^2 k^2 10^(2 nu):       {r.guyon:,}"
    )
    emit(args, r.to_dict(), text)
    return 0
