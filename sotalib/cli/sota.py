"""``sotalib sota``: estimate the state of the art from a leaderboard file (Section 5)."""

from __future__ import annotations

import argparse
import sys

from ._per_item_options import DESTS, add_per_item_options, per_item_from_values
from ._types import integer, real, seed

S = argparse.SUPPRESS  # an option not typed is not passed: the library's default applies

#: The seed of the Monte Carlo methods when --seed is not given (the command line's answers are reproducible).
DEFAULT_SEED = 0


def _uses(option: str) -> tuple[str, ...]:
    """The estimators of an accuracy board that use ``option`` (the library's table, SOTA_METHOD_OPTIONS)."""
    from ..multiplicity import SOTA_METHOD_OPTIONS  # the standard library only: --help stays fast

    return tuple(method for method, options in SOTA_METHOD_OPTIONS.items() if option in options)


def register(sub) -> None:
    """Add the ``sotalib sota`` subcommand and its options to the subparsers ``sub``."""
    from ..multiplicity import SOTA_METHODS  # the standard library only: --help stays fast

    p = sub.add_parser(
        "sota",
        help="estimate the state of the art from a leaderboard",
        description="Estimate theta_SOTA from a leaderboard CSV, correcting the sample maximum for multiplicity. "
        "Reads Kaggle's leaderboard download, the Kaggle command line's --csv output and any CSV with a "
        "header row and a score column (e.g. rank,score); a team listed twice keeps its best score, and "
        "every dropped or merged row is reported.  An option the chosen --metric and --method do not use "
        "is refused.",
        argument_default=S,
    )
    a = p.add_argument
    a("--leaderboard", metavar="FILE", help="Kaggle leaderboard CSV ('-': standard input)")
    add_per_item_options(
        p,
        help="per-item correctness instead of a leaderboard (a CSV with one column per model, one row per test "
        "item, 1/0 or a graded share in [0, 1], empty: not answered; or any format of sotalib.read_per_item: "
        "long CSV, eval-arena, lm-eval, Inspect, HELM, Every Eval Ever, a folder of runs): the board is each model's accuracy on the items every "
        "model answered, n is their number, and --rho, unless given, is the dependence measured from the file",
    )
    a(
        "--batch",
        metavar="MANIFEST",
        help="estimate every board of a manifest CSV (columns file, n, and metric, classes, chance, prevalence, rho, "
        "method, target, alpha, engine, n_resamples, seed, id, score_column as needed; file paths relative "
        "to the manifest): one row per board, none lost; the other options then come from the columns",
    )
    a("--score-column", metavar="NAME", help="column with the scores (default: score)")
    a(
        "--scale",
        choices=("auto", "unit", "percent"),
        help="scores in [0, 1] (unit) or percentages (percent); default auto: percentages when no score lies in (0, 1]",
    )
    # every range is estimate_sota's to check; the types only read numbers
    a("--n", type=integer("--n", 1), help="test-set size (>= 1; required with --leaderboard)")
    a(
        "--metric",
        choices=("accuracy", "auc", "gini"),
        help="ranking metric (default accuracy; gini: the normalized Gini 2 AUC - 1, estimated as the AUC)",
    )
    a(
        "--classes",
        type=integer("--classes", 2),
        help="number of classes (>= 2; chance = 1/classes; accuracy only); default 2",
    )
    a(
        "--chance",
        type=real("--chance"),
        help="chance level of the accuracy, in [0, 1): teams at or below it are left out and shrink moves "
        "toward it; 0 for a task with none (code generation, open answers); default 1/classes (not with "
        "--classes; accuracy only)",
    )
    a("--prevalence", type=real("--prevalence"), help="share of positives, in (0, 1) (AUC only, required there)")
    a(
        "--rho",
        type=real("--rho"),
        help="correlation with the reference classifier, in [0, 1]; default 0.6 (not with deconvolve, naive)",
    )
    a(
        "--method",
        choices=SOTA_METHODS["accuracy"],
        help="estimator (default: shrink, as in the paper; crop: the paper's cropping, Table 4; cap: min(score, c); "
        "naive: the sample maximum; observed: the scores taken as true)",
    )
    a(
        "--target",
        choices=("expected", "upper"),
        help="solve for the expected maximum or the upper 95%% bound (shrink, crop and cap only); default expected",
    )
    a(
        "--engine",
        choices=("auto", "exact", "normal", "simulate"),
        help="distribution of the maximum (shrink, crop, cap, observed): exact, a normal approximation for large n, "
        "or (AUC) simulate; default auto: exact (accuracy) or simulate (AUC) unless that would take minutes",
    )
    a(
        "--seed",
        dest="rng",
        type=seed(),
        help="seed (>= 0) of the Monte Carlo methods (deconvolve, abc, --metric auc); default 0",
    )
    a("--json", action="store_true", default=False, help="print one JSON object")
    p.set_defaults(run=run)


#: Work expected to take longer than this is announced on stderr before it starts.
ANNOUNCE_SECONDS = 20.0


def cost_note(seconds: float, n: int, fits: int) -> str:
    """One line stating the cost of a long exact computation, or "" when it should take under 20 seconds.

    ``seconds`` is the library's estimate for ``fits`` fits of the exact engine of the dependent model at
    ``n`` items, announced once every option has been checked, when the engine chosen is the exact one and
    the run is within the time limit (:func:`sotalib._progress.announce`).
    """
    if seconds < ANNOUNCE_SECONDS:  # quick
        return ""
    minutes = seconds / 60
    if minutes < 1.5:
        when = f"about {seconds:,.0f} seconds"
    else:
        when = f"about {minutes:,.0f} minutes" if minutes < 120 else f"about {minutes / 60:,.1f} hours"
    return (
        f"sotalib sota: note: the exact engine at n={n:,} fits the dependent model {fits} time"
        f"{'s' if fits != 1 else ''} at about {seconds / fits:,.0f} s each; expect {when} on a 2-core "
        "machine (--engine normal answers in seconds)"
    )


def _hear(seconds: float, work: str = "", **facts) -> None:
    """The library's announcement of long work: the exact engine's cost, on stderr."""
    if work == "exact fits":
        note = cost_note(seconds, int(facts["n"]), int(facts["fits"]))
        if note:
            print(note, file=sys.stderr, flush=True)


def _refuse_unused(given: dict) -> None:
    """Refuse the options that the chosen metric and method do not use; seed the Monte Carlo ones."""
    from ..multiplicity import SOTA_METHOD_OPTIONS
    from . import refuse_unused

    metric = given.get("metric", "accuracy")
    method = given.get("method", "shrink")
    shown = f"--method {method}" + ("" if "method" in given else " (the default)")
    if "chance" in given and "classes" in given:
        from . import CliError

        raise CliError("--chance and --classes cannot both be given (--classes K sets the chance level 1/K)")
    if metric == "auc":
        refuse_unused("sota", given, ("classes", "chance"), "--metric auc (chance is an AUC of 0.5)")
        if given.get("engine") == "normal":
            refuse_unused("sota", given, ("rng",), "--metric auc with --engine normal, which draws nothing")
        else:
            given.setdefault("rng", DEFAULT_SEED)
        return  # the AUC has one method, shrink; estimate_sota refuses the others
    refuse_unused("sota", given, ("prevalence",), "--metric accuracy" + ("" if "metric" in given else " (the default)"))
    if method not in SOTA_METHOD_OPTIONS:
        return  # estimate_sota names the method it does not know
    if method not in _uses("engine"):
        refuse_unused(
            "sota",
            given,
            ("engine",),
            f"{shown}, which computes no distribution of the maximum (--engine applies to --method "
            "shrink, crop, cap and observed)",
        )
    if method not in _uses("target"):
        refuse_unused(
            "sota",
            given,
            ("target",),
            f"{shown}, which solves no equation for a target (use --method shrink, --method crop or --method cap "
            "to match the upper bound)",
        )
    if method not in _uses("rho"):
        refuse_unused("sota", given, ("rho",), f"{shown}, which models no dependence on a reference classifier")
    if method in _uses("rng"):
        given.setdefault("rng", DEFAULT_SEED)
    else:
        refuse_unused("sota", given, ("rng",), f"{shown} with --metric accuracy, which draws nothing")


def _run_batch(args: argparse.Namespace, given: dict) -> int:
    """``sota --batch``: every board of a manifest; each row carries its own options."""
    from ..multiplicity import estimate_sota_batch
    from . import call, emit, refuse_unused

    path = given.pop("batch")
    refuse_unused("sota", given, tuple(given), "--batch (every board's settings come from the manifest's columns)")
    result = call("sota", estimate_sota_batch, "a manifest", path, progress=False if args.json else None)
    emit(args, result.to_dict(), result.to_text())
    return 1 if any(r["status"] == "error" for r in result.boards) else 0


def _run_per_item(args: argparse.Namespace, given: dict) -> int:
    """``sota --per-item``: the board of per-item correctness, with the dependence measured from it."""
    from .._errors import NoSolutionError
    from .._progress import announcing
    from ..multiplicity import estimate_sota
    from . import CliError, NoSolution, call, emit, refuse_unused

    path = given["per_item"]
    values = {dest: given.pop(dest) for dest in DESTS if dest in given}
    refuse_unused(
        "sota",
        given,
        ("leaderboard", "n", "score_column", "scale", "metric", "prevalence"),
        "--per-item (the board, n and the metric, accuracy, come from the file)",
    )
    _refuse_unused(given)
    table = per_item_from_values(values, missing=True)
    if values.get("per_item_info") is not None:  # sota reads one item attribute: the number of options
        info = values["per_item_info"]
        if "options" not in (table.item_info or {}):
            known = ", ".join(sorted(table.item_info or {})) or "none"
            raise CliError(
                f"--item-info {info}: sota reads only its column options (each item's number of answer "
                f"options, for the chance level), which it does not have (item columns: {known})"
            )
    try:
        with announcing(_hear):
            est = call("sota", estimate_sota, "a per-item board", table, **given, progress=False)
    except NoSolutionError:
        raise
    except ValueError as exc:  # the matrix is the file: its messages name --per-item and the file
        side = "item_info['options']"
        if str(exc).startswith(side) and values.get("per_item_info") is not None:
            from . import PARAMETER_OPTIONS, in_option_terms

            rest = in_option_terms(str(exc)[len(side) :], PARAMETER_OPTIONS["sota"])
            raise CliError(f"--item-info {values['per_item_info']}: options{rest}") from None
        if not str(exc).startswith("scores"):
            raise
        raise CliError(f"--per-item {path}:{str(exc)[len('scores') :].lstrip(':')}") from None
    payload = est.to_dict()
    method = given.get("method", "shrink")
    if method not in _uses("rho"):
        payload["rho_source"] = f"not used (--method {method} models no dependence)"
    else:
        payload["rho_source"] = "given" if "rho" in given else "measured from --per-item"
    if not est.solved:
        raise NoSolution(est.reason or "no solution", payload)
    emit(args, payload, est.to_text())
    return 0


def run(args: argparse.Namespace) -> int:
    """Run ``sotalib sota`` with the parsed ``args``; return the exit status."""
    # the library loads only when the command runs, so that `sotalib --help` and the other commands stay fast
    from .._progress import announcing
    from ..multiplicity import estimate_sota, read_leaderboard
    from . import NoSolution, call, emit, refuse_unused, typed

    # every option typed reaches read_leaderboard or estimate_sota as the parameter of the same name; the
    # library checks every range, its messages name the options (sotalib.cli.in_option_terms)
    given = typed(args)
    if "per_item" not in given and any(dest in given for dest in DESTS[1:]):
        per_item_from_values({d: given[d] for d in DESTS[1:] if d in given})  # refused: they need --per-item
    if "batch" in given:
        return _run_batch(args, given)
    if "per_item" in given:
        return _run_per_item(args, given)
    for needed in ("leaderboard", "n"):
        if needed not in given:
            from . import CliError

            raise CliError(f"--{needed} is required (or give --batch MANIFEST)")
    reading = {k: given.pop(k) for k in ("score_column", "scale") if k in given}
    if given.get("metric") == "gini":  # the normalized Gini is 2 AUC - 1: read as the AUC
        refuse_unused("sota", reading, ("scale",), "--metric gini (the scores are Gini coefficients in [-1, 1])")
        given["metric"], reading["scale"] = "auc", "gini"
    _refuse_unused(given)
    lb = call("sota", read_leaderboard, "a leaderboard file", given.pop("leaderboard"), **reading)
    with announcing(_hear):  # a long exact run states its cost before it starts
        est = call("sota", estimate_sota, "a leaderboard", lb, **given, progress=False if args.json else None)
    payload = est.to_dict()
    if not est.solved:
        assert est.reason is not None, "an unsolved estimate says why"
        raise NoSolution(est.reason, payload)
    emit(args, payload, est.to_text())
    return 0
