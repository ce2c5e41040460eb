"""``sotalib auc-max``: the distribution of the best empirical AUC on a leaderboard (Section 5.2)."""

from __future__ import annotations

import argparse

from ._types import M_MAX, N_MAX, REPS_MAX, alpha, integer, probability, seed


def register(sub) -> None:
    p = sub.add_parser(
        "auc-max",
        help="distribution of the best ROC AUC among m classifiers (binormal model, simulated)",
        description=(
            "Distribution of the maximum empirical AUC of m classifiers with true AUC A on one test set of "
            "N items with prevalence P (round(N*P) positives), binormal scores with equal variances (Eq. 10); "
            "simulated, exact in distribution. --rho > 0 correlates every classifier's scores with a hidden "
            "reference classifier's within each class."
        ),
    )
    p.add_argument(
        "--auc",
        type=probability("--auc", low_open=True, high_open=True),
        required=True,
        help="true AUC of every classifier, in (0, 1)",
    )
    p.add_argument("--n", type=integer("--n", 2, N_MAX), required=True, help=f"test-set size, 2 to {N_MAX:,}")
    p.add_argument("--m", type=integer("--m", 1, M_MAX), required=True, help=f"number of classifiers, 1 to {M_MAX:,}")
    p.add_argument(
        "--prevalence",
        type=probability("--prevalence", low_open=True, high_open=True),
        required=True,
        help="share of positives, in (0, 1)",
    )
    p.add_argument(
        "--rho",
        type=probability("--rho"),
        default=0.0,
        help="within-class correlation with a reference classifier, in [0, 1]; default 0",
    )
    p.add_argument(
        "--reps", type=integer("--reps", 2, REPS_MAX), default=1000, help="simulated challenges (>= 2); default 1000"
    )
    p.add_argument("--seed", type=seed(), default=0, help="random seed (>= 0); default 0")
    p.add_argument(
        "--alpha", type=alpha(), default=0.05, help="interval level is 1 - alpha, alpha in (0, 1); default 0.05"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..multiplicity._auc import expected_max_auc
    from . import emit

    # every option is checked once, by expected_max_auc; its messages name the options (sotalib.cli.in_option_terms)
    s = expected_max_auc(
        args.auc,
        args.n,
        args.prevalence,
        m=args.m,
        rho=args.rho,
        reps=args.reps,
        rng=args.seed,
        alpha=args.alpha,
        show=False if args.json else None,
    )
    auc, n, m, rho, reps, seed, alpha = args.auc, args.n, args.m, args.rho, args.reps, args.seed, args.alpha
    level = f"{100 * (1 - alpha):g}%"
    text = (
        f"best AUC of m={m} classifiers, AUC={auc:g}, n={n} ({s.n_pos} positives, {s.n_neg} negatives), rho={rho:g}\n"
        f"  simulated: {reps} challenges, seed {seed}\n"
        f"  mean  {s.mean:.6f}  (Monte Carlo standard error {s.se_mean:.6f})\n"
        f"  sd    {s.sd:.6f}\n"
        f"  {level} interval ({s.ci_low:.6f}, {s.ci_high:.6f})"
    )
    emit(args, s.to_dict(), text)
    return 0
