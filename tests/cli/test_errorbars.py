"""``sotalib errorbars``: the JSON is the library's result, checked against independent computations too."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

import sotalib
from sotalib.cli import main

ROOT = Path(__file__).resolve().parents[2]
HUMANEVAL_PLUS = ROOT / "data" / "llm" / "eval-arena" / "humaneval+.jsonl.gz"

MODEL_KEYS = {"model", "accuracy", "se", "se_data", "se_pred", "ci_low", "ci_high", "n_items", "samples"}
PAIR_KEYS = {"a", "b", "difference", "se", "se_data", "se_pred", "corr", "p_value", "p_adjusted", "significant"}
SUMMARY_KEYS = {
    "n_items",
    "n_models",
    "n_pairs",
    "close_pairs",
    "no_solve",
    "tau_minus",
    "se",
    "se_data",
    "se_pred",
    "se_diff",
    "se_diff_data",
    "se_diff_pred",
    "corr",
    "min_detectable_difference",
}


def _board(n_items: int, n_models: int, seed: int) -> np.ndarray:
    """0/1 outcomes of models of different skill, correlated through the items' difficulty."""
    rng = np.random.default_rng(seed)
    skill = np.linspace(-1, 1, n_models)
    difficulty = rng.normal(0, 1.5, n_items)
    p = 1 / (1 + np.exp(-(skill[None, :] - difficulty[:, None])))
    return (rng.random((n_items, n_models)) < p).astype(int)


def _write_wide(path: Path, Y: np.ndarray, names: list[str] | None = None) -> Path:
    names = names or [f"m{j}" for j in range(Y.shape[1])]
    rows = ["item," + ",".join(names)] + [f"q{i}," + ",".join(map(str, Y[i])) for i in range(Y.shape[0])]
    path.write_text("\n".join(rows) + "\n")
    return path


def _run(capsys, argv: list[str]) -> tuple[int, str, str]:
    code = main(["errorbars", *argv])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


@pytest.fixture
def small(tmp_path) -> tuple[Path, np.ndarray]:
    Y = _board(80, 6, seed=1)
    return _write_wide(tmp_path / "board.csv", Y), Y


def test_json_is_the_library_result_with_the_issues_keys(capsys, small):
    path, Y = small
    code, out, _ = _run(capsys, ["--per-item", str(path), "--pairs", "--alpha", "0.1", "--json"])
    assert code == 0
    assert "NaN" not in out and "Infinity" not in out
    got = json.loads(out)
    expected = sotalib.evaluation_noise(sotalib.read_per_item(path), alpha=0.1, pairs=True).to_dict()
    assert got == expected
    assert {"models", "pairs", "summary"} <= set(got)
    assert all(MODEL_KEYS <= set(m) for m in got["models"])
    assert all(PAIR_KEYS <= set(p) for p in got["pairs"])
    assert SUMMARY_KEYS <= set(got["summary"])
    # independent of the library: accuracies, standard errors of 0/1 outcomes, differences, McNemar's exact test
    n, m = Y.shape
    assert [r["model"] for r in got["models"]] == [f"m{j}" for j in range(m)]
    for j, r in enumerate(got["models"]):
        acc = Y[:, j].mean()
        assert r["accuracy"] == pytest.approx(acc, abs=1e-12) and r["n_items"] == n and r["samples"] == 1
        assert r["se"] == pytest.approx(math.sqrt(acc * (1 - acc) / n), rel=1e-9)
        assert r["se_pred"] is None and r["se_data"] is None  # one sample per item cannot split the noise
    assert len(got["pairs"]) == m * (m - 1) // 2 == got["summary"]["n_pairs"]
    for rec in got["pairs"]:
        a, b = int(rec["a"][1:]), int(rec["b"][1:])
        x, y = Y[:, a], Y[:, b]
        assert rec["difference"] == pytest.approx(x.mean() - y.mean(), abs=1e-12)
        paired_var = np.var(x - y)  # the paired standard error from the covariance, ddof 0 as eval-arena
        assert rec["se"] == pytest.approx(
            math.sqrt((x.mean() * (1 - x.mean()) + y.mean() * (1 - y.mean()) - 2 * np.cov(x, y, ddof=0)[0, 1]) / n),
            rel=1e-9,
        )
        assert paired_var >= 0
        wins, losses = int(np.sum((x == 1) & (y == 0))), int(np.sum((x == 0) & (y == 1)))
        p = stats.binomtest(wins, wins + losses, 0.5).pvalue if wins + losses else 1.0
        assert rec["p_value"] == pytest.approx(p, rel=1e-9, abs=1e-15)
    # Holm: significant exactly where the adjusted p-value is at most alpha, and adjusted >= raw
    assert all(r["significant"] == (r["p_adjusted"] <= 0.1) for r in got["pairs"])
    assert all(r["p_adjusted"] >= r["p_value"] - 1e-15 for r in got["pairs"])


def test_without_pairs_the_json_has_no_pairs(capsys, small):
    path, _ = small
    code, out, _ = _run(capsys, ["--per-item", str(path), "--json"])
    got = json.loads(out)
    assert code == 0 and "pairs" not in got and set(got["summary"]) >= SUMMARY_KEYS
    assert got == sotalib.evaluation_noise(sotalib.read_per_item(path), pairs=False).to_dict()


def test_text_is_a_table_of_models_then_pairs_then_summary(capsys, small):
    path, _ = small
    code, out, _ = _run(capsys, ["--per-item", str(path), "--pairs"])
    assert code == 0 and "nan" not in out.lower()
    r = sotalib.evaluation_noise(sotalib.read_per_item(path), pairs=True)
    models_at, pairs_at, summary_at = out.index("accuracy"), out.index("pairs told apart"), out.index("\nsummary")
    assert models_at < pairs_at < summary_at
    told = int(np.sum(r.pairs.significant))
    assert f"pairs told apart (Holm's control at alpha 0.05): {told} of {len(r.pairs)}" in out
    for rec in r.models.to_records():
        assert re.search(rf"^{re.escape(rec['model'])} +{rec['accuracy']:.4f} +{rec['se']:.4f} ", out, re.M), rec
    # each pair told apart is listed, better model first
    frame = r.pairs.to_frame()
    for row in frame[frame["significant"]].itertuples():
        first, second = (row.a, row.b) if row.difference >= 0 else (row.b, row.a)
        assert f"{first} > {second}" in out
    assert re.search(rf"^  n_pairs +{len(r.pairs)}$", out, re.M)


def test_pairs_file_holds_every_pair_as_the_library_records(capsys, small, tmp_path):
    path, _ = small
    out_file = tmp_path / "pairs.jsonl"
    code, out, _ = _run(capsys, ["--per-item", str(path), "--pairs", "--pairs-file", str(out_file), "--json"])
    assert code == 0
    lines = out_file.read_text().splitlines()
    r = sotalib.evaluation_noise(sotalib.read_per_item(path), pairs=True)
    assert [json.loads(line) for line in lines] == list(r.pairs.iter_records()) == json.loads(out)["pairs"]
    assert all("NaN" not in line for line in lines)


def test_more_pairs_than_the_cap_are_left_out_of_the_json_and_streamed(capsys, tmp_path):
    """448 models: 100,128 pairs, beyond the 100,000 the JSON holds."""
    Y = _board(12, 448, seed=2)
    path = _write_wide(tmp_path / "big.csv", Y)
    out_file = tmp_path / "pairs.jsonl"
    code, out, _ = _run(capsys, ["--per-item", str(path), "--pairs", "--pairs-file", str(out_file), "--json"])
    got = json.loads(out)
    assert code == 0 and "pairs" not in got
    assert got["summary"]["n_pairs"] == 448 * 447 // 2 == 100_128
    assert "100128 pairs" in got["note"].replace(",", "") and str(out_file) in got["note"]
    with open(out_file, encoding="utf-8") as fh:
        count = 0
        for count, line in enumerate(fh, 1):
            if count == 1:
                first = json.loads(line)
    assert count == 100_128 and PAIR_KEYS <= set(first) and (first["a"], first["b"]) == ("m0", "m1")
    # without --pairs-file the note says how to get them
    code, out, _ = _run(capsys, ["--per-item", str(path), "--pairs", "--json"])
    assert code == 0 and "--pairs-file" in json.loads(out)["note"]


def test_clusters_from_item_info(capsys, small, tmp_path):
    path, Y = small
    info = tmp_path / "info.csv"
    info.write_text("item,cluster\n" + "".join(f"q{i},c{i // 8}\n" for i in range(Y.shape[0])))
    code, out, _ = _run(capsys, ["--per-item", str(path), "--item-info", str(info), "--clusters", "cluster", "--json"])
    assert code == 0
    got = json.loads(out)
    t = sotalib.read_per_item(path, item_info=str(info))
    assert got == sotalib.evaluation_noise(t, clusters="cluster", pairs=False).to_dict()
    # the cluster-robust variance written directly: sum over clusters of the squared residual sums, over n^2
    x = Y[:, 0].astype(float)
    groups = np.arange(Y.shape[0]) // 8
    direct = math.sqrt(sum(np.sum(x[groups == g] - x.mean()) ** 2 for g in np.unique(groups)) / x.size**2)
    assert got["models"][0]["se"] == pytest.approx(direct, rel=1e-9)


@pytest.mark.parametrize(
    "extra,needle",
    [
        (["--pairs-file", "{tmp}/p.jsonl"], "--pairs-file"),
        (["--clusters", "nope"], "--clusters nope"),
        (["--item-info", "{tmp}/info.csv"], "--item-info"),
        (["--pairs", "--pairs-file", "{tmp}/no/such/folder/p.jsonl"], "p.jsonl"),
        (["--alpha", "0"], "--alpha"),
        (["--alpha", "1.5"], "--alpha"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(capsys, small, tmp_path, extra, needle):
    path, _ = small
    argv = ["--per-item", str(path), *[e.format(tmp=tmp_path) for e in extra]]
    code, out, err = _run(capsys, argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and needle in err, err


def test_a_bad_file_is_one_line_naming_the_file_and_place(capsys, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("item,A,B\nq1,1,0\nq2,1,x\nq3,0,1\n")
    code, out, err = _run(capsys, ["--per-item", str(bad), "--json"])
    assert code == 2
    assert err.count("\n") == 1 and "bad.csv" in err and ("line 3" in err or ":3" in err), err
    payload = json.loads(out)
    assert payload["exit_code"] == 2 and payload["file"].endswith("bad.csv") and payload["line"] == 3
    code, _, err = _run(capsys, ["--per-item", str(tmp_path / "missing.csv")])
    assert code == 2 and err.count("\n") == 1 and "missing.csv" in err
    outside = tmp_path / "outside.csv"
    outside.write_text("item,A,B\nq1,1,0\nq2,2,1\n")  # an outcome outside [0, 1]
    code, _, err = _run(capsys, ["--per-item", str(outside)])
    assert code == 2 and err.count("\n") == 1 and "outside.csv" in err and "'q2'" in err, err


def test_vendored_humaneval_plus_end_to_end(capsys, tmp_path):
    out_file = tmp_path / "pairs.jsonl"
    argv = ["--per-item", str(HUMANEVAL_PLUS), "--pairs", "--pairs-file", str(out_file), "--json"]
    code, out, _ = _run(capsys, argv)
    assert code == 0
    got = json.loads(out)
    s = got["summary"]
    assert (s["n_items"], s["n_models"], s["n_pairs"]) == (164, 49, 49 * 48 // 2)
    assert len(got["pairs"]) == 1176 and len(out_file.read_text().splitlines()) == 1176
    assert got == sotalib.evaluation_noise(sotalib.read_per_item(HUMANEVAL_PLUS), pairs=True).to_dict()
    # pass@1 of each model over the 164 problems, from the file itself
    import gzip

    rows = [json.loads(line) for line in gzip.open(HUMANEVAL_PLUS, "rt", encoding="utf-8")]
    by_model: dict[str, list[float]] = {}
    for row in rows:
        by_model.setdefault(row["model"], []).append(float(row["pass1"]))
    for rec in got["models"]:
        assert rec["accuracy"] == pytest.approx(np.mean(by_model[rec["model"]]), abs=1e-12)
    assert all(rec["se_pred"] is None for rec in got["models"])  # K unknown in the file: null, never NaN
    # the text output reads the same file
    code, text, _ = _run(capsys, ["--per-item", str(HUMANEVAL_PLUS), "--pairs"])
    assert code == 0 and "error bars of 49 models on 164 items" in text
