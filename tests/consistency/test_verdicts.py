"""One verdict shape: consistent, evidence, configurations_tested, details; JSON-safe to_dict; rng; batch."""

import json

import numpy as np
import pytest

import sotalib
from sotalib.cli import main
from sotalib.consistency import (
    BatchVerdict,
    KFoldMosResult,
    MosResult,
    ReportVerdict,
    SingleResult,
    aggregate_scores,
    check_batch,
    check_mos,
    check_mos_kfold,
    check_report,
    check_single,
    check_som,
    power_oversampling,
    power_typo,
)

TABLE5 = [(100, 201), (100, 200), (100, 200), (101, 200), (101, 200)]
COMMON = ("consistent", "evidence", "configurations_tested", "details")


def _json_roundtrip(d):
    return json.loads(json.dumps(d, allow_nan=False))


def _assert_common(v):
    d = v.to_dict()
    assert list(d)[:4] == list(COMMON)
    for key in COMMON:
        assert hasattr(v, key)
    assert d["consistent"] is bool(v.consistent)
    assert _json_roundtrip(d) == d  # JSON-safe, and already made of JSON types
    return d


def test_front_door_names_are_exported():
    assert sotalib.check_report is check_report and sotalib.check_batch is check_batch
    for name in ("check_report", "check_batch", "ReportVerdict", "BatchVerdict"):
        assert name in sotalib.consistency.__all__


def test_single_verdict_evidence_is_the_solutions():
    r = check_single(40, 70, {"acc": "0.927"}, decimals=3)
    assert isinstance(r, SingleResult)
    d = _assert_common(r)
    # by hand: acc = (tp + tn) / 110 in [0.9265, 0.9275) -> tp + tn = 102, tn <= 70 -> tp in 32..40
    assert r.evidence.tolist() == [[tp, 102 - tp] for tp in range(32, 41)] and len(r.evidence) == r.n_solutions == 9
    assert d["evidence"] == d["solutions"] == r.evidence.tolist()
    assert r.configurations_tested == 1 and d["details"]["n_solutions"] == 9
    assert d["n_solutions"] == 9 and (d["p"], d["n"]) == (40, 70)


def test_single_inconsistent_paper_example_has_no_evidence():
    r = check_single(1000, 6000, {"acc": "0.6801", "npv": "0.9401", "f1": "0.4004"}, eps="1e-4")
    d = _assert_common(r)
    assert r.consistent is False and r.evidence.size == 0 and d["evidence"] == []


def test_score_of_means_has_the_same_shape():
    r = check_som(TABLE5, {"acc": "0.8290", "sens": "0.7390", "spec": "0.8741"}, eps="1e-4")
    assert isinstance(r, SingleResult)
    d = _assert_common(r)
    assert (d["details"]["p"], d["details"]["n"]) == (502, 1001)


def test_mean_of_scores_section_433():
    ok = check_mos(TABLE5, {"acc": 0.8290, "sens": 0.7391, "spec": 0.8741}, eps=1e-4)
    assert isinstance(ok, MosResult)
    d = _assert_common(ok)
    (sol,) = ok.evidence
    assert ok.consistent and d["evidence"] == [[list(x) for x in sol]] and d["solution"] == d["evidence"][0]
    assert aggregate_scores(TABLE5, sol)["acc"][0] == pytest.approx(0.8290, abs=1e-4)
    assert ok.configurations_tested == 1 and d["details"]["status"] == "feasible"
    bad = check_mos(TABLE5, {"acc": 0.8280, "sens": 0.7391, "spec": 0.8741}, eps=1e-4)
    d = _assert_common(bad)
    assert bad.consistent is False and bad.evidence == [] and d["status"] == "infeasible"


def test_kfold_mos_verdict():
    scores = {"acc": "0.9447", "sens": "0.9139", "spec": "0.9733"}
    bad = check_mos_kfold(38, 262, 5, scores, eps="1e-4")
    assert isinstance(bad, KFoldMosResult)
    d = _assert_common(bad)
    assert bad.consistent is False and bad.evidence == [] and d["configurations_tested"] == 918
    good = check_mos_kfold(38, 262, 5, {"acc": "0.9", "sens": "0.8"}, eps="0.05", repeats=2)
    d = _assert_common(good)
    assert good.consistent and len(good.evidence) == 1 and d["details"]["status"] == good.status
    assert d["solution"] == d["evidence"][0] and len(good.evidence[0]) == 2  # per repetition


def test_report_verdict_keeps_the_cli_keys_and_adds_the_common_ones():
    v = check_report(38, 262, {"acc": "0.9447", "sens": "0.9139", "spec": "0.9733"}, k=5, eps="1e-4", aggregation="mos")
    assert isinstance(v, ReportVerdict)
    d = _assert_common(v)
    assert v.consistent is False and v.evidence == d["solutions"] == [] and v.configurations_tested == 918
    for key in ("n_solutions", "solutions", "aggregation", "fits", "suggestions"):
        assert key in d
    v = check_report(1000, 6000, {"acc": "0.6821", "npv": "0.9401", "f1": "0.4004"}, eps="1e-4")
    d = _assert_common(v)
    assert d["evidence"] == d["solutions"] == [[743, 4031], [743, 4032]]
    assert d["details"]["single"]["n_solutions"] == 2


def test_report_verdict_json_with_suggestions_and_unknown_aggregation():
    v = check_report(1000, 6000, {"acc": "0.6801", "npv": "0.9401", "f1": "0.4004"}, eps="1e-4")
    d = _assert_common(v)
    assert v.consistent is False and {s["score"] for s in d["suggestions"]} == {"acc", "npv"}
    v = check_report(
        scores={"acc": "0.9447", "sens": "0.9139", "spec": "0.9733"}, folds="1:101,4:97,40:61,99:2,100:1", eps="1e-4"
    )
    d = _assert_common(v)
    assert set(d["details"]) == {"som", "mos"} and "mos" in d["fits"]


def test_cli_check_json_is_to_dict(capsys):
    argv = [
        "check",
        "--p",
        "1000",
        "--n",
        "6000",
        "--eps",
        "1e-4",
        "--score",
        "acc=0.6821",
        "--score",
        "npv=0.9401",
        "--score",
        "f1=0.4004",
        "--json",
    ]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    v = check_report(1000, 6000, {"acc": "0.6821", "npv": "0.9401", "f1": "0.4004"}, eps="1e-4")
    assert out == _json_roundtrip(v.to_dict())


def test_batch_verdict_equals_cli(tmp_path, capsys):
    f = tmp_path / "reports.csv"
    f.write_text(
        "id,p,n,decimals,acc,npv,f1\n"
        "paper,1000,6000,4,0.6801,0.9401,0.4004\n"
        "fixed,1000,6000,4,0.6821,0.9401,0.4004\n"
        "broken,0,6000,4,0.6821,,\n"
    )
    b = check_batch(str(f))
    assert isinstance(b, BatchVerdict) and len(b) == 3
    d = b.to_dict()
    assert _json_roundtrip(d) == d and list(d) == ["reports"]
    assert [r["verdict"] for r in d["reports"]] == ["INCONSISTENT", "consistent", "error"]
    assert b.consistent == [False, True, None]
    assert "p must be" in d["reports"][2]["error"]
    assert d["reports"][0]["typo"] == "acc 0.6801 -> 0.6821"
    frame = b.to_frame()
    assert list(frame["id"]) == ["paper", "fixed", "broken"] and frame.shape == (3, 7)
    # a row that could not be checked: exit 1, every verdict still printed
    assert main(["check", "--batch", str(f), "--json"]) == 1
    assert json.loads(capsys.readouterr().out) == d
    assert main(["check", "--batch", str(f)]) == 1
    assert capsys.readouterr().out.strip() == b.to_text().strip()
    with pytest.raises(AttributeError):
        b.reports = ()  # frozen


def test_batch_accepts_a_dataframe():
    import pandas as pd

    df = pd.DataFrame({"p": [40], "n": [70], "decimals": [3], "acc": ["0.927"]})
    assert check_batch(df).to_dict()["reports"][0]["n_solutions"] == 9


def test_power_rng_int_equals_generator():
    a = power_typo(30, 60, 3, n_resamples=40, rng=5)
    b = power_typo(30, 60, 3, n_resamples=40, rng=np.random.default_rng(5))
    assert a.power == b.power and a.seed == 5 and b.seed is None
    assert _json_roundtrip(a.to_dict()) == a.to_dict()
    c = power_oversampling(3, n_resamples=3, rng=11)
    d = power_oversampling(3, n_resamples=3, rng=np.random.default_rng(11))
    assert c.power == d.power


@pytest.mark.parametrize("rng", [-1, 1.5, "x"])
def test_power_bad_rng(rng):
    with pytest.raises(ValueError, match="rng"):
        power_typo(30, 60, 3, n_resamples=2, rng=rng)


@pytest.mark.parametrize(
    "kwargs, name",
    [
        (dict(p=0, n=10, eps="0.01"), "p"),
        (dict(p=10, n=10, eps="0.01", repeats=0), "repeats"),
        (dict(p=10, n=10, eps="0.01", k=1), "k"),
        (dict(p=10, n=10, eps="0.01", k=2, aggregation="median"), "aggregation"),
    ],
)
def test_check_report_bad_input_names_the_parameter(kwargs, name):
    with pytest.raises(ValueError, match=name):
        check_report(scores={"acc": "0.5"}, **kwargs)
