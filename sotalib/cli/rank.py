"""``sotalib rank``: fuse a candidates x judges score matrix into one ranking."""

from __future__ import annotations

import argparse
import csv
import math

import numpy as np

from ..judging._ranking import rank_candidates

#: The methods offered on the command line.
CLI_METHODS = ("mean", "median", "average-rank", "copeland", "relative-difference", "kemeny", "random-dictator")


def register(sub) -> None:
    p = sub.add_parser(
        "rank",
        help="rank candidates from a candidates x judges score matrix",
        description="Rank candidates from a CSV score matrix: the first column names the candidates, "
                    "each further column is a judge (task, metric, run); the first row is a header.",
    )
    p.add_argument("--scores", required=True, metavar="FILE.csv", help="score matrix (CSV with a header row)")
    p.add_argument("--method", required=True, choices=CLI_METHODS, help="ranking function")
    p.add_argument("--lower-is-better", action="store_true", help="the scores are losses (smaller is better)")
    p.add_argument("--seed", type=int, default=None, help="seed of the random dictator")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def read_scores(path: str) -> tuple[list[str], list[str], np.ndarray]:
    """Read a score CSV: ``(candidates, judges, M)``; raises ValueError on malformed input."""
    with open(path, newline="") as fh:
        rows = [r for r in csv.reader(fh) if r and any(c.strip() for c in r)]
    if len(rows) < 2:
        raise ValueError(f"{path}: need a header row and at least one candidate row")
    header = [c.strip() for c in rows[0]]
    if len(header) < 2:
        raise ValueError(f"{path}: need a name column and at least one judge column")
    names, values = [], []
    for i, r in enumerate(rows[1:], start=2):
        if len(r) != len(header):
            raise ValueError(f"{path}: line {i} has {len(r)} fields, the header has {len(header)}")
        names.append(r[0].strip())
        try:
            vals = [float(c) for c in r[1:]]
        except ValueError:
            raise ValueError(f"{path}: line {i}: scores must be numbers") from None
        if not all(math.isfinite(v) for v in vals):
            raise ValueError(f"{path}: line {i}: scores must be finite")
        values.append(vals)
    if len(set(names)) != len(names):
        raise ValueError(f"{path}: candidate names must be unique")
    return names, header[1:], np.array(values, dtype=float)


def run(args: argparse.Namespace) -> int:
    from . import emit

    names, judges, M = read_scores(args.scores)
    if args.seed is not None and args.seed < 0:
        raise ValueError("--seed must be a non-negative integer")
    res = rank_candidates(M, args.method, args.lower_is_better, rng=args.seed)
    ranking = [names[i] for i in res.order]
    note = res.note if res.judge is None else f"judge {judges[res.judge]!r} drawn"
    payload = {
        "ranking": ranking,
        "scores": {names[i]: float(res.scores[i]) for i in res.order},
        "ranks": {names[i]: float(res.ranks[i]) for i in res.order},
        "method": args.method,
        "higher_is_better": res.higher_is_better,
        "note": note,
    }
    lines = [f"{args.method} ranking of {len(names)} candidates by {len(judges)} judges"
             + (f" ({note})" if note else "")
             + f"; score: {'higher' if res.higher_is_better else 'lower'} is better"]
    w = max(len(n) for n in names)
    for i in res.order:
        lines.append(f"  {res.ranks[i]:>4g}  {names[i].ljust(w)}  {res.scores[i]:.6g}")
    emit(args, payload, "\n".join(lines))
    return 0
