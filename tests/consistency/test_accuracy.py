"""An accuracy on n items (sotalib.consistency._accuracy through check_report): every lattice against brute force."""

from __future__ import annotations

import itertools
import math
import random
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sotalib.consistency import check_report

# private: the lattices themselves (every attainable value, the per-item values of pass@k) are compared with brute force
from sotalib.consistency._accuracy import MAX_MIN_REPEATS, lattice, pass_at_k_values


def _decimal(x: Fraction, d: int) -> str:
    """``x`` rounded half up to ``d`` decimals, exactly (no float)."""
    with localcontext() as ctx:
        ctx.prec = 60
        q = (Decimal(x.numerator) / Decimal(x.denominator)).quantize(Decimal(1).scaleb(-d), rounding=ROUND_HALF_UP)
    return f"{q:.{d}f}"


def _within(x: Fraction, v: str, d: int, how: str) -> bool:
    """Whether the true value ``x`` could be written ``v`` with ``d`` decimals (round half either way, or any)."""
    u = Fraction(1, 10**d)
    val = Fraction(v)
    if how == "round":
        return abs(x - val) <= u / 2
    return abs(x - val) <= u  # 'any': round, floor or ceil


def _pass_at_k(c: int, K: int, k: int) -> Fraction:
    """Chen et al. (2021), Eq. 1, for one item: 1 - C(K - c, k) / C(K, k)."""
    return 1 - Fraction(math.comb(K - c, k), math.comb(K, k))


# --------------------------------------------------------------------------- runs
@pytest.mark.parametrize("how", ["round", "any"])
def test_runs_lattice_against_every_count(how):
    rng = random.Random(1)
    for _ in range(300):
        n, R, d = rng.randint(1, 15), rng.randint(1, 4), rng.randint(1, 3)
        v = f"{rng.randint(0, 10**d) / 10**d:.{d}f}"
        fits = [k for k in range(n * R + 1) if _within(Fraction(k, n * R), v, d, how)]
        r = check_report({"acc": v}, n_items=n, repeats=R, decimals=d, rounding=how)
        assert r.consistent == bool(fits), (n, R, v)
        assert r.evidence == fits
        assert r.n_solutions == len(fits)


def test_min_repeats_against_a_plain_search():
    rng = random.Random(2)
    for _ in range(120):
        n, d = rng.randint(1, 40), rng.randint(2, 4)
        v = f"{rng.randint(0, 10**d) / 10**d:.{d}f}"
        plain = None
        for R in range(1, MAX_MIN_REPEATS + 1):
            ks = [k for k in range(n * R + 1) if _within(Fraction(k, n * R), v, d, "round")]
            if ks:
                plain = (R, ks[0])
                break
        r = check_report({"acc": v}, n_items=n, decimals=d, rounding="round")
        if plain is None:
            assert r.min_repeats is None and r.example is None
        else:
            assert r.min_repeats == plain[0]
            assert r.example == {"repeats": plain[0], "counts": plain[1], "of": n * plain[0]}


def test_humaneval_example_and_json():
    r = check_report({"pass@1": "0.6493"}, n_items=164)
    assert not r.consistent and r.evidence == []
    assert r.min_repeats == 2 and r.example == {"repeats": 2, "counts": 213, "of": 328}
    d = r.to_dict()
    assert d["verdict"] == "inconsistent" and d["min_repeats"] == 2 and d["example"]["of"] == 328
    # the diagnosis speaks of one score, not of several disagreeing
    assert r.diagnosis.startswith("0.6493 is not k/164 for any k (the nearest are 106/164")
    assert "at least two" not in r.diagnosis and "not one run" in r.diagnosis
    assert "mean of 2 runs" in r.to_text()


def test_percent_strings_and_decimals_written():
    a = check_report({"acc": "64.63%"}, n_items=164)
    b = check_report({"acc": "0.6463"}, n_items=164)
    assert a.consistent and a.evidence == b.evidence == [106]
    # decimals counts the digits written: 64.6% has one
    c = check_report({"acc": "64.6%"}, n_items=164, decimals=1, rounding="round")
    assert c.evidence == [k for k in range(165) if _within(Fraction(k, 164), "0.646", 3, "round")]
    with pytest.raises(ValueError, match="more decimals"):
        check_report({"acc": "64.63%"}, n_items=164, decimals=1)
    with pytest.raises(ValueError, match=r"in \[0, 1\]"):
        check_report({"acc": "164%"}, n_items=164)


def test_rounding_convention_never_makes_it_inconsistent():
    # 107/164 = 0.65243...: floored to 0.6524, but also "0.6525" is its ceiling; 'any' (the default) accepts both
    assert check_report({"acc": "0.6525"}, n_items=164).consistent
    assert not check_report({"acc": "0.6525"}, n_items=164, decimals=4, rounding="round").consistent
    assert check_report({"acc": "0.6525"}, n_items=164, decimals=4, rounding="ceil").consistent


def test_complement_shares_the_count_and_other_names_are_other_quantities():
    assert check_report({"acc": "0.6463", "error_rate": "0.3537"}, n_items=164).consistent
    r = check_report({"acc": "0.6463", "error_rate": "0.3476"}, n_items=164)
    assert not r.consistent and "fit no single count together" in r.diagnosis
    r = check_report({"acc": "0.6463", "exact_match": "0.5"}, n_items=164, eps="1e-4")
    assert r.consistent and r.evidence == [[106, 82]]
    r = check_report({"acc": "0.6493", "exact_match": "0.5"}, n_items=164, eps="1e-4")
    assert not r.consistent
    assert r.diagnosis.startswith("acc=0.6493 is not k/164") and "exact_match" not in r.diagnosis
    with pytest.raises(ValueError, match="sens.*not"):
        check_report({"sens": "0.5"}, n_items=10)


# --------------------------------------------------------------------------- pass@k
@pytest.mark.parametrize(("n", "K", "k"), [(1, 5, 2), (2, 4, 2), (3, 5, 3), (3, 6, 2), (4, 3, 2), (2, 7, 7), (3, 4, 1)])
def test_pass_at_k_attainable_values_against_every_count(n, K, k):
    brute = {
        sum((_pass_at_k(c, K, k) for c in cs), Fraction(0)) / n
        for cs in itertools.product(range(K + 1), repeat=n)  # every per-item number of correct samples
    }
    lat = lattice(n, samples=K, pass_at=k)
    assert {lat.value(s) for s in lat.members(0, lat.den)} == brute
    for s in lat.members(0, lat.den):  # each witness is a histogram of per-item counts giving that value
        hist = lat.witness(s)
        if k == 1:  # pass@1: the number of correct samples of n K
            assert hist == s and lat.den == n * K
            continue
        assert sum(hist) == n and sum(m * _pass_at_k(c, K, k) for c, m in enumerate(hist)) / n == lat.value(s)


def test_pass_at_k_values_are_chen_et_al():
    K, k = 10, 3
    total = math.comb(K, k)
    assert [Fraction(v, total) for v in pass_at_k_values(K, k)] == [_pass_at_k(c, K, k) for c in range(K + 1)]


def test_pass_at_k_reports_against_brute_force():
    rng = random.Random(3)
    n, K, k = 3, 5, 2
    brute = sorted(
        {sum((_pass_at_k(c, K, k) for c in cs), Fraction(0)) / n for cs in itertools.product(range(6), repeat=n)}
    )
    for _ in range(100):
        v = f"{rng.random():.3f}"
        expect = any(_within(x, v, 3, "any") for x in brute)
        assert check_report({"pass@2": v}, n_items=n, samples=K, pass_at=k).consistent == expect, v


def test_pass_at_1_is_the_lattice_of_correct_samples():
    r = check_report({"pass@1": "0.55"}, n_items=4, samples=5, decimals=2, rounding="round")
    assert r.evidence == [11] and r.min_repeats is None  # 11 of 20 samples; no runs searched with samples


def test_pass_at_k_beyond_the_bound_is_refused():
    with pytest.raises(ValueError, match="not decided"):
        check_report({"pass@10": "0.5"}, n_items=14_042, samples=200, pass_at=10)


# --------------------------------------------------------------------------- subsets
def _macro_brute(sizes, R=1):
    return {
        sum((Fraction(k, n * R) for k, n in zip(ks, sizes)), Fraction(0)) / len(sizes): ks
        for ks in itertools.product(*(range(n * R + 1) for n in sizes))
    }


@pytest.mark.parametrize("sizes", [(3, 4), (2, 3, 5), (1, 6, 7), (4, 4, 9)])
def test_macro_average_against_every_count(sizes):
    rng = random.Random(sum(sizes))
    brute = _macro_brute(sizes)
    subsets = {f"s{i}": n for i, n in enumerate(sizes)}
    for _ in range(60):
        v = f"{rng.random():.3f}"
        fits = sorted(x for x in brute if _within(x, v, 3, "round"))
        r = check_report({"acc": v}, subsets=subsets, average="macro", decimals=3, rounding="round")
        assert r.consistent == bool(fits), v
        assert r.n_solutions == len(fits)
        for ks in r.evidence:  # every witness gives the value
            assert sum(Fraction(k, n) for k, n in zip(ks, sizes)) / len(sizes) in fits


def test_macro_average_with_runs_against_every_count():
    sizes, R = (2, 3), 2
    brute = _macro_brute(sizes, R)
    for v in ("0.42", "0.43", "0.58", "0.71", "0.79"):
        fits = [x for x in brute if _within(x, v, 2, "round")]
        r = check_report({"acc": v}, subsets={"a": 2, "b": 3}, average="macro", repeats=R, decimals=2, rounding="round")
        assert r.consistent == bool(fits), v


def test_joint_subset_scores_against_every_count():
    sizes = {"a": 4, "b": 5, "c": 3}
    rng = random.Random(5)
    for _ in range(80):
        whole = f"{rng.random():.2f}"
        sub = {name: f"{rng.random():.1f}" for name in rng.sample(list(sizes), 2)}
        for average in ("micro", "macro"):
            fits = []
            for ks in itertools.product(*(range(n + 1) for n in sizes.values())):
                counts = dict(zip(sizes, ks))
                if average == "micro":
                    x = Fraction(sum(ks), sum(sizes.values()))
                else:
                    x = sum((Fraction(counts[s], sizes[s]) for s in sizes), Fraction(0)) / len(sizes)
                if _within(x, whole, 2, "any") and all(
                    _within(Fraction(counts[s], sizes[s]), v, 1, "any") for s, v in sub.items()
                ):
                    fits.append(ks)
            r = check_report({"acc": whole}, subsets=sizes, subset_scores=sub, average=average)
            assert r.consistent == bool(fits), (whole, sub, average)
            for ks in r.evidence:
                assert tuple(ks) in fits


def test_joint_diagnosis_names_the_subset_or_says_they_disagree():
    sizes = {"a": 3, "b": 4}
    r = check_report({"acc": "0.5"}, subsets=sizes, subset_scores={"a": "0.5"}, decimals=1, rounding="round")
    assert not r.consistent and r.diagnosis.startswith("subset a: a=0.5 is not k/3")
    # each alone fits: 0.25 of b (1/4) and 0.4 overall (3/7 = 0.43 needs a=2, b=1: 2/3 of a is not 0.0)
    r = check_report({"acc": "0.43"}, subsets=sizes, subset_scores={"a": "0.00", "b": "0.25"}, decimals=2)
    assert not r.consistent and "each score fits alone" in r.diagnosis


def test_macro_beyond_the_bound_is_searched_then_refused():
    rng = random.Random(7)
    sizes = {f"s{i}": rng.randint(100, 400) for i in range(30)}  # lcm of the sizes: far beyond any table
    counts = {s: rng.randint(0, n) for s, n in sizes.items()}
    true = sum((Fraction(counts[s], n) for s, n in sizes.items()), Fraction(0)) / len(sizes)
    r = check_report({"acc": _decimal(true, 4)}, subsets=sizes, average="macro", decimals=4, rounding="round")
    assert r.consistent and r.details["accuracy"]["n_solutions_counted"] is False
    ks = r.evidence[0]
    assert abs(
        sum(Fraction(k, n) for k, n in zip(ks, sizes.values())) / len(sizes) - Fraction(_decimal(true, 4))
    ) <= Fraction(1, 20000)
    # every subset pinned to its count: a whole off by 0.003 is impossible, decided at once by the bounds
    sub = {s: _decimal(Fraction(counts[s], n), 12) for s, n in sizes.items()}
    wrong = _decimal(true + Fraction(3, 1000), 4)
    r = check_report({"acc": wrong}, subsets=sizes, subset_scores=sub, average="macro", eps="1e-9")
    assert not r.consistent
    # all but the two largest pinned, the whole to 1e-9: the pinned are constants, the two decided exactly
    free = sorted(sizes, key=sizes.get)[-2:]
    pinned = {s: v for s, v in sub.items() if s not in free}
    rest = sum((Fraction(counts[s], sizes[s]) for s in pinned), Fraction(0))
    a, b = (sizes[s] for s in free)
    for target in (true + Fraction(1, 1000), true):
        text = _decimal(target, 12)
        brute = any(
            abs((rest + Fraction(i, a) + Fraction(j, b)) / len(sizes) - Fraction(text)) <= Fraction(1, 10**9)
            for i in range(a + 1)
            for j in range(b + 1)
        )
        r = check_report({"acc": text}, subsets=sizes, subset_scores=pinned, average="macro", eps="1e-9")
        assert r.consistent == brute and r.details["accuracy"]["n_solutions_counted"]
    # nothing pinned and the whole to 1e-15: no search finds counts, and nothing is guessed
    with pytest.raises(ValueError, match="never guessed"):
        check_report({"acc": "0.512345678901234"}, subsets=sizes, average="macro", eps="1e-15")


# --------------------------------------------------------------------------- properties
@settings(max_examples=200, deadline=None)
@given(
    n=st.integers(1, 2000),
    frac=st.fractions(0, 1),
    R=st.integers(1, 5),
    d=st.integers(1, 5),
    percent=st.booleans(),
)
def test_a_value_from_a_real_count_is_consistent(n, frac, R, d, percent):
    k = math.floor(frac * n * R)
    x = Fraction(k, n * R)
    text = _decimal(x * 100, d) + "%" if percent else _decimal(x, d)
    r = check_report({"acc": text}, n_items=n, repeats=R, decimals=d, rounding="round")
    assert r.consistent and k in r.evidence or len(r.evidence) == 100
    assert r.min_repeats is not None and r.min_repeats <= R


@settings(max_examples=60, deadline=None)
@given(cs=st.lists(st.integers(0, 6), min_size=1, max_size=30), k=st.integers(1, 6), d=st.integers(2, 6))
def test_a_pass_at_k_from_real_samples_is_consistent(cs, k, d):
    K = 6
    x = sum((_pass_at_k(c, K, k) for c in cs), Fraction(0)) / len(cs)
    assert check_report({"pass@k": _decimal(x, d)}, n_items=len(cs), samples=K, pass_at=k, decimals=d).consistent


@settings(max_examples=40, deadline=None)
@given(sizes=st.lists(st.integers(1, 40), min_size=1, max_size=6), data=st.data())
def test_a_macro_average_from_real_counts_is_consistent(sizes, data):
    ks = [data.draw(st.integers(0, n)) for n in sizes]
    x = sum((Fraction(k, n) for k, n in zip(ks, sizes)), Fraction(0)) / len(sizes)
    subsets = {f"s{i}": n for i, n in enumerate(sizes)}
    assert check_report({"acc": _decimal(x, 4)}, subsets=subsets, average="macro", decimals=4).consistent


# --------------------------------------------------------------------------- input
@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n_items": 10, "repeats": 0}, "repeats must be an integer in"),
        ({"n_items": 10, "samples": 1, "pass_at": 5}, r"pass_at must be an integer in \[1, samples=1\]"),
        ({"n_items": 10, "pass_at": 2}, "pass_at needs samples"),
        ({"n_items": 10, "samples": 3, "repeats": 2}, "repeats.*or samples"),
        ({"n_items": 10, "p": 3}, "p does not apply to an accuracy on a number of items"),
        ({"n_items": 10, "k": 5}, "k does not apply"),
        ({"n_items": 10, "average": "macro"}, "average='macro' needs subsets"),
        ({"n_items": 10, "subset_scores": {"a": "0.5"}}, "subset_scores needs subsets"),
        ({"subsets": {"alpha": 3, "beta": 4}, "subset_scores": {"alpah": "0.5"}}, "did you mean alpha"),
        ({"subsets": {"a": 3}, "n_items": 4}, "subsets hold 3 items"),
        ({"dataset": "tpehg", "n_items": 4}, "is a test set of positives and negatives"),
        ({"n_items": 0}, "n_items must be an integer"),
        ({"n_items": 10, "average": "weighted"}, "average"),
    ],
)
def test_bad_input_names_the_parameter(kwargs, match):
    with pytest.raises(ValueError, match=match):
        check_report({"acc": "0.5"}, **kwargs)


def test_scores_come_first_only_for_an_accuracy():
    assert check_report(scores={"acc": "0.5"}, n_items=10).consistent
    with pytest.raises(ValueError, match="the scores come third"):
        check_report({"acc": "0.5"}, p=5, n=5, decimals=1)
    assert check_report(5, 5, {"acc": "0.5"}, decimals=1).consistent  # the binary report is unchanged


def test_scores_named_pass_at_k_take_their_k_and_each_is_decided_alone():
    # 20 items, 10 samples: pass@1 is k/200; pass@5 has its own lattice
    r = check_report({"pass@1": "0.515", "pass@5": "0.6493"}, n_items=20, samples=10)
    assert r.consistent and r.evidence[0][0] == 103 and sum(r.evidence[0][1]) == 20
    r5 = check_report({"pass@5": "0.6493"}, n_items=20, samples=10, pass_at=5)
    assert r5.evidence == [w[1] for w in r.evidence][: len(r5.evidence)]
    with pytest.raises(ValueError, match="names pass@5 but pass_at=3"):
        check_report({"pass@5": "0.6493"}, n_items=20, samples=10, pass_at=3)


def test_which_rounding_conventions_fit():
    r = check_report({"acc": "0.6525"}, n_items=164)  # 107/164 = 0.65243...: only its ceiling is 0.6525
    assert r.details["accuracy"]["roundings"] == ["ceil"] and "fits only if" in r.to_text()
    assert check_report({"acc": "0.6524"}, n_items=164).details["accuracy"]["roundings"] == ["round", "floor"]
    assert check_report({"acc": "0.6524"}, n_items=164, eps="1e-4").details["accuracy"]["roundings"] is None


def test_huge_benchmarks_and_wide_intervals_stay_small():
    r = check_report({"acc": "0.5"}, n_items=10**15, eps="0.4")
    slack = Fraction(1, 10**12)  # every interval is widened by a relative 1e-12 (a float computed before rounding)
    lo, hi = Fraction(1, 10) - slack, Fraction(9, 10) + slack
    assert r.consistent and r.n_solutions == math.floor(hi * 10**15) - math.ceil(lo * 10**15) + 1
    assert len(r.evidence) == 100
    n, v = 10**12 + 7, "0.123456789012345"
    width = Fraction(1, 2 * 10**15) + slack
    near = range(math.floor(Fraction(v) * n) - 5, math.ceil(Fraction(v) * n) + 6)
    fits = [k for k in near if abs(Fraction(k, n) - Fraction(v)) <= width]
    r = check_report({"acc": v}, n_items=n, decimals=15, rounding="round")
    assert r.evidence == fits and r.consistent == bool(fits)


def test_min_repeats_of_a_macro_average_against_a_plain_search():
    sizes = {"a": 2, "b": 3}
    for v in ("0.31", "0.46", "0.69", "0.88"):
        plain = None
        for R in range(1, 6):
            hits = [
                (i, j)
                for i in range(2 * R + 1)
                for j in range(3 * R + 1)
                if _within((Fraction(i, 2 * R) + Fraction(j, 3 * R)) / 2, v, 2, "round")
            ]
            if hits:
                plain = R
                break
        r = check_report({"acc": v}, subsets=sizes, average="macro", decimals=2, rounding="round")
        assert r.min_repeats == plain, v
        i, j = r.example["counts"]
        assert r.example["of"] == [2 * plain, 3 * plain]
        assert _within((Fraction(i, 2 * plain) + Fraction(j, 3 * plain)) / 2, v, 2, "round")


@pytest.mark.parametrize("average", ["micro", "macro"])
def test_pass_at_k_over_subsets_against_every_count(average):
    sizes, K, k = {"a": 1, "b": 2}, 4, 2
    values = []
    for ca in itertools.product(range(K + 1), repeat=1):
        for cb in itertools.product(range(K + 1), repeat=2):
            pa = sum(_pass_at_k(c, K, k) for c in ca)
            pb = sum(_pass_at_k(c, K, k) for c in cb)
            values.append((pa + pb) / 3 if average == "micro" else (pa / 1 + pb / 2) / 2)
    for v in ("0.25", "0.4", "0.5", "0.61", "0.75", "0.9"):
        expect = any(_within(x, v, 2, "round") for x in values)
        r = check_report({"pass@2": v}, subsets=sizes, average=average, samples=K, decimals=2, rounding="round")
        assert r.consistent == expect, v


def test_named_benchmarks_give_the_items_and_subsets():
    from sotalib.consistency import benchmark

    r = check_report({"pass@1": "0.6493"}, dataset="humaneval")
    assert r.min_repeats == 2 and r.example["of"] == 2 * benchmark("humaneval").n_items
    mmlu = benchmark("mmlu")
    rng = random.Random(11)
    counts = {s: rng.randint(0, n) for s, n in mmlu.subsets.items()}
    macro = sum((Fraction(counts[s], n) for s, n in mmlu.subsets.items()), Fraction(0)) / len(mmlu.subsets)
    r = check_report({"acc": _decimal(macro, 4)}, dataset="mmlu", average="macro", decimals=4)
    assert r.consistent
    ks = r.evidence[0]
    got = sum((Fraction(k, n) for k, n in zip(ks, mmlu.subsets.values())), Fraction(0)) / len(mmlu.subsets)
    assert _within(got, _decimal(macro, 4), 4, "any")
    with pytest.raises(ValueError, match="fixes the benchmark: drop n_items"):
        check_report({"acc": "0.5"}, dataset="mmlu", n_items=14042)
