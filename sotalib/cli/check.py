"""``sotalib check``: whether the reported scores can come from the stated experiment.

Every option is declared once in :data:`OPTIONS` (flag, argparse keywords) and
its value is checked once, by the library function it reaches
(:func:`sotalib.consistency.check_report` or
:func:`sotalib.consistency.check_batch`); the command line reports the
library's messages in option terms.  To add an option: one entry in
:data:`OPTIONS`, one keyword in :func:`_report_kwargs`.
"""

from __future__ import annotations

import argparse

from . import CliError


def _text(value: str) -> str:
    """Numbers stay text here: the library reads them once, as the exact decimals written."""
    return value


def _integer(value: str) -> int:
    """An integer option; the range is checked by the library (which names the option)."""
    try:
        return int(value.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer, got {value!r}") from None


#: (flags, argparse keywords) of every option, in the order of ``sotalib check --help``.
OPTIONS: tuple[tuple[tuple[str, ...], dict], ...] = (
    (("--p",), dict(type=_integer, help="number of positives (>= 1)")),
    (("--n",), dict(type=_integer, help="number of negatives (>= 1)")),
    (("--dataset",), dict(type=_text, metavar="NAME", help="a named test set instead of --p/--n (sotalib datasets)")),
    (
        ("--score",),
        dict(
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="a reported score, e.g. acc=0.9447 (repeatable, each score once; Table 2 names, "
            "synonyms, complements)",
        ),
    ),
    (("--eps",), dict(type=_text, help="numerical uncertainty: true value in [v - eps, v + eps] (>= 0)")),
    (("--decimals",), dict(type=_integer, help="number of decimals reported (0-15)")),
    (
        ("--rounding",),
        dict(
            choices=("round", "floor", "ceil", "any"),
            default=None,
            help="how values were shortened (default round); needs --decimals",
        ),
    ),
    (("--folds",), dict(type=_text, help='explicit folds "p1:n1,p2:n2,..."')),
    (("--folds-file",), dict(type=_text, metavar="FILE.csv", help="explicit folds from a CSV file (columns p, n)")),
    (("--k",), dict(type=_integer, help="k-fold cross-validation of (P, N) (>= 2)")),
    (("--stratified",), dict(action="store_true", help="stratified k-fold (scikit-learn, Table 6)")),
    (
        ("--repeats",),
        dict(
            type=_integer,
            default=1,
            help="repetitions of the k-fold or of the --folds (1-1000; default 1); without "
            "--stratified every repetition may have its own fold configuration",
        ),
    ),
    (("--aggregation",), dict(choices=("som", "mos"), help="Score of Means or Mean of Scores")),
    (
        ("--batch",),
        dict(
            type=_text,
            metavar="FILE.csv",
            help="check every row of a CSV file (columns p, n, decimals or eps, k, folds, folds_file, "
            "stratified, repeats, aggregation, rounding, id, and score names; any case); exit 1 when "
            "some rows could not be checked",
        ),
    ),
    (
        ("--no-diagnosis",),
        dict(action="store_true", help="skip the typo finder on inconsistent reports (faster batches)"),
    ),
    (("--json",), dict(action="store_true", help="print one JSON object")),
)


def register(sub) -> None:
    """Add the ``sotalib check`` subcommand and its options to the subparsers ``sub``."""
    p = sub.add_parser(
        "check",
        help="consistency of reported scores with the experiment (Fazekas & Kovacs)",
        description="Decide with certainty whether reported scores can come from a test set of P positives "
        "and N negatives, or from k-fold cross-validation aggregated by Score of Means (som) or "
        "Mean of Scores (mos).  Without --aggregation both are tested.",
    )
    for flags, kwargs in OPTIONS:
        p.add_argument(*flags, **kwargs)
    from ._check_multiclass import add_options

    add_options(p)  # multiclass and regression reports, --fold-min/--fold-max
    p.set_defaults(run=run)


def _parse_scores(items: list[str]) -> dict[str, str]:
    out = {}
    for item in items:
        if "=" not in item:
            raise CliError(f"--score must look like NAME=VALUE, got {item!r}")
        name, value = item.split("=", 1)
        name, value = name.strip(), value.strip()
        if not name:
            raise CliError(f"--score must look like NAME=VALUE, got {item!r}")
        if name in out:
            raise CliError(f"--score {name} given twice")
        out[name] = value
    return out


def _report_kwargs(args: argparse.Namespace) -> dict:
    """The keywords of :func:`sotalib.consistency.check_report` from the options (p and n go first, positional)."""
    from ._check_multiclass import fold_bounds

    bounds = fold_bounds(args)  # --fold-min/--fold-max; rejects multiclass and regression options
    folds = args.folds
    if args.folds_file is not None:
        if folds is not None:
            raise CliError("give either --folds or --folds-file, not both")
        from ..consistency import read_folds  # the library loads when a command runs, not for --help

        try:
            folds = read_folds(args.folds_file)
        except ValueError as exc:  # the library says "folds file X ...": name the option, not --folds
            raise CliError(str(exc).replace("folds file", "--folds-file", 1)) from None
    return dict(
        eps=args.eps,
        decimals=args.decimals,
        rounding=args.rounding or "round",
        folds=folds,
        k=args.k,
        stratified=args.stratified,
        repeats=args.repeats,
        aggregation=args.aggregation,
        diagnosis=not args.no_diagnosis,
        progress=False if args.json else None,
        **bounds,
        dataset=args.dataset,
    )


def run(args: argparse.Namespace) -> int:
    """Run ``sotalib check`` with the parsed ``args``; return the exit status."""
    from . import _check_multiclass, emit

    if _check_multiclass.wants(args):
        return _check_multiclass.run(args)
    if args.batch is not None:
        return _run_batch(args)
    if not args.score:
        raise CliError("give at least one --score NAME=VALUE (or --batch FILE.csv)")
    if (args.eps is None) == (args.decimals is None):
        raise CliError("give exactly one of --eps and --decimals")
    if args.rounding is not None and args.decimals is None:
        raise CliError("--rounding needs --decimals")
    if (args.folds is not None or args.folds_file is not None) and args.k is not None:
        raise CliError("give either --folds (or --folds-file) or --k, not both")
    if args.stratified and args.k is None:
        raise CliError("--stratified needs --k")
    if args.folds is None and args.folds_file is None and args.dataset is None and (args.p is None or args.n is None):
        raise CliError("--p and --n are required (unless --folds or --folds-file is given)")
    from ..consistency import check_report

    scores = _parse_scores(args.score)
    v = check_report(args.p, args.n, scores, **_report_kwargs(args))
    emit(args, v.to_dict(), _text_report(scores, v))
    return 0


def _text_report(scores: dict, v) -> str:
    verdict = "CONSISTENT" if v.consistent else "INCONSISTENT"
    from .._validate import format_count

    lines = [f"{verdict}: " + ", ".join(f"{k}={val}" for k, val in scores.items())]
    for agg, d in v.details.items():
        state = {True: "consistent", False: "inconsistent", None: "not tested"}[d["consistent"]]
        tested = d["configurations_tested"]
        lines.append(
            f"  {agg}: {state}; {d['note']}; solutions {d['n_solutions']}"
            + ("" if d.get("n_solutions_counted", True) else " (at least)")
            + f", configurations tested {'too many to count' if tested is None else format_count(tested)}"
        )
    if v.solutions:
        agg = v.evidence_aggregation
        shown = v.solutions[:5]
        what = "per-fold (tp, tn)" if agg == "mos" else "(tp, tn)"
        lines.append(f"  evidence under {agg}, {what}: {shown}{' ...' if len(v.solutions) > 5 else ''}")
        folds = v.details.get(agg, {}).get("solution_folds")
        if folds:
            lines.append(f"  on folds (p_i, n_i): {folds[0]}")
    for s in v.suggestions[:3]:
        what = "(tp, tn)" if s.aggregation == "single" else "per-fold (tp, tn)"
        lines.append(
            f"  typo? {s.score} {s.reported:.{s.decimals}f} -> {s.suggested:.{s.decimals}f} "
            f"({s.typo}, change {s.change:+.{s.decimals}f}) makes it consistent"
            f"{' under mos' if s.aggregation == 'mos' else ''}, e.g. {what} = {s.example}"
        )
    if not v.consistent and not v.suggestions:
        lines.append(f"  diagnosis: {v.diagnosis}")
    return "\n".join(lines)


def _run_batch(args: argparse.Namespace) -> int:
    from ..consistency import check_batch
    from . import emit

    given = [
        o
        for o, val in (
            ("--score", args.score),
            ("--p", args.p),
            ("--n", args.n),
            ("--dataset", args.dataset),
            ("--eps", args.eps),
            ("--decimals", args.decimals),
            ("--folds", args.folds),
            ("--folds-file", args.folds_file),
            ("--k", args.k),
            ("--aggregation", args.aggregation),
            ("--rounding", args.rounding),
        )
        if val not in (None, [])
    ]
    if args.stratified:
        given.append("--stratified")
    if args.repeats != 1:
        given.append("--repeats")
    if args.fold_min or args.fold_max:
        given.append("--fold-min/--fold-max")
    if given:
        raise CliError(f"--batch takes everything from the file (columns): drop {', '.join(given)}")
    from ._check_multiclass import fold_bounds

    fold_bounds(args)  # rejects multiclass and regression options
    batch = check_batch(args.batch, diagnosis=not args.no_diagnosis, progress=False if args.json else None)
    emit(args, batch.to_dict(), batch.to_text())
    return 1 if batch.errors else 0
