"""Accuracies on n items: the lattice of values a benchmark of n items allows.

A share of items (accuracy, pass@1, exact match, resolved rate) on a
benchmark of ``n`` items is ``k/n`` for an integer count ``k``; a reported
value, rounded, is consistent when some count lands in its interval
(:mod:`sotalib.consistency._intervals`).  The same holds, with another
lattice, for

* the mean over ``R`` runs of every item: ``k/(nR)``;
* ``K`` samples per item scored by pass@k, the unbiased estimator of
  Chen et al. (2021, Eq. 1): per item ``1 - C(K-c, k)/C(K, k)`` for ``c``
  correct samples, averaged over the items.  With the common denominator
  ``C(K, k) n`` the value is ``(sum_i v_{c_i}) / (C(K, k) n)`` with the integers
  ``v_c = C(K, k) - C(K-c, k)``; since ``v_0 = 0``, a numerator ``s`` is
  attainable exactly when it is a sum of at most ``n`` values ``v_c``
  (``c >= 1``): the fewest values summing to each ``s`` is an unbounded
  knapsack solved by dynamic programming over ``s`` (:func:`_min_counts`),
  exact in integers;
* a macro average over subsets of known sizes, ``mean_i k_i/n_i``, and scores
  reported for the subsets and the whole together: dynamic programming over the
  attainable sums of the subsets' numerators (a bitset, with the common
  denominator ``lcm`` of the subsets' for a macro average).

Bounds: one pass@k lattice holds at most :data:`MAX_NUMERATORS` numerators
and :data:`MAX_DP_WORK` cells of work; one joint dynamic program at most
:data:`MAX_NUMERATORS` sums.  Beyond them, a macro average is searched for a
witness (an exact proof of consistency when one is found); otherwise the
question is refused with a ``ValueError`` naming the bound -- never guessed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property

import numpy as np

from .._validate import ParameterError, check_choice, check_int
from ._intervals import FLOAT_SLACK, ROUNDINGS, as_decimal, n_decimals, report_decimals
from ._scores import resolve_score
from ._typos import Suggestion, typo_candidates

__all__: list[str] = []

#: Numerators one lattice or one joint dynamic program may hold (a bitset or an array of this length).
MAX_NUMERATORS = 10_000_000

#: Cells of work of one pass@k dynamic program (numerators times distinct per-item values).
MAX_DP_WORK = 300_000_000

#: Largest number of runs ``min_repeats`` looks for.
MAX_MIN_REPEATS = 100

#: Largest number of runs or samples per item a report may state.
MAX_REPEATS = 1_000

#: Witnesses of consistency kept in ``evidence``.
MAX_EVIDENCE = 100

#: Tries of the witness search of a macro average beyond the exact bound, and the counts of the
#: next-to-last subset searched around its share in each.
SEARCH_TRIES = 100
SEARCH_WINDOW = 500

AVERAGES = ("micro", "macro")


# --------------------------------------------------------------------------- reported shares
@dataclass(frozen=True)
class Share:
    """One reported share of items and the closed interval [lo, hi] of its true value."""

    name: str
    quantity: str  # scores of the same quantity share one count (acc and error_rate)
    written: object
    reported: Fraction  # the share as written (a percent divided by 100; error_rate as given)
    lo: Fraction
    hi: Fraction
    decimals: int  # decimals of the share (0.6493 and 64.93%: 4)


def _quantity(name: str, what: str) -> tuple[str, bool]:
    """``(quantity, complement)`` of a score name: any share of items; a Table 2 name must be accuracy."""
    try:
        spec = resolve_score(name)
    except ValueError:
        key = str(name).strip().lower()
        if not key:
            raise ValueError(f"{what} names must not be empty") from None
        return key, False
    if spec.base != "acc":
        raise ParameterError(
            f"{what} {name}: with n_items every score is a share of the items (acc, pass@1, exact_match, "
            f"resolved, ...); {name} is not (it needs p and n)",
            "n_items",
            "p",
            "n",
        )
    return "acc", spec.complement


def read_share(
    name: str,
    value: object,
    *,
    eps: object = None,
    decimals: int | None = None,
    rounding: str = "any",
    what: str = "score",
) -> Share:
    """A reported share read once: ``"0.6493"``, ``0.6493`` or ``"64.93%"``, and the interval of its true value.

    ``decimals`` counts the digits written (``64.93%``: 2); without ``eps`` and
    ``decimals`` the value is read with the decimals it is written with.  ``eps``
    is on the scale of the share unless written as a percent (``"0.005%"``).
    """
    quantity, complement = _quantity(name, what)
    text = value.strip() if isinstance(value, str) else value
    percent = isinstance(text, str) and text.endswith("%")
    if percent:
        text = str(text)[:-1].strip()
    v = as_decimal(text, f"{what} {name}")
    scale = Fraction(100) if percent else Fraction(1)
    if eps is not None:
        if decimals is not None:
            raise ParameterError("give at most one of eps and decimals", "eps", "decimals")
        if rounding not in (None, "any"):
            raise ParameterError(f"rounding needs decimals, got rounding={rounding!r} with eps", "rounding", "eps")
        e_text = eps.strip() if isinstance(eps, str) else eps
        e_scale = Fraction(1)
        if isinstance(e_text, str) and e_text.endswith("%"):
            e_text, e_scale = e_text[:-1].strip(), Fraction(100)
        e = as_decimal(e_text, "eps") / e_scale
        if e < 0:
            raise ValueError(f"eps must be >= 0, got {float(e):g}")
        below = above = e
        d = report_decimals(v, None, text) + (2 if percent else 0)
    else:
        if decimals is not None:
            d_written = check_int("decimals", decimals, low=0, high=15)
            if n_decimals(v) > d_written:
                raise ValueError(
                    f"{what} {name}={value} has more decimals than the {d_written} given by decimals: "
                    "give the value as reported, or the number of decimals it was reported with"
                )
        else:
            d_written = report_decimals(v, None, text)
        rounding = check_choice("rounding", "any" if rounding is None else rounding, ROUNDINGS)
        u = Fraction(1, 10**d_written) / scale
        below, above = {"round": (u / 2, u / 2), "floor": (Fraction(0), u), "ceil": (u, Fraction(0)), "any": (u, u)}[
            rounding
        ]
        d = d_written + (2 if percent else 0)
    share = v / scale
    if not 0 <= share <= 1:
        shown = f"{float(v):g}%" if percent else f"{float(v):g}"
        raise ValueError(f"{what} {name} must be a share of the items, in [0, 1] (or 0% to 100%), got {shown}")
    slack = FLOAT_SLACK
    lo, hi = share - below - slack, share + above + slack
    if complement:
        lo, hi = 1 - hi, 1 - lo
    return Share(str(name), quantity, value, share, lo, hi, min(d, 17))


# --------------------------------------------------------------------------- one lattice
def pass_at_k_values(samples: int, pass_at: int) -> tuple[int, ...]:
    """``v_c = C(K, k) - C(K - c, k)`` for ``c = 0..K``: pass@k of one item times ``C(K, k)`` (Chen et al. 2021)."""
    total = math.comb(samples, pass_at)
    return tuple(total - math.comb(samples - c, pass_at) for c in range(samples + 1))


def _min_counts(values: Sequence[int], top: int) -> np.ndarray:
    """Fewest positive ``values`` (each usable any number of times) summing to each of ``0..top`` (large: none).

    An unbounded knapsack by dynamic programming, one pass per value: along each
    residue class modulo ``v``, ``f'[r + jv] = min_{i <= j} f[r + iv] + (j - i)``,
    a running minimum.
    """
    big = np.int64(1) << 40
    f = np.full(top + 1, big, dtype=np.int64)
    f[0] = 0
    for v in sorted({int(x) for x in values if x > 0}):
        rows = -(-(top + 1) // v)
        g = np.full(rows * v, big, dtype=np.int64)
        g[: top + 1] = f
        table = g.reshape(rows, v)
        idx = np.arange(rows, dtype=np.int64)[:, None]
        table = np.minimum.accumulate(table - idx, axis=0) + idx
        f = np.minimum(table.ravel()[: top + 1], big)
    return f


@dataclass(frozen=True)
class Lattice:
    """The values a share of ``n`` items can take: numerators ``s`` over the denominator ``den``.

    ``values`` None: every integer ``0..den`` (a count of ``n`` items, of ``nR`` over
    ``R`` runs, of ``nK`` correct samples for pass@1); else the per-item values of
    pass@k (divided by their greatest common divisor) and ``s`` is attainable when it
    is a sum of ``n`` of them.
    """

    n: int
    den: int
    repeats: int = 1
    samples: int | None = None
    pass_at: int = 1
    values: tuple[int, ...] | None = None

    def describe(self) -> str:
        """The lattice in words: "k/164 for any k", ..."""
        if self.values is None:
            if self.samples is not None:
                return f"k/{self.den} for any k ({self.n} items, {self.samples} samples each, pass@1)"
            if self.repeats > 1:
                return f"k/{self.den} for any k ({self.n} items, mean of {self.repeats} runs)"
            return f"k/{self.n} for any k"
        return f"a pass@{self.pass_at} of {self.n} items with {self.samples} samples each"

    @cached_property
    def _fewest(self) -> np.ndarray:
        assert self.values is not None
        return _min_counts(self.values, self.den)

    def window(self, lo: Fraction, hi: Fraction) -> tuple[int, int]:
        """Numerators ``a..b`` whose value lies in [lo, hi] (``a > b``: none)."""
        return max(0, math.ceil(lo * self.den)), min(self.den, math.floor(hi * self.den))

    def members(self, a: int, b: int, limit: int | None = None) -> list[int]:
        """Attainable numerators in ``a..b`` (at most ``limit``, the smallest first)."""
        if a > b:
            return []
        if self.values is None:
            return list(range(a, b + 1 if limit is None else min(b + 1, a + limit)))
        hits = np.flatnonzero(self._fewest[a : b + 1] <= self.n) + a
        return [int(x) for x in (hits if limit is None else hits[:limit])]

    def nearest(self, x: Fraction) -> tuple[int | None, int | None]:
        """The attainable numerators just below and above the value ``x``."""
        t = x * self.den
        a, b = min(self.den, math.floor(t)), max(0, math.ceil(t))
        if self.values is None:
            return (a if a >= 0 else None), (b if b <= self.den else None)
        below = np.flatnonzero(self._fewest[: max(a, -1) + 1] <= self.n)
        above = np.flatnonzero(self._fewest[b:] <= self.n) + b
        return (int(below[-1]) if len(below) else None), (int(above[0]) if len(above) else None)

    def count(self, a: int, b: int) -> int:
        """How many numerators in ``a..b`` are attainable."""
        if a > b:
            return 0
        if self.values is None:
            return b - a + 1
        return int(np.count_nonzero(self._fewest[a : b + 1] <= self.n))

    def bits(self, a: int, b: int) -> int:
        """The attainable numerators in ``a..b`` as a bitset (bit ``s`` set)."""
        if a > b:
            return 0
        if self.values is None:
            return ((1 << (b - a + 1)) - 1) << a
        mask = np.zeros(b + 1, dtype=bool)
        mask[a:] = self._fewest[a : b + 1] <= self.n
        return int.from_bytes(np.packbits(mask, bitorder="little").tobytes(), "little")

    def contiguous(self, a: int, b: int) -> bool:
        return self.values is None or a > b

    def witness(self, s: int) -> int | list[int]:
        """Evidence for the numerator ``s``: the count itself, or for pass@k the number of items with c correct."""
        if self.values is None:
            return s
        f = self._fewest
        hist = [0] * (len(self.values))
        while s > 0:
            for c in range(len(self.values) - 1, 0, -1):
                v = self.values[c]
                if v <= s and f[s - v] == f[s] - 1:
                    hist[c] += 1
                    s -= v
                    break
            else:  # pragma: no cover - the table guarantees a predecessor
                raise AssertionError("no predecessor in the pass@k table")
        hist[0] = self.n - sum(hist)
        return hist

    def value(self, s: int) -> Fraction:
        return Fraction(s, self.den)


def lattice(n: int, *, repeats: int = 1, samples: int | None = None, pass_at: int | None = None) -> Lattice:
    """The lattice of an accuracy on ``n`` items, over ``repeats`` runs or ``samples`` per item scored by pass@k."""
    n = check_int("n_items", n, low=1)
    repeats = check_int("repeats", repeats, low=1, high=MAX_REPEATS)
    if samples is None:
        if pass_at is not None:
            raise ParameterError("pass_at needs samples (the number of samples per item)", "pass_at", "samples")
        return Lattice(n, n * repeats, repeats)
    samples = check_int("samples", samples, low=1, high=MAX_REPEATS)
    if repeats != 1:
        raise ParameterError(
            "give repeats (runs of every item) or samples (per item), not both: R runs of K samples are R*K samples",
            "repeats",
            "samples",
        )
    k = 1 if pass_at is None else pass_at
    if not isinstance(k, (int, np.integer)) or isinstance(k, bool) or not 1 <= k <= samples:
        raise ParameterError(f"pass_at must be an integer in [1, samples={samples}], got {k!r}", "pass_at", "samples")
    k = int(k)
    if k == 1:
        return Lattice(n, n * samples, 1, samples, 1)
    vals = pass_at_k_values(samples, k)
    g = math.gcd(*vals)
    vals = tuple(v // g for v in vals)
    den = n * vals[-1]
    distinct = len({v for v in vals if v > 0})
    if den > MAX_NUMERATORS or den * distinct > MAX_DP_WORK:
        raise ParameterError(
            f"samples={samples} and pass_at={k} on n_items={n}: deciding pass@{k} exactly takes "
            f"{den:,} numerators (C(K, k) * n over their common divisor) and {den * distinct:,} cells of "
            f"dynamic programming, beyond the bound of {MAX_NUMERATORS:,} numerators and {MAX_DP_WORK:,} cells; "
            "not decided (never guessed)",
            "samples",
            "pass_at",
            "n_items",
        )
    return Lattice(n, den, 1, samples, k, vals)


# --------------------------------------------------------------------------- joint dynamic program
def _smear(bits: int, width: int, stride: int) -> int:
    """``OR_{j=0..width} bits << (j * stride)`` in ``O(log width)`` shifts."""
    out, span = bits, 1  # out covers j = 0..span-1
    while span < width + 1:
        step = min(span, width + 1 - span)
        out |= out << (step * stride)
        span += step
    return out


def _as_array(bits: int, length: int) -> np.ndarray:
    raw = bits.to_bytes((length + 8) // 8, "little")
    return np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little")[:length].astype(bool)


@dataclass(frozen=True)
class _Part:
    """One subset in the joint program: its lattice, the numerators its own score allows, its weight."""

    name: str
    lattice: Lattice
    a: int
    b: int
    weight: int


def _big(x: int) -> str:
    """A count for a message: in full up to 10^15, else its order of magnitude."""
    return f"{x:,}" if x < 10**15 else f"about 10^{len(str(x)) - 1}"


class JointTooLarge(ValueError):
    """The joint dynamic program is beyond its bound (the message says which)."""


def _joint(parts: Sequence[_Part], low: int, high: int, limit: int) -> tuple[int, list[list]]:
    """Sums ``sum_i s_i w_i`` in ``low..high`` with ``s_i`` attainable in ``a_i..b_i``: their number, witnesses.

    Dynamic programming over the attainable partial sums (a bitset), cut at
    ``high``; each witness is one count (or pass@k histogram) per part.
    """
    high = min(high, sum(p.b * p.weight for p in parts))
    low = max(low, sum(max(p.a, 0) * p.weight for p in parts))
    if low > high or any(p.a > p.b for p in parts):
        return 0, []
    if high + 1 > MAX_NUMERATORS:
        raise JointTooLarge(
            f"the joint check takes {_big(high + 1)} attainable sums (common denominator "
            f"{_big(max(p.lattice.den * p.weight for p in parts))}), beyond the bound of {MAX_NUMERATORS:,}"
        )
    mask = (1 << (high + 1)) - 1
    work = 0
    members: list[list[int] | None] = []
    stages = [1]
    state = 1
    for p in parts:
        if p.lattice.contiguous(p.a, p.b):
            state = _smear(state << (p.a * p.weight), p.b - p.a, p.weight) & mask
            members.append(None)
        else:
            ms = p.lattice.members(p.a, p.b)
            work += len(ms) * (high + 1)
            if work > 64 * MAX_DP_WORK:
                raise JointTooLarge(
                    f"the joint check of pass@k over the subsets takes more than {64 * MAX_DP_WORK:,} bit operations"
                )
            new = 0
            for s in ms:
                new |= state << (s * p.weight)
            state = new & mask
            members.append(ms)
        stages.append(state)
    final = state >> low << low
    count = final.bit_count()
    totals = np.flatnonzero(_as_array(final, high + 1))[:limit]
    arrays: dict[int, np.ndarray] = {}
    witnesses = []
    for t in totals:
        t = int(t)
        chosen: list = []
        for i in range(len(parts) - 1, -1, -1):
            p = parts[i]
            ms_arr = np.arange(p.a, p.b + 1) if members[i] is None else np.asarray(members[i], dtype=np.int64)
            if i not in arrays:
                arrays[i] = _as_array(stages[i], high + 1)
            idx = t - ms_arr * p.weight
            ok = (idx >= 0) & (idx <= high)
            ok[ok] = arrays[i][idx[ok]]
            cand = ms_arr[ok]
            # any candidate completes the sum; take the one whose share is nearest the rest's mean share
            span = sum(q.lattice.den * q.weight for q in parts[: i + 1])
            s = int(cand[np.argmin(np.abs(cand * p.weight * span - t * p.lattice.den * p.weight))])
            chosen.append(p.lattice.witness(s))
            t -= s * p.weight
        witnesses.append(chosen[::-1])
    return count, witnesses


def _macro_search(parts: Sequence[_Part], lo: Fraction, hi: Fraction, tries: int) -> list | None:
    """A witness of a macro average in [lo, hi] beyond the exact bound, or None (nothing proven).

    Each subset's share is set near the target, and the last two subsets are
    searched exactly for the rest; every witness is verified in rational arithmetic.
    """
    rng = np.random.default_rng(0)
    L = len(parts)
    order = sorted(range(L), key=lambda i: parts[i].lattice.den)
    last, first = order[-2:], order[:-2]
    target = (lo + hi) / 2 * L
    pa, pb = parts[last[0]], parts[last[1]]
    for attempt in range(tries):
        rest = target
        chosen: dict[int, int] = {}
        for j, i in enumerate(first):
            p = parts[i]
            share = rest / (L - j)
            jitter = 0 if attempt == 0 else int(rng.integers(-2, 3))
            want = math.floor(share * p.lattice.den) + jitter
            ms = p.lattice.members(max(p.a, want - 3), min(p.b, want + 3))
            if not ms:  # the target is beyond this subset's own range: its nearest end
                end = min(max(want, p.a), p.b)
                ms = [end] if p.lattice.values is None else p.lattice.members(p.a, p.b)
                if not ms:
                    return None
            s = min(ms, key=lambda x: abs(x - want))
            chosen[i] = s
            rest -= Fraction(s, p.lattice.den)
        low_r, high_r = lo * L - (target - rest), hi * L - (target - rest)
        want_a = math.floor(rest / 2 * pa.lattice.den)  # the two share the rest; a window of counts around it
        for sa in pa.lattice.members(max(pa.a, want_a - SEARCH_WINDOW), min(pa.b, want_a + SEARCH_WINDOW)):
            va = Fraction(sa, pa.lattice.den)
            a_b, b_b = math.ceil((low_r - va) * pb.lattice.den), math.floor((high_r - va) * pb.lattice.den)
            hit = pb.lattice.members(max(a_b, pb.a), min(b_b, pb.b), 1)
            if hit:
                chosen[last[0]], chosen[last[1]] = sa, hit[0]
                counts = [chosen[i] for i in range(L)]
                mean = sum(Fraction(s, p.lattice.den) for s, p in zip(counts, parts)) / L
                if lo <= mean <= hi and all(p.a <= s <= p.b for s, p in zip(counts, parts)):
                    return [p.lattice.witness(s) for s, p in zip(counts, parts)]
    return None


# --------------------------------------------------------------------------- the report
@dataclass(frozen=True)
class AccuracyAnswer:
    """The decision on an accuracy report, as :func:`sotalib.consistency.check_report` words it."""

    consistent: bool
    n_solutions: int
    evidence: list
    note: str
    diagnosis: str
    min_repeats: int | None
    example: dict | None
    average: str
    counted: bool = True
    witness: str = ""
    roundings: tuple[str, ...] | None = None
    suggestions: tuple[Suggestion, ...] = ()


@dataclass(frozen=True)
class _Setup:
    n: int
    subsets: dict[str, int] | None
    average: str
    samples: int | None
    pass_at: int | None
    whole: tuple[tuple[str, tuple[Share, ...]], ...]  # quantity -> its shares
    parts: dict[str, Share]  # subset -> its reported share
    pass_at_of: dict[str, int] = field(default_factory=dict)  # a score named pass@N: its k, with samples

    def pass_at_for(self, quantity: str | None) -> int | None:
        """The k of pass@k of a quantity (named pass@N, with samples), else the one ``pass_at``."""
        if quantity is None and len(self.whole) == 1:
            quantity = self.whole[0][0]
        return self.pass_at_of.get(quantity or "", self.pass_at)


def _read_subsets(subsets, n_items) -> tuple[int, dict[str, int] | None]:
    """``(n, subsets)``: the number of items and the subsets' sizes, checked against each other."""
    if subsets is not None:
        if not isinstance(subsets, Mapping) or not subsets:
            raise ValueError("subsets must map each subset's name to its number of items (at least one subset)")
        subsets = {str(k): check_int(f"subsets {k}", v, low=1) for k, v in subsets.items()}
        total = sum(subsets.values())
        if n_items is not None and check_int("n_items", n_items, low=1) != total:
            raise ParameterError(
                f"subsets hold {total:,} items in all, not n_items={n_items}: give the subsets of the whole",
                "subsets",
                "n_items",
            )
        n_items = total
    if n_items is None:
        raise ParameterError("n_items (or subsets, or a dataset) is required for an accuracy on n items", "n_items")
    return check_int("n_items", n_items, low=1), subsets


def _subset_name(name: object, subsets: Mapping[str, int]) -> str:
    """The subset ``name`` names (any case); an unknown name is refused with the closest ones."""
    import difflib

    key = str(name)
    if key in subsets:
        return key
    lower = {k.lower(): k for k in subsets}
    if key.lower() in lower:
        return lower[key.lower()]
    close = difflib.get_close_matches(key, list(subsets), n=3, cutoff=0.6)
    hint = f"did you mean {', '.join(close)}? " if close else ""
    listed = ", ".join(list(subsets)[:20]) + (" ..." if len(subsets) > 20 else "")
    raise ValueError(f"subset_scores {name!r} is not a subset; {hint}the subsets are {listed}")


def _read_setup(
    scores, *, n_items, subsets, subset_scores, average, samples, pass_at, eps, decimals, rounding
) -> _Setup:
    average = check_choice("average", "micro" if average is None else average, AVERAGES)
    n, subsets = _read_subsets(subsets, n_items)
    if average == "macro" and subsets is None:
        raise ParameterError(
            "average='macro' needs subsets: the number of items of each (or a dataset that has them); "
            "the whole's score is then the mean of their accuracies",
            "average",
            "subsets",
        )
    tol = dict(eps=eps, decimals=decimals, rounding=rounding)
    parts: dict[str, Share] = {}
    if subset_scores:
        if subsets is None:
            raise ParameterError(
                "subset_scores needs subsets: the number of items of each (or a dataset that has them)",
                "subset_scores",
                "subsets",
            )
        for name, value in subset_scores.items():
            key = _subset_name(name, subsets)
            if key in parts:
                raise ValueError(f"subset_scores {key} given twice")
            share = read_share("acc", value, **tol, what=f"subset score {key}")
            parts[key] = Share(key, key, value, share.reported, share.lo, share.hi, share.decimals)
    shares = [read_share(name, value, **tol) for name, value in (scores or {}).items()]
    if not shares and not parts:
        raise ValueError("scores must name at least one reported score (e.g. acc=0.6493)")
    grouped: dict[str, list[Share]] = {}
    for sh in shares:
        if any(x.name.strip().lower() == sh.name.strip().lower() for x in grouped.get(sh.quantity, [])):
            raise ValueError(f"score {sh.name} given twice")
        grouped.setdefault(sh.quantity, []).append(sh)
    if parts and len(grouped) > 1:
        raise ParameterError(
            "subset_scores go with one score of the whole (the same quantity on the subsets and the whole); got "
            + ", ".join(grouped),
            "subset_scores",
            "scores",
        )
    whole = tuple((q, tuple(v)) for q, v in grouped.items())
    return _Setup(n, subsets, average, samples, pass_at, whole, parts, _pass_at_names(grouped, samples, pass_at))


def _pass_at_names(grouped: Mapping[str, list[Share]], samples, pass_at) -> dict[str, int]:
    """With ``samples``, the k of each score named ``pass@k`` (``pass_at``, if given, must agree)."""
    import re

    out: dict[str, int] = {}
    if samples is None:
        return out
    for q in grouped:
        m = re.fullmatch(r"pass@(\d+)", q.replace(" ", ""))
        if m:
            k = int(m.group(1))
            if pass_at is not None and k != pass_at:
                raise ParameterError(
                    f"score {q} names pass@{k} but pass_at={pass_at}: drop pass_at (a score named pass@k gives k)",
                    "pass_at",
                    "scores",
                )
            out[q] = k
    return out


def _window(shares: Sequence[Share]) -> tuple[Fraction, Fraction]:
    return max(s.lo for s in shares), min(s.hi for s in shares)


def _product(lists: list[list], limit: int) -> list:
    import itertools

    return [list(x) for x in itertools.islice(itertools.product(*lists), limit)]


@dataclass(frozen=True)
class _Decision:
    consistent: bool
    n_solutions: int
    evidence: list
    note: str
    failing: tuple[str, ...]  # what fails alone (for the diagnosis)
    counted: bool = True
    dens: object = None
    witness: str = ""


def _decide_whole(setup: _Setup, repeats: int, limit: int) -> _Decision:
    """No subsets to check jointly: each quantity on the lattice of the whole, alone."""
    lists: list[list] = []
    count, failing, notes, forms = 1, [], [], []
    for q, shares in setup.whole:
        lat = lattice(setup.n, repeats=repeats, samples=setup.samples, pass_at=setup.pass_at_for(q))
        a, b = lat.window(*_window(shares))
        ms = lat.members(a, b, limit)
        if not ms:
            failing.append(q)
        count *= lat.count(a, b)
        lists.append([lat.witness(s) for s in ms])
        notes.append(lat.describe().replace(" for any k", ""))
        forms.append(_form(lat))
    evidence = [x[0] for x in _product(lists, limit)] if len(lists) == 1 else _product(lists, limit)
    note = "; ".join(dict.fromkeys(notes))
    form = "; ".join(dict.fromkeys(forms))
    if len(setup.whole) > 1:
        form = f"one per score ({', '.join(q for q, _ in setup.whole)}): {form}"
    return _Decision(
        not failing, count, evidence if not failing else [], note, tuple(failing), dens=setup.n * repeats, witness=form
    )


def _decide(setup: _Setup, repeats: int, limit: int = MAX_EVIDENCE) -> _Decision:
    if not setup.parts and setup.average == "micro":
        return _decide_whole(setup, repeats, limit)
    pass_at = setup.pass_at_for(None)
    lat = lattice(setup.n, repeats=repeats, samples=setup.samples, pass_at=pass_at)
    assert setup.subsets is not None
    lats = {k: lattice(v, repeats=repeats, samples=setup.samples, pass_at=pass_at) for k, v in setup.subsets.items()}
    L = len(lats)
    failing = []
    windows = {}
    for k, x in lats.items():
        windows[k] = x.window(setup.parts[k].lo, setup.parts[k].hi) if k in setup.parts else (0, x.den)
        if k in setup.parts and not x.members(*windows[k], 1):
            failing.append(k)
    # a subset whose own score leaves one count is a constant: out of the common denominator of the rest
    pinned: dict[str, int] = {}
    for k, x in lats.items():
        ms = x.members(*windows[k], 2) if k in setup.parts else []
        if len(ms) == 1:
            pinned[k] = ms[0]
    free = [k for k in lats if k not in pinned]
    if setup.average == "macro":
        M = math.lcm(*(lats[k].den for k in free)) if free else 1
        weights = {k: M // lats[k].den for k in free}
        const = sum((Fraction(s, lats[k].den) for k, s in pinned.items()), Fraction(0))
    else:
        M, weights = 1, {k: 1 for k in free}
        const = Fraction(sum(pinned.values()))
    parts = [_Part(k, lats[k], *windows[k], weights[k]) for k in free]
    # the whole's value v is (const + sum_free s_i w_i / M) / scale
    scale = L if setup.average == "macro" else sum(x.den for x in lats.values())
    whole = setup.whole or (("", ()),)
    total, counted = 1, True
    lists = []
    what = "macro average" if setup.average == "macro" else "micro average (all items)"
    for q, shares in whole:
        lo, hi = _window(shares) if shares else (Fraction(0), Fraction(1))
        if shares and not failing and setup.average == "micro" and not lat.members(*lat.window(lo, hi), 1):
            failing.append(q)
        low, high = max(0, math.ceil((lo * scale - const) * M)), math.floor((hi * scale - const) * M)
        try:
            count, wit = _joint(parts, low, high, limit)
        except JointTooLarge as exc:
            if setup.average != "macro":
                raise ParameterError(f"subsets: {exc}; not decided (never guessed)", "subsets") from None
            nf = len(parts)
            found = _macro_search(parts, (lo * L - const) / nf, (hi * L - const) / nf, SEARCH_TRIES)
            if found is None:
                raise ParameterError(
                    f"subsets: the macro average over {L} subsets cannot be decided exactly: {exc}, and a search "
                    f"of {SEARCH_TRIES} tries found no counts that give it; not decided (never guessed)",
                    "subsets",
                ) from None
            count, wit, counted = 1, [found], False
        total *= count
        full = []
        for w in wit:
            by_name = dict(zip(free, w))
            full.append([by_name[k] if k in by_name else lats[k].witness(pinned[k]) for k in lats])
        lists.append(full)
    ok = total > 0
    evidence = [x[0] for x in _product(lists, limit)] if len(lists) == 1 else _product(lists, limit)
    src = "samples" if setup.samples else "runs"
    per = f", {repeats} runs" if repeats > 1 and src == "runs" else ""
    note = f"{what} over {L} subsets ({setup.n:,} items{per})" + ("" if counted else "; found by search, not counted")
    form = f"one per subset ({', '.join(list(lats)[:5])}{', ...' if L > 5 else ''}): {_form(lat)}"
    if len(whole) > 1:
        form = f"one list per score ({', '.join(q for q, _ in whole)}), {form}"
    dens = [x.den for x in lats.values()]
    return _Decision(ok, total, evidence if ok else [], note, tuple(failing), counted, dens=dens, witness=form)


def _form(lat: Lattice) -> str:
    """What one witness of ``lat`` is, in words."""
    if lat.values is None:
        if lat.samples is not None:
            return "correct samples k of n K"
        return "count k of n R" if lat.repeats > 1 else "count k of n"
    return f"the numbers of items with 0, 1, ..., {lat.samples} correct samples"


def _fmt_value(x: Fraction, decimals: int) -> str:
    return f"{float(x):.{min(decimals + 1, 17)}f}"


def _lattice_words(shares: Sequence[Share], lat: Lattice, several: bool) -> str:
    s = shares[0]
    who = ", ".join(f"{x.name}={x.written}" for x in shares) if several or len(shares) > 1 else f"{s.written}"
    if len(shares) > 1 and lat.members(*lat.window(shares[0].lo, shares[0].hi), 1):
        return f"{who} fit no single count together ({lat.describe()})"
    lo_s, hi_s = lat.nearest((s.lo + s.hi) / 2)
    near = [x for x in (lo_s, hi_s) if x is not None]
    d = s.decimals
    if lat.values is None:
        shown = " and ".join(f"{x}/{lat.den} = {_fmt_value(lat.value(x), d)}" for x in near)
        return f"{who} is not {lat.describe()} (the nearest are {shown})"
    shown = " and ".join(_fmt_value(lat.value(x), d) for x in near)
    return f"{who} is not {lat.describe()} (the nearest attainable values are {shown})"


def check_accuracy(
    scores: Mapping[str, object] | None,
    *,
    n_items: int | None,
    subsets: Mapping[str, int] | None = None,
    subset_scores: Mapping[str, object] | None = None,
    average: str | None = None,
    repeats: int = 1,
    samples: int | None = None,
    pass_at: int | None = None,
    eps: object = None,
    decimals: int | None = None,
    rounding: str | None = None,
    typos: bool = True,
) -> AccuracyAnswer:
    """Decide an accuracy report on ``n_items`` (the worker of :func:`sotalib.consistency.check_report`).

    ``typos``: when the report is inconsistent, search the plausible typos (:func:`_typos`).
    """
    setup = _read_setup(
        scores,
        n_items=n_items,
        subsets=subsets,
        subset_scores=subset_scores,
        average=average,
        samples=samples,
        pass_at=pass_at,
        eps=eps,
        decimals=decimals,
        rounding=rounding,
    )
    repeats = check_int("repeats", repeats, low=1, high=MAX_REPEATS)
    dec = _decide(setup, repeats)
    min_r, example, searched = None, None, True
    if setup.samples is None:
        for r in range(1, MAX_MIN_REPEATS + 1):
            try:
                d = dec if r == repeats else _decide(setup, r, 1)
            except ValueError:
                searched = False
                break
            if d.consistent:
                min_r, example = r, {"repeats": r, "counts": d.evidence[0], "of": d.dens}
                break
    found = _typos(setup, repeats, dec.failing) if typos and not dec.consistent else []
    text = "" if dec.consistent else _diagnosis(setup, repeats, dec, min_r, example, searched, found)
    fitting = None
    if dec.consistent and eps is None and rounding in (None, "any"):  # which conventions the report fits
        fitting = []
        for how in ("round", "floor", "ceil"):
            try:
                d = _decide(replace(setup, **_reread(scores, subset_scores, setup, eps, decimals, how)), repeats, 1)
            except ValueError:
                continue
            if d.consistent:
                fitting.append(how)
    return AccuracyAnswer(
        dec.consistent,
        dec.n_solutions,
        dec.evidence,
        dec.note,
        text,
        min_r,
        example,
        setup.average,
        dec.counted,
        dec.witness,
        None if fitting is None else tuple(fitting),
        tuple(t.suggestion for t in found),
    )


@dataclass(frozen=True)
class _Typo:
    """A suggestion and its words for the diagnosis ("13.3% fits (4 of 30)")."""

    suggestion: Suggestion
    words: str
    distance: Fraction  # the change on the scale of the share (0.001 for 13.4% -> 13.3%)


def _example_words(setup: _Setup, counts, of) -> str:
    """Counts that give a value, in words: "4 of 30", "counts [..] of [..]", or a pass@k histogram."""
    if isinstance(counts, int) and isinstance(of, int):
        return f"{counts} of {of}"
    if of is None:
        return f"items with 0, 1, ..., {setup.samples} correct samples: {counts}"
    if isinstance(counts, list) and isinstance(of, list) and len(counts) > 5:  # many subsets: the first few
        return f"counts {str(counts[:3])[:-1]}, ...] of {str(of[:3])[:-1]}, ...]"
    return f"counts {counts} of {of}"


#: A share that any value fits (the window of no other score).
_ANY = Share("", "", "", Fraction(0), Fraction(0), Fraction(1), 0)


def _typos(setup: _Setup, repeats: int, failing: Sequence[str] = ()) -> list[_Typo]:
    """The plausible typos of an inconsistent report: per reported score, its nearest candidate that fits.

    The candidates of each score are those of :func:`sotalib.consistency._typos.typo_candidates`
    (a few units of the last decimal written, one digit, two swapped digits), on the scale the
    score is written in (``13.4%``: percent, one decimal); each moves the interval of the score's
    true value by the change and is decided by the same exact check (:func:`_decide`), jointly with
    the other scores and the subsets' scores.  Nearest first.
    """
    entries: list[tuple[str, Share, bool, str | tuple[int, int]]] = []
    for qi, (_q, shares) in enumerate(setup.whole):
        for si, sh in enumerate(shares):
            entries.append((sh.name, sh, _quantity(sh.name, "score")[1], (qi, si)))
    for key, sh in setup.parts.items():
        entries.append((f"{key} (subset)", sh, False, key))
    alone = not setup.parts and setup.average == "micro"  # each quantity on the whole's lattice, alone
    out: list[_Typo] = []
    for name, sh, complement, where in entries:
        if alone and set(failing) - {sh.quantity}:
            continue  # another quantity fails whatever this score is
        found = _score_typo(setup, repeats, name, sh, complement, where, alone, len(entries) > 1)
        if found is not None:
            out.append(found)
    return sorted(out, key=lambda t: (t.distance, t.suggestion.score))


def _screen(setup: _Setup, repeats: int, sh: Share, complement: bool):
    """A fast necessary test of a candidate of ``sh`` when its quantity stands alone on the whole's lattice.

    ``test(value, scale)`` is False when no count lands even in the candidate's window widened
    by 1e-6 of a count (floats); the exact check decides the rest.
    """
    lat = lattice(setup.n, repeats=repeats, samples=setup.samples, pass_at=setup.pass_at_for(sh.quantity))
    lo_o, hi_o = _window([x for x in dict(setup.whole)[sh.quantity] if x is not sh] or [_ANY])
    f_lo, f_hi, f_slo, f_shi = float(lo_o), float(hi_o), float(sh.lo), float(sh.hi)
    f_rep, sgn = float(sh.reported), -1.0 if complement else 1.0

    def test(c: Fraction, new: Share | None = None) -> bool:
        if new is not None:  # exact, on the lattice (pass@k included)
            return bool(lat.members(*lat.window(max(lo_o, new.lo), min(hi_o, new.hi)), 1))
        if lat.values is not None:
            return True
        f_shift = sgn * (float(c) - f_rep)
        a = max(f_lo, f_slo + f_shift) * lat.den - 1e-6
        b = min(f_hi, f_shi + f_shift) * lat.den + 1e-6
        return math.ceil(a) <= math.floor(b)

    return test, lat


def _score_typo(setup: _Setup, repeats: int, name: str, sh: Share, complement: bool, where, alone: bool, several):
    """The nearest candidate of one score that makes the report consistent (a :class:`_Typo`), or None."""
    test, lat = _screen(setup, repeats, sh, complement) if alone else (None, None)
    percent = isinstance(sh.written, str) and sh.written.strip().endswith("%")
    scale = 100 if percent else 1
    d = max(0, sh.decimals - (2 if percent else 0))
    written = sh.reported * scale
    for c, kind in typo_candidates(written, d, 0, scale):
        if test is not None and not test(c / scale):
            continue
        delta = c / scale - sh.reported
        shift = -delta if complement else delta
        new = replace(sh, reported=c / scale, lo=sh.lo + shift, hi=sh.hi + shift)
        if test is not None and not test(c / scale, new):
            continue
        if isinstance(where, str):
            trial = replace(setup, parts={**setup.parts, where: new})
        else:
            qi, si = where
            q, shares = setup.whole[qi]
            fixed = (q, shares[:si] + (new,) + shares[si + 1 :])
            trial = replace(setup, whole=setup.whole[:qi] + (fixed,) + setup.whole[qi + 1 :])
        try:
            dec = _decide(trial, repeats, 1)
        except ValueError:  # beyond an exact bound: not decided, so not proposed
            continue
        if not dec.consistent:
            continue
        counts = dec.evidence[0]
        of: object  # one denominator, one per subset, or None (a pass@k histogram)
        if lat is not None:
            of = lat.den if lat.values is None else None
            if len(setup.whole) > 1:  # one witness per quantity: this score's
                counts = counts[[q for q, _ in setup.whole].index(sh.quantity)]
        else:
            of = dec.dens
        sug = Suggestion(
            name,
            round(float(written), d),
            round(float(c), d),
            round(float(c - written), d),
            int(dec.n_solutions),
            (counts, of),
            "accuracy",
            d,
            kind,
        )
        value = f"{float(c):.{d}f}{'%' if percent else ''}"
        who = f"{name} {value}" if several else value
        return _Typo(sug, f"{who} fits ({_example_words(setup, counts, of)})", abs(delta))
    return None


def _reread(scores, subset_scores, setup: _Setup, eps, decimals, rounding: str) -> dict:
    """The reported shares of ``setup`` read again under another rounding convention."""
    new = _read_setup(
        scores,
        n_items=setup.n,
        subsets=setup.subsets,
        subset_scores=subset_scores,
        average=setup.average,
        samples=setup.samples,
        pass_at=setup.pass_at,
        eps=eps,
        decimals=decimals,
        rounding=rounding,
    )
    return {"whole": new.whole, "parts": new.parts}


def _diagnosis(
    setup: _Setup, repeats: int, dec: _Decision, min_r, example, searched: bool, typos: Sequence[_Typo] = ()
) -> str:
    n_scores = sum(len(s) for _, s in setup.whole) + len(setup.parts)
    several = n_scores > 1
    lat = lattice(setup.n, repeats=repeats, samples=setup.samples, pass_at=setup.pass_at_for(None))
    said = []
    if not setup.parts and setup.average == "micro":
        for q, shares in setup.whole:
            if q in dec.failing:
                own = lattice(setup.n, repeats=repeats, samples=setup.samples, pass_at=setup.pass_at_for(q))
                said.append(_lattice_words(shares, own, several))
    else:
        assert setup.subsets is not None
        for q in dec.failing:
            if q in setup.parts:
                k = setup.pass_at_for(None)
                sub = lattice(setup.subsets[q], repeats=repeats, samples=setup.samples, pass_at=k)
                said.append(f"subset {q}: " + _lattice_words((setup.parts[q],), sub, True))
            else:
                shares = dict(setup.whole)[q]
                said.append(_lattice_words(shares, lat, several))
        if not said:
            what = "macro average of the subsets" if setup.average == "macro" else "whole"
            said.append(
                "each score fits alone, but no counts of the subsets give them all together"
                if several
                else f"no counts of the subsets give this {what}"
            )
    text = "; ".join(said)
    typo = f"a typo: {typos[0].words}" if typos else ""
    if setup.samples is not None:
        return text + (f"; or {typo}" if typo else "")
    it = "them" if several else "it"
    if min_r is not None and min_r > repeats:
        counts, of = example["counts"], example["of"]
        eg = f"{counts} of {of}" if isinstance(of, int) else f"counts {counts} of {of}"
        runs = "one run" if repeats == 1 else f"{repeats} runs"
        text += f"; not {runs}: the mean of {min_r} runs can give {it} (e.g. {eg})"
        text += f", or {typo}" if typo else ""
    elif min_r is not None:
        text += f"; {min_r} run{'s' if min_r > 1 else ''} can give {it}"
        text += f", or {typo}" if typo else ""
    elif searched:
        text += (
            f"; no mean of up to {MAX_MIN_REPEATS} runs gives {it} either: another number of items (another "
            f"version of the benchmark) or {typo or 'a typo?'}"
        )
    elif typo:
        text += f"; {typo}"
    return text
