"""``sotalib errorbars``: error bars of every model, and of every pair, from per-item results.

Reads per-item results in any format :func:`sotalib.read_per_item` knows (a wide or long CSV,
eval-arena's JSONL, lm-evaluation-harness, Inspect, HELM or Every Eval Ever logs, a folder of
runs), computes :func:`sotalib.evaluation_noise` and prints a table of the models, the pairs told
apart after Holm's control (with ``--pairs``) and the benchmark's summary; ``--json`` prints
``EvaluationNoise.to_dict()`` with at most :data:`MAX_JSON_PAIRS` pairs (beyond, ``pairs`` is left
out with a ``note``; ``--pairs-file FILE.jsonl`` writes every pair, one JSON object a line).
"""

from __future__ import annotations

import argparse
import os

from ._per_item_options import add_per_item_options, per_item_from_args
from ._types import alpha

S = argparse.SUPPRESS

#: Most pairs printed in the JSON object (issue 33); beyond, ``--pairs-file`` streams them.
MAX_JSON_PAIRS = 100_000
#: Most pairs told apart listed in the text (all of them go to ``--pairs-file``).
MAX_TEXT_PAIRS = 50


def register(sub) -> None:
    """Add the ``sotalib errorbars`` subcommand and its options to the subparsers ``sub``."""
    p = sub.add_parser(
        "errorbars",
        help="error bars of every model and every pair from per-item results (evaluation noise)",
        description="Error bars from per-item results: for every model the accuracy, its standard error "
        "(split into data and prediction noise when items have several samples), and an interval; with "
        "--pairs, every pair of models on their shared items: the difference, its paired standard error, "
        "the correlation, the exact sign test (McNemar's on 0/1 outcomes) and Holm's control of the many "
        "comparisons; and the benchmark's summary (Wang 2025, 'Measuring all the noises of LLM evals'; "
        "Miller 2024 for clustered errors).",
        argument_default=S,
    )
    add_per_item_options(p)
    p.add_argument(
        "--clusters",
        metavar="COLUMN",
        help="clustered standard errors: the column of the long table or of --item-info naming each item's cluster",
    )
    p.add_argument("--pairs", action="store_true", help="also every pair of models (m(m-1)/2 of them)")
    p.add_argument(
        "--pairs-file",
        metavar="FILE.jsonl",
        help=f"with --pairs: write every pair to FILE, one JSON object a line (the JSON output holds at most "
        f"{MAX_JSON_PAIRS:,} pairs)",
    )
    p.add_argument("--alpha", type=alpha(), help="level of the intervals and of Holm's control (default 0.05)")
    p.add_argument("--json", action="store_true", default=False, help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``sotalib errorbars`` with the parsed ``args``; return the exit status."""
    from .. import judging
    from . import CliError, emit

    pairs = bool(getattr(args, "pairs", False))
    pairs_file = getattr(args, "pairs_file", None)
    if pairs_file is not None and not pairs:
        raise CliError("--pairs-file needs --pairs (it writes every pair of models)")
    if pairs_file == "":
        raise CliError("--pairs-file needs a file name")
    if pairs_file is not None:  # refused before the pairs are computed, not after
        _check_writable(pairs_file)
    clusters = getattr(args, "clusters", None)
    if hasattr(args, "per_item_info") and clusters is None:  # the clusters are the only item attribute used here
        raise CliError("--item-info is read for --clusters COLUMN only: give --clusters (e.g. --clusters cluster)")
    path = getattr(args, "per_item", None)
    per_item = per_item_from_args(args)
    info = per_item.item_info or {}
    if clusters is not None and clusters not in info:
        known = ", ".join(sorted(info)) or "none"
        raise CliError(
            f"--clusters {clusters}: no such column in the per-item file or --item-info (item columns: {known})"
        )
    options = {"alpha": args.alpha} if hasattr(args, "alpha") else {}
    try:
        result = judging.evaluation_noise(per_item, clusters=clusters, pairs=pairs, **options)
    except ValueError as exc:  # the library names its argument, per_item: here it is the file
        message = " ".join(str(exc).split())
        if not message.startswith("per_item"):
            raise
        raise CliError(f"--per-item {path}: {message[len('per_item') :].lstrip(': ')}") from None
    if pairs_file is not None and result.pairs is not None:
        try:
            result.pairs.write_jsonl(pairs_file)
        except OSError as exc:
            raise CliError(f"--pairs-file {pairs_file}: cannot be written: {exc.strerror or exc}") from None
    if not getattr(args, "json", False):
        more = f"every pair is in {pairs_file}" if pairs_file else "--pairs-file FILE.jsonl writes every pair"
        emit(args, {}, result.to_text(listed=MAX_TEXT_PAIRS, more=more))
        return 0
    payload = result.to_dict(max_pairs=MAX_JSON_PAIRS)
    if "note" in payload and "pairs" not in payload:
        where = f"every pair is in {pairs_file}" if pairs_file else "--pairs-file FILE.jsonl writes every pair"
        payload["note"] = f"{payload['note']}; {where}"
    emit(args, payload, "")
    return 0


def _check_writable(path: str) -> None:
    """Refuse a ``--pairs-file`` that cannot be written (a folder, a missing or read-only folder)."""
    from . import CliError

    if os.path.isdir(path):
        raise CliError(f"--pairs-file {path}: is a folder, not a file")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise CliError(f"--pairs-file {path}: the folder {folder} does not exist")
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise CliError(f"--pairs-file {path}: cannot be written: permission denied")
    if not os.path.exists(path) and not os.access(folder, os.W_OK):
        raise CliError(f"--pairs-file {path}: cannot be written: the folder {folder} is not writable")
