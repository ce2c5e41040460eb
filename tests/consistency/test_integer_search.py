"""The exact search of small integer programs, and the fast paths built on it, against brute force and the ILP."""

import itertools
import random

import numpy as np

from sotalib.consistency import _twolevel, check_n_datasets, stratified_folds
from sotalib.consistency._integer_search import search_box


def _brute(A, lbs, ubs, caps):
    return any(
        all(lo <= sum(a * x for a, x in zip(r, xs)) <= hi for r, lo, hi in zip(A, lbs, ubs))
        for xs in itertools.product(*[range(c + 1) for c in caps])
    )


def test_search_agrees_with_brute_force_on_random_programs():
    rng = random.Random(1)
    verdicts = []
    for _ in range(1500):
        V, R = rng.randint(1, 4), rng.randint(1, 3)
        caps = [rng.randint(0, 6) for _ in range(V)]
        A = [[rng.randint(-5, 9) for _ in range(V)] for _ in range(R)]
        x0 = [rng.randint(0, c) for c in caps]
        lbs, ubs = [], []
        for r in A:
            v = sum(a * x for a, x in zip(r, x0)) + rng.randint(-3, 3)
            lbs.append(v - rng.randint(0, 2))
            ubs.append(v + rng.randint(0, 2))
        ref = _brute(A, lbs, ubs, caps)
        state, x = search_box(A, lbs, ubs, caps)
        assert state == ("feasible" if ref else "infeasible")
        if ref:
            assert all(0 <= xi <= c for xi, c in zip(x, caps))
            assert all(lo <= sum(a * xi for a, xi in zip(r, x)) <= hi for r, lo, hi in zip(A, lbs, ubs))
        verdicts.append(ref)
    assert 0.2 < np.mean(verdicts) < 0.8  # both verdicts are exercised


def test_search_gives_up_on_large_programs():
    assert search_box([[1, 1, 1]], [10], [20], [200, 200, 200], max_work=1000) == ("unknown", None)


def _two_level_reports(count, seed):
    """Random reports on 2-3 small data sets (SoM or MoS within): half true, half with a typo."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        ds = [
            {"p": int(rng.integers(3, 16)), "n": int(rng.integers(3, 40)), "k": int(rng.integers(2, 4))}
            for _ in range(int(rng.integers(2, 4)))
        ]
        within = [str(w) for w in rng.choice(["som", "mos"], size=len(ds))]
        names = [
            str(s) for s in rng.choice(["acc", "sens", "spec", "bacc"], size=int(rng.integers(2, 4)), replace=False)
        ]
        sens, spec = rng.uniform(0.5, 1.0), rng.uniform(0.5, 1.0)
        vals = {s: [] for s in names}
        for d, w in zip(ds, within):
            units = list(stratified_folds(d["p"], d["n"], d["k"])) if w == "mos" else [(d["p"], d["n"])]
            per = {s: [] for s in names}
            for p, n in units:
                tp, tn = int(rng.binomial(p, sens)), int(rng.binomial(n, spec))
                f = {"acc": (tp + tn) / (p + n), "sens": tp / p, "spec": tn / n, "bacc": (tp / p + tn / n) / 2}
                for s in names:
                    per[s].append(f[s])
            for s in names:
                vals[s].append(np.mean(per[s]))
        rep = {s: float(np.mean(v)) for s, v in vals.items()}
        if i % 2:
            s = names[0]
            rep[s] = min(1.0, max(0.0, rep[s] + rng.choice([-1, 1]) * 0.003))
        out.append((ds, within, {s: round(v, 3) for s, v in rep.items()}))
    return out


def test_two_level_search_agrees_with_the_integer_program(monkeypatch):
    reports = _two_level_reports(40, seed=7)
    fast = [check_n_datasets(ds, sc, within=w, decimals=3) for ds, w, sc in reports]
    monkeypatch.setattr(_twolevel, "search_box", lambda *a, **k: ("unknown", None))
    slow = [check_n_datasets(ds, sc, within=w, decimals=3) for ds, w, sc in reports]
    assert [r.status for r in fast] == [r.status for r in slow]
    assert sum(r.details["method"] == "enumeration" for r in fast) >= 15  # the fast path decided most
    assert {r.status for r in fast} == {"feasible", "infeasible"}
