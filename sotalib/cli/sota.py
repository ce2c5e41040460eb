"""``sotalib sota``: estimate the state of the art from a leaderboard file (Section 5)."""

from __future__ import annotations

import argparse
import math
import sys

from ._types import integer, real, seed

S = argparse.SUPPRESS  # an option not typed is not passed: the library's default applies

#: The seed of the Monte Carlo methods when --seed is not given (the command line's answers are reproducible).
DEFAULT_SEED = 0
#: The estimators of an accuracy board (the choices of --method).
METHODS_ACCURACY = ("shrink", "crop", "cap", "deconvolve", "abc", "naive", "observed")


#: Estimators that compute a distribution of the maximum (take --engine) and that solve for a --target.
ENGINE_METHODS = ("shrink", "crop", "cap", "observed")
TARGET_METHODS = ("shrink", "crop", "cap")
#: Estimators that model no dependence on a reference classifier (take no --rho) and that draw nothing.
NO_RHO_METHODS = ("deconvolve", "naive")
MONTE_CARLO_METHODS = ("deconvolve", "abc")


def register(sub) -> None:
    """Add the ``sotalib sota`` subcommand and its options to the subparsers ``sub``."""
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
    a(
        "--per-item",
        metavar="FILE",
        help="per-item correctness instead of a leaderboard (one column per model, one row per test item, 1/0; "
        "empty: not answered): the board is each model's accuracy on the items every model answered, n is "
        "their number, and --rho, unless given, is the dependence measured from the file",
    )
    a(
        "--batch",
        metavar="MANIFEST",
        help="estimate every board of a manifest CSV (columns file, n, and metric, classes, prevalence, rho, "
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
    a("--prevalence", type=real("--prevalence"), help="share of positives, in (0, 1) (AUC only, required there)")
    a(
        "--rho",
        type=real("--rho"),
        help="correlation with the reference classifier, in [0, 1]; default 0.6 (not with deconvolve, naive)",
    )
    a(
        "--method",
        choices=METHODS_ACCURACY,
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


#: Seconds per test item of one fit of the exact dependent model (rho > 0), and the fits a solve takes:
#: the library's estimate (``_dependent_normal.EXACT_SECONDS_PER_ITEM``, ``FITS_PER_SOLVE``; a test holds
#: them equal), by which it refuses an exact run expected to exceed SOTALIB_TIME_LIMIT (a minute).
SECONDS_PER_ITEM = 6e-6
FITS_PER_SOLVE = 10
#: Work expected to take longer than this is announced on stderr before it starts.
ANNOUNCE_SECONDS = 20.0


def cost_note(scores, n: int, given: dict) -> str:
    """One line stating the cost of a long exact computation, or "" when it should take under 20 seconds.

    Only the exact engine of the dependent model (``--rho`` > 0) grows with ``n`` this way; where
    ``--engine auto`` would choose the normal approximation nothing is said.
    """
    import numpy as np

    from .._validate import time_limit
    from ..multiplicity._dependent_normal import choose_engine
    from ..multiplicity._sota_model import RHO0

    method = given.get("method", "shrink")
    rho = given.get("rho", RHO0)
    if given.get("metric", "accuracy") != "accuracy" or method not in ENGINE_METHODS or not 0 < rho <= 1:
        return ""
    try:
        s = np.asarray(scores, dtype=float)
        s = s[s > 1.0 / given.get("classes", 2)]
        if s.size == 0 or choose_engine(given.get("engine", "auto"), n, s, rho) != "exact":
            return ""
    except (ValueError, TypeError, ZeroDivisionError):  # estimate_sota names what is wrong
        return ""
    fits = 1 if method == "observed" else FITS_PER_SOLVE
    seconds = SECONDS_PER_ITEM * n * fits
    if seconds < ANNOUNCE_SECONDS or seconds > time_limit():  # quick, or refused by the library up front
        return ""
    minutes = seconds / 60
    if minutes < 1.5:
        when = f"about {seconds:,.0f} seconds"
    else:
        when = f"about {minutes:,.0f} minutes" if minutes < 120 else f"about {minutes / 60:,.1f} hours"
    return (
        f"sotalib sota: note: the exact engine at n={n:,} fits the dependent model {fits} time"
        f"{'s' if fits != 1 else ''} at about {SECONDS_PER_ITEM * n:,.0f} s each; expect {when} on a 2-core "
        "machine (--engine normal answers in seconds)"
    )


def _refuse_unused(given: dict) -> None:
    """Refuse the options that the chosen metric and method do not use; seed the Monte Carlo ones."""
    from . import refuse_unused

    metric = given.get("metric", "accuracy")
    method = given.get("method", "shrink")
    shown = f"--method {method}" + ("" if "method" in given else " (the default)")
    if metric == "auc":
        refuse_unused("sota", given, ("classes",), "--metric auc (chance is an AUC of 0.5)")
        if given.get("engine") == "normal":
            refuse_unused("sota", given, ("rng",), "--metric auc with --engine normal, which draws nothing")
        else:
            given.setdefault("rng", DEFAULT_SEED)
        return  # the AUC has one method, shrink; estimate_sota refuses the others
    refuse_unused("sota", given, ("prevalence",), "--metric accuracy" + ("" if "metric" in given else " (the default)"))
    if method not in METHODS_ACCURACY:
        return  # estimate_sota names the method it does not know
    if method not in ENGINE_METHODS:
        refuse_unused(
            "sota",
            given,
            ("engine",),
            f"{shown}, which computes no distribution of the maximum (--engine applies to --method "
            "shrink, crop, cap and observed)",
        )
    if method not in TARGET_METHODS:
        refuse_unused(
            "sota",
            given,
            ("target",),
            f"{shown}, which solves no equation for a target (use --method shrink, --method crop or --method cap "
            "to match the upper bound)",
        )
    if method in NO_RHO_METHODS:
        refuse_unused("sota", given, ("rho",), f"{shown}, which models no dependence on a reference classifier")
    if method in MONTE_CARLO_METHODS:
        given.setdefault("rng", DEFAULT_SEED)
    else:
        refuse_unused("sota", given, ("rng",), f"{shown} with --metric accuracy, which draws nothing")


def _run_batch(args: argparse.Namespace, given: dict) -> int:
    """``sota --batch``: every board of a manifest; each row carries its own options."""
    from ..multiplicity._sota_batch import estimate_sota_batch
    from . import call, emit, refuse_unused

    path = given.pop("batch")
    refuse_unused("sota", given, tuple(given), "--batch (every board's settings come from the manifest's columns)")
    result = call("sota", estimate_sota_batch, "a manifest", path, progress=False if args.json else None)
    emit(args, result.to_dict(), result.to_text())
    return 1 if any(r["status"] == "error" for r in result.boards) else 0


def _run_per_item(args: argparse.Namespace, given: dict) -> int:
    """``sota --per-item``: the board of per-item correctness, with the dependence measured from it."""
    from .._errors import NoSolutionError
    from .._per_item import read_per_item
    from ..multiplicity._estimate import estimate_sota
    from . import CliError, NoSolution, call, emit, refuse_unused

    path = given.pop("per_item")
    refuse_unused(
        "sota",
        given,
        ("leaderboard", "n", "score_column", "scale", "metric", "prevalence"),
        "--per-item (the board, n and the metric, accuracy, come from the file)",
    )
    _refuse_unused(given)
    table = call("sota", read_per_item, "a per-item file", path, missing=True)
    try:
        est = call("sota", estimate_sota, "a per-item board", table, **given, progress=False)
    except NoSolutionError:
        raise
    except ValueError as exc:  # the matrix is the file: its messages name --per-item and the file
        if not str(exc).startswith("scores"):
            raise
        raise CliError(f"--per-item {path}:{str(exc)[len('scores') :].lstrip(':')}") from None
    payload = est.to_dict()
    method = given.get("method", "shrink")
    if method in NO_RHO_METHODS:
        payload["rho_source"] = f"not used (--method {method} models no dependence)"
    else:
        payload["rho_source"] = "given" if "rho" in given else "measured from --per-item"
    if not est.solved:
        raise NoSolution(est.reason or "no solution", payload)
    rows = [
        f"{method} estimate of the state of the art ({_teams(est.m)} above chance, n={est.n:,} items answered by all)"
    ]
    if "rho" in est.details:
        rows.append(f"  rho_0            {est.details['rho']:.4f} ({payload['rho_source']})")
    rows += [
        f"  best model       {est.details['best_model']} at {est.sample_max:.4f}",
        f"  estimate         {est.estimate:.4f}",
    ]
    if est.ci_low is not None and est.ci_high is not None:
        rows.append(f"  95% interval     ({est.ci_low:.4f}, {est.ci_high:.4f})")
    if est.teams_above is not None:
        rows.append(f"  above estimate   {_teams(est.teams_above)}")
    emit(args, payload, "\n".join(rows))
    return 0


def _teams(k: int) -> str:
    return f"{k:,} team{'s' if k != 1 else ''}"


def run(args: argparse.Namespace) -> int:
    """Run ``sotalib sota`` with the parsed ``args``; return the exit status."""
    # the library loads only when the command runs, so that `sotalib --help` and the other commands stay fast
    from ..multiplicity._estimate import estimate_sota
    from ..multiplicity._leaderboard import read_leaderboard
    from ..multiplicity._sota_model import RHO0
    from . import NoSolution, call, emit, refuse_unused, typed

    # every option typed reaches read_leaderboard or estimate_sota as the parameter of the same name; the
    # library checks every range, its messages name the options (sotalib.cli.in_option_terms)
    given = typed(args)
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
    note = cost_note(lb.scores, given["n"], given)
    if note:
        print(note, file=sys.stderr, flush=True)
    est = call("sota", estimate_sota, "a leaderboard", lb, **given, progress=False if args.json else None)
    n = est.n
    method = given.get("method", "shrink")
    payload = est.to_dict()
    if not est.solved:
        assert est.reason is not None, "an unsolved estimate says why"
        raise NoSolution(est.reason, payload)
    notes = list(est.notes)
    if est.below_chance:
        notes.append(f"{_teams(est.below_chance)} at or below chance left out")
    if est.excluded:
        notes.append(
            f"{est.excluded:,} of the {_teams(est.m)} above chance excluded from the fitted model by Eq. 8 "
            f"(with --rho {given.get('rho', RHO0):g} their probabilities given the reference classifier would leave [0, 1])"
        )
    # four decimals as the paper prints them; more where a count is finer than the fourth (n >= 10^6)
    d = max(4, min(8, round(math.log10(n)) - 1))
    rows = [
        f"{method} estimate of the state of the art ({_teams(est.m)} above chance, n={n:,})",
        f"  sample maximum   {est.sample_max:.{d}f}",
        f"  estimate         {est.estimate:.{d}f}",
    ]
    crop = method in ("crop", "cap")
    if est.weight is not None:
        # for crop and cap the fitted parameter is the crop point c, not a shrinkage weight
        rows.append(f"  {'crop point c   ' if crop else 'weight         '}  {est.weight:.6f}")
    if est.expected_max is not None:
        rows.append(f"  E max            {est.expected_max:.{d}f}")
    if est.ci_low is not None:
        rows.append(f"  95% interval     ({est.ci_low:.{d}f}, {est.ci_high:.{d}f})")
    if est.teams_above is not None:
        # the paper counts the teams above the crop point for cropping, above the estimate otherwise
        rows.append(f"  {'above c        ' if crop else 'above estimate '}  {_teams(est.teams_above)}")
    if est.details.get("engine") == "normal":
        notes.append(f"engine: {est.details['accuracy']}")
    text = "\n".join(rows + [f"  note: {line}" for line in notes])
    emit(args, payload, text)
    return 0
