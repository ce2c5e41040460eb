"""``sotalib datasets``: the named test sets and language-model benchmarks that ``sotalib check --dataset NAME`` knows."""

from __future__ import annotations

import argparse
import difflib


def register(sub) -> None:
    """Add the ``sotalib datasets`` subcommand and its options to the subparsers ``sub``."""
    p = sub.add_parser(
        "datasets",
        help="list the named test sets and benchmarks of check --dataset",
        description="List the named test sets (positives, negatives, folds and source) and the named "
        "language-model benchmarks (items, subsets and source) that 'sotalib check --dataset NAME' uses, "
        "so that a reviewer types no counts.",
    )
    p.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help="list only the sets whose name contains one of these (e.g. hrf, diaretdb1-test, mmlu); default all",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object: 'datasets' (name, description, source, p, n, folds) and "
        "'benchmarks' (name, n_items, subsets, source, version, chance)",
    )
    p.set_defaults(run=run)


def _norm(name: str) -> str:
    """A name as the registries spell them: lower case, words joined by '-', a trailing '+' as '-plus'."""
    key = "-".join(name.strip().lower().replace("_", " ").replace("-", " ").split())
    return key[:-1].rstrip("-") + "-plus" if key.endswith("+") else key


def run(args: argparse.Namespace) -> int:
    """Run ``sotalib datasets`` with the parsed ``args``; return the exit status."""
    from ..consistency import BENCHMARKS, DATASETS
    from . import CliError, emit

    wanted = [w.strip().lower() for w in args.names]
    keys = [_norm(w) for w in wanted]

    def chosen(names):
        return [n for n in names if not wanted or any(w in n or k in n for w, k in zip(wanted, keys))]

    sets = [DATASETS[n] for n in chosen(DATASETS)]
    benches = [BENCHMARKS[n] for n in chosen(BENCHMARKS)]
    if not sets and not benches:
        every = list(DATASETS) + list(BENCHMARKS)
        close = list(dict.fromkeys(c for k in keys for c in difflib.get_close_matches(k, every, n=4, cutoff=0.6)))
        hint = f"did you mean {', '.join(close[:6])}? " if close else ""
        raise CliError(
            f"no named test set contains {' or '.join(map(repr, wanted))}, nor does a benchmark's name: "
            f"{hint}'sotalib datasets' lists all"
        )
    payload = {"datasets": [d.to_dict() for d in sets], "benchmarks": [b.to_dict() for b in benches]}
    width = max(len(x.name) for x in [*sets, *benches])
    lines = []
    for d in sets:
        folds = "one test set" if d.single else f"{len(d.folds)} folds"
        lines.append(f"{d.name:<{width}}  p={d.p:,}  n={d.n:,}  ({folds})")
        lines.append(f"{'':<{width}}  {d.description}")
        lines.append(f"{'':<{width}}  source: {d.source}")
    if benches:
        if sets:
            lines.append("")
        lines.append("language-model benchmarks (the items an accuracy is a share of; subsets of a macro average):")
    for b in benches:
        sub = "" if b.subsets is None else f" in {len(b.subsets)} subsets"
        chance = "chance varies by item" if b.chance is None else f"chance {b.chance:g}"
        lines.append(f"{b.name:<{width}}  {b.n_items:,} items{sub}  ({b.version}; {chance})")
        if b.subsets is not None:
            lines.append(f"{'':<{width}}  subsets: " + ", ".join(f"{k} {v:,}" for k, v in b.subsets.items()))
        lines.append(f"{'':<{width}}  source: {b.source}")
    emit(args, payload, "\n".join(lines))
    return 0
