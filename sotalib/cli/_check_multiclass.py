"""``sotalib check`` for multiclass and regression reports: the text it prints.

:mod:`sotalib.cli.check` parses the options and calls
:func:`sotalib.consistency.check_multiclass` or
:func:`sotalib.consistency.check_regression`; this module turns their results
into the lines printed without ``--json``.
"""

from __future__ import annotations


def regression_text(scores: dict, r) -> str:
    """The lines printed for a regression report's :class:`~sotalib.consistency.RegressionResult`."""
    lines = [
        ("CONSISTENT" if r.consistent else "INCONSISTENT") + ": " + ", ".join(f"{k}={x}" for k, x in scores.items())
    ]
    if r.consistent:
        w = r.evidence[0]
        lines.append(f"  e.g. MSE {w['mse']:.6g}" + (f", MAE {w['mae']:.6g}" if "mae" in w else ""))
    for msg in r.violated:
        lines.append(f"  violated: {msg}")
    return "\n".join(lines)


def multiclass_text(scores: dict, classes, v) -> str:
    """The lines printed for a multiclass report's :class:`~sotalib.consistency.MulticlassResult`."""
    state = {"feasible": "CONSISTENT", "infeasible": "INCONSISTENT", "undecided": "UNDECIDED (counted as consistent)"}
    lines = [f"{state[v.status]}: " + ", ".join(f"{k}={x}" for k, x in scores.items())]
    lines.append(
        f"  classes {list(classes)}; {v.aggregation}"
        + (f" over {len(v.classes)} folds" if v.aggregation == "mos" else "")
        + f"; read as {', '.join(f'{k} = {x}' for k, x in v.details['scores'].items())}"
    )
    lines.append(f"  {v.details['note']}")
    if v.evidence:
        first = v.evidence[0]
        lines.append(
            "  evidence (confusion matrix, rows = true class):"
            if v.aggregation != "mos"
            else "  evidence (per-fold confusion matrices):"
        )
        for m in first if v.aggregation == "mos" else [first]:
            for row in m:
                lines.append("    " + " ".join(f"{x:>5}" for x in row))
            if v.aggregation == "mos":
                lines.append("")
    for sug in v.suggestions[:3]:
        lines.append(
            f"  typo? {sug.score} {sug.reported:.{sug.decimals}f} -> {sug.suggested:.{sug.decimals}f} ({sug.typo}, "
            f"change {sug.change:+.{sug.decimals}f}) makes it consistent, e.g. confusion matrix {sug.example}"
        )
    return "\n".join(lines).rstrip()
