"""``sotalib sota``: estimate the state of the art from a leaderboard file (Section 5)."""

from __future__ import annotations

import argparse
import math

from ._types import integer, probability, seed


def register(sub) -> None:
    """Add the ``sotalib sota`` subcommand and its options to the subparsers ``sub``."""
    p = sub.add_parser(
        "sota",
        help="estimate the state of the art from a leaderboard",
        description="Estimate theta_SOTA from a leaderboard CSV, correcting the sample maximum for multiplicity. "
        "Reads Kaggle's leaderboard download, the Kaggle command line's --csv output and any CSV with a "
        "header row and a score column (e.g. rank,score); a team listed twice keeps its best score, and "
        "every dropped or merged row is reported.",
    )
    p.add_argument("--leaderboard", required=True, metavar="FILE", help="Kaggle leaderboard CSV")
    p.add_argument("--score-column", default=None, metavar="NAME", help="column with the scores (default: score)")
    p.add_argument(
        "--scale",
        choices=("auto", "unit", "percent"),
        default="auto",
        help="scores in [0, 1] (unit) or percentages (percent); default auto: percentages when no score lies in (0, 1]",
    )
    # --n and --classes state only their lower end: how large they may be is estimate_sota's to say
    p.add_argument("--n", type=integer("--n", 1), required=True, help="test-set size (>= 1)")
    p.add_argument("--metric", choices=("accuracy", "auc"), default="accuracy", help="ranking metric")
    p.add_argument(
        "--classes",
        type=integer("--classes", 2),
        default=2,
        help="number of classes (>= 2; chance = 1/classes); default 2",
    )
    p.add_argument(
        "--prevalence",
        type=probability("--prevalence", low_open=True, high_open=True),
        default=None,
        help="share of positives (AUC only)",
    )
    p.add_argument(
        "--rho", type=probability("--rho"), default=0.6, help="correlation with the reference classifier; default 0.6"
    )
    p.add_argument(
        "--method",
        choices=("shrink", "crop", "cap", "deconvolve", "abc", "naive", "observed"),
        default="shrink",
        help="estimator (default: shrink, as in the paper; crop: the paper's cropping, Table 4; cap: min(score, c); "
        "naive: the sample maximum; observed: the scores taken as true)",
    )
    p.add_argument(
        "--target",
        choices=("expected", "upper"),
        default="expected",
        help="solve for the expected maximum or the upper 95%% bound (shrink, crop and cap only)",
    )
    p.add_argument(
        "--engine",
        choices=("auto", "exact", "normal", "simulate"),
        default="auto",
        help="distribution of the maximum: exact, a normal approximation for large n, or (AUC) simulate; "
        "default auto: exact (accuracy) or simulate (AUC) unless that would take minutes",
    )
    p.add_argument(
        "--seed",
        type=seed(),
        default=0,
        help="seed (>= 0) of the Monte Carlo methods (deconvolve, abc, --metric auc); default 0",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def _teams(k: int) -> str:
    return f"{k:,} team{'s' if k != 1 else ''}"


def run(args: argparse.Namespace) -> int:
    """Run ``sotalib sota`` with the parsed ``args``; return the exit status."""
    # the library loads only when the command runs, so that `sotalib --help` and the other commands stay fast
    from ..multiplicity._estimate import estimate_sota
    from ..multiplicity._leaderboard import read_leaderboard
    from . import NoSolution, emit

    # every option is checked once, by estimate_sota; its messages name the options (sotalib.cli.in_option_terms)
    lb = read_leaderboard(args.leaderboard, args.score_column, scale=args.scale)
    est = estimate_sota(
        lb,
        args.n,
        metric=args.metric,
        classes=args.classes,
        prevalence=args.prevalence,
        rho=args.rho,
        method=args.method,
        target=args.target,
        engine=args.engine,
        rng=args.seed,
        progress=False if args.json else None,
    )
    n = est.n
    payload = est.to_dict()
    if not est.solved:
        assert est.reason is not None, "an unsolved estimate says why"
        raise NoSolution(est.reason, payload)
    notes = list(est.notes)
    if est.below_chance:
        notes.append(f"{_teams(est.below_chance)} at or below chance left out")
    if est.excluded:
        notes.append(
            f"{est.excluded:,} of the {_teams(est.m)} above chance excluded from the fitted model by Eq. 8 "
            f"(with --rho {args.rho:g} their probabilities given the reference classifier would leave [0, 1])"
        )
    # four decimals as the paper prints them; more where a count is finer than the fourth (n >= 10^6)
    d = max(4, min(8, round(math.log10(n)) - 1))
    rows = [
        f"{args.method} estimate of the state of the art ({_teams(est.m)} above chance, n={n:,})",
        f"  sample maximum   {est.sample_max:.{d}f}",
        f"  estimate         {est.estimate:.{d}f}",
    ]
    crop = args.method in ("crop", "cap")
    if est.weight is not None:
        # for crop and cap the fitted parameter is the crop point c, not a shrinkage weight
        rows.append(f"  {'crop point c   ' if crop else 'weight         '}  {est.weight:.6f}")
    if est.expected_max is not None:
        rows.append(f"  E max            {est.expected_max:.{d}f}")
    if est.ci_low is not None:
        rows.append(f"  95% interval     ({est.ci_low:.{d}f}, {est.ci_high:.{d}f})")
    if est.teams_above is not None:
        # the paper counts the teams above the crop point for cropping, above the estimate otherwise
        rows.append(f"  {'above c        ' if crop else 'above estimate '}  {_teams(est.teams_above)}")
    if est.details.get("engine") == "normal":
        notes.append(f"engine: {est.details['accuracy']}")
    text = "\n".join(rows + [f"  note: {line}" for line in notes])
    emit(args, payload, text)
    return 0
