"""``sotalib testsize``: how many test items a precise error estimate needs."""

from __future__ import annotations

import argparse

from ._types import alpha, integer, real

_LEVEL = real("--confidence", 0.0, 1.0, low_open=True, high_open=True)


def _level(text: str) -> float:
    """``--confidence``: a level in (0, 1); the message of a refusal points to ``--z`` for a z value."""
    try:
        return _LEVEL(text)
    except argparse.ArgumentTypeError as exc:
        raise argparse.ArgumentTypeError(
            f"{exc} (a level: 0.95 is 95%; give a z value such as 1.96 with --z)"
        ) from None


_level.numeric = True  # type: ignore[attr-defined]  # marks the option as numeric (tests discover these)


S = argparse.SUPPRESS  # an option not typed is not passed: the library's default applies


def register(sub) -> None:
    """Add the ``sotalib testsize`` subcommand and its options to the subparsers ``sub``."""
    p = sub.add_parser(
        "testsize",
        help="test-set size: the rule of thumb n = 100/p and Guyon's formula, or items to tell two models apart",
        description="Test-set size for an error rate (or mean loss) E: the rule of thumb n = 100/E "
        "and Guyon's n = (S^2/E^2) K^2 10^(2V), K the normal quantile of the confidence level "
        "(1.96 for 0.95) or a z value given with --z. With --difference D: the items a two-sided z test "
        "at --alpha needs to detect a difference D between two models with --power, paired (with the "
        "correlation --corr of their per-item outcomes) and unpaired; each model's per-item variance is "
        "E(1-E) at --error E (the same at accuracy 1-E), S^2 with --sd S, else 0.25 (the largest for 0/1 outcomes).",
        argument_default=S,
    )
    # every range but the level's is estimate_test_size's to check; the types only read numbers
    p.add_argument(
        "--error",
        type=real("--error"),
        help="error rate E in (0, 1] (or, with --sd, any mean loss > 0); required without --difference",
    )
    p.add_argument(
        "--sd",
        type=real("--sd"),
        help="standard deviation S > 0 of the per-item errors; default sqrt(E(1-E)) (0/1 errors)",
    )
    level = p.add_mutually_exclusive_group()
    # --confidence is the command line's own: a level, passed to the library as alpha = 1 - level
    level.add_argument(
        "--confidence",
        type=_level,
        metavar="LEVEL",
        help="confidence level in (0, 1), e.g. 0.95 for 95%% (K = 1.96); default 0.95. "
        "A z value such as 1.96 is given with --z",
    )
    level.add_argument(
        "--z",
        type=real("--z"),
        help="K as a z value (half-width in standard errors), > 0, instead of --confidence",
    )
    level.add_argument(
        "--alpha",
        type=alpha("--alpha"),
        help="level in (0, 1) (the test's with --difference; 1 - the confidence level); default 0.05",
    )
    p.add_argument(
        "--precision",
        type=real("--precision"),
        help="precision V in significant digits, in [-10, 10]; default 1",
    )
    p.add_argument(
        "--difference",
        type=real("--difference"),
        help="D > 0: the items that tell apart two models whose accuracies differ by D (in (0, 1] without --sd)",
    )
    p.add_argument(
        "--corr",
        type=real("--corr"),
        help="with --difference: correlation R in [-1, 1) of the two models' per-item outcomes, for the "
        "paired size; without it the unpaired size only",
    )
    p.add_argument(
        "--power",
        type=real("--power"),
        help="with --difference: probability in (0, 1) of detecting D; default 0.8",
    )
    p.add_argument(
        "--items",
        type=integer("--items", 1),
        help="with --difference: also the minimum detectable difference at N items",
    )
    p.add_argument("--json", action="store_true", default=False, help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``sotalib testsize`` with the parsed ``args``; return the exit status."""
    from ..judging import estimate_test_size
    from . import CliError, call, emit, typed

    # every option typed is passed as the parameter of the same name; the library checks every range
    given = typed(args)
    if "confidence" in given:
        # 1 - 0.95 is 0.050000000000000044 in binary: print 0.05
        given["alpha"] = float(f"{1.0 - given.pop('confidence'):.15g}")
    if "error" not in given and "difference" not in given:
        raise CliError(
            "give --error E (a test-set size for an error rate) or --difference D (to tell two models apart)"
        )
    kind = "a difference between two models" if "difference" in given else "a test-set size"
    r = call("testsize", estimate_test_size, kind, **given)
    emit(args, r.to_dict(), r.to_text())
    return 0
