"""``sotalib check`` for multiclass and regression reports, and the per-fold bounds of Eq. 10.

The options are added to the ``check`` parser by :func:`add_options`; ``check``
hands a run to :func:`run` when :func:`wants` says the report is not a binary
one (``--classes`` or ``--task regression``).  Imports only argparse and sotalib._io (which the
command line has loaded anyway) at module top.
"""

from __future__ import annotations

import argparse

from .._io import read_table
from . import CliError

TASKS = ("binary", "multiclass", "regression")


def add_options(p: argparse.ArgumentParser) -> None:
    """The options of multiclass and regression reports, and --fold-min/--fold-max."""
    g = p.add_argument_group("multiclass and regression reports")
    g.add_argument(
        "--task",
        choices=TASKS,
        default=None,
        help="kind of report (default: multiclass with --classes, else binary)",
    )
    g.add_argument(
        "--classes",
        type=str,
        metavar="C1,C2,...",
        help="class sizes of a multiclass test set (data set); its folds in --folds-file are one row per fold, "
        "the class sizes separated by commas (an optional header row of class names)",
    )
    g.add_argument(
        "--average",
        choices=("micro", "macro", "weighted"),
        default="macro",
        help="average of the per-class scores (scikit-learn's meaning; default macro); "
        "a score name may override it, e.g. --score micro_f1=0.8",
    )
    g.add_argument("--beta", type=str, help="weight of the F-beta score (default 1)")
    g.add_argument(
        "--zero-division",
        choices=("0", "1", "undefined"),
        default="0",
        help="value of a precision whose class is never predicted (scikit-learn: 0)",
    )
    g.add_argument(
        "--method",
        choices=("auto", "ilp", "exhaustive"),
        default="auto",
        help="multiclass: exhaustive enumeration (small test sets) or integer program (default auto)",
    )
    if "--folds-file" not in p._option_string_actions:
        g.add_argument("--folds-file", type=str, metavar="FILE.csv", help="explicit folds from a CSV file")
    g.add_argument("--target-var", type=str, metavar="V", help="regression: variance of the target (ddof 0), for r2")
    g.add_argument(
        "--fold-min",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="binary Mean of Scores: reported minimum of a score over the folds (Eq. 10; with --fold-max)",
    )
    g.add_argument(
        "--fold-max",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="binary Mean of Scores: reported maximum of a score over the folds (Eq. 10; with --fold-min)",
    )


def wants(args: argparse.Namespace) -> bool:
    """Whether this is a multiclass or regression report (run by this module)."""
    return args.task in ("multiclass", "regression") or (args.task is None and args.classes is not None)


def _pairs(items: list[str], option: str) -> dict[str, str]:
    out = {}
    for item in items:
        if "=" not in item:
            raise CliError(f"{option} must look like NAME=VALUE, got {item!r}")
        name, value = (x.strip() for x in item.split("=", 1))
        if name in out:
            raise CliError(f"{option} {name} given twice")
        out[name] = value
    return out


def _reject_multiclass_options(args: argparse.Namespace) -> None:
    """A binary report: the options of multiclass and regression reports are an error, never ignored."""
    given = [
        opt
        for opt, value, default in (
            ("--classes", args.classes, None),
            ("--target-var", args.target_var, None),
            ("--average", args.average, "macro"),
            ("--beta", args.beta, None),
            ("--zero-division", args.zero_division, "0"),
            ("--method", args.method, "auto"),
        )
        if value != default
    ]
    if given:
        raise CliError(f"{', '.join(given)} apply to multiclass or regression reports, not to --task binary")


def fold_bounds(args: argparse.Namespace) -> dict:
    """The ``fold_min`` and ``fold_max`` keyword arguments of :func:`sotalib.consistency.check_report`.

    A binary report: multiclass and regression options are rejected here.
    """
    _reject_multiclass_options(args)
    lo, hi = _pairs(args.fold_min, "--fold-min"), _pairs(args.fold_max, "--fold-max")
    if set(lo) != set(hi):
        raise CliError("--fold-min and --fold-max must name the same scores")
    return {"fold_min": lo, "fold_max": hi} if lo else {}


def _ints(text: str, option: str) -> list[int]:
    try:
        return [int(x) for x in str(text).replace(" ", "").split(",") if x != ""]
    except ValueError:
        raise CliError(f"{option} must be integers separated by commas, got {text!r}") from None


def _read_folds(path: str) -> list[list[int]]:
    """Multiclass folds read from the file ``path``.

    One fold per line (a CSV row), its class sizes; an optional header line of class
    names (``c1,c2,c3`` too) and ``#`` comments; read by sotalib's one reader of users' tables.
    """
    t = read_table(path, comment="#", name=f"--folds-file {path}", needs="one line per fold: its class sizes")
    return [list(r) for r in zip(*(t.column(j, kind="integer") for j in range(t.width)), strict=True)]


def run(args: argparse.Namespace) -> int:  # noqa: C901 (to be thinned into parse, one call, print)
    from . import emit

    scores = _pairs(args.score, "--score")
    if not scores:
        raise CliError("give at least one --score NAME=VALUE")
    if args.fold_min or args.fold_max:
        raise CliError("--fold-min and --fold-max apply to binary reports")
    if args.rounding is not None and args.decimals is None:
        raise CliError("--rounding needs --decimals")
    if (args.eps is None) == (args.decimals is None):
        raise CliError("give exactly one of --eps and --decimals")
    if args.batch is not None:
        raise CliError("--batch checks binary reports; drop --classes / --task")
    if args.p is not None or (args.n is not None and args.task != "regression"):
        raise CliError("--p and --n describe binary reports (regression: --n only); a multiclass one takes --classes")
    kw = dict(eps=args.eps, decimals=args.decimals, rounding=args.rounding or "round")
    if args.task == "regression":
        from ..consistency import check_regression

        if args.classes is not None:
            raise CliError("--classes applies to multiclass reports, not --task regression")
        if args.n is None:
            raise CliError("--n (number of items) is required with --task regression")
        r = check_regression(args.n, scores, target_var=args.target_var, **kw)
        lines = [
            ("CONSISTENT" if r.consistent else "INCONSISTENT") + ": " + ", ".join(f"{k}={x}" for k, x in scores.items())
        ]
        if r.consistent:
            w = r.evidence[0]
            lines.append(f"  e.g. MSE {w['mse']:.6g}" + (f", MAE {w['mae']:.6g}" if "mae" in w else ""))
        for msg in r.violated:
            lines.append(f"  violated: {msg}")
        emit(args, r.to_dict(), "\n".join(lines))
        return 0
    from ..consistency import check_multiclass

    if args.classes is None:
        raise CliError("--classes C1,C2,... is required for a multiclass report")
    classes = _ints(args.classes, "--classes")
    folds = None
    folds_file = getattr(args, "folds_file", None)
    if folds_file is not None:
        if args.k is not None:
            raise CliError("give either --folds-file or --k, not both")
        folds = _read_folds(folds_file)
    if args.folds is not None:
        raise CliError("--folds takes binary folds; give multiclass folds with --folds-file")
    if args.k is not None and not args.stratified:
        raise CliError("--k needs --stratified for a multiclass report (the fold class sizes must be known)")
    if args.repeats != 1:
        raise CliError("--repeats applies to binary reports; list every fold in --folds-file")
    zd = {"0": 0, "1": 1, "undefined": None}[args.zero_division]
    v = check_multiclass(
        classes,
        scores,
        average=args.average,
        beta=args.beta,  # text: check_multiclass reads it and names beta (--beta) when it is no number > 0
        folds=folds,
        k=args.k,
        stratified=args.stratified,
        aggregation=args.aggregation,
        zero_division=zd,
        engine=args.method,
        typos=not getattr(args, "no_diagnosis", False),
        **kw,
    )
    state = {"feasible": "CONSISTENT", "infeasible": "INCONSISTENT", "undecided": "UNDECIDED (counted as consistent)"}
    lines = [f"{state[v.status]}: " + ", ".join(f"{k}={x}" for k, x in scores.items())]
    lines.append(
        f"  classes {list(classes)}; {v.aggregation}"
        + (f" over {len(v.classes)} folds" if v.aggregation == "mos" else "")
        + f"; read as {', '.join(f'{k} = {x}' for k, x in v.details['scores'].items())}"
    )
    lines.append(f"  {v.details['note']}")
    if v.solutions:
        first = v.solutions[0]
        lines.append(
            "  evidence (confusion matrix, rows = true class):"
            if v.aggregation != "mos"
            else "  evidence (per-fold confusion matrices):"
        )
        for m in first if v.aggregation == "mos" else [first]:
            for row in m:
                lines.append("    " + " ".join(f"{x:>5}" for x in row))
            if v.aggregation == "mos":
                lines.append("")
    for sug in v.suggestions[:3]:
        lines.append(
            f"  typo? {sug.score} {sug.reported:.{sug.decimals}f} -> {sug.suggested:.{sug.decimals}f} ({sug.typo}, "
            f"change {sug.change:+.{sug.decimals}f}) makes it consistent, e.g. confusion matrix {sug.example}"
        )
    emit(args, v.to_dict(), "\n".join(lines).rstrip())
    return 0
