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
    table = read_scores(given.pop("scores"))
    k, N = table.scores.shape
    res = call("compare", compare_candidates, "a comparison", table.scores, **given, candidates=table.candidates)
    if diagram is not None:
        _draw(res, diagram)
    d = res.to_dict()
    fr = res.friedman
    w = max(len(c) for c in table.candidates)
    lines = [
        f"{k} candidates on {N} judges; score: {'lower' if res.lower_is_better else 'higher'} is better",
        "average ranks (1 is best):",
    ]
    lines += [f"  {r:7.3f}  {name}" for name, r in d["average_ranks"].items()]
    lines.append(
        f"Friedman chi-square = {fr.statistic:.4g}, p = {fr.p_value:.3g}; "
        f"Iman-Davenport F = {fr.iman_davenport_F:.4g}, p = {fr.iman_davenport_p:.3g}"
    )
    lines.append(f"Nemenyi critical difference (alpha = {res.alpha:g}): {res.critical_difference:.4f}")
    lines.append("groups not significantly different:")
    lines += ["  " + ", ".join(g) for g in d["groups"]]
    sig = [p for p in d["pairwise"] if p["significant"]]
    lines.append(f"Wilcoxon signed-rank, Holm-corrected: {len(sig)} of {len(d['pairwise'])} pairs differ")
    lines += [f"  {p['a'].ljust(w)}  {p['b'].ljust(w)}  p = {p['p_value']:.3g}, Holm {p['p_holm']:.3g}" for p in sig]
    if diagram is not None:
        lines.append(f"critical-difference diagram: {diagram}")
    emit(args, d, "\n".join(lines))
    return 0
