"""Every command prints ``to_text()`` of the front-door result for the same question.

Each command is parse, one public call, print: without ``--json`` it prints
``sotalib.FUNCTION(...).to_text()`` (with ``--json``, ``to_dict()``: see
test_json_is_the_result.py).  The texts themselves are checked against the
numbers of the result, so that a to_text() that printed nothing would fail.
"""

from __future__ import annotations

import numpy as np
import pytest

import sotalib
from sotalib.cli import main
from sotalib.judging import read_battles, read_per_item, read_scores

from .test_json_is_the_result import files  # noqa: F401  (the fixture)

#: Twenty close models: a per-item board the shrinkage solves (as in tests/multiplicity/test_sota_per_item.py).
THETA = np.linspace(0.70, 0.74, 20)


def _text(capsys, argv: list[str]) -> str:
    code = main(argv)
    out = capsys.readouterr().out
    assert code == 0, out
    return out


def test_maxdist(capsys):
    result = sotalib.summarize_max(300, 10, 0.8, rho=0.6, spread=0.02)
    out = _text(capsys, ["maxdist", "--n", "300", "--m", "10", "--theta", "0.8", "--rho", "0.6", "--spread", "0.02"])
    assert out == result.to_text() + "\n"
    assert f"mean  {result.mean:.6f}" in out and "rho0=0.6 to a random reference classifier" in out


def test_auc_max(capsys):
    argv = ["auc-max", "--auc", "0.8", "--n", "200", "--m", "5", "--prevalence", "0.3", "--reps", "50", "--seed", "1"]
    result = sotalib.summarize_max_auc(200, 5, 0.8, 0.3, engine="simulate", n_resamples=50, rng=1)
    out = _text(capsys, argv)
    assert out == result.to_text() + "\n"
    assert out.startswith("best AUC of m=5 classifiers, AUC=0.8, n=200 (60 positives, 140 negatives)")
    assert "simulated: 50 challenges, seed 1" in out


def test_auc_max_normal_says_what_a_simulation_would_take():
    result = sotalib.summarize_max_auc(1000, 10**6, 0.8, 0.5, engine="normal")
    # 10^6 classifiers x 500 positives x 1000 challenges at 1e-7 s a score: 50,000 s
    assert result.details["simulation_seconds"] == pytest.approx(10**6 * 500 * 1000 * 1e-7)
    assert "normal approximation (a simulation would take about 13.9 hours;" in result.to_text()


def test_sota(capsys, files):  # noqa: F811
    result = sotalib.estimate_sota(sotalib.read_leaderboard(files["board"]), 2000, rng=0)
    out = _text(capsys, ["sota", "--leaderboard", str(files["board"]), "--n", "2000"])
    assert out == result.to_text() + "\n"
    assert f"  estimate         {result.estimate:.4f}" in out


def test_sota_per_item_says_where_rho_came_from(capsys, tmp_path):
    Y = sotalib.multiplicity.simulate_per_item(1000, THETA, rho=0.6, theta0=0.7, rng=1).outcomes
    path = tmp_path / "items.csv"
    path.write_text(
        "item,"
        + ",".join(f"m{j}" for j in range(Y.shape[1]))
        + "\n"
        + "".join(f"q{i}," + ",".join(str(int(v)) for v in row) + "\n" for i, row in enumerate(Y))
    )
    table = read_per_item(path, missing=True)
    measured = sotalib.estimate_sota(table)
    out = _text(capsys, ["sota", "--per-item", str(path)])
    assert out == measured.to_text() + "\n"
    assert f"rho_0            {measured.details['rho']:.4f} (measured from --per-item)" in out
    given = sotalib.estimate_sota(table, rho=0.5)
    assert "rho_0            0.5000 (given)" in given.to_text()
    assert _text(capsys, ["sota", "--per-item", str(path), "--rho", "0.5"]) == given.to_text() + "\n"


@pytest.mark.parametrize(
    ("argv", "call"),
    [
        (
            ["--p", "100", "--n", "200", "--eps", "1e-4", "--score", "acc=0.8", "--score", "sens=0.7"],
            lambda: sotalib.check_report(100, 200, {"acc": "0.8", "sens": "0.7"}, eps="1e-4"),
        ),
        (
            ["--classes", "30,50,20", "--score", "acc=0.6", "--average", "macro", "--decimals", "2"],
            lambda: sotalib.check_multiclass([30, 50, 20], {"acc": "0.6"}, average="macro", decimals=2),
        ),
        (
            ["--task", "regression", "--n", "10", "--score", "mae=0.5", "--score", "rmse=0.6", "--decimals", "2"],
            lambda: sotalib.check_regression(10, {"mae": "0.5", "rmse": "0.6"}, decimals=2),
        ),
    ],
    ids=["binary", "multiclass", "regression"],
)
def test_check(capsys, argv, call):
    result = call()
    out = _text(capsys, ["check", *argv])
    assert out == result.to_text() + "\n"
    assert out.startswith(("CONSISTENT" if result.consistent else "INCONSISTENT") + ": ")
    assert out.split("\n", 1)[0].endswith(("sens=0.7", "acc=0.6", "rmse=0.6"))  # the scores as typed


def test_testsize(capsys):
    result = sotalib.estimate_test_size(0.1)
    out = _text(capsys, ["testsize", "--error", "0.1"])
    assert out == result.to_text() + "\n" and out.rstrip().endswith("3,458")


def test_rank_and_compare(capsys, files):  # noqa: F811
    t = read_scores(files["scores"])
    ranking = sotalib.rank_candidates(t, "copeland")
    out = _text(capsys, ["rank", "--scores", str(files["scores"]), "--method", "copeland"])
    assert out == ranking.to_text() + "\n"
    assert [line.split()[1] for line in out.splitlines()[1:]] == ranking.ranking
    comparison = sotalib.compare_candidates(t)
    out = _text(capsys, ["compare", "--scores", str(files["scores"])])
    assert out == comparison.to_text() + "\n" and out.startswith("4 candidates on 6 judges")


def test_rank_uncertainty(capsys, files):  # noqa: F811
    f = read_per_item(files["per_item"])
    result = sotalib.estimate_rank_uncertainty(f, n_resamples=200, rng=0)
    out = _text(capsys, ["rank-uncertainty", "--per-item", str(files["per_item"]), "--reps", "200", "--seed", "0"])
    assert out == result.to_text() + "\n"
    assert out.startswith("3 candidates: mean per-item result on 30 items (higher is better); 200 bootstrap")
    b = read_battles(files["battles"])
    result = sotalib.judging.bradley_terry(b.a, b.b, b.winner, n_resamples=100, rng=0)
    out = _text(capsys, ["rank-uncertainty", "--battles", str(files["battles"]), "--reps", "100", "--seed", "0"])
    assert out == result.to_text() + "\n" and "Bradley-Terry ratings (Elo scale) from 18 battles" in out


def test_dependence_with_its_fit(capsys, files):  # noqa: F811
    table = read_per_item(files["per_item"], missing=True)
    dep = sotalib.estimate_dependence(table, n_resamples=0, rng=0)
    fit = sotalib.dependence_fit(table, dependence=dep, rng=0)
    out = _text(capsys, ["dependence", "--per-item", str(files["per_item"]), "--reps", "0", "--fit"])
    assert out == dep.to_text() + "\n" + fit.to_text() + "\n"
    assert f"rho_0            {dep.rho0:.4f}" in out and "  fit: D = " in out


def test_every_command_result_has_its_own_text():
    """The front door's results override the base's generic text."""
    from sotalib._result import Result  # private: the base class whose generic text is overridden

    for name in sotalib.__all__:
        cls = getattr(sotalib, name)
        if isinstance(cls, type) and issubclass(cls, Result) and name != "Leaderboard":
            assert "to_text" in vars(cls), f"{name} prints the base's generic text"
