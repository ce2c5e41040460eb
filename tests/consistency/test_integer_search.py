"""The exact search of small integer programs, and the fast paths built on it, against brute force and the ILP."""

import itertools
import random

import numpy as np

# private: the exact search of small integer programs and the fast paths built on it (patched out to compare) are the subject
from sotalib.consistency import (
    _mos_kfold,
    _n_datasets,
    check_mos_kfold,
    check_multiclass,
    check_n_datasets,
    multiclass_scores,
    stratified_class_folds,
    stratified_folds,
)
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
    monkeypatch.setattr(_n_datasets, "search_box", lambda *_a, **_k: ("unknown", None))
    slow = [check_n_datasets(ds, sc, within=w, decimals=3) for ds, w, sc in reports]
    assert [r.status for r in fast] == [r.status for r in slow]
    assert sum(r.details["engine"] == "enumeration" for r in fast) >= 15  # the fast path decided most
    assert {r.status for r in fast} == {"feasible", "infeasible"}


def _kfold_reports(count, seed):
    """Random Mean-of-Scores reports of (repeated) k-fold on small data sets: from random folds and
    counts (true), half with the first value moved by a few units of its last digit."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        p, n, k = int(rng.integers(2, 25)), int(rng.integers(2, 40)), int(rng.integers(2, 6))
        repeats = int(rng.integers(1, 3))
        names = [
            str(s) for s in rng.choice(["acc", "sens", "spec", "bacc"], size=int(rng.integers(1, 4)), replace=False)
        ]
        y = rng.permutation(np.r_[np.ones(p, int), np.zeros(n, int)])
        vals = {s: [] for s in names}
        for _ in range(repeats):
            y = rng.permutation(y)
            for f in range(k):
                part = y[f::k]
                fp, fn = int(part.sum()), int(len(part) - part.sum())
                tp, tn = int(rng.binomial(fp, 0.8)), int(rng.binomial(fn, 0.9))
                sens = tp / fp if fp else 1.0
                spec = tn / fn if fn else 1.0
                f_ = {"acc": (tp + tn) / (fp + fn), "sens": sens, "spec": spec, "bacc": (sens + spec) / 2}
                for s in names:
                    vals[s].append(f_[s])
        rep = {s: float(np.mean(v)) for s, v in vals.items()}
        if i % 2:
            rep[names[0]] = min(1.0, max(0.0, rep[names[0]] + rng.choice([-1, 1]) * 0.004))
        out.append((p, n, k, repeats, {s: round(v, 3) for s, v in rep.items()}))
    return out


def test_kfold_even_configuration_agrees_with_the_integer_program(monkeypatch):
    reports = _kfold_reports(30, seed=11)
    run = [lambda r=r: check_mos_kfold(r[0], r[1], r[2], r[4], repeats=r[3], decimals=3) for r in reports]
    found = []
    real = _mos_kfold._even_search
    monkeypatch.setattr(_mos_kfold, "_even_search", lambda *a: found.append(real(*a)) or found[-1])
    fast = [f() for f in run]
    monkeypatch.setattr(_mos_kfold, "_even_search", lambda *_a: None)
    slow = [f() for f in run]
    assert [r.status for r in fast] == [r.status for r in slow]
    assert {r.status for r in fast} == {"feasible", "infeasible"}
    assert sum(x is not None for x in found) >= 5  # the even configuration settled some
    for (p, n, k, repeats, _), r in zip(reports, fast):
        assert r.configurations is None or len(r.configurations) == repeats
        for folds in r.configurations or ():
            assert sum(a for a, _ in folds) == p and sum(b for _, b in folds) == n and len(folds) == k


def _multiclass_reports(count, seed):
    """Random multiclass reports of linear scores on classes of few distinct sizes (balanced test sets
    and folds), from a random confusion matrix, half with a typo."""
    rng = np.random.default_rng(seed)
    names = ["acc", "bacc", "macro_sens", "macro_spec", "weighted_spec", "micro_spec", "weighted_sens"]
    out = []
    for i in range(count):
        k = int(rng.integers(2, 5))
        sizes = [int(x) for x in rng.integers(4, 12 if i % 3 == 0 else 80, size=int(rng.integers(1, 3)))]
        classes = [sizes[int(j)] for j in rng.integers(0, len(sizes), size=k)]
        folds = None if i % 3 else int(rng.integers(2, 4))
        theta = rng.uniform(0.4, 0.95)
        probs = np.full((k, k), (1 - theta) / (k - 1))
        np.fill_diagonal(probs, theta)
        units = [classes] if folds is None else [list(f) for f in stratified_class_folds(classes, folds)]
        mats = [np.array([rng.multinomial(c, probs[j]) for j, c in enumerate(u)]) for u in units]
        chosen = [str(s) for s in rng.choice(names, size=int(rng.integers(1, 4)), replace=False)]
        per = [multiclass_scores(m) for m in mats]
        rep = {s: float(np.mean([p[s] for p in per])) for s in chosen}
        if i % 2:
            rep[chosen[0]] = min(1.0, max(0.0, rep[chosen[0]] + rng.choice([-1, 1]) * 0.006))
        kw = {} if folds is None else {"k": folds, "stratified": True, "aggregation": "mos"}
        out.append((classes, {s: round(v, 3) for s, v in rep.items()}, kw))
    return out


def test_multiclass_search_agrees_with_the_integer_program():
    reports = _multiclass_reports(45, seed=5)
    fast = [check_multiclass(c, sc, decimals=3, **kw) for c, sc, kw in reports]
    slow = [check_multiclass(c, sc, decimals=3, engine="ilp", **kw) for c, sc, kw in reports]
    assert [r.status for r in fast] == [r.status for r in slow]
    searched = [r for r in fast if r.engine == "search"]
    assert len(searched) >= 15 and {r.status for r in searched} == {"feasible", "infeasible"}
    for (classes, _, kw), r in zip(reports, fast):
        if r.engine == "search" and r.consistent and not kw:  # the evidence: a matrix with these row sums
            (m,) = r.evidence
            assert [sum(row) for row in m] == list(classes) and min(min(row) for row in m) >= 0
