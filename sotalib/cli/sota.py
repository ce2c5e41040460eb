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
        choices=("shrink", "crop", "deconvolve", "abc"),
        default="shrink",
        help="estimator (default: shrink, as in the paper)",
    )
    p.add_argument(
        "--target",
        choices=("expected", "upper"),
        default="expected",
        help="solve for the expected maximum or the upper 95%% bound (shrink and crop only)",
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
    from .._validate import check_int, check_probability
    from ..multiplicity._leaderboard import read_leaderboard
    from ..multiplicity._sota import estimate_sota
    from . import CliError, NoSolution, emit

    n = check_int("--n", args.n, low=1)
    classes = check_int("--classes", args.classes, low=2)
    rho = check_probability("--rho", args.rho)
    if args.metric == "auc":
        if args.prevalence is None:
            raise CliError("--metric auc needs --prevalence (share of positives, in (0, 1))")
        check_probability("--prevalence", args.prevalence, open_low=True, open_high=True)
        if args.method != "shrink":
            raise CliError(f"--method {args.method} is not available for --metric auc (use shrink)")
    elif args.method in ("deconvolve", "abc") and args.target != "expected":
        raise CliError(
            f"--target {args.target} is not supported by --method {args.method}, which estimates the "
            "expected maximum itself (use --target expected, or --method shrink or crop)"
        )
    seed = check_int("--seed", args.seed, low=0)
    lb = read_leaderboard(args.leaderboard, args.score_column)
    est = estimate_sota(
        lb.scores,
        n,
        metric=args.metric,
        classes=classes,
        prevalence=args.prevalence,
        rho=rho,
        method=args.method,
        target=args.target,
        rng=seed,
    )
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
