"""Chapter 6: consistency tests, beside the reference package ``mlscorecheck``.

The reference runs in its own environment (``.bench-venv``, created by
``make bench-venv``; ``pip install mlscorecheck``) inside a persistent worker
process: each timed call sends one request and waits for its answer, so the
reference time excludes interpreter start-up and imports.  If the environment
is missing the table says so.
"""

from __future__ import annotations

import sys
from pathlib import Path

from sotalib.consistency import (
    all_scores,
    check_mos_kfold,
    check_report,
    check_single,
    kfold_configurations,
    search_configurations,
)

from ._harness import Case
from ._reference import ReferenceWorker

ROOT = Path(__file__).resolve().parent.parent

# DRIVE-like pixel counts (20 test images, FoV): a true confusion matrix, scores at 4 decimals
P, N = 577_649, 3_960_494
_S = all_scores(451_234, 3_900_017, P, N)
ACC_SENS_SPEC = {k: round(_S[k], 4) for k in ("acc", "sens", "spec")}
F1_MCC = {"f1": round(_S["fbp"], 4), "mcc": round(_S["mcc"], 4)}
TPEHG = {"acc": 0.9447, "sens": 0.9139, "spec": 0.9733}

_WORKER_BODY = r"""
import mlscorecheck
from mlscorecheck.check.binary import check_1_testset_no_kfold, check_1_dataset_unknown_folds_mos
def run(req):
    if req["kind"] == "many":
        out = []
        for p, n, scores, eps in req["reports"]:
            try:
                out.append(bool(check_1_testset_no_kfold(testset={"p": p, "n": n}, scores=scores, eps=eps)["inconsistency"]))
            except Exception as exc:
                out.append(f"{type(exc).__name__}: {exc}"[:200])
        return out
    if req["kind"] == "single":
        r = check_1_testset_no_kfold(testset={"p": req["p"], "n": req["n"]}, scores=req["scores"], eps=req["eps"])
    else:
        r = check_1_dataset_unknown_folds_mos(dataset={"p": req["p"], "n": req["n"]},
                                              folding={"n_folds": req["k"], "n_repeats": 1},
                                              scores=req["scores"], eps=req["eps"])
    return bool(r["inconsistency"])
"""


_REF = ReferenceWorker(_WORKER_BODY)
_ref = _REF.thunk


def _ours_single(scores):
    return lambda: check_single(P, N, scores, eps=1e-4, max_solutions=100)


# the slowest of all 190 pairs on the development machine (2 cores): scores with tens of
# millions of compatible pairs (f1 and ji are equivalent scores), and mk with pt
WORST = {"f1/ji": ("fbp", "ji"), "ppv/pt": ("ppv", "pt"), "mk/pt": ("mk", "pt")}


def _ours_all_pairs():
    """Every one of the 190 pairs of the 20 scores, one after the other."""
    import itertools

    from sotalib.consistency import SCORES

    reports = [{s: round(_S[s], 4) for s in pair} for pair in itertools.combinations(SCORES, 2)]

    def run():
        for sc in reports:
            check_single(P, N, sc, eps=1e-4, max_solutions=100)

    return run


def _ours_random_sets(count=40, seed=0):
    """Median over ``count`` random sets of 2-4 of the 20 scores (the same sets every run)."""
    import numpy as np

    from sotalib.consistency import SCORES

    rng = np.random.default_rng(seed)
    sets = [list(rng.choice(SCORES, size=int(rng.integers(2, 5)), replace=False)) for _ in range(count)]
    reports = [{s: round(_S[s], 4) for s in names} for names in sets]

    def run():
        for sc in reports:
            check_single(P, N, sc, eps=1e-4, max_solutions=100)

    return run


def _ours_tpehg():
    return lambda: search_configurations(
        kfold_configurations(38, 262, 5, positives_in_every_fold=True), TPEHG, eps=1e-4
    )


# ---- the claims about the reference: random small reports, verdicts against brute force
_MSC_NAME = {"fbp": "f1p", "fbn": "f1n"}


def _random_reports(count=2000, seed=4):
    import numpy as np

    from sotalib.consistency._scores import SCORES, score_range, score_value

    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        p, n = (int(x) for x in rng.integers(2, 40, 2))
        names = list(rng.choice([s for s in SCORES if s not in ("fbp", "fbn")] + ["fbp"], size=3, replace=False))
        tp, tn = int(rng.integers(0, p + 1)), int(rng.integers(0, n + 1))
        vals = {}
        for s in names:
            v = score_value(s, tp, tn, p, n)
            if v is None or abs(v) > 100:
                break
            if s == names[0] and rng.random() < 0.5:  # a one-digit typo in the first score
                v = v + 1e-3 if v + 1e-3 <= score_range(s)[1] else v - 1e-3
                v = max(v, score_range(s)[0])
            vals[s] = round(v, 3)
        else:
            out.append((p, n, vals, 1e-3))
    return out


REPORTS = _random_reports()


def _ours_many():
    return [not check_single(p, n, sc, eps=eps, max_solutions=1).consistent for p, n, sc, eps in REPORTS]


def _claims() -> str:
    if _REF.proc is None:
        return "claims not checked: " + (_REF.error or "")
    ours = _ours_many()  # equals brute force (tests)
    theirs = _REF.call(
        kind="many", reports=[(p, n, {_MSC_NAME.get(k, k): v for k, v in sc.items()}, eps) for p, n, sc, eps in REPORTS]
    )
    crashed = sum(isinstance(t, str) for t in theirs)
    incons = [i for i, o in enumerate(ours) if o]
    missed = sum(1 for i in incons if theirs[i] is False)
    false_alarm = sum(1 for i, o in enumerate(ours) if not o and theirs[i] is True)
    pk = _REF.call(
        kind="many",
        reports=[(30, 50, {"pt": 0.4, "kappa": 0.3}, 1e-3), (30, 50, {"acc": 0.5, "foo": 0.3, "auc": 2.0}, 1e-3)],
    )
    return (
        f"on {len(REPORTS)} random small reports (3 scores, 3 decimals): {len(incons)} inconsistent "
        f"(brute force); mlscorecheck missed {missed} ({100 * missed / max(len(incons), 1):.1f}%), "
        f"false alarms {false_alarm}, crashed on {crashed}; pt+kappa -> {pk[0]!r}; "
        f"unknown names foo/auc -> inconsistency={pk[1]!r}"
    )


CLAIMS = _claims()
print("mlscorecheck claims:", CLAIMS, file=sys.stderr)

_NOTE = _REF.note


def _against_reference(name, func, request, *, ratio_target=1.0, pairs=5, note=""):
    """A paired case (ours / mlscorecheck <= ratio_target, alternating runs) when the reference
    is installed; otherwise our time alone, and the table says the reference is missing."""
    note = f"{note}; {_NOTE}".strip("; ")
    if _REF.proc is None:
        return Case(name, func, target=None, repeat=3, note=note)
    return Case(
        name,
        func,
        reference=_ref(**request),
        reference_name="mlscorecheck",
        ratio_target=ratio_target,
        pairs=pairs,
        note=note,
    )


def _kfold_unknown(p, n, k):
    """Plain k-fold with unknown folds, Mean of Scores: every configuration of one repetition."""
    return lambda: check_report(p, n, {"acc": "0.9"}, k=k, eps="1e-4", aggregation="mos", diagnosis=False)


CASES = [
    _against_reference(
        "consistency: DRIVE p=577,649 n=3,960,494, acc/sens/spec",
        _ours_single(ACC_SENS_SPEC),
        dict(kind="single", p=P, n=N, scores=ACC_SENS_SPEC, eps=1e-4),
        note="target: at least as fast as mlscorecheck",
    ),
    Case(
        "consistency: DRIVE p=577,649 n=3,960,494, f1/mcc",
        _ours_single(F1_MCC),
        target=0.05,
        repeat=3,
        reference=_ref(kind="single", p=P, n=N, scores={"f1p": F1_MCC["f1"], "mcc": F1_MCC["mcc"]}, eps=1e-4),
        reference_name="mlscorecheck",
        note=_NOTE,
    ),
    Case(
        "consistency: DRIVE, all 190 pairs of scores (total)",
        _ours_all_pairs(),
        target=190 * 0.05,
        repeat=1,
        note="target: 50 ms per pair on average",
    ),
    Case(
        "consistency: DRIVE, 40 random sets of 2-4 scores (total)",
        _ours_random_sets(),
        target=40 * 0.05,
        repeat=3,
        note="target: 50 ms per set on average",
    ),
    *[
        Case(
            f"consistency: DRIVE, {label} (one of the slowest pairs)",
            _ours_single({s: round(_S[s], 4) for s in names}),
            target=0.05,
            repeat=3,
            note="slowest of the 190 pairs",
        )
        for label, names in WORST.items()
    ],
    Case(
        "consistency: TPEHG MoS, all 918 fold configurations",
        _ours_tpehg(),
        target=1.0,
        repeat=3,
        reference=_ref(kind="mos", p=38, n=262, k=5, scores=TPEHG, eps=1e-4),
        reference_name="mlscorecheck",
        note=_NOTE,
    ),
    Case(
        "consistency: TPEHG MoS, 5 repetitions, all 5.5e12 joint configurations (one program)",
        lambda: check_mos_kfold(38, 262, 5, TPEHG, eps=1e-4, repeats=5),
        target=1.0,
        repeat=3,
        note="no reference: mlscorecheck enumerates repetitions",
    ),
    Case(
        "consistency: oversampled TPEHG (p'=244) MoS, all 2,616,607 configurations (one program)",
        lambda: check_mos_kfold(244, 262, 5, TPEHG, eps=1e-4),
        target=None,
        repeat=3,
    ),
    _against_reference(
        "consistency: 2,000 random small reports (claims, see note)",
        _ours_many,
        dict(
            kind="many",
            reports=[(p, n, {_MSC_NAME.get(k, k): v for k, v in sc.items()}, eps) for p, n, sc, eps in REPORTS],
        ),
        pairs=3,
        note=f"target: at least as fast as mlscorecheck; {CLAIMS}",
    ),
    Case(
        "check: plain 5-fold, unknown folds, p=100 n=200, MoS acc (39,508 configurations)",
        _kfold_unknown(100, 200, 5),
        target=2.0,
        repeat=3,
        reference=_ref(kind="mos", p=100, n=200, k=5, scores={"acc": 0.9}, eps=1e-4),
        reference_name="mlscorecheck",
        note=f"one integer program instead of enumerating (160 s before); {_NOTE}",
    ),
    Case(
        "check: plain 10-fold, unknown folds, p=1000 n=2000, MoS acc (5.8e14 configurations)",
        _kfold_unknown(1000, 2000, 10),
        target=5.0,
        repeat=3,
        reference=_ref(kind="mos", p=1000, n=2000, k=10, scores={"acc": 0.9}, eps=1e-4),
        reference_name="mlscorecheck",
        note=f"over 130 s before; {_NOTE}",
    ),
]


if __name__ == "__main__":  # pragma: no cover
    from ._harness import print_table, run_cases

    print_table(run_cases(CASES))
    sys.exit(0)
