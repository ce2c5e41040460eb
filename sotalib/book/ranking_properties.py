"""The cached full-size property search behind the book's table of ranking properties (Chapter 7)."""

from __future__ import annotations

import json
import textwrap
from importlib import resources

import numpy as np
import pandas as pd

from ..judging import Counterexample, SearchResult
from ..judging._properties import format_counterexample
from ..judging._property_checks import FUNCTIONS, PROPERTIES

__all__ = [
    "SEED",
    "TABLE_FILE",
    "TRIALS",
    "FUNCTION_NAMES",
    "PROPERTY_NAMES",
    "save_property_table",
    "load_property_table",
    "property_comparison",
    "counterexample_summary",
    "counterexample_text",
]

#: File (in sotalib/book/data) holding the full-size search behind the book's Table 4.
TABLE_FILE = "ranking_properties.json"
#: Trials per cell and seed (``property_table(TRIALS, rng=SEED)``) of the shipped table.
TRIALS, SEED = 6000, 2024


def _ce_to_dict(ce: Counterexample | None):
    if ce is None:
        return None
    return {
        "M": ce.M.tolist(),
        "M2": None if ce.M2 is None else ce.M2.tolist(),
        "explanation": ce.explanation,
        "names2": None if ce.names2 is None else list(ce.names2),
        "meta": {k: int(v) for k, v in (ce.meta or {}).items()},
    }


def _ce_from_dict(f, p, d) -> Counterexample | None:
    if d is None:
        return None
    return Counterexample(
        f,
        p,
        np.array(d["M"], dtype=float),
        None if d["M2"] is None else np.array(d["M2"], dtype=float),
        d["explanation"],
        None if d["names2"] is None else tuple(d["names2"]),
        dict(d["meta"]),
    )


def save_property_table(table: dict, path, trials: int, seed: int) -> None:
    """Write a :func:`property_table` result as JSON (``seed``: the int ``rng`` it was run with)."""
    out = {
        "trials": trials,
        "seed": seed,
        "cells": [
            {
                "function": f,
                "property": p,
                "trials": r.trials,
                "tested": r.tested,
                "counterexample": _ce_to_dict(r.counterexample),
            }
            for (f, p), r in table.items()
        ],
    }
    with open(path, "w") as fh:
        json.dump(out, fh, indent=1)


def load_property_table(path=None) -> tuple[dict, int, int]:
    """The cached full-size search: ``({(function, property): SearchResult}, trials, seed)``.

    Regenerate with ``python -m sotalib.book.cache ranking_properties --out sotalib/book/data``
    (about ten minutes on two cores).
    """
    if path is None:
        text = resources.files("sotalib.book").joinpath("data", TABLE_FILE).read_text()
    else:
        with open(path) as fh:
            text = fh.read()
    d = json.loads(text)
    table = {}
    for c in d["cells"]:
        f, p = c["function"], c["property"]
        table[f, p] = SearchResult(f, p, c["trials"], c["tested"], _ce_from_dict(f, p, c["counterexample"]))
    return table, d["trials"], d["seed"]


#: Display names of the ranking functions and properties in the book's tables.
FUNCTION_NAMES = {
    "random-dictator": "Random dictator",
    "mean": "Mean",
    "median": "Median",
    "average-rank": "Average rank",
    "copeland": "Copeland",
    "kemeny": "Kemeny–Young",
    "relative-difference": "Relative difference",
}
PROPERTY_NAMES = {
    "majority": "Majority",
    "condorcet": "Condorcet",
    "consistency": "Consistency",
    "participation": "Participation",
    "iia": "IIA",
    "liia": "LIIA",
    "clone-proof": "Clone-proof",
}


def property_comparison(table: dict, paper: dict):
    """The paper's table of properties beside the search: one row per function, one column per property.

    Each cell reads ``paper / search`` with ✓ (the property holds; for the
    search: no counterexample found) and ✗ (it fails; for the search: a
    counterexample was found); – where the paper has no row.  ``paper`` maps
    a function to the set of properties the paper marks as satisfied
    (:data:`sotalib.book.papers.PAPER_TABLE4`).  The attribute ``differ``
    lists the ``(function, property)`` cells where the two disagree.
    """
    rows, differ = [], []
    for f in FUNCTIONS:
        row = {"function": FUNCTION_NAMES[f]}
        for p in PROPERTIES:
            found = "✓" if table[f, p].holds else "✗"
            said = ("✓" if p in paper[f] else "✗") if f in paper else "–"
            if said not in ("–", found):
                differ.append((f, p))
            row[PROPERTY_NAMES[p]] = f"{said} / {found}"
        rows.append(row)
    df = pd.DataFrame(rows)
    df.attrs["differ"] = differ
    return df


def counterexample_summary(table: dict):
    """One row per counterexample of the search: function, property, its size and what goes wrong."""
    rows = []
    for (f, p), r in table.items():
        ce = r.counterexample
        if ce is None:
            continue
        rows.append(
            {
                "function": FUNCTION_NAMES[f],
                "property": PROPERTY_NAMES[p],
                "candidates × judges": f"{ce.M.shape[0]} × {ce.M.shape[1]}",
                "second profile": "yes" if ce.M2 is not None else "no",
                "what goes wrong": ce.explanation,
            }
        )
    return pd.DataFrame(rows)


def counterexample_text(table: dict, width: int = 88) -> str:
    """Every counterexample of the search as text (score matrices and the explanation wrapped to ``width``)."""
    blocks = []
    for r in table.values():
        if r.counterexample is None:
            continue
        lines = format_counterexample(r.counterexample).splitlines()
        blocks.append("\n".join(lines[:-1] + textwrap.wrap(lines[-1], width)))
    return "\n\n".join(blocks)
