"""The cached full-size property search behind the book's table of ranking properties (Chapter 7)."""

from __future__ import annotations

import json
from importlib import resources

import numpy as np

from ..judging import Counterexample, SearchResult

__all__ = ["SEED", "TABLE_FILE", "TRIALS", "save_property_table", "load_property_table"]

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
