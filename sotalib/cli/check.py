"""``sotalib check``: can the reported scores come from the stated experiment?"""

from __future__ import annotations

import argparse

from . import CliError


def register(sub) -> None:
    p = sub.add_parser(
        "check",
        help="consistency of reported scores with the experiment (Fazekas & Kovacs)",
        description="Decide with certainty whether reported scores can come from a test set of P positives "
        "and N negatives, or from k-fold cross-validation aggregated by Score of Means (som) or "
        "Mean of Scores (mos).  Without --aggregation both are tested.",
    )
    p.add_argument("--p", type=int, help="number of positives (>= 1)")
    p.add_argument("--n", type=int, help="number of negatives (>= 1)")
    p.add_argument(
        "--score",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a reported score, e.g. acc=0.9447 (repeatable; Table 2 names, synonyms, complements)",
    )
    p.add_argument("--eps", type=str, help="numerical uncertainty: true value in [v - eps, v + eps]")
    p.add_argument("--decimals", type=int, help="number of decimals reported (0-15)")
    p.add_argument(
        "--rounding",
        choices=("round", "floor", "ceil", "any"),
        default=None,
        help="how values were shortened (default round); needs --decimals",
    )
    p.add_argument("--folds", type=str, help='explicit folds "p1:n1,p2:n2,..."')
    p.add_argument("--k", type=int, help="k-fold cross-validation of (P, N)")
    p.add_argument("--stratified", action="store_true", help="stratified k-fold (scikit-learn, Table 6)")
    p.add_argument(
        "--repeats",
        type=int,
        default=1,
        help="repetitions of the k-fold or of the --folds (>= 1; default 1); without "
        "--stratified every repetition may have its own fold configuration",
    )
    p.add_argument("--aggregation", choices=("som", "mos"), help="Score of Means or Mean of Scores")
    p.add_argument("--batch", type=str, metavar="FILE.csv", help="check every row of a CSV file")
    p.add_argument("--json", action="store_true", help="print one JSON object")
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
        if name in out:
            raise CliError(f"--score {name} given twice")
        out[name] = value
    return out


def run(args: argparse.Namespace) -> int:
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
    if args.folds is not None and args.k is not None:
        raise CliError("give either --folds or --k, not both")
    if args.stratified and args.k is None:
        raise CliError("--stratified needs --k")
    if args.folds is None and (args.p is None or args.n is None):
        raise CliError("--p and --n are required (unless --folds is given)")
    from ..consistency import check_report

    scores = _parse_scores(args.score)
    v = check_report(
        scores,
        p=args.p,
        n=args.n,
        eps=args.eps,
        decimals=args.decimals,
        rounding=args.rounding or "round",
        folds=args.folds,
        k=args.k,
        stratified=args.stratified,
        repeats=args.repeats,
        aggregation=args.aggregation,
        **_check_multiclass.fold_bounds(args),
    )
    payload = v.to_dict()
    verdict = "CONSISTENT" if v.consistent else "INCONSISTENT"
    lines = [f"{verdict}: " + ", ".join(f"{k}={val}" for k, val in scores.items())]
    for agg, d in v.details.items():
        state = {True: "consistent", False: "inconsistent", None: "not tested"}[d["consistent"]]
        tested = d["configurations_tested"]
        lines.append(
            f"  {agg}: {state}; {d['note']}; solutions {d['n_solutions']}"
            + ("" if d.get("n_solutions_counted", True) else " (at least)")
            + f", configurations tested {'not counted' if tested is None else f'{tested:,}'}"
        )
    if v.solutions:
        shown = v.solutions[:5]
        lines.append(f"  evidence (tp, tn): {shown}{' ...' if len(v.solutions) > 5 else ''}")
        folds = next(
            (d.get("solution_folds") for d in v.details.values() if d["consistent"] and d.get("solution_folds")), None
        )
        if folds and v.solutions == next(
            d["solutions"] for d in v.details.values() if d.get("solution_folds") == folds
        ):
            lines.append(f"  on folds (p_i, n_i): {folds[0]}")
    for s in v.suggestions[:3]:
        what = "(tp, tn)" if s.aggregation == "single" else "per-fold (tp, tn)"
        lines.append(
            f"  typo? {s.score} {s.reported:g} -> {s.suggested:g} (change {s.change:+g}) "
            f"makes it consistent{' under mos' if s.aggregation == 'mos' else ''}, "
            f"e.g. {what} = {s.example}"
        )
    emit(args, payload, "\n".join(lines))
    return 0


def _run_batch(args: argparse.Namespace) -> int:
    from ..consistency import check_batch
    from . import _check_multiclass, emit

    if args.score or args.p is not None or args.n is not None:
        raise CliError("--batch takes everything from the file: drop --score, --p and --n")
    if args.fold_min or args.fold_max:
        raise CliError("--fold-min and --fold-max apply to one report, not to --batch")
    _check_multiclass.fold_bounds(args)  # rejects multiclass and regression options
    batch = check_batch(args.batch)
    emit(args, batch.to_dict(), batch.to_frame().to_string(index=False))
    return 0
