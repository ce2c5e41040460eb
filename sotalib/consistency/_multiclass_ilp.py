"""The integer-program engine of multiclass reports (SciPy's HiGHS, infeasibility confirmed by CBC).

An integer program in the diagonal and the column sums of every evaluation
set; see :mod:`sotalib.consistency._multiclass` for the formulation.  SciPy's
``optimize`` and PuLP are imported when a program is solved, not when the
package loads (deliberately lazy: they take a noticeable part of a second).
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np

from ._multiclass_exhaustive import _verify
from ._multiclass_scores import (
    multiclass_score,
)

_DELTA = 1e-7


# --------------------------------------------------------------------------- integer program
def _highs(prob, time_limit):
    """Solve a PuLP model with SciPy's HiGHS in-process: 'infeasible', 'solution' or 'unknown'.

    Values are written into the PuLP variables.  HiGHS's verdict of infeasibility is not
    trusted (see :func:`sotalib.consistency.check_mos_kfold`): the caller confirms it with CBC.
    """
    from scipy.optimize import Bounds, LinearConstraint, milp  # lazy (see the module docstring)

    variables = prob.variables()
    index = {v.name: i for i, v in enumerate(variables)}
    rows, lbs, ubs = [], [], []
    with warnings.catch_warnings():  # PuLP 3.x deprecates the dict view of constraints (our pinned version)
        warnings.simplefilter("ignore", DeprecationWarning)
        constraints = list(prob.constraints.values())
    for con in constraints:
        row = np.zeros(len(variables))
        for v, a in con.items():
            row[index[v.name]] = a
        rhs = -float(con.constant)
        rows.append(row)
        lbs.append(rhs if con.sense >= 0 else -np.inf)
        ubs.append(rhs if con.sense <= 0 else np.inf)
    lb = [-np.inf if v.lowBound is None else v.lowBound for v in variables]
    ub = [np.inf if v.upBound is None else v.upBound for v in variables]
    integrality = [1 if v.cat == "Integer" else 0 for v in variables]
    res = milp(
        c=np.zeros(len(variables)),
        constraints=LinearConstraint(np.array(rows), lbs, ubs) if rows else (),
        integrality=integrality,
        bounds=Bounds(lb, ub),
        options={"time_limit": time_limit},
    )
    if res.status == 2:
        return "infeasible"
    if res.status != 0 or res.x is None:
        return "unknown"
    for v, x in zip(variables, res.x):
        v.varValue = float(x)
    return "solution"


def _solve(units, weights, intervals, zero_division, shift, time_limit, solver="highs", means=None):  # noqa: C901 (one integer program built row by row, as the paper writes it)
    import pulp  # lazy (see the module docstring)

    prob = pulp.LpProblem("multiclass", pulp.LpMinimize)
    prob.setObjective(pulp.LpAffineExpression())
    nonlin = {(iv.base, iv.average) for iv in intervals if iv.base in ("ppv", "npv", "fbp") and iv.average != "micro"}
    if any(iv.base == "fbp_means" for iv in intervals):
        nonlin.add(("ppv", "macro"))  # P, the macro precision, of the F-beta of the means
    vars_ = []
    for u, (c, _) in enumerate(units):
        n, k = sum(c), len(c)
        d = [prob.add_variable(f"d{u}_{i}", 0, c[i], cat="Integer") for i in range(k)]
        s = [prob.add_variable(f"s{u}_{i}", 0, n, cat="Integer") for i in range(k)]
        T = pulp.lpSum(d)
        prob.addConstraint(pulp.lpSum(s) == n, f"sum{u}")
        for i in range(k):
            prob.addConstraint(s[i] - d[i] >= 0, f"sd{u}_{i}")
            prob.addConstraint((c[i] - d[i]) + (s[i] - d[i]) + T <= n, f"hall{u}_{i}")
        terms = {}
        if nonlin:
            nbits = max(1, n.bit_length())
            for i in range(k):
                z = [prob.add_variable(f"z{u}_{i}_{b}", 0, 1, cat="Binary") for b in range(nbits)]
                prob.addConstraint(pulp.lpSum((1 << b) * z[b] for b in range(nbits)) == s[i], f"bits{u}_{i}")
                for base, avg in nonlin:
                    key = (base, avg)
                    if key in terms and i < len(terms[key]):
                        continue
                    beta2 = next((float(iv.beta) ** 2 for iv in intervals if (iv.base, iv.average) == key), 1.0)
                    tag = f"{base}{avg[:2]}{u}_{i}"
                    t = prob.add_variable(f"t{tag}", 0, 1)
                    w = [prob.add_variable(f"w{tag}_{b}", 0, 1) for b in range(nbits)]
                    for b in range(nbits):
                        prob.addConstraint(w[b] - z[b] <= 0, f"wa{tag}_{b}")
                        prob.addConstraint(w[b] - t <= 0, f"wb{tag}_{b}")
                        prob.addConstraint(w[b] - t - z[b] >= -1, f"wc{tag}_{b}")
                    ts = pulp.lpSum((1 << b) * w[b] for b in range(nbits))  # = t * s_i
                    tn = n - c[i] - s[i] + d[i]
                    if base == "ppv":
                        prob.addConstraint(ts - d[i] == 0, f"eq{tag}")
                        g = prob.add_variable(f"g{tag}", 0, 1, cat="Binary")  # s_i >= 1
                        prob.addConstraint(s[i] - g >= 0, f"ga{tag}")
                        prob.addConstraint(s[i] - n * g <= 0, f"gb{tag}")
                    elif base == "npv":
                        prob.addConstraint(n * t - ts - tn == 0, f"eq{tag}")
                        g = prob.add_variable(f"g{tag}", 0, 1, cat="Binary")  # s_i <= n - 1
                        prob.addConstraint(n - s[i] - g >= 0, f"ga{tag}")
                        prob.addConstraint(n - s[i] - n * g <= 0, f"gb{tag}")
                    else:
                        prob.addConstraint(beta2 * c[i] * t + ts - (1 + beta2) * d[i] == 0, f"eq{tag}")
                        g = None
                    if g is not None:
                        if zero_division is None:
                            prob.addConstraint(g == 1, f"gz{tag}")
                        elif Fraction(zero_division) == 0:
                            prob.addConstraint(t - g <= 0, f"gz{tag}")
                        else:
                            prob.addConstraint(t + g >= 1, f"gz{tag}")
                    terms.setdefault(key, []).append(t)
        vars_.append((d, s, terms))

    for j, iv in enumerate(intervals):
        rows = []  # (coef, var) with Fraction coefs, plus a constant
        const = Fraction(0)
        cont = False
        for (c, _), w, (d, s, terms) in zip(units, weights, vars_):
            n, k = sum(c), len(c)
            if iv.base == "acc" or (iv.average == "micro" and iv.base in ("sens", "ppv", "fbp")):
                rows += [(w * Fraction(1, n), x) for x in d]
            elif iv.average == "micro" and iv.base in ("spec", "npv"):
                const += w * Fraction(k - 2, k - 1)
                rows += [(w * Fraction(1, (k - 1) * n), x) for x in d]
            elif iv.base == "bacc":
                rows += [(w * Fraction(1, k * c[i]), d[i]) for i in range(k)]
            else:
                a = [Fraction(1, k)] * k if iv.average == "macro" else [Fraction(ci, n) for ci in c]
                if iv.base == "sens":
                    rows += [(w * a[i] / c[i], d[i]) for i in range(k)]
                elif iv.base == "spec":
                    for i in range(k):
                        f = w * a[i] / (n - c[i])
                        const += f * (n - c[i])
                        rows += [(f, d[i]), (-f, s[i])]
                elif iv.base == "fbp_means":
                    rows = None
                    break
                else:
                    cont = True
                    rows += [(w * a[i], terms[(iv.base, iv.average)][i]) for i in range(k)]
        if rows is None:
            _means_rows(prob, j, iv, units[0][0], vars_[0], shift, means or {})
            continue
        L = math.lcm(*[q.denominator for q, _ in rows], const.denominator)
        lo, hi = iv.lo - const, iv.hi - const
        if not cont and L * sum(abs(q) for q, _ in rows) * 10**6 < 2**52:
            expr = pulp.lpSum(int(q * L) * x for q, x in rows)
            prob.addConstraint(expr >= math.ceil(lo * L), f"r{j}lo")
            prob.addConstraint(expr <= math.floor(hi * L), f"r{j}hi")
        else:
            expr = pulp.lpSum(float(q) * x for q, x in rows)
            prob.addConstraint(expr >= float(lo) - shift * max(1.0, abs(float(lo))), f"r{j}lo")
            prob.addConstraint(expr <= float(hi) + shift * max(1.0, abs(float(hi))), f"r{j}hi")
    allv = [x for d, s, _ in vars_ for x in d + s]
    name = "unknown"
    if solver == "highs":  # in-process, no solver start-up; its infeasibility is confirmed by CBC
        name = _highs(prob, time_limit)
    if name != "solution":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            status = prob.solve(pulp.PULP_CBC_CMD(msg=False, timeLimit=time_limit))
        name = {"Infeasible": "infeasible", "Optimal": "solution"}.get(pulp.LpStatus[status], "unknown")
    if name == "infeasible":
        return "infeasible", None
    if name != "solution" or any(x.value() is None for x in allv):
        return "unknown", None
    sol = tuple((tuple(int(round(x.value())) for x in d), tuple(int(round(x.value())) for x in s)) for d, s, _ in vars_)
    return "solution", sol


def _means_rows(prob, j, iv, c, unit_vars, shift, means):
    """Rows of F = (1 + b^2) P R / (b^2 P + R) in [lo, hi] (P: macro precision, R: macro recall), a relaxation.

    F >= lo is the convex set phi(P, R) = (b^2 / R + 1 / P) / (1 + b^2) <= 1 / lo: tangent planes at the
    points ``means['cuts']`` are valid (phi lies above them), with P >= lo / (1 + b^2) and
    R >= lo b^2 / (1 + b^2).  F <= hi is P <= h(R) = hi R / ((1 + b^2) R - b^2 hi) where
    (1 + b^2) R > b^2 hi; h is convex, so on each interval of R between the breakpoints
    ``means['breaks']`` its secant lies above it: one binary per interval selects it.  A solution
    outside the true set refines the points (see :func:`_ilp`).
    """
    import pulp  # lazy (see the module docstring)

    d, _, terms = unit_vars
    k = len(c)
    b2 = float(iv.beta) ** 2
    P = pulp.lpSum(terms[("ppv", "macro")]) * (1.0 / k)
    R = pulp.lpSum((1.0 / (k * c[i])) * d[i] for i in range(k))
    lo, hi = float(iv.lo) - shift, float(iv.hi) + shift
    if lo > 0:
        prob.addConstraint(P >= lo / (1 + b2), f"m{j}p")
        prob.addConstraint(R >= lo * b2 / (1 + b2), f"m{j}r")
        for n_cut, (p0, r0) in enumerate(means.get("cuts", [])):
            phi = (b2 / r0 + 1 / p0) / (1 + b2)
            gp, gr = -1 / ((1 + b2) * p0 * p0), -b2 / ((1 + b2) * r0 * r0)
            prob.addConstraint(gp * P + gr * R <= 1 / lo - phi + gp * p0 + gr * r0, f"m{j}c{n_cut}")
    if hi < 1:
        r_star = b2 * hi / (1 + b2)
        pts = sorted({r_star, 1.0, *[x for x in means.get("breaks", []) if r_star < x < 1]})

        def h(r):
            return hi * r / ((1 + b2) * r - b2 * hi)

        ys = []
        for m, (ra, rb) in enumerate(zip(pts[:-1], pts[1:])):
            y = prob.add_variable(f"m{j}y{m}", 0, 1, cat="Binary")
            ys.append((y, ra, rb))
            if m == 0 and b2 * hi > 0:
                continue  # h is unbounded at r_star: no constraint on the first interval
            slope = (h(rb) - h(ra)) / (rb - ra)
            icpt = h(ra) - slope * ra
            big = 1 + abs(slope) + abs(icpt)
            prob.addConstraint(P - slope * R - icpt <= big * (1 - y), f"m{j}s{m}")
        y0 = prob.add_variable(f"m{j}ylow", 0, 1, cat="Binary")  # R <= r_star: no constraint
        prob.addConstraint(pulp.lpSum(y for y, _, _ in ys) + y0 == 1, f"m{j}one")
        prob.addConstraint(R - pulp.lpSum(rb * y for y, _, rb in ys) - r_star * y0 <= 0, f"m{j}rhi")
        prob.addConstraint(R - pulp.lpSum(ra * y for y, ra, _ in ys) >= 0, f"m{j}rlo")


def _refine(means, units, sol, zero_division) -> bool:
    """Add the failing solution's (P, R) as a tangent point and its R as a breakpoint; False if nothing to add."""
    c = units[0][0]
    d, s = sol[0]
    P = multiclass_score("ppv", c, d, s, average="macro", zero_division=zero_division)
    R = multiclass_score("sens", c, d, s, average="macro")
    if P is None or P <= 0 or R <= 0:
        return False
    pt = (float(P), float(R))
    if pt in means.setdefault("cuts", []):
        return False
    means["cuts"].append(pt)
    # R becomes an end of the intervals on both sides: the secants there equal h(R) and cut the point off
    # (the second breakpoint lies farther below R than the solver's feasibility tolerance)
    means.setdefault("breaks", []).extend([float(R), float(R) * (1 - 1e-4)])
    return True


def _ilp(units, weights, intervals, zero_division, time_limit):
    if any(iv.base == "fbp_means" for iv in intervals):
        # outer approximation of the F-beta of the means, refined at each unverified solution
        grid = [0.05 * i for i in range(1, 20)]
        means = {"cuts": [(p, r) for p in (0.25, 0.5, 0.75, 0.95) for r in (0.25, 0.5, 0.75, 0.95)], "breaks": grid}
        for _ in range(30):
            state, sol = _solve(units, weights, intervals, zero_division, _DELTA, time_limit, means=means)
            if state == "infeasible":
                return "infeasible", None
            if sol is None:
                return "undecided", None
            if _verify(units, weights, sol, intervals, zero_division):
                return "feasible", sol
            if not _refine(means, units, sol, zero_division):
                return "undecided", None
        return "undecided", None
    state, sol = _solve(units, weights, intervals, zero_division, _DELTA, time_limit)
    if state == "infeasible":
        return "infeasible", None
    if sol is not None and _verify(units, weights, sol, intervals, zero_division):
        return "feasible", sol
    if state == "solution":
        state2, sol = _solve(units, weights, intervals, zero_division, -_DELTA, time_limit)
        if sol is not None and _verify(units, weights, sol, intervals, zero_division):
            return "feasible", sol
    return "undecided", None
