"""The commands of issues 33 and 34 on awkward input, as a careful user tries them.

Each test failed before its fix: the input is bad, so the answer is one line on stderr naming
the option or file (exit 2), never a traceback, a bare ``[Errno ...]`` or work thrown away.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sotalib.cli import main


def _run(capsys, argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def _wide(tmp_path: Path) -> Path:
    path = tmp_path / "wide.csv"
    path.write_text("item,A,B,C\nq1,1,0,1\nq2,0,1,1\nq3,1,1,0\nq4,0,0,1\n")
    return path


@pytest.mark.parametrize("target", ["folder", "missing_folder/pairs.jsonl", "proc"])
def test_errorbars_unwritable_pairs_file_names_the_option(tmp_path, capsys, target):
    wide = _wide(tmp_path)
    if target == "folder":
        path = tmp_path / "out"
        path.mkdir()
    elif target == "proc":
        path = Path("/proc/sotalib-pairs.jsonl")
    else:
        path = tmp_path / target
    code, out, err = _run(capsys, ["errorbars", "--per-item", str(wide), "--pairs", "--pairs-file", str(path)])
    assert code == 2, err
    assert out == ""
    assert err.count("\n") == 1
    assert "--pairs-file" in err and str(path) in err
    assert "Errno" not in err and "Traceback" not in err


@pytest.mark.parametrize("value", ["-1", "2", "1.5"])
def test_errorbars_outcome_out_of_range_prints_the_value_as_typed(tmp_path, capsys, value):
    path = tmp_path / "bad.csv"
    path.write_text(f"item,A,B\nq1,1,0\nq2,{value},1\nq3,0,1\n")
    code, out, err = _run(capsys, ["errorbars", "--per-item", str(path)])
    assert code == 2, err
    assert err.count("\n") == 1
    assert "'q2'" in err and "'A'" in err and "[0, 1]" in err
    assert f" is {float(value):g}" in err and "np.float64" not in err


def test_rank_uncertainty_model_missing_an_item_names_the_file_not_a_python_method(tmp_path, capsys):
    lines = [
        f'{{"model": "{m}", "example_id": "T/{i}", "pass1": {i % 2}}}'
        for m in ("m1", "m2")
        for i in range(5)
        if not (m == "m2" and i == 4)
    ]
    path = tmp_path / "arena.jsonl"
    path.write_text("\n".join(lines) + "\n")
    code, out, err = _run(capsys, ["rank-uncertainty", "--per-item", str(path)])
    assert code == 2, err
    assert err.count("\n") == 1
    assert f"--per-item {path}" in err and "'T/4'" in err and "'m2'" in err
    assert ".shared()" not in err and "scores:" not in err


def _sota_board(tmp_path: Path, info_header: str, info_value: str) -> tuple[Path, Path]:
    wide = tmp_path / "wide.csv"
    rows = [f"q{i},{i % 2},{int(i % 3 > 0)},{int(i % 4 > 0)}" for i in range(20)]
    wide.write_text("item,A,B,C\n" + "\n".join(rows) + "\n")
    info = tmp_path / "info.csv"
    info.write_text(f"item,{info_header}\n" + "".join(f"q{i},{info_value}\n" for i in range(20)))
    return wide, info


def test_sota_item_info_without_options_is_refused_not_ignored(tmp_path, capsys):
    wide, info = _sota_board(tmp_path, "cluster", "a")
    code, out, err = _run(capsys, ["sota", "--per-item", str(wide), "--item-info", str(info)])
    assert code == 2, err
    assert err.count("\n") == 1 and f"--item-info {info}" in err and "options" in err


@pytest.mark.parametrize(("option", "text"), [("--difference", "2%"), ("--corr", "nan"), ("--difference", "inf")])
def test_unbounded_number_option_says_finite_number_not_a_range_up_to_inf(capsys, option, text):
    argv = ["testsize", "--difference", "0.02", "--corr", "0.5"]
    argv[argv.index(option) + 1] = text
    code, out, err = _run(capsys, argv)
    assert code == 2, err
    assert err.count("\n") == 1 and f"{option} must be a finite number, got '{text}'" in err
    assert "inf," not in err


@pytest.mark.parametrize("extra", [[], ["--decimals", "2"]])
def test_check_without_a_test_set_asks_for_it_naming_items_and_dataset(capsys, extra):
    """An accuracy reads its decimals from the number written: the missing piece is the experiment, not --decimals."""
    code, out, err = _run(capsys, ["check", "--score", "acc=0.65", *extra])
    assert code == 2, err
    assert err.count("\n") == 1 and "--items" in err and "--dataset" in err and "--p and --n" in err
    assert "--eps" not in err


def test_check_batch_row_without_items_names_the_items_column(tmp_path, capsys):
    path = tmp_path / "reports.csv"
    path.write_text("id,items,acc\nr1,,0.5\nr2,164,0.5\n")
    code, out, err = _run(capsys, ["check", "--batch", str(path), "--json"])
    import json

    rows = json.loads(out)["reports"]
    assert [r["id"] for r in rows] == ["r1", "r2"]
    assert rows[1]["verdict"] == "consistent" and "items" in rows[0]["error"] and "eps" not in rows[0]["error"]


def test_errorbars_pairs_beyond_memory_refused_up_front(tmp_path, capsys, monkeypatch):
    """m(m-1)/2 pairs are kept: too many for the memory limit is one line, before any pair is computed."""
    import sotalib

    monkeypatch.setenv("SOTALIB_MEMORY_LIMIT", "1000000")  # 1 MB: 300 models, 44,850 pairs, do not fit
    path = tmp_path / "many.csv"
    m = 300
    path.write_text("item," + ",".join(f"m{j}" for j in range(m)) + "\n" + f"q0,{','.join(['1'] * m)}\n")
    code, out, err = _run(capsys, ["errorbars", "--per-item", str(path), "--pairs"])
    assert code == 2, err
    assert err.count("\n") == 1 and "--pairs on 300 models (44,850 of them)" in err and "memory" in err
    code, out, err = _run(capsys, ["errorbars", "--per-item", str(path)])  # the summary alone is block by block
    assert code == 0, err
    with pytest.raises(ValueError, match="pairs on 300 models"):
        sotalib.judging.evaluation_noise(sotalib.read_per_item(path), pairs=True)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("arena.jsonl", '{"model":"m1","example_id":"a","pass1":null}\n{"model":"m2","example_id":"a","pass1":1}\n'),
        ("arena_nan.jsonl", '{"model":"m1","example_id":"a","pass1":NaN}\n{"model":"m2","example_id":"a","pass1":1}\n'),
        ("long.csv", "model,item,score\nA,q1,1\nA,q2,0\nm1,q1,\nm1,q2,nan\n"),
        (
            "eee.jsonl",
            '{"model_id":"m1","sample_id":"a","evaluation":{"score":null,"is_correct":null}}\n'
            '{"model_id":"m2","sample_id":"a","evaluation":{"score":1.0,"is_correct":true}}\n',
        ),
    ],
)
def test_a_model_whose_every_result_is_missing_is_listed_not_dropped(tmp_path, capsys, name, text):
    import json

    path = tmp_path / name
    path.write_text(text)
    code, out, err = _run(capsys, ["errorbars", "--per-item", str(path), "--json"])
    assert code == 0, err
    models = {m["model"]: m for m in json.loads(out)["models"]}
    assert "m1" in models and models["m1"]["n_items"] == 0 and models["m1"]["accuracy"] is None


@pytest.mark.parametrize("value", ["1.5", "-0.5"])
def test_eval_arena_pass1_outside_0_1_names_the_line(tmp_path, capsys, value):
    path = tmp_path / "arena.jsonl"
    path.write_text(f'{{"model":"m1","example_id":"a","pass1":1}}\n{{"model":"m2","example_id":"a","pass1":{value}}}\n')
    code, out, err = _run(capsys, ["errorbars", "--per-item", str(path)])
    assert code == 2, err
    assert err.count("\n") == 1 and "line 2" in err and "pass1" in err and "[0, 1]" in err
    assert "squared mean" not in err


def test_long_csv_from_a_spreadsheet_reads_decimal_commas_as_the_wide_one_does(tmp_path, capsys):
    """Semicolons, decimal commas, a byte-order mark, CRLF and empty trailing columns: as a spreadsheet saves it."""
    import json

    sheet = tmp_path / "long_sheet.csv"
    sheet.write_bytes(b"\xef\xbb\xbfmodel;item;score;;\r\nA;q1;0,5;;\r\nA;q2;1;;\r\nB;q1;0;;\r\nB;q2;0,25;;\r\n")
    code, out, err = _run(capsys, ["errorbars", "--per-item", str(sheet), "--json"])
    assert code == 0, err
    acc = {m["model"]: m["accuracy"] for m in json.loads(out)["models"]}
    assert acc == {"A": 0.75, "B": 0.125}
    mixed = tmp_path / "mixed.csv"
    mixed.write_text("model;item;score\nA;q1;0,5\nA;q2;0.25\n")
    code, out, err = _run(capsys, ["errorbars", "--per-item", str(mixed)])
    assert code == 2 and "line 3" in err and "line 2" in err and err.count("\n") == 1


def test_an_inspect_eval_archive_given_as_long_is_named_a_zip_not_empty(capsys):
    path = Path(__file__).parents[1] / "data" / "per_item_formats" / "inspect" / "toy_gpt-4o-mini.eval"
    code, out, err = _run(capsys, ["errorbars", "--per-item", str(path), "--format", "long"])
    assert code == 2, err
    assert err.count("\n") == 1 and "ZIP archive" in err and "is empty" not in err


@pytest.mark.parametrize("format", [[], ["--format", "eval-arena"]])
def test_a_latin1_jsonl_is_named_not_utf8_with_its_byte(tmp_path, capsys, format):
    path = tmp_path / "arena.jsonl"
    path.write_bytes(b'{"model":"m1","example_id":"a","pass1":1}\n{"model":"mod\xe8le","example_id":"a","pass1":1}\n')
    code, out, err = _run(capsys, ["errorbars", "--per-item", str(path), *format])
    assert code == 2, err
    assert err.count("\n") == 1 and "not UTF-8" in err and "0xe8" in err
    assert "none of the per-item formats" not in err and "not a JSON object" not in err


def test_per_item_and_item_info_both_from_stdin_is_refused(capsys, monkeypatch):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"item,A,B\nq1,1,0\nq2,0,1\n")))
    code, out, err = _run(capsys, ["errorbars", "--per-item", "-", "--item-info", "-", "--clusters", "cluster"])
    assert code == 2, err
    assert err.count("\n") == 1 and "--per-item -" in err and "--item-info -" in err and "standard input" in err


def test_check_items_with_a_score_that_needs_classes_names_the_options(capsys):
    code, out, err = _run(capsys, ["check", "--items", "164", "--score", "acc=0.65", "--score", "f1=0.7"])
    assert code == 2, err
    assert err.count("\n") == 1 and "with --items every score" in err and "(it needs --p and --n)" in err


@pytest.mark.parametrize("cell", ["x", "", "inf", "nan"])
def test_item_info_options_not_a_number_names_the_side_file_line(tmp_path, capsys, cell):
    wide, info = _sota_board(tmp_path, "options", "4")
    rows = info.read_text().splitlines()
    rows[4] = "q3," + cell
    info.write_text("\n".join(rows) + "\n")
    code, out, err = _run(capsys, ["sota", "--per-item", str(wide), "--item-info", str(info)])
    assert code == 2, err
    assert err.count("\n") == 1 and f"{info}, line 5" in err and "options" in err and "NaN to integer" not in err


def test_item_info_with_one_option_names_the_side_file_and_the_option(tmp_path, capsys):
    wide, info = _sota_board(tmp_path, "options", "4")
    rows = info.read_text().splitlines()
    rows[4] = "q3,1"
    info.write_text("\n".join(rows) + "\n")
    code, out, err = _run(capsys, ["sota", "--per-item", str(wide), "--item-info", str(info)])
    assert code == 2, err
    assert err.count("\n") == 1 and f"--item-info {info}: options" in err and "'q3'" in err and "--chance 0" in err
    assert "item_info[" not in err


def test_check_batch_help_and_empty_file_name_the_accuracy_columns(tmp_path, capsys):
    path = tmp_path / "empty.csv"
    path.write_text("")
    code, out, err = _run(capsys, ["check", "--batch", str(path)])
    assert code == 2 and "items" in err and "dataset" in err
    assert main(["check", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    batch = text[text.index("--batch FILE.csv check every row") :]
    for column in ("items", "dataset", "samples", "pass_at", "average"):
        assert column in batch[:600], column


def test_a_folder_of_lm_eval_results_without_samples_says_log_samples(tmp_path, capsys):
    run = tmp_path / "runs" / "org__model-a"
    run.mkdir(parents=True)
    (run / "results_2025-01-02T10-00-00.json").write_text('{"results": {"gsm8k": {"exact_match,strict-match": 0.5}}}')
    code, out, err = _run(capsys, ["errorbars", "--per-item", str(tmp_path / "runs")])
    assert code == 2, err
    assert err.count("\n") == 1 and "--log_samples" in err


def test_a_stray_latin1_csv_in_a_folder_of_runs_does_not_stop_it(tmp_path, capsys):
    folder = tmp_path / "runs"
    folder.mkdir()
    (folder / "arena.jsonl").write_text(
        '{"model":"m1","example_id":"a","pass1":1}\n{"model":"m2","example_id":"a","pass1":0}\n'
    )
    (folder / "notes.csv").write_bytes("item,Modèle\nq1,1\n".encode("latin-1"))
    code, out, err = _run(capsys, ["errorbars", "--per-item", str(folder)])
    assert code == 0, err
