"""The multiclass section's table of reports: scores, verdict, fits and the typo finder's proposal.

The chapter draws its reports and typos, and measures the power of
:func:`sotalib.check_multiclass`, in visible code with the public API.
"""

from __future__ import annotations

__all__ = ["reports_frame"]

#: The table's names of the reported scores.
_COLUMNS = {
    "acc": "acc",
    "macro_precision": "P",
    "macro_recall": "R",
    "f1": "F1",
}


def reports_frame(reports: dict, verdicts: dict):
    """One row per report: its scores in one column, the verdict, the fits and the typo finder's proposal."""
    import pandas as pd

    def typo(v):
        if not v.suggestions:
            return "-"
        s = v.suggestions[0]
        return f"{_COLUMNS.get(s.score, s.score)} {s.reported:.4f} → {s.suggested:.4f}"

    return pd.DataFrame(
        {
            "report": list(reports),
            "scores": [
                ", ".join(f"{_COLUMNS.get(k, k)} {x}" for k, x in r.items())
                for r in reports.values()
            ],
            "consistent": [
                "yes" if v.consistent else "no" for v in verdicts.values()
            ],
            "fits": [v.n_solutions for v in verdicts.values()],
            "typo finder": [typo(v) for v in verdicts.values()],
        }
    )
