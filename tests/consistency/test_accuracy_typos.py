"""The typo finder for an accuracy on n items (issue 34), against a plain brute force in Fraction."""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction

import pytest

from sotalib.consistency import check_report


# --------------------------------------------------------------------------- the brute force
def _candidates(text: str) -> list[Fraction]:
    """Values a mistyped ``text`` may have meant, written out by hand: 1 to 3 units of the last decimal
    either way, one of the last two digits changed, two adjacent digits among the last three swapped."""
    d = len(text.split(".")[1]) if "." in text else 0
    unit = Fraction(1, 10**d)
    digits = text.replace(".", "")
    value = Fraction(text)
    out = {value + j * unit for j in (1, 2, 3)} | {value - j * unit for j in (1, 2, 3)}
    for i in range(len(digits) - 2, len(digits)):
        if i < 0:
            continue
        for new in "0123456789":
            out.add(Fraction(int(digits[:i] + new + digits[i + 1 :])) * unit)
    for i in range(len(digits) - 3, len(digits) - 1):
        if i < 0:
            continue
        swapped = digits[:i] + digits[i + 1] + digits[i] + digits[i + 2 :]
        out.add(Fraction(int(swapped)) * unit)
    out.discard(value)
    return sorted(out, key=lambda c: (abs(c - value), c))


def _fits(share: Fraction, value: Fraction, unit: Fraction, rounding: str) -> bool:
    """Whether the true share prints as ``value`` (closed intervals, as the library reads them)."""
    if rounding == "round":
        return abs(share - value) <= unit / 2
    if rounding == "floor":
        return value <= share <= value + unit
    if rounding == "ceil":
        return value - unit <= share <= value
    return abs(share - value) <= unit


def _expected(text: str, n: int, rounding: str, scale: int) -> Fraction | None:
    """The nearest candidate of ``text`` (a share times ``scale``) that some k/n gives, or None."""
    d = len(text.split(".")[1]) if "." in text else 0
    unit = Fraction(1, 10**d)
    for c in _candidates(text):
        if 0 <= c <= scale and any(_fits(Fraction(k, n) * scale, c, unit, rounding) for k in range(n + 1)):
            return c
    return None


# --------------------------------------------------------------------------- the tests
def test_deepseek_r1_cons64_on_aime_2024():
    """GPT-4o's cons@64 of 13.4 on AIME 2024's 30 problems: 13.3 = 4/30 is one unit of the last decimal away."""
    v = check_report({"acc": "13.4%"}, n_items=30, decimals=1, rounding="round")
    assert not v.consistent
    s = v.suggestions[0]
    assert (s.score, s.reported, s.suggested, s.change, s.typo) == ("acc", 13.4, 13.3, -0.1, "last decimal")
    assert s.example == (4, 30) and s.n_solutions == 1 and s.aggregation == "accuracy"
    assert "or a typo: 13.3% fits (4 of 30)" in v.diagnosis
    assert "the mean of" in v.diagnosis  # min_repeats is still named beside the typo
    d = json.loads(json.dumps(v.to_dict()))
    assert d["suggestions"][0]["suggested"] == 13.3 and d["suggestions"][0]["example"] == [4, 30]
    assert "typo? acc 13.4 -> 13.3 (last decimal, change -0.1)" in v.to_text()
    assert "e.g. 4 of 30" in v.to_text()


def test_no_diagnosis_skips_the_typos():
    v = check_report({"acc": "13.4%"}, n_items=30, decimals=1, rounding="round", diagnosis=False)
    assert not v.consistent and v.suggestions == [] and "typo:" not in v.diagnosis


@pytest.mark.parametrize(
    "scores, kw",
    [
        ({"acc": "13.3%"}, dict(n_items=30)),
        ({"pass@1": "0.6463"}, dict(n_items=164)),
        ({"acc": "0.6493"}, dict(n_items=164, repeats=2)),
        ({"acc": "40%"}, dict(subsets={"a": 3, "b": 2}, subset_scores={"a": "33.3%", "b": "50%"})),
    ],
)
def test_a_consistent_report_has_no_suggestion(scores, kw):
    v = check_report(scores, **kw)
    assert v.consistent and v.suggestions == [] and v.diagnosis == ""


@pytest.mark.parametrize("rounding", ["round", "floor", "ceil", "any"])
def test_against_the_brute_force(rounding):
    rng = random.Random(34)
    seen_some = seen_none = 0
    for _ in range(60):
        n = rng.randint(3, 60)
        percent = rng.random() < 0.5
        d = rng.choice([1, 2]) if percent else rng.choice([2, 3])
        scale = 100 if percent else 1
        text = f"{rng.uniform(0, scale):.{d}f}"
        written = text + ("%" if percent else "")
        v = check_report({"acc": written}, n_items=n, decimals=d, rounding=rounding)
        unit = Fraction(1, 10**d)
        consistent = any(_fits(Fraction(k, n) * scale, Fraction(text), unit, rounding) for k in range(n + 1))
        assert v.consistent == consistent
        if consistent:
            assert v.suggestions == []
            continue
        want = _expected(text, n, rounding, scale)
        if want is None:
            seen_none += 1
            assert v.suggestions == []
            continue
        seen_some += 1
        (s,) = v.suggestions
        assert Fraction(str(s.suggested)) == want, (written, n, rounding)
        k, of = s.example
        assert of == n and _fits(Fraction(k, n) * scale, want, unit, rounding)
    assert seen_some > 0


def test_over_runs_against_the_brute_force():
    """The mean of R runs: the lattice k/(nR), candidates checked the same way."""
    rng = random.Random(7)
    for _ in range(30):
        n, r = rng.randint(3, 20), rng.randint(2, 4)
        text = f"{rng.uniform(0, 1):.3f}"
        v = check_report({"acc": text}, n_items=n, repeats=r, decimals=3, rounding="round")
        if v.consistent:
            continue
        want = _expected(text, n * r, "round", 1)
        assert [Fraction(str(s.suggested)) for s in v.suggestions] == ([] if want is None else [want])
        if want is not None:
            assert v.suggestions[0].example[1] == n * r


def _joint_fits(sizes, whole, parts, unit, rounding) -> bool:
    """Some counts of the subsets give the whole (micro: all items) and each subset's reported share."""
    total = sum(sizes)
    for ks in itertools.product(*(range(m + 1) for m in sizes)):
        if not _fits(Fraction(sum(ks), total), whole, unit, rounding):
            continue
        if all(
            _fits(Fraction(k, m), parts[i], unit, rounding) for i, (k, m) in enumerate(zip(ks, sizes)) if i in parts
        ):
            return True
    return False


def test_a_joint_subset_report_against_the_brute_force():
    """Scores of the whole and of its subsets, checked jointly: each alone may fit, together they do not."""
    sizes = (3, 4)
    subsets = {"a": 3, "b": 4}
    # a = 1/3 (0.33), b = 2/4 (0.50); the whole 3/7 = 0.43, reported 0.48 (a slipped digit)
    scores, parts = {"acc": "0.48"}, {"a": "0.33", "b": "0.50"}
    v = check_report(scores, subsets=subsets, subset_scores=parts, decimals=2, rounding="round")
    assert not v.consistent
    unit = Fraction(1, 100)
    fixes = {}
    texts = {"acc": scores["acc"], "a (subset)": parts["a"], "b (subset)": parts["b"]}
    for name, text in texts.items():
        for c in _candidates(text):
            if not 0 <= c <= 1:
                continue
            vals = {k: Fraction(t) for k, t in texts.items()}
            vals[name] = c
            pv = {0: vals["a (subset)"], 1: vals["b (subset)"]}
            if _joint_fits(sizes, vals["acc"], pv, unit, "round"):
                fixes[name] = c
                break
    got = {s.score: Fraction(str(s.suggested)) for s in v.suggestions}
    assert got == fixes and "acc" in got
    order = [abs(fixes[s.score] - Fraction(texts[s.score])) for s in v.suggestions]
    assert order == sorted(order)  # nearest first
    acc = next(s for s in v.suggestions if s.score == "acc")
    counts, of = acc.example
    assert of == [3, 4] and _fits(Fraction(sum(counts), 7), fixes["acc"], unit, "round")
    assert "a typo: acc" in v.diagnosis


def test_the_command_line_prints_them(capsys):
    from sotalib.cli import main

    code = main(["check", "--items", "30", "--score", "acc=13.4%", "--decimals", "1", "--rounding", "round"])
    out = capsys.readouterr().out
    assert code != 0 or "INCONSISTENT" in out
    assert "typo? acc 13.4 -> 13.3" in out
    main(["check", "--items", "30", "--score", "acc=13.4%", "--decimals", "1", "--rounding", "round", "--json"])
    d = json.loads(capsys.readouterr().out)
    assert d["suggestions"][0]["suggested"] == 13.3 and d["suggestions"][0]["typo"] == "last decimal"


def test_a_batch_row_names_its_typo(tmp_path):
    from sotalib.consistency import check_batch

    f = tmp_path / "rows.csv"
    f.write_text("id,items,decimals,rounding,acc\nvote,30,1,round,13.4%\nfine,30,1,round,13.3%\n")
    rows = check_batch(str(f)).reports
    assert rows[0]["typo"] == "acc 13.4 -> 13.3" and "or a typo: 13.3% fits (4 of 30)" in rows[0]["note"]
    assert rows[1]["typo"] == "" and rows[1]["verdict"] == "consistent"
    assert check_batch(str(f), diagnosis=False).reports[0]["typo"] == ""


def test_pass_at_k_against_the_brute_force():
    """K samples per item scored by pass@k (Chen et al.): the attainable values enumerated over every item's count."""
    from math import comb

    n, big_k, k = 4, 5, 2
    values = {
        sum(Fraction(1) - Fraction(comb(big_k - c, k), comb(big_k, k)) for c in cs) / n
        for cs in itertools.product(range(big_k + 1), repeat=n)
    }
    rng = random.Random(5)
    checked = 0
    for _ in range(40):
        text = f"{rng.uniform(0, 1):.3f}"
        v = check_report({"pass@2": text}, n_items=n, samples=big_k, pass_at=k, decimals=3, rounding="round")
        unit = Fraction(1, 1000)
        assert v.consistent == any(_fits(x, Fraction(text), unit, "round") for x in values)
        if v.consistent:
            continue
        want = next(
            (c for c in _candidates(text) if 0 <= c <= 1 and any(_fits(x, c, unit, "round") for x in values)), None
        )
        assert [Fraction(str(s.suggested)) for s in v.suggestions] == ([] if want is None else [want])
        checked += want is not None
    assert checked > 0


def test_two_scores_of_one_quantity_against_the_brute_force():
    """acc and error_rate share one count: a typo in either is checked with the other."""
    n = 23
    v = check_report({"acc": "0.652", "error_rate": "0.349"}, n_items=n, decimals=3, rounding="round")
    assert not v.consistent
    unit = Fraction(1, 1000)
    texts = {"acc": "0.652", "error_rate": "0.349"}
    want = {}
    for name, text in texts.items():
        other = [t for t in texts if t != name][0]
        for c in _candidates(text):
            vals = {name: c, other: Fraction(texts[other])}
            if 0 <= c <= 1 and any(
                _fits(Fraction(j, n), vals["acc"], unit, "round")
                and _fits(1 - Fraction(j, n), vals["error_rate"], unit, "round")
                for j in range(n + 1)
            ):
                want[name] = c
                break
    assert {s.score: Fraction(str(s.suggested)) for s in v.suggestions} == want and want
