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
