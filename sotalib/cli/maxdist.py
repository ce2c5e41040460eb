"""``sotalib maxdist``: the distribution of the best accuracy on a leaderboard.

Identical independent classifiers by default (Chapter 2); ``--spread`` makes
them non-identical (``theta_j ~ U(a, b)`` of width ``d`` with ``--theta`` the
state of the art ``theta_SOTA = E max Theta``) and ``--rho`` dependent through a
reference classifier (Chapter 3).  ``--method mc`` replaces the exact
computation by a seeded Monte Carlo simulation of the same model.
"""

from __future__ import annotations

import argparse

from ._types import alpha, integer, probability, real, seed


def register(sub) -> None:
    """Add the ``sotalib maxdist`` subcommand and its options to the subparsers ``sub``."""
    p = sub.add_parser(
        "maxdist",
        help="distribution of the best accuracy among m classifiers",
        description="Distribution of theta_hat_max, the best accuracy of m classifiers on n test items. "
        "Exact by default; non-identical (--spread) and dependent (--rho) classifiers as in Section 4 "
        "of Mollersen & Holsbo.",
    )
    # sizes state only their lower end: how large they may be is summarize_max's to say
    p.add_argument("--n", type=integer("--n", 1), required=True, help="test-set size (>= 1)")
    p.add_argument("--m", type=integer("--m", 1), required=True, help="number of classifiers (>= 1)")
    p.add_argument(
        "--theta",
        type=probability("--theta"),
        required=True,
        help="probability of success, in [0, 1]; with --spread, theta_SOTA = E max theta_j",
    )
    p.add_argument(
        "--alpha", type=alpha(), default=0.05, help="interval level is 1 - alpha, alpha in (0, 1); default 0.05"
    )
    p.add_argument(
        "--rho",
        type=real("--rho", -1.0, 1.0),
        default=0.0,
        help="correlation rho_0 of each classifier with the reference classifier Y_0, in [-1, 1]; default 0",
    )
    p.add_argument(
        "--theta0",
        type=probability("--theta0"),
        default=None,
        help="P(Y_0 = 1) of the reference classifier, in (0, 1); default: the value of --theta",
    )
    p.add_argument(
        "--y0",
        choices=("random", "fixed"),
        default="random",
        help="reference classifier random (K_0 ~ B(n, theta0)) or fixed (round(n theta0) correct); default random",
    )
    p.add_argument(
        "--spread",
        type=real("--spread", 0.0, 1.0),
        default=0.0,
        metavar="D",
        help="width d of the uniform U(a, b) the theta_j are drawn from, b = theta + d/(m+1), a = b - d; default 0",
    )
    p.add_argument(
        "--method",
        dest="engine",
        choices=("exact", "mc"),
        default="exact",
        help="exact computation or Monte Carlo; default exact",
    )
    p.add_argument(
        "--reps",
        dest="n_resamples",
        type=integer("--reps", 2),
        default=100_000,
        help="Monte Carlo replications (>= 2); default 100000",
    )
    p.add_argument("--seed", type=seed(), default=0, help="Monte Carlo seed (>= 0); default 0")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``sotalib maxdist`` with the parsed ``args``; return the exit status."""
    from ..multiplicity._max_summary import summarize_max
    from . import emit

    # every option is checked once, by summarize_max; its messages name the options (sotalib.cli.in_option_terms)
    s = summarize_max(
        args.n,
        args.m,
        args.theta,
        alpha=args.alpha,
        rho=args.rho,
        theta0=args.theta0,
        y0=args.y0,
        spread=args.spread,
        engine="simulate" if args.engine == "mc" else args.engine,
        n_resamples=args.n_resamples,
        rng=args.seed,
    )
    theta, theta0, y0, spread = (s.details[k] for k in ("theta", "theta0", "y0", "spread"))
    level = f"{100 * (1 - s.alpha):g}%"
    model = f"theta={theta:g}" if spread == 0 else f"theta_SOTA={theta:g}, theta_j ~ U(a, b) with d={spread:g}"
    if s.rho != 0.0:
        model += f", rho0={s.rho:g} to a {y0} reference classifier with theta0={theta0:g}"
    simulated = s.engine == "simulate"
    lines = [
        f"best accuracy of m={s.m} classifiers, {model}, n={s.n} ({'mc' if simulated else s.engine})",
        f"  mean  {s.mean:.6f}"
        + (f"  (se {s.se_mean:.2g}, {s.n_resamples} replications, seed {s.seed})" if simulated else ""),
        f"  sd    {s.sd:.6f}",
        f"  {level} interval ({s.ci_low:.6f}, {s.ci_high:.6f})",
    ]
    emit(args, s.to_dict(), "\n".join(lines))
    return 0
