"""A fast path of the multiclass integer program: classes of equal size merged, searched exactly.

For scores linear in the counts (accuracy, micro averages, macro and weighted
recall and specificity, balanced accuracy), write the unknowns of an
evaluation set as the misses ``r_i = c_i - d_i`` and the false alarms
``q_i = s_i - d_i`` of every class: each score is a linear row in (r, q),
``sum r = sum q`` (every item is predicted once), ``0 <= r_i <= c_i``,
``0 <= q_i <= n - c_i`` (implied by Hall's condition), and Hall's condition
``r_i + q_i <= sum r`` completes the program of
:mod:`sotalib.consistency._multiclass_ilp`.

Classes of the same size have the same coefficients in every row, so without
Hall's condition only their summed misses R_g and false alarms Q_g matter (the
sums of m integers in [0, c] are exactly the integers in [0, m c]).  With few
distinct class sizes (a balanced test set has one) that is a program in a
handful of integers, searched exactly by
:func:`sotalib.consistency._integer_search.search_box`:

* no solution: the program without Hall's condition is infeasible, so the full
  one is too -- a proof, like the solver's;
* a solution: R_g and Q_g are spread evenly over the classes of the group; if
  Hall's condition holds, the pair (d, s) is verified in rational arithmetic
  and is the evidence; if it does not, the solver decides as before.
"""

from __future__ import annotations

import math
from fractions import Fraction

from ._integer_search import search_box
from ._multiclass_exhaustive import _verify

__all__: list[str] = []  # private: used by the multiclass checks


class _Same:
    """A list of k equal values, without building it."""

    def __init__(self, value):
        self.value = value

    def __getitem__(self, i):
        return self.value


def _linear_row(c, w, iv):
    """Coefficients and constant of one interval on one evaluation set, or None if not linear.

    The coefficients are of d and of s, indexable by class.  The same rows as the integer program
    (:func:`sotalib.consistency._multiclass_ilp._solve`); a per-class coefficient depends on c_i alone.
    """
    n, k = sum(c), len(c)
    zero = _Same(Fraction(0))
    if iv.base == "acc" or (iv.average == "micro" and iv.base in ("sens", "ppv", "fbp")):
        return _Same(w * Fraction(1, n)), zero, Fraction(0)
    if iv.average == "micro" and iv.base in ("spec", "npv"):
        return _Same(w * Fraction(1, (k - 1) * n)), zero, w * Fraction(k - 2, k - 1)
    sizes = sorted(set(c))
    if iv.base == "bacc":
        per = {ci: w * Fraction(1, k * ci) for ci in sizes}
        return [per[ci] for ci in c], zero, Fraction(0)
    a = {ci: Fraction(1, k) if iv.average == "macro" else Fraction(ci, n) for ci in sizes}
    if iv.base == "sens":
        per = {ci: w * a[ci] / ci for ci in sizes}
        return [per[ci] for ci in c], zero, Fraction(0)
    if iv.base == "spec":
        per = {ci: w * a[ci] / (n - ci) for ci in sizes}
        f = [per[ci] for ci in c]
        return f, [-x for x in f], sum(per[ci] * (n - ci) for ci in c)
    return None


def _spread(total, m):
    q, r = divmod(total, m)
    return [q + (1 if j < r else 0) for j in range(m)]


def search_linear(units, weights, intervals, zero_division):  # noqa: C901 (one ordered search: merge, enumerate, verify)
    """('feasible', sol) | ('infeasible', None) | None (not decided here: use the integer program).

    ``units`` are ``(classes, None)`` per evaluation set as for the integer program, ``sol``
    one ``(d, s)`` per evaluation set.
    """
    if any(iv.base == "fbp_means" or (iv.base in ("ppv", "npv", "fbp") and iv.average != "micro") for iv in intervals):
        return None  # not linear: the integer program
    # every coefficient of class i depends on c_i alone (and on n, k, w): classes of one size are alike
    all_groups = []
    for c, _ in units:
        by_size: dict = {}
        for i, ci in enumerate(c):
            by_size.setdefault(ci, []).append(i)
        all_groups.append(list(by_size.values()))
    ranges = [len(g) * c[g[0]] + 1 for (c, _), gs in zip(units, all_groups) for g in gs]
    ranges += [len(g) * (sum(c) - c[g[0]]) + 1 for (c, _), gs in zip(units, all_groups) for g in gs]
    if math.prod(sorted(ranges)[:-1]) > 1_000_000:
        return None  # too many distinct class sizes: the integer program decides
    per_unit = []  # per unit: the groups (class indices) and their columns (r-coefs, q-coefs per row)
    consts = [Fraction(0)] * len(intervals)
    for ((c, _), w), groups in zip(zip(units, weights), all_groups):
        rows = []
        for j, iv in enumerate(intervals):
            row = _linear_row(c, w, iv)
            if row is None:
                return None
            A, B, const = row
            # d_i = c_i - r_i, s_i = c_i - r_i + q_i
            consts[j] += const + sum((A[g[0]] + B[g[0]]) * c[g[0]] * len(g) for g in groups)
            rows.append(({g[0]: -(A[g[0]] + B[g[0]]) for g in groups}, {g[0]: B[g[0]] for g in groups}))
        per_unit.append((c, rows, groups))
    # columns: per unit, R of every group then Q of every group
    cols_r = [(u, g) for u, (_, _, groups) in enumerate(per_unit) for g in groups]
    cols_q = list(cols_r)
    caps = [len(g) * per_unit[u][0][g[0]] for u, g in cols_r]
    caps += [len(g) * (sum(per_unit[u][0]) - per_unit[u][0][g[0]]) for u, g in cols_q]
    frac_rows = []
    for j in range(len(intervals)):
        frac_rows.append(
            [per_unit[u][1][j][0][g[0]] for u, g in cols_r] + [per_unit[u][1][j][1][g[0]] for u, g in cols_q]
        )
    rows, lbs, ubs = [], [], []
    for j, iv in enumerate(intervals):
        L = math.lcm(*[x.denominator for x in frac_rows[j]], consts[j].denominator)
        rows.append([int(x * L) for x in frac_rows[j]])
        lbs.append(math.ceil((iv.lo - consts[j]) * L))
        ubs.append(math.floor((iv.hi - consts[j]) * L))
    offset_r = offset_q = 0
    for _, _, groups in per_unit:  # sum r = sum q in every evaluation set
        row = [0] * len(caps)
        nr = len(groups)
        for g in range(nr):
            row[offset_r + g] = 1
            row[len(cols_r) + offset_q + g] = -1
        offset_r += nr
        offset_q += nr
        rows.append(row)
        lbs.append(0)
        ubs.append(0)
    state, x = search_box(rows, lbs, ubs, caps)
    if state == "infeasible":
        return "infeasible", None
    if state != "feasible":
        return None
    sol, pos = [], 0
    for c, _, groups in per_unit:
        k = len(c)
        r, q = [0] * k, [0] * k
        for gi, g in enumerate(groups):
            for i, v in zip(g, _spread(x[pos + gi], len(g))):
                r[i] = v
            for i, v in zip(g, _spread(x[len(cols_r) + pos + gi], len(g))):
                q[i] = v
        pos += len(groups)
        Q = sum(r)
        if any(r[i] + q[i] > Q for i in range(k)):
            return None  # Hall's condition fails on this spread: the integer program decides
        sol.append((tuple(c[i] - r[i] for i in range(k)), tuple(c[i] - r[i] + q[i] for i in range(k))))
    sol = tuple(sol)
    if not _verify(units, weights, sol, intervals, zero_division):
        return None
    return "feasible", sol
