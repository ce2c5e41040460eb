"""``check_batch`` on accuracies of n items: the columns, one verdict per row against brute force, and errors.

The brute force: an accuracy written with ``d`` decimals, of unknown rounding (round, floor or ceil),
can be a share of ``n R`` item-runs when ``|k/(n R) - v| <= 10^-d`` for some count ``k`` (the closed
windows of every rounding convention, as ``sotalib.consistency._intervals`` states them), searched
count by count in rational arithmetic.
"""

from __future__ import annotations

import io
import json
import random
from fractions import Fraction

import pytest

from sotalib.cli import main
from sotalib.consistency import benchmark, check_batch, check_report


def _table(rows: list[dict], columns: tuple[str, ...]) -> io.StringIO:
    lines = [",".join(columns)] + [",".join(str(r.get(c, "")) for c in columns) for r in rows]
    return io.StringIO("\n".join(lines) + "\n")


def _share(text: str) -> tuple[Fraction, Fraction]:
    """(value, unit of the last digit) of a share written as ``0.649`` or ``64.9%``."""
    percent = text.endswith("%")
    body = text.rstrip("%")
    decimals = len(body.split(".")[1]) if "." in body else 0
    scale = 100 if percent else 1
    return Fraction(body) / scale, Fraction(1, 10**decimals) / scale


def _fits(n: int, repeats: int, value: Fraction, unit: Fraction) -> bool:
    """Some count k of n R with |k/(n R) - value| <= unit."""
    total = n * repeats
    return any(abs(Fraction(k, total) - value) <= unit for k in range(total + 1))


def _min_repeats(n: int, value: Fraction, unit: Fraction) -> int | None:
    """The smallest R in 1..100 that fits, searched plainly (None: none)."""
    for r in range(1, 101):
        if _fits(n, r, value, unit):
            return r
    return None


def _random_rows(count: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    rows = []
    for i in range(count):
        n = rng.choice((7, 12, 30, 40, 164))
        repeats = rng.choice((1, 1, 2, 3))
        decimals = rng.choice((1, 2, 3))
        if rng.random() < 0.5:
            k = rng.randint(0, n * repeats)
            x = k / (n * repeats) + rng.choice((0, 0, 0.004, -0.003))
        else:
            x = rng.random()
        x = min(max(x, 0.0), 1.0)
        if rng.random() < 0.5:
            acc = f"{100 * x:.{decimals}f}%"
        else:
            acc = f"{x:.{decimals + 2}f}"
        rows.append({"id": f"r{i}", "items": n, "repeats": repeats if repeats > 1 else "", "acc": acc})
    return rows


def test_every_row_against_brute_force():
    rows = _random_rows(300, seed=1)
    verdicts = check_batch(_table(rows, ("id", "items", "repeats", "acc"))).reports
    assert [v["id"] for v in verdicts] == [r["id"] for r in rows]
    for r, v in zip(rows, verdicts):
        value, unit = _share(r["acc"])
        want = _fits(r["items"], r["repeats"] or 1, value, unit)
        assert v["verdict"] == ("consistent" if want else "INCONSISTENT"), (r, v)
        if not r["repeats"]:
            assert v["min_repeats"] == _min_repeats(r["items"], value, unit), (r, v)
            if v["min_repeats"] is not None:
                ex = v["example"]
                assert ex["repeats"] == v["min_repeats"] and ex["of"] == r["items"] * v["min_repeats"]
                assert abs(Fraction(ex["counts"], ex["of"]) - value) <= unit
    assert {v["verdict"] for v in verdicts} == {"consistent", "INCONSISTENT"}


def test_named_benchmarks_and_samples_as_the_single_check():
    rows = [
        {"id": "he", "dataset": "humaneval", "acc": "0.6493"},
        {"id": "he+", "dataset": "HumanEval+", "acc": "64.63%"},
        {"id": "gpqa", "dataset": "gpqa-diamond", "decimals": 1, "acc": "50.5%"},
        {"id": "aime", "dataset": "aime-2024", "repeats": 4, "acc": "0.7417"},
        {"id": "k", "items": 164, "samples": 10, "pass_at": 1, "acc": "0.6494"},
        {"id": "k5", "items": 30, "samples": 5, "pass_at": 2, "acc": "0.4667"},
        {"id": "mmlu", "dataset": "mmlu", "average": "macro", "acc": "0.7"},
        {"id": "swe", "dataset": "swe-bench-verified", "acc": "0.651"},
    ]
    columns = ("id", "dataset", "items", "decimals", "repeats", "samples", "pass_at", "average", "acc")
    verdicts = check_batch(_table(rows, columns)).reports
    for r, v in zip(rows, verdicts):
        opts = {c: r[c] for c in ("dataset", "decimals", "repeats", "samples", "pass_at", "average") if c in r}
        if "items" in r:
            opts["n_items"] = r["items"]
        single = check_report({"acc": r["acc"]}, **opts)
        assert v["verdict"] == ("consistent" if single.consistent else "INCONSISTENT"), r
        assert v["min_repeats"] == single.min_repeats and v["example"] == single.example
        assert v["n_solutions"] == single.n_solutions
    by = {v["id"]: v for v in verdicts}
    assert by["he"]["verdict"] == "INCONSISTENT" and by["he"]["min_repeats"] == 2  # 0.6493 is no k/164
    assert by["he+"]["verdict"] == "consistent"  # 106/164 = 64.63%
    assert "2" in by["he"]["note"]


def test_columns_any_share_name_and_aliases():
    table = io.StringIO("ID,N_Items,Pass@1,resolved\na,164,0.6463,\nb,500,,0.6512\n")
    v = check_batch(table).reports
    assert [r["verdict"] for r in v] == ["consistent", "INCONSISTENT"]  # 0.6512 is no k/500 at 4 decimals
    # a table of positives and negatives still refuses an unknown column, naming it
    with pytest.raises(ValueError, match="unknown column.*'pass@1'"):
        check_batch(io.StringIO("p,n,eps,pass@1\n10,20,1e-4,0.5\n"))
    with pytest.raises(ValueError, match="unknown column"):
        check_batch(io.StringIO("dataset,eps,pass@1\ntpehg,1e-4,0.5\n"))
    # items alone is an experiment
    assert check_batch(io.StringIO("items,acc\n10,0.3\n")).reports[0]["verdict"] == "consistent"


BAD = {
    "items0": ({"items": 0, "acc": "0.5"}, "column items"),
    "itemsx": ({"items": "many", "acc": "0.5"}, "column items"),
    "repeats0": ({"items": 10, "repeats": 0, "acc": "0.5"}, "column repeats"),
    "passat": ({"items": 10, "samples": 1, "pass_at": 5, "acc": "0.5"}, "pass_at"),
    "typo": ({"dataset": "humaneva", "acc": "0.5"}, "humaneval"),
    "clash": ({"dataset": "gsm8k", "items": 100, "acc": "0.5"}, "drop items"),
    "over": ({"items": 10, "acc": "120%"}, "acc"),
    "empty": ({"items": 10}, "no score"),
}


def test_a_bad_row_never_costs_another_row_its_verdict():
    good = _random_rows(20, seed=7)
    columns = ("id", "dataset", "items", "repeats", "samples", "pass_at", "acc")
    alone = check_batch(_table(good, columns)).reports
    mixed_rows: list[dict] = []
    for j, r in enumerate(good):
        mixed_rows.append(r)
        if j < len(BAD):
            name, (row, _) = list(BAD.items())[j]
            mixed_rows.append({"id": name, **row})
    mixed = check_batch(_table(mixed_rows, columns)).reports
    assert len(mixed) == len(mixed_rows)
    by = {v["id"]: v for v in mixed}
    for r, v in zip(good, alone):
        assert by[r["id"]]["verdict"] == v["verdict"] != "error"
        assert by[r["id"]]["min_repeats"] == v["min_repeats"]
    for name, (_, words) in BAD.items():
        assert by[name]["verdict"] == "error", name
        assert words in by[name]["error"], (name, by[name]["error"])
        assert by[name]["min_repeats"] is None


def test_many_rows_one_verdict_each_in_order():
    rows = _random_rows(1000, seed=3)
    rows[500]["items"] = -1  # one bad row in the middle
    verdicts = check_batch(_table(rows, ("id", "items", "repeats", "acc"))).reports
    assert [v["id"] for v in verdicts] == [r["id"] for r in rows]
    assert [v["row"] for v in verdicts] == list(range(1, 1001))
    assert sum(v["verdict"] == "error" for v in verdicts) == 1 and verdicts[500]["verdict"] == "error"


def test_cli_batch_json(tmp_path, capsys):
    path = tmp_path / "scores.csv"
    n = benchmark("gsm8k").n_items
    path.write_text(f"id,dataset,items,decimals,acc\nm1,gsm8k,,1,{100 * 1000 / n:.1f}%\nm2,,{n},1,12.3%\n")
    assert main(["check", "--batch", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)["reports"]
    assert [r["verdict"] for r in out] == ["consistent", "consistent"]
    assert all({"min_repeats", "example"} <= set(r) for r in out)
    path.write_text("id,dataset,acc\nm1,gsm8k,0.5\nm2,gsm8kk,0.5\n")
    assert main(["check", "--batch", str(path), "--json"]) == 1  # a row could not be checked
    out = json.loads(capsys.readouterr().out)["reports"]
    assert out[0]["verdict"] == "consistent" and out[1]["verdict"] == "error" and "gsm8k" in out[1]["error"]


def test_text_shows_the_fewest_runs_only_for_accuracies():
    text = check_batch(io.StringIO("id,dataset,pass@1\nA,humaneval,0.6493\nB,humaneval,0.6463\n")).to_text()
    head, a, b = text.splitlines()[:3]
    assert head.split()[-2:] == ["fewest", "runs"]
    assert a.split()[-1] == "2" and b.split()[-1] == "1"
    plain = check_batch(io.StringIO("p,n,eps,acc\n10,20,1e-4,0.5\n")).to_text()
    assert "fewest runs" not in plain


def test_frame_has_the_runs_of_accuracies():
    frame = check_batch(io.StringIO("id,items,acc\nA,164,0.6493\nB,164,0.6463\n")).to_frame()
    assert list(frame["min_repeats"]) == [2, 1]
    assert frame.loc[0, "example"] == {"repeats": 2, "counts": 213, "of": 328}
    assert "min_repeats" not in check_batch(io.StringIO("p,n,eps,acc\n10,20,1e-4,0.5\n")).to_frame()
