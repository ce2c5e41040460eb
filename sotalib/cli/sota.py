"""``sotalib sota``: estimate the state of the art from a leaderboard file (Section 5)."""

from __future__ import annotations

import argparse


def register(sub) -> None:
    p = sub.add_parser(
        "sota",
        help="estimate the state of the art from a leaderboard",
        description="Estimate theta_SOTA from a Kaggle leaderboard CSV, correcting the sample maximum for multiplicity.",
    )
    p.add_argument("--leaderboard", required=True, metavar="FILE", help="Kaggle leaderboard CSV")
    p.add_argument("--score-column", default=None, metavar="NAME", help="column with the scores (default: Score)")
    p.add_argument("--n", type=int, required=True, help="test-set size (>= 1)")
    p.add_argument("--metric", choices=("accuracy", "auc"), default="accuracy", help="ranking metric")
    p.add_argument("--classes", type=int, default=2, help="number of classes (chance = 1/classes); default 2")
    p.add_argument("--prevalence", type=float, default=None, help="share of positives (AUC only)")
    p.add_argument("--rho", type=float, default=0.6, help="correlation with the reference classifier; default 0.6")
    p.add_argument(
        "--method",
        choices=("shrink", "crop", "cap", "deconvolve", "abc"),
        default="shrink",
        help="estimator (default: shrink, as in the paper; crop: the paper's cropping, Table 4; cap: min(score, c))",
    )
    p.add_argument(
        "--target",
        choices=("expected", "upper"),
        default="expected",
        help="solve for the expected maximum or the upper 95%% bound (shrink, crop and cap only)",
    )
    p.add_argument(
        "--seed",
        type=int,
        default=0,
        help="seed (>= 0) of the Monte Carlo methods (deconvolve, abc, --metric auc); default 0",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..multiplicity._leaderboard import read_leaderboard
    from ..multiplicity._sota import estimate_sota
    from . import NoSolution, emit

    # every option is checked once, by estimate_sota; its messages name the options (sotalib.cli.in_option_terms)
    kwargs = dict(
        metric=args.metric,
        classes=args.classes,
        prevalence=args.prevalence,
        rho=args.rho,
        method=args.method,
        target=args.target,
        rng=args.seed,
    )
    lb = read_leaderboard(args.leaderboard, args.score_column)
    est = estimate_sota(lb.scores, args.n, **kwargs)
    n = est.n
    payload = est.to_dict()
    payload["dropped"] = lb.dropped
    if not est.solved:
        raise NoSolution(est.reason, payload)
    text = (
        f"{args.method} estimate of the state of the art ({est.m} teams above chance, n={n})\n"
        f"  sample maximum   {est.sample_max:.4f}\n"
        f"  estimate         {est.estimate:.4f}\n"
        + (f"  weight           {est.weight:.6f}\n" if est.weight is not None else "")
        + (f"  E max            {est.expected_max:.4f}\n" if est.expected_max is not None else "")
        + (f"  95% interval     ({est.ci_low:.4f}, {est.ci_high:.4f})\n" if est.ci_low is not None else "")
        + f"  teams above      {est.teams_above}"
        + (f"\n  ({lb.dropped} rows without a score dropped)" if lb.dropped else "")
    )
    emit(args, payload, text)
    return 0
