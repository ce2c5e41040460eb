"""The book's cached experiments: each has one command, the book lists them, nothing writes on its own."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from sotalib.book import cache


def test_every_cached_file_ships_with_the_package():
    data = resources.files("sotalib.book").joinpath("data")
    for c in cache.CACHES.values():
        assert data.joinpath(c.file).is_file(), c.file


def test_the_landing_page_names_every_cached_experiment_and_its_command(root):
    text = (root / "book" / "intro.md").read_text()
    rows = re.findall(r"^\| `([a-z0-9_]+)` \| (\d) \|", text, re.M)
    assert {name for name, _ in rows} == set(cache.CACHES)
    for name, chapter in rows:
        assert int(chapter) == cache.CACHES[name].chapter, name
    assert "make cache NAME=" in text and "python -m sotalib.book.cache NAME --out sotalib/book/data" in text


def test_the_command_writes_only_where_it_is_told(capsys):
    with pytest.raises(SystemExit) as exc:
        cache.main(["noniid_figure5"])
    assert exc.value.code == 2 and "--out" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cache.main(["no_such_cache", "--out", "x"])
    assert cache.main(["--list"]) == 0
    assert "noniid_figure5" in capsys.readouterr().out
    with pytest.raises(ValueError, match="name must be one of"):
        cache.regenerate("no_such_cache", "x")


def test_loaders_read_without_writing():
    # the exact Figure 5 cache is read when its parameters match, never recomputed or rewritten
    from sotalib.book.ch03_noniid import figure5_cached

    data = figure5_cached()
    assert data["params"]["n"] == 3000 and len(data["spread"]["d"]) == len(data["spread"]["bias"])


@pytest.mark.slow
def test_the_exact_figure5_cache_reproduces(tmp_path):
    # regenerating a cached experiment with the pinned versions gives the committed numbers
    import json

    import numpy as np

    path = cache.regenerate("noniid_figure5", tmp_path)
    new = json.loads(path.read_text())
    old = json.loads(resources.files("sotalib.book").joinpath("data", "noniid_figure5.json").read_text())
    assert new["params"] == old["params"]
    for key in ("bias", "sd"):
        np.testing.assert_allclose(new["spread"][key], old["spread"][key], rtol=0, atol=1e-12)
    for d, curves in old["rho"].items():
        for key, values in curves.items():
            np.testing.assert_allclose(new["rho"][d][key], values, rtol=0, atol=1e-12)
