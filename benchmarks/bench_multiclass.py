"""Multiclass and regression consistency, beside the reference package ``mlscorecheck``.

The reference runs in its own environment (``.bench-venv``, created by ``make bench-venv``;
``pip install mlscorecheck``) inside a persistent worker process, so its times exclude
interpreter start-up and imports; if the environment is missing the table says so.

Besides the timings, the same random problems go through both packages and every
disagreement is resolved exactly: multiclass ones by brute force over every confusion
matrix (rational arithmetic), regression ones by the bound our verdict names.  How the
reference reads the scores: its multiclass checks split the test set into one-vs-rest
binary problems -- macro ``sens``/``spec`` are the mean per-class recall/specificity (ours
``macro_recall``/``macro_spec``), micro ones pool the one-vs-rest counts (micro recall is
the accuracy, ours ``micro_spec`` the pooled specificity) -- but it treats the classes as
independent binary problems, without the column sums they share.
"""

from __future__ import annotations

import itertools
import math
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np

from sotalib.consistency import (
    check_multiclass,
    check_n_datasets,
    check_regression,
    multiclass_scores,
    regression_scores,
    stratified_class_folds,
    stratified_folds,
)
from sotalib.consistency._intervals import score_intervals
from sotalib.consistency._multiclass_scores import multiclass_intervals, multiclass_score

from ._harness import Case
from ._reference import ReferenceWorker

ROOT = Path(__file__).resolve().parent.parent

_WORKER_BODY = r"""
from mlscorecheck.check.multiclass import (check_1_testset_no_kfold_macro, check_1_testset_no_kfold_micro,
                                           check_1_dataset_known_folds_mos_macro)
from mlscorecheck.check.regression import check_1_testset_no_kfold
from mlscorecheck.check.binary import check_n_datasets_mos_kfold_som, check_n_datasets_mos_known_folds_mos
def one(req):
    kind = req["kind"]
    if kind == "ndatasets_som":
        ev = [{"dataset": {"p": p, "n": n}, "folding": {"n_folds": k, "n_repeats": 1, "strategy": "stratified_sklearn"}}
              for p, n, k in req["datasets"]]
        return bool(check_n_datasets_mos_kfold_som(evaluations=ev, scores=req["scores"], eps=req["eps"],
                                                   verbosity=0)["inconsistency"])
    if kind == "ndatasets_mos":
        ev = [{"dataset": {"p": sum(a for a, _ in f), "n": sum(b for _, b in f)},
               "folding": {"folds": [{"p": a, "n": b} for a, b in f]}} for f in req["folds"]]
        return bool(check_n_datasets_mos_known_folds_mos(evaluations=ev, scores=req["scores"], eps=req["eps"],
                                                         verbosity=0)["inconsistency"])
    if kind == "macro":
        r = check_1_testset_no_kfold_macro(testset=dict(enumerate(req["classes"])), scores=req["scores"],
                                           eps=req["eps"], verbosity=0)
    elif kind == "micro":
        r = check_1_testset_no_kfold_micro(testset=dict(enumerate(req["classes"])), scores=req["scores"],
                                           eps=req["eps"])
    elif kind == "mos":
        r = check_1_dataset_known_folds_mos_macro(dataset=dict(enumerate(req["classes"])),
                                                  folding={"n_folds": req["k"], "n_repeats": 1,
                                                           "strategy": "stratified_sklearn"},
                                                  scores=req["scores"], eps=req["eps"], verbosity=0)
    else:
        r = check_1_testset_no_kfold(var=req["var"], n_samples=req["n"], scores=req["scores"], eps=req["eps"])
    return bool(r["inconsistency"])
def run(req):
    if req["kind"] == "many":
        out = []
        for r in req["requests"]:
            try:
                out.append(one(r))
            except Exception as exc:
                out.append(f"{type(exc).__name__}: {exc}"[:200])
        return out
    return one(req)
"""


_REF = ReferenceWorker(_WORKER_BODY)
_ref = _REF.thunk
_NOTE = _REF.note


# --------------------------------------------------------------------------- random problems
def _matrix(classes, rng):
    k = len(classes)
    theta = rng.uniform(0.5, 0.95)
    probs = np.full((k, k), (1 - theta) / (k - 1))
    np.fill_diagonal(probs, theta)
    return np.array([rng.multinomial(c, probs[i]) for i, c in enumerate(classes)])


def _typo(vals, d, rng):
    """Half of the reports get one value moved by 1-3 units of the last digit."""
    vals = dict(vals)
    if rng.random() < 0.5:
        name = list(vals)[rng.integers(len(vals))]
        v = vals[name] + rng.choice([-1, 1]) * int(rng.integers(1, 4)) * 10.0**-d
        vals[name] = min(max(v, 0.0), 1.0)
    return {k: round(float(v), d) for k, v in vals.items()}


def _multiclass_problems(count, seed):
    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        classes = [int(x) for x in rng.integers(2, 9, 3)]
        m = _matrix(classes, rng)
        sc = multiclass_scores(m)
        d = int(rng.integers(2, 4))
        average = "macro" if i % 2 == 0 else "micro"
        vals = _typo({"sens": sc[f"{average}_sens"], "spec": sc[f"{average}_spec"]}, d, rng)
        out.append((classes, average, vals, 10.0**-d / 2))
    return out


def _brute(classes, intervals):
    """Exact verdict by brute force over every confusion matrix with these row sums."""
    k = len(classes)
    rows = [[r for r in itertools.product(range(c + 1), repeat=k) if sum(r) == c] for c in classes]
    seen = set()
    for mat in itertools.product(*rows):
        d = tuple(mat[i][i] for i in range(k))
        s = tuple(sum(mat[i][j] for i in range(k)) for j in range(k))
        if (d, s) in seen:
            continue
        seen.add((d, s))
        if all(iv.contains(multiclass_score(iv, classes, d, s)) for iv in intervals):
            return True, [list(r) for r in mat]
    return False, None


def _regression_problems(count, seed):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        n = int(rng.integers(2, 200))
        y = rng.normal(0, 1, n)
        pred = y + rng.standard_t(3, n) * rng.uniform(0.05, 1)
        sc = regression_scores(y, pred)
        d = int(rng.integers(2, 5))
        names = [str(x) for x in rng.choice(["mae", "mse", "rmse", "r2"], size=2, replace=False)]
        vals = _typo({k: sc[k] for k in names}, d, rng) if rng.random() < 0.5 else {k: round(sc[k], d) for k in names}
        if rng.random() < 0.3:  # a bolder error: an MAE far below the RMSE
            vals = {"mae": round(sc["rmse"] / math.sqrt(n) / 2, d), "rmse": round(sc["rmse"], d)}
        out.append((n, round(sc["var"], 6), vals, 10.0**-d / 2))
    return out


def _twolevel_problems(count, seed):
    """Two small data sets, stratified 2-fold each, mean across of (SoM | MoS) within; half with a typo."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        ds = [(int(rng.integers(2, 6)), int(rng.integers(2, 6)), 2) for _ in range(2)]
        within = "som" if i % 2 == 0 else "mos"
        units = [[(p, n)] if within == "som" else list(stratified_folds(p, n, k)) for p, n, k in ds]
        vals = {"acc": [], "sens": [], "spec": []}
        for us in units:
            per = {"acc": [], "sens": [], "spec": []}
            for p, n in us:
                tp, tn = int(rng.integers(0, p + 1)), int(rng.integers(0, n + 1))
                per["acc"].append((tp + tn) / (p + n))
                per["sens"].append(tp / p)
                per["spec"].append(tn / n)
            for key in vals:
                vals[key].append(np.mean(per[key]))
        rep = _typo({key: float(np.mean(v)) for key, v in vals.items()}, 2, rng)
        out.append((ds, within, rep, 0.005))
    return out


def _twolevel_brute(ds, within, scores, eps):
    """Exact verdict by brute force over every per-unit (tp, tn)."""
    ivs = score_intervals(scores, eps=eps)
    f = {
        "acc": lambda tp, tn, p, n: Fraction(tp + tn, p + n),
        "sens": lambda tp, _tn, p, _n: Fraction(tp, p),
        "spec": lambda _tp, tn, _p, n: Fraction(tn, n),
    }
    per_ds = []
    for p, n, k in ds:
        units = [(p, n)] if within == "som" else list(stratified_folds(p, n, k))
        vals = set()
        for combo in itertools.product(*[itertools.product(range(a + 1), range(b + 1)) for a, b in units]):
            vals.add(
                tuple(
                    sum(f[iv.base](tp, tn, a, b) for (tp, tn), (a, b) in zip(combo, units)) / len(units) for iv in ivs
                )
            )
        per_ds.append(vals)
    return any(
        all(iv.lo <= sum(x[j] for x in combo) / len(combo) <= iv.hi for j, iv in enumerate(ivs))
        for combo in itertools.product(*per_ds)
    )


MC = _multiclass_problems(120, seed=15)
TWO = _twolevel_problems(60, seed=17)
REG = _regression_problems(300, seed=16)


def _ours_mc(problems):
    out = []
    for classes, average, vals, eps in problems:
        scores = {f"{average}_{k}": v for k, v in vals.items()}
        out.append(not check_multiclass(classes, scores, eps=eps).consistent)
    return out


def _ours_two(problems):
    out = []
    for ds, within, vals, eps in problems:
        r = check_n_datasets([{"p": p, "n": n, "k": k} for p, n, k in ds], vals, within=within, eps=eps)
        out.append(not r.consistent)
    return out


def _ref_two(ds, within, vals, eps):
    if within == "som":
        return {"kind": "ndatasets_som", "datasets": ds, "scores": vals, "eps": eps}
    folds = [[list(f) for f in stratified_folds(p, n, k)] for p, n, k in ds]
    return {"kind": "ndatasets_mos", "folds": folds, "scores": vals, "eps": eps}


def _ours_reg(problems):
    return [not check_regression(n, vals, target_var=var, eps=eps).consistent for n, var, vals, eps in problems]


def _agreement() -> str:
    if _REF.proc is None:
        return "agreement not checked: " + (_REF.error or "")
    lines = []
    ours = _ours_mc(MC)
    theirs = _REF.call(kind="many", requests=[{"kind": a, "classes": c, "scores": v, "eps": e} for c, a, v, e in MC])
    agree = sum(o == t for o, t in zip(ours, theirs))
    for (classes, average, vals, eps), o, t in zip(MC, ours, theirs):
        if o == t:
            continue
        ivs = multiclass_intervals({f"{average}_{k}": v for k, v in vals.items()}, eps=eps)
        feasible, witness = _brute(tuple(classes), ivs)
        right = "sotalib" if feasible != o else "mlscorecheck"
        lines.append(
            f"  multiclass {average} classes={classes} {vals} eps={eps:g}: sotalib inconsistent={o}, "
            f"mlscorecheck inconsistent={t!r}; brute force over every matrix: "
            + (f"consistent, e.g. {witness}" if feasible else "no confusion matrix fits")
            + f" -> {right} is right"
        )
    ours_r = _ours_reg(REG)
    theirs_r = _REF.call(
        kind="many",
        requests=[{"kind": "regression", "n": n, "var": var, "scores": v, "eps": e} for n, var, v, e in REG],
    )
    agree_r = sum(o == t for o, t in zip(ours_r, theirs_r))
    for (n, var, vals, eps), o, t in zip(REG, ours_r, theirs_r):
        if o == t:
            continue
        r = check_regression(n, vals, target_var=var, eps=eps)
        lines.append(
            f"  regression n={n} var={var} {vals} eps={eps:g}: sotalib inconsistent={o}, mlscorecheck "
            f"inconsistent={t!r}; exact: " + ("; ".join(r.violated) or f"consistent, e.g. {r.evidence[0]}")
        )
    ours_t = _ours_two(TWO)
    theirs_t = _REF.call(kind="many", requests=[_ref_two(*x) for x in TWO])
    agree_t = sum(o == t for o, t in zip(ours_t, theirs_t))
    for (ds, within, vals, eps), o, t in zip(TWO, ours_t, theirs_t):
        if o == t:
            continue
        feasible = _twolevel_brute(ds, within, vals, eps)
        lines.append(
            f"  two data sets {ds} (p, n, k) mean of {within} {vals} eps={eps:g}: sotalib inconsistent={o}, "
            f"mlscorecheck inconsistent={t!r}; brute force over every per-unit (tp, tn): "
            + ("consistent" if feasible else "inconsistent")
            + f" -> {'sotalib' if feasible != o else 'mlscorecheck'} is right"
        )
    head = (
        f"two data sets: {agree_t} of {len(TWO)} random reports agree (stratified 2-fold, mean of SoM or MoS); "
        f"multiclass: {agree} of {len(MC)} random reports agree (k = 3, classes 2-8, macro and micro recall and "
        f"specificity, half with a typo); regression: {agree_r} of {len(REG)} agree"
    )
    print("mlscorecheck agreement: " + head, file=sys.stderr)
    for ln in lines:
        print(ln, file=sys.stderr)
    return head + f"; {len(lines)} disagreements, each resolved exactly (printed on stderr)"


AGREEMENT = _agreement()

# --------------------------------------------------------------------------- timed cases
_SMALL = {"classes": [30, 50, 20], "scores": {"sens": 0.7983, "spec": 0.8993}}
_CIFAR = [1000] * 10
_rng = np.random.default_rng(3)
_M10 = _matrix(_CIFAR, _rng)
_S10 = multiclass_scores(_M10)
_BIG = {"sens": round(_S10["macro_sens"], 4), "spec": round(_S10["macro_spec"], 4)}
_FOLDS = [149, 118, 83, 154]
_MF = [_matrix(f, _rng) for f in stratified_class_folds(_FOLDS, 4)]
_MOS = {
    "sens": round(float(np.mean([multiclass_scores(m)["macro_sens"] for m in _MF])), 4),
    "spec": round(float(np.mean([multiclass_scores(m)["macro_spec"] for m in _MF])), 4),
}


def _macro(scores):
    return {f"macro_{k}": v for k, v in scores.items()}


_TWO_DS = [(39, 822, 5), (25, 455, 5)]


def _two_true(within):
    """The rounded scores of one classifier (sens 0.8, spec 0.97 per unit): a consistent report."""
    vals = {"acc": [], "sens": [], "spec": []}
    for p, n, k in _TWO_DS:
        units = [(p, n)] if within == "som" else list(stratified_folds(p, n, k))
        tps = [round(0.8 * a) for a, _ in units]
        tns = [round(0.97 * b) for _, b in units]
        vals["acc"].append(np.mean([(t + u) / (a + b) for (a, b), t, u in zip(units, tps, tns)]))
        vals["sens"].append(np.mean([t / a for (a, _), t in zip(units, tps)]))
        vals["spec"].append(np.mean([u / b for (_, b), u in zip(units, tns)]))
    return {key: round(float(np.mean(v)), 4) for key, v in vals.items()}


_TWO_TRUE = {w: _two_true(w) for w in ("som", "mos")}
_TWO_FALSE = {"acc": 0.9512, "sens": 0.4501, "spec": 0.9703}


def _two_case(within, scores, ratio_target, label):
    return Case(
        f"two data sets, stratified 5-fold each, mean of {within.upper()} (acc, sens, spec), {label}",
        lambda: check_n_datasets([{"p": p, "n": n, "k": k} for p, n, k in _TWO_DS], scores, within=within, eps=5e-5),
        reference=_ref(**_ref_two(_TWO_DS, within, scores, 5e-5)),
        reference_name="mlscorecheck",
        ratio_target=ratio_target,
        note=_NOTE
        + (
            "; an infeasibility found by HiGHS is confirmed by CBC (two solver runs, exact verdict)"
            if ratio_target is None
            else ""
        ),
    )


CASES = [
    _two_case("som", _TWO_TRUE["som"], 1.0, "a true report"),
    _two_case("mos", _TWO_TRUE["mos"], 1.0, "a true report"),
    _two_case("mos", _TWO_FALSE, None, "an impossible report"),
    Case(
        "multiclass: 30/50/20, macro recall and specificity (exhaustive)",
        lambda: check_multiclass(_SMALL["classes"], _macro(_SMALL["scores"]), eps=5e-5),
        reference=_ref(kind="macro", classes=_SMALL["classes"], scores=_SMALL["scores"], eps=5e-5),
        reference_name="mlscorecheck",
        ratio_target=1.0,
        note=_NOTE + "; ours also enforces the shared column sums",
    ),
    Case(
        "multiclass: 10 x 1,000 (CIFAR-10 size), macro recall and specificity (integer program)",
        lambda: check_multiclass(_CIFAR, _macro(_BIG), eps=5e-5),
        reference=_ref(kind="macro", classes=_CIFAR, scores=_BIG, eps=5e-5),
        reference_name="mlscorecheck",
        ratio_target=1.0,
        note=_NOTE,
    ),
    Case(
        "multiclass: 4 classes, stratified 4-fold MoS, macro recall and specificity",
        lambda: check_multiclass(_FOLDS, _macro(_MOS), k=4, stratified=True, aggregation="mos", eps=5e-5),
        reference=_ref(kind="mos", classes=_FOLDS, k=4, scores=_MOS, eps=5e-5),
        reference_name="mlscorecheck",
        ratio_target=1.0,
        note=_NOTE,
    ),
    Case(
        "multiclass: 10 x 1,000, accuracy and macro F1 (no reference: non-linear)",
        lambda: check_multiclass(
            _CIFAR, {"acc": round(_S10["acc"], 4), "macro_f1": round(_S10["macro_fbp"], 4)}, decimals=4
        ),
        target=10.0,
        repeat=1,
    ),
    Case(
        "regression: MAE and RMSE, n = 100",
        lambda: check_regression(100, {"mae": 0.0254, "rmse": 0.0321}, eps=5e-5),
        reference=_ref(kind="regression", n=100, var=0.0832, scores={"mae": 0.0254, "rmse": 0.0321}, eps=5e-5),
        reference_name="mlscorecheck",
        ratio_target=1.0,
        note=_NOTE,
    ),
    Case(
        f"agreement on {len(TWO)} two-level, {len(MC)} multiclass and {len(REG)} regression random reports",
        lambda: (_ours_two(TWO), _ours_mc(MC), _ours_reg(REG)),
        target=None,
        repeat=1,
        note=AGREEMENT,
    ),
]


if __name__ == "__main__":  # pragma: no cover
    from ._harness import print_table, run_cases

    print_table(run_cases(CASES))
    sys.exit(0)
