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
