"""``sotalib maxdist``: the distribution of the best accuracy on a leaderboard.

Identical independent classifiers by default (Chapter 2); ``--spread`` makes
them non-identical (``theta_j ~ U(a, b)`` of width ``d`` with ``--theta`` the
state of the art ``theta_SOTA = E max Theta``) and ``--rho`` dependent through a
reference classifier (Chapter 3).  ``--engine simulate`` replaces the exact
computation by a seeded Monte Carlo simulation of the same model; the command
line computes exactly unless told (the library's ``engine="auto"`` would
switch to Monte Carlo by itself, and an answer on the command line does not
change its kind silently: a run too long is refused up front, naming
``--engine simulate``).  ``--method exact|mc``, the option's former
spelling, stays for one minor version (removed in 0.7.0) with a note on
stderr.

Parse, call :func:`sotalib.multiplicity.summarize_max`, print: every option
typed is passed as the parameter of the same name (:func:`sotalib.cli.call`),
the library decides every range, and an option the chosen mode does not use
is refused (:func:`sotalib.cli.refuse_unused`): ``--reps`` and ``--seed``
without ``--engine simulate``, ``--theta0`` and ``--y0`` without a ``--rho``.
"""

from __future__ import annotations

import argparse
import functools
import sys

from ._types import integer, real, seed

S = argparse.SUPPRESS  # an option not typed is not passed: the library's default applies

#: The seed of a simulation when --seed is not given (the command line's answers are reproducible).
DEFAULT_SEED = 0


def register(sub) -> None:
    """Add the ``sotalib maxdist`` subcommand and its options to the subparsers ``sub``."""
    p = sub.add_parser(
        "maxdist",
        help="distribution of the best accuracy among m classifiers",
        description="Distribution of theta_hat_max, the best accuracy of m classifiers on n test items. "
        "Exact by default; non-identical (--spread) and dependent (--rho) classifiers as in Section 4 "
        "of Mollersen & Holsbo.",
        argument_default=S,
    )
    a = p.add_argument
    # every range is summarize_max's to check; the types only read numbers
    a("--n", type=integer("--n", 1), required=True, help="test-set size (>= 1)")
    a("--m", type=integer("--m", 1), required=True, help="number of classifiers (>= 1)")
    a(
        "--theta",
        type=real("--theta"),
        required=True,
        help="probability of success, in [0, 1]; with --spread, theta_SOTA = E max theta_j",
    )
    a("--alpha", type=real("--alpha"), help="interval level is 1 - alpha, alpha in (0, 1); default 0.05")
    a(
        "--rho",
        type=real("--rho"),
        help="correlation rho_0 of each classifier with the reference classifier Y_0, in [-1, 1]; default 0",
    )
    a(
        "--theta0",
        type=real("--theta0"),
        help="P(Y_0 = 1) of the reference classifier, in (0, 1); default: the value of --theta (with --rho)",
    )
    a(
        "--y0",
        choices=("random", "fixed"),
        help="reference classifier random (K_0 ~ B(n, theta0)) or fixed (round(n theta0) correct); default "
        "random (with --rho)",
    )
    a(
        "--spread",
        type=real("--spread"),
        metavar="D",
        help="width d of the uniform U(a, b) the theta_j are drawn from, b = theta + d/(m+1), a = b - d; default 0",
    )
    a(
        "--engine",
        choices=("exact", "simulate"),
        help="exact computation or Monte Carlo simulation of the same model; default exact",
    )
    a(
        "--method",
        dest="former_method",
        choices=("exact", "mc"),
        help="deprecated spelling of --engine (mc is --engine simulate), removed in 0.7.0",
    )
    a(
        "--reps",
        dest="n_resamples",
        type=integer("--reps", 2),
        help="Monte Carlo replications (>= 2; with --engine simulate); default 10000",
    )
    a("--seed", dest="rng", type=seed(), help="Monte Carlo seed (>= 0; with --engine simulate); default 0")
    a("--json", action="store_true", default=False, help="print one JSON object")
    p.set_defaults(run=run)


#: An exact run expected to take longer than this says so on stderr before it starts.
ANNOUNCE_SECONDS = 10.0


def cost_note(seconds: float, n: int) -> str:
    """One line stating the cost of a long exact run (a spread or a reference classifier), or "".

    ``seconds`` is the library's estimate, announced once every option has been
    checked and the run found within the time limit (:func:`sotalib._progress.announce`).
    """
    from .._validate import format_seconds

    if seconds < ANNOUNCE_SECONDS:  # quick
        return ""
    return (
        f"sotalib maxdist: note: the exact distribution at n={n:,} is expected to take "
        f"{format_seconds(seconds)} on a 2-core machine (--engine simulate answers in seconds)"
    )


def _hear(seconds: float, work: str = "", **facts) -> None:
    """The library's announcement of long work: the exact distribution's cost, on stderr."""
    if work == "exact distribution":
        note = cost_note(seconds, int(facts["n"]))
        if note:
            print(note, file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    """Run ``sotalib maxdist`` with the parsed ``args``; return the exit status."""
    from .._progress import announcing
    from ..multiplicity import summarize_max
    from . import CliError, call, emit, refuse_unused, typed

    given = typed(args)
    if "former_method" in given:
        former = given.pop("former_method")
        if "engine" in given:
            raise CliError("give --engine only (--method is its deprecated spelling)")
        given["engine"] = "simulate" if former == "mc" else former
        print(
            f"sotalib maxdist: note: --method is deprecated, use --engine {given['engine']} "
            "(--method is removed in 0.7.0)",
            file=sys.stderr,
            flush=True,
        )
    given.setdefault("engine", "exact")  # the command line computes exactly unless told
    if given["engine"] == "simulate":
        given.setdefault("rng", DEFAULT_SEED)
    else:
        refuse_unused("maxdist", given, ("n_resamples", "rng"), "--engine exact (the default), which draws nothing")
    if given.get("rho", 0.0) == 0.0:
        refuse_unused(
            "maxdist", given, ("theta0", "y0"), "independent classifiers (no --rho): there is no reference classifier"
        )
    kind = "the best accuracy of m classifiers"
    given["progress"] = False if args.json else None

    @functools.wraps(summarize_max)
    def summarize(*a, **k):  # the library's engine='simulate' is --engine simulate here, its n --n
        try:
            return summarize_max(*a, **k)
        except ValueError as exc:
            message = (
                str(exc).replace("engine='simulate'", "--engine simulate").replace("a smaller n,", "a smaller --n,")
            )
            raise ValueError(message) from None

    with announcing(_hear):  # a long exact run states its cost before it starts
        s = call("maxdist", summarize, kind, given.pop("n"), given.pop("m"), given.pop("theta"), **given)
    emit(args, s.to_dict(), s.to_text())
    return 0
