"""``sotalib rank``: fuse a candidates x judges score matrix into one ranking."""

from __future__ import annotations

import argparse

from ._types import seed

S = argparse.SUPPRESS  # an option not typed is not passed: the library's default applies

#: The methods offered on the command line.
CLI_METHODS = ("mean", "median", "average-rank", "copeland", "relative-difference", "kemeny", "random-dictator")


def register(sub) -> None:
    """Add the ``sotalib rank`` subcommand and its options to the subparsers ``sub``."""
    p = sub.add_parser(
        "rank",
        help="rank candidates from a candidates x judges score matrix",
        description="Rank candidates from a CSV score matrix: the first column names the candidates, "
        "each further column is a judge (task, metric, run); the first row is a header. "
        "Cost with n candidates and m judges: mean, median, average-rank and random-dictator take "
        "O(m n log n); copeland, relative-difference and kemeny compare every pair, O(m n^2), and kemeny "
        "keeps an n x n table (8 n^2 bytes). Kemeny-Young is exact by blocks of up to 15 candidates that every "
        "optimal ordering keeps together, a local search beyond, and the note says whether the result is "
        "proved optimal.",
        argument_default=S,
    )
    p.add_argument("--scores", required=True, metavar="FILE.csv", help="score matrix (CSV with a header row)")
    p.add_argument("--method", required=True, choices=CLI_METHODS, help="ranking function")
    p.add_argument("--lower-is-better", action="store_true", help="the scores are losses (smaller is better)")
    p.add_argument(
        "--candidates",
        choices=("rows", "columns"),
        default="rows",
        help="which axis of the file holds the candidates: rows (the default: the first column names them) or "
        "columns (the header names them, each row is a judge or data set)",
    )
    p.add_argument(
        "--seed", dest="rng", type=seed(), help="seed of the random dictator (random-dictator only; default 0)"
    )
    p.add_argument("--json", action="store_true", default=False, help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``sotalib rank`` with the parsed ``args``; return the exit status."""
    from ..judging import rank_candidates, read_scores
    from . import call, emit, refuse_unused, typed

    # every option typed is passed as the parameter of the same name; the library checks every range
    given = typed(args)
    method = given.pop("method")
    if method != "random-dictator":
        refuse_unused("rank", given, ("rng",), f"--method {method}, which draws nothing")
    else:
        given.setdefault("rng", 0)  # the command line's answers are reproducible: seed 0 unless --seed
    # the file's names come with its matrix; --candidates is the library's candidates= (which axis holds them)
    table = read_scores(given.pop("scores"))
    res = call(
        "rank", rank_candidates, f"--method {method}", table, method, **given, progress=None if not args.json else False
    )
    emit(args, res.to_dict(), res.to_text())
    return 0
