"""Named test sets: their counts against the vendored sources, and check_report(dataset=...)."""

import csv
from pathlib import Path

import pytest

from sotalib.consistency import DATASETS, check_batch, check_report, get_dataset

DATA = Path(__file__).resolve().parents[2] / "data" / "drive" / "drive_test_pn.csv"
# adapa2020's primary figures as printed (Kovács & Fazekas 2024: consistent with the FoV evaluation under MoS)
ADAPA = {"acc": "0.945", "sens": "0.6994", "spec": "0.9811"}


def test_drive_counts_are_the_vendored_file():
    rows = list(csv.DictReader(DATA.open()))
    for fov, name in (("True", "drive-test-fov"), ("False", "drive-test-all")):
        want = tuple((int(r["p"]), int(r["n"])) for r in sorted(rows, key=lambda r: int(r["id"])) if r["fov"] == fov)
        assert get_dataset(name).folds == want
    # every image has 584 x 565 pixels
    assert all(p + n == 584 * 565 for p, n in get_dataset("drive-test-all").folds)
    assert all(p + n < 584 * 565 for p, n in get_dataset("drive-test-fov").folds)


def test_the_issue_counts():
    assert (get_dataset("tpehg").p, get_dataset("tpehg").n) == (38, 262)
    assert (get_dataset("isic2016-test").p, get_dataset("isic2016-test").n) == (75, 304)
    assert (get_dataset("isic2017-test").p, get_dataset("isic2017-test").n) == (117, 483)
    assert len(get_dataset("drive-test-fov").folds) == 20
    assert get_dataset("DRIVE-test-FOV").name == "drive-test-fov"
    assert set(DATASETS) >= {"drive-test-fov", "drive-test-all", "tpehg", "isic2016-test", "isic2017-test"}


def test_adapa2020_as_the_authors_found():
    fov = check_report(scores=ADAPA, eps=1e-4, dataset="drive-test-fov", aggregation="mos")
    assert fov.consistent and fov.aggregation == "mos"
    assert not check_report(scores=ADAPA, eps=1e-4, dataset="drive-test-all", aggregation="mos").consistent
    both = check_report(scores=ADAPA, eps=1e-4, dataset="drive-test-fov")
    assert both.fits == ["mos"]  # not Score of Means


def test_dataset_equals_explicit_folds():
    folds = get_dataset("drive-test-fov").folds
    a = check_report(scores=ADAPA, eps=1e-4, dataset="drive-test-fov", aggregation="som").to_dict()
    b = check_report(scores=ADAPA, eps=1e-4, folds=folds, aggregation="som").to_dict()
    assert a == b
    s = check_report(scores={"acc": "0.8", "sens": "0.5"}, decimals=4, dataset="isic2016-test").to_dict()
    assert s == check_report(75, 304, {"acc": "0.8", "sens": "0.5"}, decimals=4).to_dict()


def test_single_dataset_takes_k():
    v = check_report(scores={"acc": "0.9", "sens": "0.8"}, decimals=2, dataset="tpehg", k=5, stratified=True)
    w = check_report(38, 262, {"acc": "0.9", "sens": "0.8"}, decimals=2, k=5, stratified=True)
    assert v.to_dict() == w.to_dict()


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(dataset="mnist"), r"^dataset must be one of drive-test-fov"),
        (dict(dataset="tpehg", p=38), r"dataset 'tpehg' fixes the experiment: drop p"),
        (dict(dataset="drive-test-fov", k=5), r"drop k"),
        (dict(dataset="drive-test-all", folds="1:2"), r"drop folds"),
    ],
)
def test_bad_dataset(kwargs, match):
    with pytest.raises(ValueError, match=match):
        check_report(scores={"acc": "0.9"}, eps=1e-4, **kwargs)


def test_batch_dataset_column(tmp_path):
    f = tmp_path / "b.csv"
    f.write_text(
        "id,dataset,aggregation,eps,acc,sens,spec\n"
        "adapa-fov,drive-test-fov,mos,1e-4,0.945,0.6994,0.9811\n"
        "adapa-all,drive-test-all,mos,1e-4,0.945,0.6994,0.9811\n"
        "nope,cifar,mos,1e-4,0.945,0.6994,0.9811\n"
    )
    rows = check_batch(f).reports
    assert [r["verdict"] for r in rows] == ["consistent", "INCONSISTENT", "error"]
    assert "dataset must be one of" in rows[2]["error"]
