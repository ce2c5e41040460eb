"""--per-item FILE_OR_FOLDER [--format F] [--outcome NAME] [--filter NAME] [--item-info FILE] in every command that
reads per-item results: the same table as sotalib.read_per_item, bad input one line on stderr and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import sotalib
from sotalib.cli import main
from sotalib.judging import estimate_rank_uncertainty
from sotalib.multiplicity import estimate_dependence

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "data" / "per_item_formats"
HUMANEVAL = ROOT / "data" / "llm" / "eval-arena" / "humaneval+.jsonl.gz"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_dependence_reads_eval_arena_as_the_library_does(capsys):
    code, out, _ = run(capsys, "dependence", "--per-item", HUMANEVAL, "--reps", "30", "--json")
    assert code == 0
    expected = estimate_dependence(sotalib.read_per_item(HUMANEVAL, missing=True), n_resamples=30, rng=0).to_dict()
    assert json.loads(out) == json.loads(json.dumps(expected))
    assert json.loads(out)["n_models"] == 49 and json.loads(out)["n_items"] == 164


def test_rank_uncertainty_with_an_explicit_format(capsys):
    code, out, _ = run(
        capsys, "rank-uncertainty", "--per-item", FIX / "lm_eval", "--filter", "strict-match", "--reps", "20", "--json"
    )
    assert code == 2  # model b lacks document 2: rank-uncertainty needs every cell, and says which
    path = FIX / "inspect"
    argv = ["--per-item", path, "--format", "inspect", "--reps", "20", "--seed", "3", "--json"]
    code, out, _ = run(capsys, "rank-uncertainty", *argv)
    assert code == 0
    expected = estimate_rank_uncertainty(sotalib.read_per_item(path), n_resamples=20, rng=3)
    assert json.loads(out)["candidates"] == json.loads(json.dumps(expected.to_dict()))["candidates"]


def test_sota_per_item_takes_a_folder_and_its_filter(capsys):
    code, _, err = run(capsys, "sota", "--per-item", FIX / "lm_eval", "--json")
    assert code == 2 and "several filters ('flexible-extract', 'strict-match'): name one with --filter" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("command", [["dependence"], ["sota"], ["rank-uncertainty", "--reps", "5"]])
def test_several_stats_refused_naming_the_option(command, capsys):
    code, _, err = run(capsys, *command, "--per-item", FIX / "helm")
    assert code == 2
    assert "per_instance_stats.json: holds several stats ('exact_match'," in err and "name one with --outcome" in err
    assert len(err.strip().splitlines()) == 1


def test_a_bad_line_is_named_with_file_line_and_key(tmp_path, capsys):
    path = tmp_path / "arena.jsonl"
    path.write_text('{"model":"a","example_id":"x","pass1":1}\n{"model":"a","example_id":"y","pass1":"n/a"}\n')
    code, out, err = run(capsys, "dependence", "--per-item", path, "--json")
    assert code == 2
    assert (
        err.strip()
        == f"sotalib dependence: error: {path}, line 2, column \"pass1\": is 'n/a', not a number (an outcome: a number, true or false)"
    )
    assert json.loads(out)["line"] == 2 and json.loads(out)["file"] == str(path)


def test_an_unknown_file_is_one_line_saying_what_was_expected(tmp_path, capsys):
    path = tmp_path / "x.jsonl"
    path.write_text('{"foo": 1}\n')
    code, _, err = run(capsys, "dependence", "--per-item", path)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "expected a wide CSV" in err and str(path) in err


def test_companions_need_per_item(capsys):
    code, _, err = run(capsys, "sota", "--leaderboard", "x.csv", "--n", "100", "--outcome", "acc")
    assert code == 2 and "--outcome needs --per-item" in err
    code, _, err = run(capsys, "rank-uncertainty", "--battles", "x.csv", "--format", "long")
    assert code == 2 and "apply to --per-item, not to --battles" in err
    code, _, err = run(capsys, "dependence", "--per-item", FIX / "long.csv", "--format", "parquet")
    assert code == 2 and "--format" in err


def test_filter_on_a_format_without_filters_is_refused(capsys):
    code, _, err = run(capsys, "dependence", "--per-item", FIX / "inspect", "--filter", "x")
    assert code == 2 and "--filter" in err and "not to inspect files" in err


def test_item_info_is_refused_where_no_item_attribute_is_used(tmp_path, capsys):
    side = tmp_path / "info.csv"
    side.write_text("item,cluster\nT/0,a\nT/1,a\nT/2,b\n")
    for command in (["dependence"], ["rank-uncertainty"]):  # sota uses the items' options (its chance level)
        code, _, err = run(capsys, *command, "--per-item", FIX / "eval_arena.jsonl", "--item-info", side)
        assert code == 2 and "--item-info does not apply to" in err and "uses no item attributes" in err
    # sota reads one item attribute, the number of options (the chance level): a side file without it is refused
    code, _, err = run(capsys, "sota", "--per-item", FIX / "eval_arena.jsonl", "--item-info", side)
    assert code == 2 and "--item-info" in err and "column options" in err and "cluster" in err


def test_format_given_is_said_in_the_refusal(capsys):
    code, _, err = run(capsys, "dependence", "--per-item", FIX / "eval_arena.jsonl", "--format", "helm")
    assert code == 2 and "(read as --format 'helm')" in err and len(err.strip().splitlines()) == 1


def test_the_wide_csv_and_stdin_still_work(tmp_path, capsys, monkeypatch):
    import io
    import sys

    path = tmp_path / "w.csv"
    path.write_text("item,a,b,c\n" + "".join(f"q{i},{i % 2},{(i // 2) % 2},{(i // 3) % 2}\n" for i in range(40)))
    code, out, _ = run(capsys, "dependence", "--per-item", path, "--reps", "0", "--json")
    assert code == 0 and json.loads(out)["n_items"] == 40
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(HUMANEVAL.read_bytes())))
    code, out, _ = run(capsys, "dependence", "--per-item", "-", "--reps", "0", "--json")
    assert code == 0 and json.loads(out)["n_models"] == 49
