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
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``sotalib datasets`` with the parsed ``args``; return the exit status."""
    from ..consistency import DATASETS
    from . import emit

    payload = {"datasets": [d.to_dict() for d in DATASETS.values()]}
    width = max(len(name) for name in DATASETS)
    lines = []
    for d in DATASETS.values():
        folds = "one test set" if d.single else f"{len(d.folds)} folds"
        lines.append(f"{d.name:<{width}}  p={d.p:,}  n={d.n:,}  ({folds})")
        lines.append(f"{'':<{width}}  {d.description}")
        lines.append(f"{'':<{width}}  source: {d.source}")
    emit(args, payload, "\n".join(lines))
    return 0
