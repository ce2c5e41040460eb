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
from typing import Any

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


def _num(v, spec: str = ".4f") -> str:
    return "-" if v is None else format(v, spec)


def _models_table(records: list[dict], alpha: float) -> list[str]:
    width = max([len("model")] + [len(str(r["model"])) for r in records])
    level = f"{100 * (1 - alpha):g}% interval"
    head = (
        f"{'model':<{width}}  {'accuracy':>8}  {'se':>6}  {'se_data':>7}  {'se_pred':>7}  "
        f"{level:>17}  {'items':>6}  {'K':>5}"
    )
    lines = [head]
    for r in records:
        ci = f"[{_num(r['ci_low'])}, {_num(r['ci_high'])}]"
        lines.append(
            f"{str(r['model']):<{width}}  {_num(r['accuracy']):>8}  {_num(r['se']):>6}  {_num(r['se_data']):>7}  "
            f"{_num(r['se_pred']):>7}  {ci:>17}  {r['n_items']:>6}  {_num(r['samples'], 'g'):>5}"
        )
    return lines


def _pairs_lines(result, pairs_file: str | None) -> list[str]:
    import numpy as np

    pairs = result.pairs
    told = np.flatnonzero(pairs.significant)
    lines = [
        "",
        f"pairs told apart (Holm's control at alpha {result.alpha:g}): {told.size:,} of {len(pairs):,}",
    ]
    if told.size == 0:
        return lines
    # the closest pairs told apart first (the informative ones); each pair written better model first
    order = told[np.argsort(np.abs(pairs.difference[told]), kind="stable")][:MAX_TEXT_PAIRS]
    names = np.asarray(pairs.models, dtype=object)
    rows = []
    for k in order:
        a, b, d = names[pairs.ia[k]], names[pairs.ib[k]], float(pairs.difference[k])
        first, second = (a, b) if d >= 0 else (b, a)
        rows.append((f"{first} > {second}", abs(d), float(pairs.se[k]), float(pairs.p_adjusted[k])))
    width = max(len("pair (closest first)"), *(len(r[0]) for r in rows))
    lines.append(f"  {'pair (closest first)':<{width}}  {'difference':>10}  {'se':>6}  {'p_adjusted':>10}")
    lines += [f"  {p:<{width}}  {d:>10.4f}  {_num(se):>6}  {q:>10.3g}" for p, d, se, q in rows]
    if told.size > len(order):
        where = f" (every pair is in {pairs_file})" if pairs_file else " (--pairs-file FILE.jsonl writes every pair)"
        lines.append(f"  ... and {told.size - len(order):,} more{where}")
    return lines


def _summary_lines(summary: dict) -> list[str]:
    lines = ["", "summary"]
    for key, value in summary.items():
        shown = "-" if value is None else (f"{value:,}" if isinstance(value, int) else f"{value:.4g}")
        lines.append(f"  {key:<26} {shown}")
    return lines


def _text(result, payload: dict, pairs_file: str | None) -> str:
    """The models, then the pairs told apart, then the summary (what ``sotalib errorbars`` prints)."""
    s = payload["summary"]
    head = f"error bars of {s['n_models']:,} models on {s['n_items']:,} items (alpha {result.alpha:g})"
    lines = [head, "", *_models_table(payload["models"], result.alpha)]
    if result.pairs is not None:
        lines += _pairs_lines(result, pairs_file)
    lines += _summary_lines(s)
    return "\n".join(lines)


def _json_column(values) -> list[str]:
    """One column of the pairs as JSON texts: ``true``/``false``, integers, floats (``null`` for NaN)."""
    import numpy as np

    arr = np.asarray(values)
    if arr.dtype == bool:
        return ["true" if v else "false" for v in arr.tolist()]
    if arr.dtype.kind in "iu":
        return list(map(str, arr.tolist()))
    out = list(map(repr, arr.astype(float).tolist()))  # repr is what json.dumps writes for a float
    for k in np.flatnonzero(~np.isfinite(arr)).tolist():
        out[k] = "null"
    return out


def _write_pairs(path: str, pairs, chunk: int = 65536) -> None:
    """Every pair, one JSON object a line: the records of ``pairs.iter_records()``, written column by column.

    Formatting the columns (not one dictionary per pair) writes 500,000 pairs several times faster;
    a test checks that each line equals the record.
    """
    import json

    if len(pairs) == 0:
        open(path, "w", encoding="utf-8").close()
        return
    keys = list(next(iter(pairs.iter_records(chunk=1))))
    fields = [k for k in keys if k not in ("a", "b")]
    template = "{" + ",".join(f"{json.dumps(k)}:%s" for k in keys) + "}\n"
    names = [json.dumps(str(m)) for m in pairs.models]
    with open(path, "w", encoding="utf-8") as fh:
        for start in range(0, len(pairs), chunk):
            sl = slice(start, start + chunk)
            cols = {"a": [names[i] for i in pairs.ia[sl].tolist()], "b": [names[i] for i in pairs.ib[sl].tolist()]}
            cols.update((k, _json_column(getattr(pairs, k)[sl])) for k in fields)
            fh.write("".join(template % row for row in zip(*(cols[k] for k in keys), strict=True)))


def run(args: argparse.Namespace) -> int:
    """Run ``sotalib errorbars`` with the parsed ``args``; return the exit status."""
    from .. import judging
    from . import CliError, emit

    evaluation_noise: Any = judging.evaluation_noise  # Any: judging's TYPE_CHECKING imports do not list it yet

    pairs = bool(getattr(args, "pairs", False))
    pairs_file = getattr(args, "pairs_file", None)
    if pairs_file is not None and not pairs:
        raise CliError("--pairs-file needs --pairs (it writes every pair of models)")
    if pairs_file == "":
        raise CliError("--pairs-file needs a file name")
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
        result = evaluation_noise(per_item, clusters=clusters, pairs=pairs, **options)
    except ValueError as exc:  # the library names its argument, per_item: here it is the file
        message = " ".join(str(exc).split())
        if not message.startswith("per_item"):
            raise
        raise CliError(f"--per-item {path}: {message[len('per_item') :].lstrip(': ')}") from None
    if pairs_file is not None and result.pairs is not None:
        _write_pairs(pairs_file, result.pairs)
    if not getattr(args, "json", False):  # the text lists the pairs from the result's columns
        payload = result.to_dict(max_pairs=0)
        payload.pop("note", None)
        emit(args, payload, _text(result, payload, pairs_file))
        return 0
    payload = result.to_dict(max_pairs=MAX_JSON_PAIRS)
    if "note" in payload and "pairs" not in payload:
        where = f"every pair is in {pairs_file}" if pairs_file else "--pairs-file FILE.jsonl writes every pair"
        payload["note"] = f"{payload['note']}; {where}"
    emit(args, payload, "")
    return 0
