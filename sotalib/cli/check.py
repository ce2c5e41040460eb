"""``sotalib check``: whether the reported scores can come from the stated experiment.

Parse, call one library function, print.  The options that set a report's
experiment pick the function (``--batch``: :func:`sotalib.consistency.check_batch`;
``--task regression``: :func:`~sotalib.consistency.check_regression`;
``--classes`` or ``--task multiclass``: :func:`~sotalib.consistency.check_multiclass`;
otherwise :func:`~sotalib.consistency.check_report`, which also answers an accuracy
on n items: ``--items``, ``--samples``, ``--pass-at``, ``--subset``, ``--subset-score``
or a benchmark's ``--dataset``), and every option typed on
the command line is passed to it as the parameter of the same name
(:func:`sotalib.cli.call`): an option the function does not take is refused,
never ignored, and the library decides every range and which options go
together.  The command line has no defaults of its own (``argparse.SUPPRESS``):
the library's are the defaults.

To add an option: one ``add_argument`` whose ``dest`` is the library's parameter.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

from .._deprecate import REMOVED_IN
from . import CliError, call
from ._types import integer

S = argparse.SUPPRESS  # an option not typed is not passed: the library's default applies

#: How each kind of report is named in a refusal ("--average does not apply to a binary report ...").
KINDS = {
    "batch": "--batch (every report's settings come from the file's columns)",
    "binary": "a binary report (--p/--n, --dataset or --folds; --task binary)",
    "accuracy": "an accuracy on n items (--items, or a benchmark's --dataset)",
    "multiclass": "a multiclass report (--classes; --task multiclass)",
    "regression": "a regression report (--task regression)",
}


#: The options (by parameter) that make a report an accuracy on n items.
ACCURACY = ("n_items", "samples", "pass_at", "subsets", "subset_scores")


def _pair(option: str):
    """An argparse ``type``: ``NAME=VALUE`` as (name, value); the value stays text (read once, by the library)."""

    def parse(value: str) -> tuple[str, str]:
        name, sep, text = value.partition("=")
        if not sep or not name.strip():
            raise argparse.ArgumentTypeError(f"{option} must look like NAME=VALUE, got {value!r}")
        return name.strip(), text.strip()

    return parse


def _pairs(items: list[tuple[str, str]], option: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, value in items:
        if name in out:
            raise CliError(f"{option} {name} given twice")
        out[name] = value
    return out


def _size(name: str, text: str) -> int:
    """The size of ``--subset NAME=N``, an integer (the library checks its range)."""
    try:
        return int(text.replace("_", ""))
    except ValueError:
        raise CliError(f"--subset {name} must be an integer number of items, got {text!r}") from None


def _class_sizes(text: str) -> list[int]:
    try:
        return [int(x) for x in text.replace(" ", "").split(",") if x != ""]
    except ValueError:
        raise argparse.ArgumentTypeError(f"--classes must be integers separated by commas, got {text!r}") from None


def register(sub) -> None:
    """Add the ``sotalib check`` subcommand and its options to the subparsers ``sub``."""
    p = sub.add_parser(
        "check",
        help="consistency of reported scores with the experiment (Fazekas & Kovacs)",
        description="Decide with certainty whether reported scores can come from a test set of P positives "
        "and N negatives, or from k-fold cross-validation aggregated by Score of Means (som) or "
        "Mean of Scores (mos).  Without --aggregation both are tested.  With --items N (or a benchmark's "
        "--dataset): whether accuracies can come from N items, one run or the mean of --repeats R runs, "
        "pass@k over --samples K, or a macro average over subsets.",
        argument_default=S,
    )
    a = p.add_argument
    a("--p", type=integer("--p"), help="number of positives (>= 1)")
    a("--n", type=integer("--n"), help="number of negatives (>= 1); regression: number of items")
    a(
        "--dataset",
        metavar="NAME",
        help="a named test set instead of --p/--n, or a named benchmark instead of --items (sotalib datasets)",
    )
    a(
        "--items",
        dest="n_items",
        type=integer("--items"),
        metavar="N",
        help="an accuracy on N items (a share of the items: acc, pass@1, exact_match, resolved, ...; "
        "acc=64.93%% is read as 0.6493) instead of --p/--n",
    )
    a(
        "--score",
        dest="scores",
        type=_pair("--score"),
        action="append",
        metavar="NAME=VALUE",
        help="a reported score, e.g. acc=0.9447 (repeatable, each score once; Table 2 names, synonyms, complements)",
    )
    a("--eps", help="numerical uncertainty: true value in [v - eps, v + eps] (>= 0)")
    a("--decimals", type=integer("--decimals"), help="number of decimals reported (0-15)")
    a(
        "--rounding",
        choices=("round", "floor", "ceil", "any"),
        help="how values were shortened (default round); needs --decimals",
    )
    folds = p.add_mutually_exclusive_group()
    folds.add_argument("--folds", help='explicit binary folds "p1:n1,p2:n2,..."')
    folds.add_argument(
        "--folds-file",
        dest="folds",
        type=pathlib.Path,
        metavar="FILE.csv",
        help="explicit folds from a CSV file: binary, columns p and n; multiclass, one row per fold, its class "
        "sizes (an optional header row of class names)",
    )
    a("--k", type=integer("--k"), help="k-fold cross-validation of (P, N) (>= 2)")
    a("--stratified", action="store_true", help="stratified k-fold (scikit-learn, Table 6)")
    a(
        "--repeats",
        type=integer("--repeats"),
        help="repetitions of the k-fold or of the --folds (1-1000; default 1); without "
        "--stratified every repetition may have its own fold configuration; with --items: the score is "
        "the mean over R runs of every item (lattice k/(N R))",
    )
    a("--aggregation", choices=("som", "mos"), help="Score of Means or Mean of Scores")
    a(
        "--batch",
        metavar="FILE.csv",
        help="check every row of a CSV file (columns p, n, decimals or eps, k, folds, folds_file, "
        "stratified, repeats, aggregation, rounding, id, dataset, items, samples, pass_at, average, and score "
        "names; any case); exit 1 when "
        "some rows could not be checked",
    )
    a(
        "--no-diagnosis",
        dest="diagnosis",
        action="store_false",
        help="skip the typo finder on inconsistent reports (faster batches)",
    )
    a("--json", action="store_true", default=False, help="print one JSON object")
    acc = p.add_argument_group("an accuracy on n items (--items or a benchmark's --dataset)")
    acc.add_argument(
        "--samples",
        type=integer("--samples"),
        metavar="K",
        help="K samples per item, scored by the unbiased pass@k of Chen et al. 2021 (with --pass-at; 1-1000)",
    )
    acc.add_argument("--pass-at", dest="pass_at", type=integer("--pass-at"), metavar="k", help="k of pass@k (1-K)")
    acc.add_argument(
        "--subset",
        dest="subsets",
        type=_pair("--subset"),
        action="append",
        metavar="NAME=N",
        help="a subset of the items and its size (repeatable; a benchmark's --dataset gives them)",
    )
    acc.add_argument(
        "--subset-score",
        dest="subset_scores",
        type=_pair("--subset-score"),
        action="append",
        metavar="NAME=VALUE",
        help="the score reported on one subset, checked jointly with --score of the whole (repeatable)",
    )
    g = p.add_argument_group("multiclass and regression reports")
    g.add_argument(
        "--task",
        choices=("binary", "multiclass", "regression"),
        help="kind of report (default: multiclass with --classes, else binary)",
    )
    g.add_argument(
        "--classes",
        type=_class_sizes,
        metavar="C1,C2,...",
        help="class sizes of a multiclass test set (of the data set, with folds)",
    )
    g.add_argument(
        "--average",
        choices=("micro", "macro", "weighted"),
        help="average of the per-class scores (scikit-learn's meaning; default macro); "
        "a score name may override it, e.g. --score micro_f1=0.8; with --items: the whole's score over "
        "all items (micro, the default) or the mean of the subsets' scores (macro)",
    )
    g.add_argument("--beta", help="weight of the F-beta score (default 1)")
    g.add_argument(
        "--zero-division",
        choices=("0", "1", "undefined"),
        help="value of a precision whose class is never predicted (scikit-learn: 0)",
    )
    engines = ("auto", "ilp", "exhaustive")
    g.add_argument(
        "--engine",
        choices=engines,
        help="multiclass: how the verdict is computed, exhaustive enumeration (small test sets) or integer "
        "program (default auto)",
    )
    # --method, the former name of --engine, stays one minor version with a note on stderr
    g.add_argument("--method", dest="method_alias", choices=engines, help=argparse.SUPPRESS)
    g.add_argument("--target-var", help="regression: variance of the target (ddof 0), for r2")
    g.add_argument(
        "--fold-min",
        type=_pair("--fold-min"),
        action="append",
        metavar="NAME=VALUE",
        help="binary Mean of Scores: reported minimum of a score over the folds (Eq. 10; with --fold-max)",
    )
    g.add_argument(
        "--fold-max",
        type=_pair("--fold-max"),
        action="append",
        metavar="NAME=VALUE",
        help="binary Mean of Scores: reported maximum of a score over the folds (Eq. 10; with --fold-min)",
    )
    p.set_defaults(run=run)


def _kind(given: dict) -> str:
    """Which kind of report the options describe (and so which library function answers)."""
    if "batch" in given:
        return "batch"
    task = given.pop("task", None)
    if task is not None:
        return task
    if any(name in given for name in ACCURACY):
        return "accuracy"
    return "multiclass" if "classes" in given else "binary"


def run(args: argparse.Namespace) -> int:
    """Run ``sotalib check`` with the parsed ``args``; return the exit status."""
    from .. import consistency
    from . import emit

    given = {k: v for k, v in vars(args).items() if k not in ("command", "run", "_commands", "json")}
    if "method_alias" in given:
        engine = given.pop("method_alias")
        if given.setdefault("engine", engine) != engine:
            raise CliError("--method is the former name of --engine: give one of them")
        print(
            f"sotalib check: note: --method is now --engine (--method {engine} is read as --engine {engine}; "
            f"the alias goes in sotalib {REMOVED_IN})",
            file=sys.stderr,
        )
    kind = _kind(given)
    pairs: tuple[tuple[str, str], ...] = (("scores", "--score"), ("fold_min", "--fold-min"), ("fold_max", "--fold-max"))
    pairs += (("subset_scores", "--subset-score"), ("subsets", "--subset"))
    for name, option in pairs:
        if name in given:
            given[name] = _pairs(given[name], option)
    if "subsets" in given:
        given["subsets"] = {name: _size(name, text) for name, text in given["subsets"].items()}
    if "zero_division" in given:
        given["zero_division"] = {"0": 0, "1": 1, "undefined": None}[given["zero_division"]]
    quiet = {"progress": False} if args.json else {}
    if kind == "batch":
        batch = call("check", consistency.check_batch, KINDS[kind], given.pop("batch"), **given, **quiet)
        emit(args, batch.to_dict(), batch.to_text())
        return 1 if batch.errors else 0
    given.setdefault("scores", {})
    from .._io import InputError

    try:
        return _answer(args, kind, given, quiet)
    except InputError:  # names the file, its line and column already
        raise
    except ValueError as exc:
        if isinstance(given.get("folds"), pathlib.Path):  # the folds came from --folds-file: name it
            raise _from_folds_file(exc) from None
        raise


def _from_folds_file(exc: ValueError) -> ValueError:
    """``exc`` naming ``folds_file`` (``--folds-file``) where it names ``folds`` (``--folds``)."""
    import re

    from .._validate import ParameterError

    message = re.sub(r"^folds\b", "folds_file", str(exc))
    parameters = tuple("folds_file" if p == "folds" else p for p in getattr(exc, "parameters", ()))
    return ParameterError(message, *parameters) if parameters else ValueError(message)


def _answer(args: argparse.Namespace, kind: str, given: dict, quiet: dict) -> int:
    """Call the library function of ``kind`` with the options ``given``, print its answer; the exit status."""
    from .. import consistency
    from . import emit

    if kind == "binary" and "average" in given and "dataset" not in given:
        raise CliError(f"--average does not apply to {KINDS[kind]}")
    if kind in ("binary", "accuracy"):
        result = call("check", consistency.check_report, KINDS[kind], **given, **quiet)
    elif kind == "regression":
        result = call("check", consistency.check_regression, KINDS[kind], **given)
    else:
        given.setdefault("classes", None)
        result = call("check", consistency.check_multiclass, KINDS[kind], **given)
    emit(args, result.to_dict(), result.to_text())
    return 0
