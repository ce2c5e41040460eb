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
    rows = re.findall(r"^\| `([a-z0-9_]+)` \| (\d) \|.*\| `make cache NAME=([a-z0-9_]+)` \|$", text, re.M)
    assert {r[0] for r in rows} == set(cache.CACHES)
    for name, chapter, again in rows:
        assert again == name and int(chapter) == cache.CACHES[name].chapter


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


def test_loaders_read_without_writing(tmp_path):
    # the exact Figure 5 cache is read when its parameters match, never recomputed or rewritten
    from sotalib.book.noniid_paper import figure5_cached

    data = figure5_cached()
    assert data["params"]["n"] == 3000 and len(data["spread"]["d"]) == len(data["spread"]["bias"])
