"""``sotalib datasets`` and ``sotalib check --dataset``."""

import json

from sotalib.cli import main


def test_datasets_lists_names_counts_and_sources(capsys):
    assert main(["datasets"]) == 0
    out = capsys.readouterr().out
    for name in ("drive-test-fov", "drive-test-all", "tpehg", "isic2016-test", "isic2017-test"):
        assert name in out
    assert "p=38  n=262" in out and "p=117  n=483" in out and "Kovács" in out
    assert main(["datasets", "--json"]) == 0
    d = {x["name"]: x for x in json.loads(capsys.readouterr().out)["datasets"]}
    assert (d["isic2016-test"]["p"], d["isic2016-test"]["n"]) == (75, 304)
    assert len(d["drive-test-all"]["folds"]) == 20


def test_check_dataset_answers_as_the_authors_did_for_adapa2020(capsys):
    argv = ["check", "--dataset", "drive-test-fov", "--aggregation", "mos", "--score", "acc=0.945"]
    argv += ["--score", "sens=0.6994", "--score", "spec=0.9811", "--eps", "1e-4", "--json"]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["consistent"] is True
    argv[2] = "drive-test-all"
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["consistent"] is False


def test_check_dataset_errors(capsys):
    assert main(["check", "--dataset", "mnist", "--score", "acc=0.9", "--eps", "1e-4"]) == 2
    assert "--dataset must be one of drive-test-fov" in capsys.readouterr().err
    assert main(["check", "--dataset", "tpehg", "--p", "3", "--score", "acc=0.9", "--eps", "1e-4"]) == 2
    assert "fixes the experiment" in capsys.readouterr().err
    # a single test set with k-fold cross-validation of it
    assert main(
        ["check", "--dataset", "tpehg", "--k", "5", "--stratified", "--score", "acc=0.9", "--decimals", "2"]
    ) in (0,)
