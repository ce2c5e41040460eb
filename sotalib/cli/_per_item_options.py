"""The per-item options every command that reads per-item results shares, and their one reader.

``add_per_item_options(parser)`` adds ``--per-item FILE_OR_FOLDER``, ``--format F``, ``--outcome NAME``,
``--filter NAME`` and ``--item-info FILE``; ``per_item_from_args(args)`` reads them with
:func:`sotalib.read_per_item` into a :class:`sotalib.PerItem` and removes them from ``args``, so that the
command's other options reach its library function as they are.  A bad file is one line on stderr and exit
code 2, naming the file and the place (line, column or key), as every command does.
"""

from __future__ import annotations

import argparse
import re
from typing import Any

#: The formats --format takes (those of sotalib.read_per_item).
FORMAT_CHOICES = ("auto", "wide", "long", "eval-arena", "lm-eval", "inspect", "helm", "eee")

#: The argparse destinations of the options, removed from ``args`` once read.
DESTS = ("per_item", "per_item_format", "per_item_outcome", "per_item_filter", "per_item_info")

_OPTIONS = {"outcome": "--outcome", "filter": "--filter", "format": "--format", "item_info": "--item-info"}


def add_per_item_options(
    parser: argparse.ArgumentParser | Any,
    *,
    group: Any = None,
    required: bool = False,
    help: str | None = None,
) -> None:
    """Add ``--per-item`` (to ``group`` when given, e.g. a mutually exclusive group) and its four companions.

    The companions default to ``argparse.SUPPRESS`` (absent when not typed), whatever the parser's default.
    """
    target = group if group is not None else parser
    target.add_argument(
        "--per-item",
        dest="per_item",
        metavar="FILE_OR_FOLDER",
        required=required,
        default=argparse.SUPPRESS,
        help=help
        or "per-item results ('-': stdin): a wide CSV (items x models), a long CSV (model,item,score[,sample]), "
        "eval-arena JSONL, lm-evaluation-harness samples_*.jsonl, an Inspect log (.eval/.json), HELM "
        "per_instance_stats.json, Every Eval Ever JSONL (.gz too), or a folder of one run per model",
    )
    s = argparse.SUPPRESS
    parser.add_argument(
        "--format",
        dest="per_item_format",
        choices=FORMAT_CHOICES,
        default=s,
        help="the --per-item file's format (default auto: detected from its name and content)",
    )
    parser.add_argument(
        "--outcome",
        dest="per_item_outcome",
        metavar="NAME",
        default=s,
        help="the metric (lm-eval), stat (HELM), scorer (Inspect), key or score column to read, when the file "
        "holds several",
    )
    parser.add_argument(
        "--filter",
        dest="per_item_filter",
        metavar="NAME",
        default=s,
        help="the lm-eval filter to read (eval-arena: benchmark_id; Every Eval Ever: evaluation_name)",
    )
    parser.add_argument(
        "--item-info",
        dest="per_item_info",
        metavar="FILE.csv",
        default=s,
        help="item attributes a per-item file cannot hold: a CSV with a column item and any of cluster, options",
    )


def _in_option_terms(text: str) -> str:
    """A reader's message in the command line's terms: ``outcome=`` reads ``--outcome``."""
    text = re.sub(r"(?<![-\w])(outcome|filter|format)=(?=')", r"--\1 ", text)
    return re.sub(r"(?<![-\w])(outcome|filter|format)=", r"--\1", text)


def per_item_from_args(args: argparse.Namespace, *, missing: bool = True, item_info: str | bool = True) -> Any:
    """The :class:`sotalib.PerItem` of ``--per-item`` and its companions; they are removed from ``args``.

    ``missing``: whether a blank cell or a null result is a missing answer (NaN) rather than an error.
    ``item_info``: True when the command uses item attributes; else the text naming what it is
    (``--item-info`` is then refused rather than ignored).  Companions given without ``--per-item`` are
    refused (exit code 2).
    """
    values = {dest: getattr(args, dest) for dest in DESTS if hasattr(args, dest)}
    for dest in DESTS:
        if hasattr(args, dest):
            delattr(args, dest)
    return per_item_from_values(values, missing=missing, item_info=item_info)


def per_item_from_values(values: dict, *, missing: bool = True, item_info: str | bool = True) -> Any:
    """:func:`per_item_from_args` on a dict of the options' destinations (for a command that took them out)."""
    from .._io import InputError
    from .._per_item import read_per_item
    from . import CliError

    if item_info is not True and values.get("per_item_info") is not None:
        raise CliError(f"--item-info does not apply to {item_info or 'this command'}: it uses no item attributes")
    path = values.get("per_item")
    if path is None:
        given = [
            option
            for dest, option in zip(DESTS[1:], ("--format", "--outcome", "--filter", "--item-info"), strict=True)
            if values.get(dest) is not None
        ]
        verb = "needs" if len(given) == 1 else "need"
        raise CliError(f"{', '.join(given) or 'these options'} {verb} --per-item FILE_OR_FOLDER")
    if path == "-" and values.get("per_item_info") == "-":
        raise CliError("--per-item - and --item-info - cannot both read standard input: give one of them as a file")
    try:
        return read_per_item(
            path,
            format=values.get("per_item_format") or "auto",
            outcome=values.get("per_item_outcome"),
            filter=values.get("per_item_filter"),
            item_info=values.get("per_item_info"),
            missing=missing,
        )
    except InputError as exc:
        raise InputError(_in_option_terms(exc.reason), path=exc.path, line=exc.line, column=exc.column) from None
    except ValueError as exc:
        raise CliError(f"--per-item {path}: {_in_option_terms(' '.join(str(exc).split()))}") from None
