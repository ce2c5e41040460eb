"""Table 4 by machine: a randomized counterexample search for every ranking function and property.

Section 4.2 of {pavao2024judge} lists seven properties of ranking functions
and, in its Table 4, which of six functions satisfy them.  This module tests
each claim: for a function ``f`` and a property it draws small random score
matrices (integer scores, 3 to 5 candidates, 2 to 9 judges) built so that the
property's premise holds, and checks the conclusion.  A violation is a
*counterexample*: a concrete score matrix (or pair of matrices) printed by
:func:`format_counterexample`.  Finding none proves nothing, but the searches
are sized so that every violation the chapter reports is found many times
over.

How the functions are evaluated
-------------------------------
* Deterministic functions give one final ranking ``rank(f(M))`` (ties count
  one half).
* The random dictator is evaluated as the lottery it is: each judge's ranking
  with probability ``1/m``.  A property holds for it when it holds for the
  distribution of outcomes: "``c`` wins" means "``c`` wins with probability 1",
  "the order of ``u`` and ``v``" means "the probability that ``u`` is above
  ``v``" (a tie counting one half), and "the ranking is unchanged" means "the
  distribution of rankings is unchanged".
* Kemeny-Young is computed by brute force over all orderings.  A profile
  with several optimal orderings has no single Kemeny ranking; trials that
  need one are *skipped* and counted.

The properties (premise -> conclusion)
--------------------------------------
majority
    ``c`` is strictly best for more than half of the judges -> ``c`` is ranked
    first, alone.
condorcet
    ``c`` beats every other candidate for more judges than the reverse -> ``c``
    is ranked first, alone.
consistency
    the judges are split into two groups whose rankings are equal -> the
    whole panel gives that ranking.
participation
    a judge scores ``u`` strictly above ``v`` -> removing that judge does not
    worsen ``v``'s position relative to ``u``.
iia
    every candidate other than ``u`` and ``v`` is replaced (and their number
    changed) -> the order of ``u`` and ``v`` is unchanged.
liia
    candidates ``S`` occupy consecutive positions -> ranking ``S`` alone
    orders them the same way.
clone-proof
    a clone ``c'`` of ``c`` is added (in every judge adjacent to ``c``: equal,
    just above or just below) -> the order of the other candidates is
    unchanged.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from .._json import json_safe
from .._result import Result
from .._rng import as_generator, int_seed
from .._validate import check_choice, check_int
from ._property_checks import (
    _MAKERS,
    _VERIFIERS,
    FUNCTIONS,
    PROPERTIES,
    Counterexample,
    _Ambiguous,
    _names,
    _random_matrix,
    _shrink,
)

__all__ = ["SearchResult", "property_table", "search_counterexample"]


@dataclass(frozen=True, repr=False)
class SearchResult(Result):
    """Outcome of :func:`search_counterexample`.

    Attributes
    ----------
    function : str
        The ranking function.
    property : str
        The property.
    n_resamples : int
        Random instances drawn (the search budget).
    tested : int
        Instances that satisfied the property's premise (and had a unique
        Kemeny ranking where needed).
    counterexample : Counterexample or None
        The first violation found, or None.
    """

    function: str
    property: str
    n_resamples: int
    tested: int
    counterexample: Counterexample | None

    def to_dict(self) -> dict:
        """JSON-safe form; the counterexample (if any) as its own ``to_dict()``."""
        out = {f: getattr(self, f) for f in ("function", "property", "n_resamples", "tested")}
        out["counterexample"] = None if self.counterexample is None else self.counterexample.to_dict()
        return json_safe(out)

    @builtins.property  # the class's field `property` hides the builtin for type checkers
    def holds(self) -> bool:
        """No counterexample was found."""
        return self.counterexample is None


def search_counterexample(
    function: str,
    prop: str,
    *,
    n_resamples: int = 2000,
    rng: np.random.Generator | int | None = None,
    max_candidates: int = 5,
    max_judges: int = 9,
    shrink: bool = True,
) -> SearchResult:
    """Randomized search for a violation of property ``prop`` by ranking function ``function``.

    Parameters
    ----------
    function : str
        ``"random-dictator"``, ``"mean"``, ``"median"``, ``"average-rank"``,
        ``"copeland"``, ``"kemeny"`` or ``"relative-difference"``.
    prop : str
        ``"majority"``, ``"condorcet"``, ``"consistency"``,
        ``"participation"``, ``"iia"``, ``"liia"`` or ``"clone-proof"``.
    n_resamples : int
        Random instances to draw (the search budget); the search stops at the first counterexample.
    rng : int, numpy.random.Generator or None
        Randomness (SPEC 7): an int seed gives the numbers of ``numpy.random.default_rng(int)``;
        None draws fresh entropy.
    max_candidates, max_judges : int
        Instances have 3..``max_candidates`` candidates and up to ``max_judges``
        judges (twice as many for participation and clone-proofness); early
        trials are small.
    shrink : bool
        Delete judges and candidates from a counterexample while it stays one.

    Returns
    -------
    SearchResult
        The instances tested and the first counterexample found, if any.

    Raises
    ------
    ValueError
        An unknown function or property, or a count out of range.

    References
    ----------
    Pavão, *How to judge a competition*, Section 4.2 (properties of ranking
    functions) and Table 4.

    Examples
    --------
    >>> from sotalib.judging import search_counterexample
    >>> res = search_counterexample("mean", "majority", n_resamples=200, rng=1)
    >>> res.holds, res.counterexample.property
    (False, 'majority')
    """
    function = check_choice("function", function, FUNCTIONS)
    prop = check_choice("prop", prop, PROPERTIES)
    trials = check_int("n_resamples", n_resamples, low=1)
    max_candidates = check_int("max_candidates", max_candidates, low=3, high=6)
    max_judges = check_int("max_judges", max_judges, low=2)
    rng = as_generator(rng)
    make, verify = _MAKERS[prop], _VERIFIERS[prop]
    tested = 0
    lo = 1 if prop == "condorcet" else 2
    for t in range(trials):
        # small instances first, so that the first counterexample found is small
        grow = min(1.0, 4.0 * (t + 1) / trials)
        n = int(rng.integers(3, 3 + round(grow * (max_candidates - 3)) + 1))
        hi = max_judges if prop not in ("participation", "clone-proof") else 2 * max_judges
        m = int(rng.integers(lo, lo + round(grow * (hi - lo)) + 1))
        M = _random_matrix(rng, n, m)
        try:
            inst = make(rng, M, function) if prop == "consistency" else make(rng, M)
            if inst is None:
                continue
            ce = verify(function, *inst)
        except _Ambiguous:
            continue
        tested += 1
        if ce is not None:
            ce = replace(ce, meta=dict(inst[2]))
            if shrink:
                ce = _shrink(function, prop, inst, ce)
            return SearchResult(function, prop, trials, tested, ce)
    return SearchResult(function, prop, trials, tested, None)


def property_table(
    *,
    n_resamples: int = 2000,
    rng: np.random.Generator | int | None = None,
    functions: Sequence[str] = FUNCTIONS,
    properties: Sequence[str] = PROPERTIES,
) -> dict[tuple[str, str], SearchResult]:
    """Run :func:`search_counterexample` for every function and property: Table 4 by machine.

    The search of cell ``(i, j)`` (function ``i``, property ``j``) uses its
    own generator ``numpy.random.default_rng([seed, i, j])``, where ``seed``
    is ``rng`` when it is an int; a Generator ``rng`` draws ``seed`` from
    itself, None from fresh entropy.

    Parameters
    ----------
    n_resamples : int
        Random instances per cell.
    rng : int, numpy.random.Generator or None
        Randomness (see above).
    functions : sequence of str
        Ranking functions (default: all seven; see :func:`search_counterexample`).
    properties : sequence of str
        Properties (default: all seven, in Table 4's order).

    Returns
    -------
    dict
        ``{(function, property): SearchResult}``.

    Raises
    ------
    ValueError
        An unknown function or property, a bad count or ``rng``.

    References
    ----------
    Pavão, *How to judge a competition*, Section 4.2 and Table 4.

    Examples
    --------
    >>> from sotalib.judging import property_table
    >>> t = property_table(n_resamples=50, rng=7, functions=("mean",), properties=("majority", "iia"))
    >>> sorted(t)
    [('mean', 'iia'), ('mean', 'majority')]
    """
    seed = int_seed(rng)
    out = {}
    for i, f in enumerate(functions):
        for j, p in enumerate(properties):
            out[f, p] = search_counterexample(f, p, n_resamples=n_resamples, rng=np.random.default_rng([seed, i, j]))
    return out


def _fmt_matrix(M: np.ndarray, names) -> str:
    cols = [f"J{k + 1}" for k in range(M.shape[1])]
    cells = [[f"{x:g}" for x in row] for row in M]
    w = max([len(c) for row in cells for c in row] + [len(c) for c in cols])
    wn = max(len(s) for s in names)
    lines = [" " * wn + "  " + " ".join(c.rjust(w) for c in cols)]
    for name, row in zip(names, cells):
        lines.append(name.ljust(wn) + "  " + " ".join(c.rjust(w) for c in row))
    return "\n".join(lines)


def format_counterexample(ce: Counterexample) -> str:
    """The counterexample as small score matrices (candidates A, B, ...; judges J1, J2, ...) and a sentence."""
    n = ce.M.shape[0]
    text = [f"{ce.function} violates {ce.property}:", _fmt_matrix(ce.M, _names(n))]
    if ce.M2 is not None:
        names2 = list(ce.names2) if ce.names2 is not None else _names(ce.M2.shape[0])
        if ce.property == "clone-proof":
            names2[-1] = "clone"
        text += ["then:" if ce.property != "liia" else "alone:", _fmt_matrix(ce.M2, names2)]
    text.append(ce.explanation)
    return "\n".join(text)
