"""``sotalib datasets``: the named test sets that ``sotalib check --dataset NAME`` knows."""

from __future__ import annotations

import argparse


def register(sub) -> None:
    """Add the ``sotalib datasets`` subcommand and its options to the subparsers ``sub``."""
    p = sub.add_parser(
        "datasets",
        help="list the named test sets of check --dataset",
        description="List the named test sets (positives, negatives, folds and source) that "
        "'sotalib check --dataset NAME' uses, so that a reviewer types no counts.",
    )
    p.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help="list only the sets whose name contains one of these (e.g. hrf, diaretdb1-test); default all",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``sotalib datasets`` with the parsed ``args``; return the exit status."""
    from ..consistency import DATASETS
    from . import CliError, emit

    wanted = [w.strip().lower() for w in args.names]
    chosen = [d for name, d in DATASETS.items() if not wanted or any(w in name for w in wanted)]
    if not chosen:
        raise CliError(f"no named test set contains {' or '.join(map(repr, wanted))}: 'sotalib datasets' lists all")
    payload = {"datasets": [d.to_dict() for d in chosen]}
    width = max(len(d.name) for d in chosen)
    lines = []
    for d in chosen:
        folds = "one test set" if d.single else f"{len(d.folds)} folds"
        lines.append(f"{d.name:<{width}}  p={d.p:,}  n={d.n:,}  ({folds})")
        lines.append(f"{'':<{width}}  {d.description}")
        lines.append(f"{'':<{width}}  source: {d.source}")
    emit(args, payload, "\n".join(lines))
    return 0
