"""``sotalib auc-max``: the distribution of the best empirical AUC on a leaderboard (Section 5.2)."""

from __future__ import annotations

import argparse

from ._types import integer, real, seed

S = argparse.SUPPRESS  # an option not typed is not passed: the library's default applies

#: The command line's own defaults: it simulates (exact in distribution), with a fixed seed (reproducible),
#: unless the simulation would take longer than SOTALIB_TIME_LIMIT (a minute): then, without --reps or
#: --seed, the normal approximation answers (seconds at any m); with them, the run is refused up front.
ENGINE = "simulate"
DEFAULT_SEED = 0


def register(sub) -> None:
    """Add the ``sotalib auc-max`` subcommand and its options to the subparsers ``sub``."""
    p = sub.add_parser(
        "auc-max",
        help="distribution of the best ROC AUC among m classifiers (binormal model, simulated)",
        description=(
            "Distribution of the maximum empirical AUC of m classifiers with true AUC A on one test set of "
            "N items with prevalence P (round(N*P) positives), binormal scores with equal variances (Eq. 10); "
            "simulated, exact in distribution. --rho > 0 correlates every classifier's scores with a hidden "
            "reference classifier's within each class. A simulation expected to take longer than "
            "SOTALIB_TIME_LIMIT (a minute) gives way to the normal approximation of the empirical AUCs "
            "(seconds at any m), or is refused if --reps or --seed asks for it."
        ),
        argument_default=S,
    )
    a = p.add_argument
    # every range is summarize_max_auc's to check; the types only read numbers
    a("--auc", type=real("--auc"), required=True, help="true AUC of every classifier, in (0, 1)")
    a("--n", type=integer("--n", 2), required=True, help="test-set size (>= 2)")
    a("--m", type=integer("--m", 1), required=True, help="number of classifiers (>= 1)")
    a("--prevalence", type=real("--prevalence"), required=True, help="share of positives, in (0, 1)")
    a("--rho", type=real("--rho"), help="within-class correlation with a reference classifier, in [0, 1]; default 0")
    a("--reps", dest="n_resamples", type=integer("--reps", 2), help="simulated challenges (>= 2); default 1000")
    a("--seed", dest="rng", type=seed(), help="random seed (>= 0); default 0")
    a("--alpha", type=real("--alpha"), help="interval level is 1 - alpha, alpha in (0, 1); default 0.05")
    a("--json", action="store_true", default=False, help="print one JSON object")
    p.set_defaults(run=run)


#: Simulations expected to take longer than this state their cost on stderr before they start.
ANNOUNCE_SECONDS = 30.0


def cost_note(n: int, prevalence: float, m: int, reps: int) -> str:
    """A one-line statement of a long simulation's cost, or "" when it should take under half a minute.

    The work is one simulated score per classifier, positive and challenge: ``m * round(n * prevalence) * reps``.
    """
    from ..multiplicity import AUC_SECONDS_PER_SCORE

    positives = min(max(round(n * prevalence), 1), n - 1)
    scores = m * positives * reps
    seconds = scores * AUC_SECONDS_PER_SCORE
    if seconds < ANNOUNCE_SECONDS:
        return ""
    minutes = seconds / 60
    when = f"about {minutes:,.0f} minutes" if minutes < 120 else f"about {minutes / 60:,.1f} hours"
    return (
        f"sotalib auc-max: note: this simulates {scores:.2e} scores ({m:,} classifiers x {positives:,} positives x "
        f"{reps:,} challenges); expect {when} on a 2-core machine (fewer --reps, a smaller --m or --n is faster)"
    )


def _scores(given: dict) -> float:
    """Scores one simulation draws: one per classifier, positive (every item with --rho) and challenge."""
    n, m, prevalence, reps = given["n"], given["m"], given["prevalence"], given["n_resamples"]
    if not (n >= 2 and m >= 1 and reps >= 2 and 0 < prevalence < 1):  # the library names what is wrong
        return 0.0
    items = n if given.get("rho", 0.0) > 0 else min(max(round(n * prevalence), 1), n - 1)
    return float(m) * items * reps


def _seconds(given: dict) -> float:
    """The library's estimate of the simulation's time (:data:`sotalib.multiplicity.AUC_SECONDS_PER_SCORE`)."""
    from ..multiplicity import AUC_SECONDS_PER_SCORE

    return _scores(given) * AUC_SECONDS_PER_SCORE


def _time_limit() -> float:
    from .._validate import time_limit

    return time_limit()


def _format_seconds(seconds: float) -> str:
    from .._validate import format_seconds

    return format_seconds(seconds)


def run(args: argparse.Namespace) -> int:
    """Run ``sotalib auc-max`` with the parsed ``args``; return the exit status."""
    import inspect
    import sys

    from .._progress import announcing
    from ..multiplicity import summarize_max_auc
    from . import call, emit, typed

    # every option typed is passed as the parameter of the same name; the library checks every range
    # (its messages name the options, sotalib.cli.in_option_terms) and its defaults are the defaults,
    # but for the engine and the seed, the command line's own
    defaults = {
        name: param.default
        for name, param in inspect.signature(summarize_max_auc).parameters.items()
        if param.default is not param.empty
    }
    typed_args = typed(args)
    given = {**defaults, "engine": ENGINE, "rng": DEFAULT_SEED, **typed_args}
    given["progress"] = False if args.json else None
    seconds = _seconds(given)
    if seconds > _time_limit():
        if {"n_resamples", "rng"} & typed_args.keys():  # a simulation asked for: refused up front
            given["engine"] = "simulate"
        else:  # the default answers within the limit: the normal approximation (seconds at any m)
            given["engine"] = "normal"

    def announce() -> None:  # after the library has checked every option and the memory, so an error stays one line
        if seconds > _time_limit():  # a simulation asked for that would take longer: refused before it starts
            from . import CliError

            raise CliError(
                f"--m {given['m']} with --reps {given['n_resamples']} simulates "
                f"{_scores(given):.2e} scores, expected to take {_format_seconds(seconds)} on a 2-core machine, "
                "more than the limit sotalib allows itself (SOTALIB_TIME_LIMIT, a minute); give fewer --reps or a "
                "smaller --m, leave out --reps and --seed for the normal approximation, or raise SOTALIB_TIME_LIMIT"
            )
        note = cost_note(given["n"], given["prevalence"], given["m"], given["n_resamples"])
        if note:
            print(note, file=sys.stderr, flush=True)

    def hear(_seconds: float, work: str = "", **_facts) -> None:  # the library starts simulating
        if work == "auc simulation":
            announce()

    with announcing(hear):
        s = call("auc-max", summarize_max_auc, "the best AUC of m classifiers", **given)
    emit(args, s.to_dict(), s.to_text())
    return 0
