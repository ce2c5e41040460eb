"""``sotalib compare``: many candidates on many data sets -- Friedman, Nemenyi, Wilcoxon-Holm (Demšar 2006)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ._types import real

S = argparse.SUPPRESS  # an option not typed is not passed: the library's default applies

#: File types of the critical-difference diagram.
DIAGRAM_SUFFIXES = (".png", ".svg", ".pdf")


def register(sub) -> None:
    """Add the ``sotalib compare`` subcommand and its options to the subparsers ``sub``."""
    p = sub.add_parser(
        "compare",
        help="compare candidates over data sets: Friedman test, Nemenyi critical difference, Wilcoxon-Holm",
        description="Compare candidates over judges (data sets, tasks) as Demšar (2006) recommends: average "
        "ranks, the Friedman test and its Iman-Davenport variant, the Nemenyi critical difference and the "
        "groups of candidates it does not tell apart, and pairwise Wilcoxon signed-rank tests with Holm's "
        "correction.  The CSV is the one of 'sotalib rank': the first column names the candidates, each "
        "further column is a judge; the first row is a header.",
        argument_default=S,
    )
    p.add_argument("--scores", required=True, metavar="FILE.csv", help="score matrix (CSV with a header row)")
    p.add_argument("--alpha", type=real("--alpha"), help="significance level, in [1e-10, 1) (default 0.05)")
    p.add_argument("--lower-is-better", action="store_true", help="the scores are losses (smaller is better)")
    p.add_argument(
        "--candidates",
        choices=("rows", "columns"),
        default="rows",
        help="which axis of the file holds the candidates: rows (the default: the first column names them) or "
        "columns (the header names them, each row is a judge or data set)",
    )
    p.add_argument(
        "--cd-diagram",
        metavar="FILE.png|.svg",
        help="also draw the critical-difference diagram to this file (.png, .svg or .pdf; needs matplotlib)",
    )
    p.add_argument("--json", action="store_true", default=False, help="print one JSON object")
    p.set_defaults(run=run)


def _draw(comparison, path: str) -> None:
    from . import CliError

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.figure import Figure
    except ImportError:
        raise CliError("--cd-diagram needs matplotlib, which is not installed (pip install matplotlib)") from None
    from ..judging import plot_cd_diagram

    ax = plot_cd_diagram(comparison)
    fig = ax.figure
    assert isinstance(fig, Figure), "the plot draws on a figure of its own, not a subfigure"
    try:
        fig.savefig(path, bbox_inches="tight")
    except OSError as exc:  # a directory that does not exist, no permission, a full disk: name the option
        raise CliError(f"--cd-diagram cannot write {path!r}: {exc.strerror or exc}") from None
    finally:
        plt.close(fig)


def run(args: argparse.Namespace) -> int:
    """Run ``sotalib compare`` with the parsed ``args``; return the exit status."""
    from ..judging import compare_candidates, read_scores
    from . import CliError, call, emit, typed

    # every option typed is passed as the parameter of the same name; the library checks every range
    given = typed(args)
    diagram = given.pop("cd_diagram", None)
    if diagram is not None and Path(diagram).suffix.lower() not in DIAGRAM_SUFFIXES:
        raise CliError(f"--cd-diagram must name a .png, .svg or .pdf file, got {diagram!r}")
    # the file's names come with its matrix; --candidates is the library's candidates= (which axis holds them)
    table = read_scores(given.pop("scores"))
    res = call("compare", compare_candidates, "a comparison", table, **given)
    if diagram is not None:
        _draw(res, diagram)
    text = res.to_text()
    if diagram is not None:
        text += f"\ncritical-difference diagram: {diagram}"
    emit(args, res.to_dict(), text)
    return 0
