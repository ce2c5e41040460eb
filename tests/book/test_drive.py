"""The DRIVE section: figures, the authors' rule, and the verdicts against Kovács & Fazekas (2024)."""

import json

import numpy as np
import pandas as pd
import pytest

from sotalib.book import ch06b_drive as drive


def load_authors_verdicts() -> pd.DataFrame:
    """The authors' verdicts per paper (``authors_verdicts.csv``)."""
    return pd.read_csv(drive.DRIVE_DIR / "authors_verdicts.csv")


def category(with_fov: bool, without_fov: bool) -> str:
    """The authors' category of a paper: ``FoV``, ``no FoV``, ``ambiguous`` (both) or ``outlier`` (neither)."""
    return {(True, False): "FoV", (False, True): "no FoV", (True, True): "ambiguous"}.get(
        (bool(with_fov), bool(without_fov)), "outlier"
    )


def paper_verdicts(figures: pd.DataFrame) -> pd.DataFrame:
    """Per paper, the authors' rule: consistent with an evaluation when its primary figure is
    (under Mean of Scores or Score of Means) and more than half of its figures are.

    Columns: ``key, year, acc`` (the primary accuracy), ``n_figures``, the fraction of figures
    consistent with each evaluation and aggregation (``fov_mos``, ...), ``with_fov``,
    ``without_fov`` and ``category``.  (The chapter applies the same rule in its visible code;
    this reference, written from the authors' description, checks the cached verdicts.)
    """
    rows = []
    for key, g in figures.groupby("key", sort=True):
        prim = g[g["flag"] == "primary"].iloc[0]
        row = {"key": key, "year": int(prim["year"]), "acc": float(prim["acc"]), "n_figures": len(g)}
        for prefix, _ in drive.EVALUATIONS:
            for agg in ("mos", "som"):
                row[f"{prefix}_{agg}"] = float(g[f"{prefix}_{agg}"].mean())
            either = g[f"{prefix}_mos"] | g[f"{prefix}_som"]
            ok = bool(prim[f"{prefix}_mos"] or prim[f"{prefix}_som"]) and either.mean() > 0.5
            row["with_fov" if prefix == "fov" else "without_fov"] = ok
        row["category"] = category(row["with_fov"], row["without_fov"])
        rows.append(row)
    return pd.DataFrame(rows)


def test_figures_skip_stare_and_keep_values_as_printed():
    all_rows = drive.load_figures(skip_stare=False)
    figs = drive.load_figures()
    assert len(all_rows) == 234 and len(figs) == 227
    assert not figs["flag"].str.contains("STARE").any()
    assert figs["key"].nunique() == 100 and (figs["flag"] == "primary").sum() == 100
    assert figs["year"].between(2000, 2024).all()
    row = figs[(figs.key == "alom2019") & (figs.flag == "U-net")].iloc[0]
    assert row["sens"] == "7537.0"  # the source's typo for 0.7537, kept as printed


def test_adapa2020_as_the_authors_found():
    v = drive.check_figure("0.945", "0.6994", "0.9811", 4)
    assert v == {"fov_mos": True, "fov_som": False, "all_mos": False, "all_som": False}
    assert drive.check_figure("0.9", "7537", "0.9", 4) == dict.fromkeys(v, False)
    with pytest.raises(ValueError, match="tolerance"):
        drive.check_figure("0.9", "0.9", "0.9", 4, tolerance="loose")


def test_the_authors_rule():
    # primary consistent and more than half of the figures: consistent with that evaluation
    def fig(flag, fov, all_):
        return {
            "key": "x2020",
            "flag": flag,
            "year": 2020,
            "acc": "0.95",
            "fov_mos": fov,
            "fov_som": False,
            "all_mos": all_,
            "all_som": False,
        }

    two_of_three = pd.DataFrame([fig("primary", True, False), fig("a", True, True), fig("b", False, True)])
    r = paper_verdicts(two_of_three).iloc[0]
    assert (r.with_fov, r.without_fov, r.category) == (True, False, "FoV")
    half = pd.DataFrame([fig("primary", True, True), fig("a", False, True)])
    r = paper_verdicts(half).iloc[0]  # FoV: exactly half is not more than half
    assert (r.with_fov, r.without_fov, r.category) == (False, True, "no FoV")
    assert category(True, True) == "ambiguous" and category(False, False) == "outlier"


def test_cached_verdicts_reproduce_the_authors():
    store = json.loads(drive.CACHE.read_text())
    if not any(k.startswith("authors|") for k in store):
        pytest.skip("verdicts not cached")
    papers = paper_verdicts(drive.figure_verdicts("authors")).set_index("key")
    authors = load_authors_verdicts().set_index("key")
    same = papers["category"] == authors.loc[papers.index, "category_agg"]
    assert same.sum() >= AGREE
    assert (papers["category"] == "outlier").sum() == OUTLIERS
    fractions = {"fov_mos": "mor", "fov_som": "rom"}
    for ours, theirs in fractions.items():
        for prefix, their_prefix in (("fov", "with_fov"), ("all", "without_fov")):
            col = f"consistency_{their_prefix}_{theirs}"
            assert np.allclose(papers[prefix + ours[3:]], authors.loc[papers.index, col])
    # correct rounding (half a unit) changes 36 figures' verdicts and no paper's category
    cols = ["fov_mos", "fov_som", "all_mos", "all_som"]
    one, half = drive.figure_verdicts("authors"), drive.figure_verdicts("rounding")
    assert int((one[cols] != half[cols]).any(axis=1).sum()) == 36
    assert (paper_verdicts(half)["category"].to_numpy() == papers["category"].to_numpy()).all()


AGREE = 100  # every category, and every fraction of consistent figures
OUTLIERS = 20
