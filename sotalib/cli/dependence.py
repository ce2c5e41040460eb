"""``sotalib dependence``: the dependence between models, measured from per-item results.

Reads per-item correctness (a CSV with one column per model, one row per test item, 1/0 or a graded share in [0, 1];
a first column of item ids is recognised whatever its header; an empty cell is a missing answer;
or any format of :func:`sotalib.read_per_item`: a long CSV, eval-arena, lm-eval, Inspect, HELM,
Every Eval Ever logs, ``.gz`` too), estimates the multiplicity model's ``rho_0`` and the reference classifier's
accuracy ``theta_0`` with a bootstrap over items, and with ``--fit`` tests the model.
"""

from __future__ import annotations

import argparse

from ._per_item_options import add_per_item_options, per_item_from_args
from ._types import alpha, integer, seed

S = argparse.SUPPRESS


def register(sub) -> None:
    """Add the ``sotalib dependence`` subcommand and its options to the subparsers ``sub``."""
    p = sub.add_parser(
        "dependence",
        help="measure the dependence rho_0 between models from per-item results",
        description="Measure the correlation rho_0 of every model with a hidden reference classifier (the "
        "multiplicity paper's model) and the reference's accuracy theta_0 from per-item correctness: a CSV "
        "with one column per model and one row per test item (1 correct, 0 wrong, a share of correct samples "
        "between, e.g. a pass@1 averaged over samples; empty: not answered; a "
        "first column of item ids is recognised whatever its header; .csv.gz is read).  Items some model did not answer are left out "
        "and counted.  --fit also tests the model (the spread of the pairwise phi, level 0.05) and "
        "compares its best of k models with the observed.",
        argument_default=S,
    )
    add_per_item_options(p, required=True)
    p.add_argument("--reps", dest="n_resamples", type=integer("--reps", 0), help="bootstrap resamples (default 1000)")
    p.add_argument("--seed", dest="rng", type=seed(), help="seed (>= 0) of the bootstrap; default 0")
    p.add_argument("--alpha", type=alpha(), help="intervals at level 1 - alpha (default 0.05)")
    p.add_argument("--fit", action="store_true", help="also test the model and predict the best of k models")
    p.add_argument("--json", action="store_true", default=False, help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``sotalib dependence`` with the parsed ``args``; return the exit status."""
    from .._io import InputError
    from ..multiplicity import dependence_fit, estimate_dependence
    from . import CliError, call, emit, typed

    path = args.per_item
    table = per_item_from_args(args, item_info="dependence")
    given = typed(args)
    fit = given.pop("fit", False)
    given.setdefault("rng", 0)
    try:
        dep = call("dependence", estimate_dependence, "per-item results", table, **given)
    except InputError:  # a cell of the file, named by its line and column
        raise
    except ValueError as exc:  # the library names its argument, correct: here it is the file
        if not str(exc).startswith("correct"):
            raise  # another parameter (n_resamples: --reps), reported in the command's terms
        raise CliError(f"--per-item {path}: {str(exc)[len('correct') :].lstrip(': ')}") from None
    payload, text = dep.to_dict(), dep.to_text()
    if fit:
        f = call("dependence", dependence_fit, "per-item results", table, dependence=dep, rng=given["rng"])
        payload["fit"], text = f.to_dict(), text + "\n" + f.to_text()
    emit(args, payload, text)
    return 0
