"""``sotalib rank-uncertainty``: how sure is a ranking?  Bootstrap score and rank intervals, P(first).

Two kinds of data, one output: per-item results (``--per-item``: a paired
bootstrap of the test items; the score is the mean per-item result) or
pairwise battles (``--battles``: Bradley-Terry ratings on the Elo scale, with
a bootstrap of the battles).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ._per_item_options import DESTS, add_per_item_options, per_item_from_args
from ._types import alpha, integer, seed

PLOT_SUFFIXES = (".png", ".svg", ".pdf")


def register(sub) -> None:
    """Add the ``sotalib rank-uncertainty`` subcommand and its options to the subparsers ``sub``."""
    p = sub.add_parser(
        "rank-uncertainty",
        help="bootstrap score intervals, rank intervals and P(rank first) from per-item results or battles",
        description="How sure is a ranking?  From per-item results (--per-item: a CSV with one column per "
        "candidate and one row per test item, 1/0 for correct/wrong or a per-item loss; a first column "
        "of item ids is recognised whatever its header; .csv.gz is read), every candidate's score with its paired-bootstrap "
        "interval, its rank interval and the probability that it ranks first, all from the same resamples "
        "of the items.  From pairwise battles (--battles: a CSV with columns a, b, winner; winner is a, b, "
        "or 'tie'), Bradley-Terry ratings on the Elo scale with the same intervals, resampling battles.",
    )
    src = p.add_mutually_exclusive_group(required=True)
    add_per_item_options(
        p,
        group=src,
        help="per-item results: a CSV with candidates as columns and items as rows, or any format of "
        "sotalib.read_per_item (long CSV, eval-arena, lm-eval, Inspect, HELM, Every Eval Ever; a folder of runs)",
    )
    src.add_argument("--battles", metavar="FILE.csv", help="pairwise battles: columns a, b, winner")
    p.add_argument(
        "--lower-is-better", action="store_true", help="the per-item results are losses (not with --battles)"
    )
    p.add_argument(
        "--reps",
        dest="n_resamples",
        type=integer("--reps", 1),
        default=1000,
        help="bootstrap resamples (>= 1; default 1000)",
    )
    # --seed as in the other commands; --rng, its former name, stays as an alias.  Two arguments
    # rather than two option strings of one, so that every message names the option as typed; run()
    # reads one value, seed.
    p.add_argument(
        "--seed",
        dest="seed",
        type=seed("--seed"),
        default=None,
        metavar="S",
        help="seed (>= 0) of the bootstrap; --rng S is an alias (its former name)",
    )
    p.add_argument("--rng", dest="rng_alias", type=seed("--rng"), default=None, metavar="S", help=argparse.SUPPRESS)
    p.add_argument("--alpha", type=alpha(), default=0.05, help="intervals at level 1 - alpha (default 0.05)")
    p.add_argument("--plot", metavar="FILE.png|.svg", help="also draw the rank intervals (needs matplotlib)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def _draw(result, path: str) -> None:
    from . import CliError

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.figure import Figure
    except ImportError:
        raise CliError("--plot needs matplotlib, which is not installed (pip install matplotlib)") from None
    from ..judging import plot_rank_intervals

    ax = plot_rank_intervals(result)
    fig = ax.figure
    assert isinstance(fig, Figure), "the plot draws on a figure of its own, not a subfigure"
    fig.savefig(path, bbox_inches="tight")
    plt.close(fig)


def run(args: argparse.Namespace) -> int:
    """Run ``sotalib rank-uncertainty`` with the parsed ``args``; return the exit status."""
    from ..judging import bradley_terry, estimate_rank_uncertainty, read_battles
    from . import CliError, call, emit

    if args.seed is not None and args.rng_alias is not None and args.seed != args.rng_alias:
        raise CliError("--rng is an alias of --seed: give one of them")
    args.seed = args.seed if args.seed is not None else args.rng_alias
    if args.plot is not None and Path(args.plot).suffix.lower() not in PLOT_SUFFIXES:
        raise CliError(f"--plot must name a .png, .svg or .pdf file, got {args.plot!r}")
    given = dict(n_resamples=args.n_resamples, alpha=args.alpha, rng=args.seed, progress=False if args.json else None)
    if args.lower_is_better:
        given["lower_is_better"] = True
    if args.battles is not None:
        companions = [d for d in DESTS[1:] if hasattr(args, d)]
        if companions:
            raise CliError("--format, --outcome, --filter and --item-info apply to --per-item, not to --battles")
        battles = read_battles(args.battles)
        kind = "battles (--battles: each battle has a winner)"
        res = call("rank-uncertainty", bradley_terry, kind, battles.a, battles.b, battles.winner, **given)
    else:
        path = getattr(args, "per_item", None)
        per_item = per_item_from_args(args, missing=False, item_info="rank-uncertainty")
        kind = "per-item results (--per-item)"
        try:
            res = call("rank-uncertainty", estimate_rank_uncertainty, kind, per_item, **given)
        except ValueError as exc:  # the library names its argument, scores: here it is the file
            message = " ".join(str(exc).split())
            if not message.startswith("scores:"):
                raise
            message = message[len("scores:") :].replace(
                "drop those items first (.shared())", "keep only the items every model answered"
            )
            raise CliError(f"--per-item {path}:{message}") from None
    if args.plot is not None:
        _draw(res, args.plot)
    text = res.to_text()
    if args.plot is not None:
        text += f"\nrank intervals: {args.plot}"
    emit(args, res.to_dict(), text)
    return 0
