"""``sotalib maxdist``: the distribution of the best accuracy on a leaderboard."""

from __future__ import annotations

import argparse

from .._validate import check_int, check_probability
from ..maxdist import iid_max_distribution


def register(sub) -> None:
    p = sub.add_parser(
        "maxdist",
        help="distribution of the best accuracy among m classifiers",
        description="Distribution of theta_hat_max, the best accuracy of m classifiers on n test items.",
    )
    p.add_argument("--n", type=int, required=True, help="test-set size (>= 1)")
    p.add_argument("--m", type=int, required=True, help="number of classifiers (>= 1)")
    p.add_argument("--theta", type=float, required=True, help="probability of success, in [0, 1]")
    p.add_argument("--alpha", type=float, default=0.05, help="interval level is 1 - alpha, alpha in (0, 1); default 0.05")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from . import emit

    n = check_int("--n", args.n, low=1)
    m = check_int("--m", args.m, low=1)
    theta = check_probability("--theta", args.theta)
    alpha = check_probability("--alpha", args.alpha, open_low=True, open_high=True)
    s = iid_max_distribution(n, m, theta).summary(alpha)
    payload = {"mean": s.mean, "sd": s.sd, "ci_low": s.ci_low, "ci_high": s.ci_high, "method": s.method}
    level = f"{100 * (1 - alpha):g}%"
    text = (
        f"best accuracy of m={m} classifiers, theta={theta:g}, n={n} ({s.method})\n"
        f"  mean  {s.mean:.6f}\n"
        f"  sd    {s.sd:.6f}\n"
        f"  {level} interval ({s.ci_low:.6f}, {s.ci_high:.6f})"
    )
    emit(args, payload, text)
    return 0
