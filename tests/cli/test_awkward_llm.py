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
