"""``sotalib testsize``: how many test items a precise error estimate needs."""

from __future__ import annotations

import argparse
import math

from .._validate import check_real
from ..judging._errorbars import guyon_size, rule_of_thumb_size


def register(sub) -> None:
    p = sub.add_parser(
        "testsize",
        help="test-set size: the rule of thumb n = 100/p and Guyon's formula",
        description="Test-set size for an error rate (or mean loss) E: the rule of thumb n = 100/E "
                    "and Guyon's n = (S^2/E^2) K^2 10^(2V).",
    )
    p.add_argument("--error", type=float, required=True, help="error rate (or mean loss) E > 0")
    p.add_argument("--sd", type=float, default=None,
                   help="standard deviation S of the per-item errors; default sqrt(E(1-E)) (0/1 errors)")
    p.add_argument("--confidence", type=float, default=1.96, help="confidence K in standard errors, > 0; default 1.96")
    p.add_argument("--precision", type=float, default=1.0, help="precision V in significant digits; default 1")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def _items(n: float) -> int:
    return int(math.ceil(n * (1 - 1e-12)))


def run(args: argparse.Namespace) -> int:
    from . import emit

    e = check_real("--error", args.error, low=0.0, low_open=True)
    if args.sd is None and e > 1:
        raise ValueError(f"--error must be in (0, 1] without --sd (an error rate), got {e:g}")
    sd = math.sqrt(e * (1 - e)) if args.sd is None else check_real("--sd", args.sd, low=0.0)
    k = check_real("--confidence", args.confidence, low=0.0, low_open=True)
    v = check_real("--precision", args.precision, low=-10, high=10)
    n_guyon = guyon_size(e, sd, k, v)
    n_rule = rule_of_thumb_size(e) if e <= 1 else None
    payload = {"error": e, "sd": sd, "confidence": k, "precision": v,
               "rule_of_thumb": None if n_rule is None else _items(n_rule), "guyon": _items(n_guyon)}
    text = (f"test-set size for error {e:g} (sd {sd:.6g}), confidence k={k:g}, precision nu={v:g}\n"
            f"  rule of thumb n = 100/p:                {'-' if n_rule is None else format(_items(n_rule), ',')}\n"
            f"  Guyon n = (sd/E)^2 k^2 10^(2 nu):       {_items(n_guyon):,}")
    emit(args, payload, text)
    return 0
