r"""Error bars and pairs of language-model evaluations: data noise, prediction noise and paired tests.

Wang (2025), *Measuring all the noises of LLM evals* (arXiv:2512.21326; its
code: ``crux-eval/eval-arena``, ``arena.py`` and ``estimators.py`` at commit
``89f867d``), and Miller (2024), *Adding error bars to evals* (arXiv:2411.00640):

* :func:`evaluation_noise` -- per model the accuracy, its standard error,
  the split of its variance into **data noise** (``se_data``, the paper's
  ``SE_x``) and **prediction noise** (``se_pred``) by the law of total
  variance with the paper's small-K correction, clustered standard errors
  (Miller's CRSE), an interval; for every pair of models the difference,
  its paired standard error (and its split), the correlation, the exact
  sign test and Holm's and Benjamini--Hochberg's control of the many
  comparisons; and a summary of the board;
* :func:`minimum_detectable_difference` -- the smallest true difference a
  two-sided z test finds with a given power;
* :func:`benchmark_noise_table` -- eval-arena's published summary row of a
  benchmark, with its definitions, to reproduce ``summary.csv``.

Notation.  Item ``i`` of ``n`` is answered by model ``a`` with ``K`` samples
(``per_item.samples``; one where None) whose mean is the cell ``x`` and
whose mean square is ``s`` (``per_item.squares``; for 0/1 samples ``s = x``;
when unknown and ``K = 1``, ``s = x**2``).  The unbiased within-item
variance of one sample is ``u = (s - x**2) K / (K - 1)`` (``K >= 2``).  The
paper's variances of one sample drawn at a random item, per model:

* total ``Var[A] = mean(s) - mean(x)**2``;
* prediction ``E_x Var_eps[A] = mean(u)``;
* data ``Var_x E_eps[A] = var(x) - mean(u / K)`` (the small-K correction:
  ``var(x)`` holds ``u / K`` of prediction noise per item),

so that total = data + prediction; the standard errors are their square
roots over ``sqrt(n)`` (``SE``, ``SE_x``, ``SE_pred``).  For one sample per
item the total is the plug-in variance (divisor ``n``), as the paper and
eval-arena write it: ``se`` is :func:`sotalib.judging.error_bars`' standard
error (divisor ``n - 1``) times ``sqrt((n - 1) / n)``.  A negative data
variance estimate is clipped to 0 (as eval-arena clips), after which the
split no longer adds up exactly.  The split needs ``squares`` and ``K >= 2``:
a model with one sample on every item, or without ``squares``, has no
``se_data``/``se_pred`` (None), and its cells count as single samples in
``se``; a model with ``K >= 2`` on some items only lends the mean ``u`` of
those items to its one-sample cells (assumed alike).
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy import special, stats

from .._numba import njit
from .._per_item import PerItem, as_per_item
from .._result import Result
from .._validate import check_choice, check_memory, check_probability, check_real

__all__ = [
    "BenchmarkNoiseTable",
    "EvaluationNoise",
    "ModelNoise",
    "NoiseSummary",
    "PairNoise",
    "benchmark_noise_table",
    "evaluation_noise",
    "minimum_detectable_difference",
]

#: Models per block of the pair computation (at most): a block holds about 40 arrays of ``block x m`` floats,
#: so it is made smaller for wide boards to keep them under ``_BLOCK_BYTES``.
_BLOCK = 256
_BLOCK_BYTES = 128 * 2**20


def _block_size(m: int) -> int:
    return int(min(_BLOCK, max(16, _BLOCK_BYTES // (40 * 8 * max(m, 1)))))


def _all_zero_one(X: np.ndarray, M: np.ndarray, rows: int = 1024) -> np.ndarray:
    """Per column: every answered cell is 0 or 1 (by chunks of rows, so no n x m temporary)."""
    out = np.ones(X.shape[1], dtype=bool)
    for r0 in range(0, X.shape[0], rows):
        x, mk = X[r0 : r0 + rows], M[r0 : r0 + rows]
        out &= np.all(~mk | (x == 0) | (x == 1), axis=0)
    return out


#: The normal interval is used by ``interval="auto"`` from this many items on (and 10 successes and failures).
SMALL_N = 100
#: eval-arena's defaults (``ReportArgs``): pairs within this accuracy, not told apart at this many sigmas,
#: both models above this accuracy.
MAX_DIFF = 0.2
SIGMA = 5.0
MIN_PERF = 0.1


def _nan_to_none(v: float) -> float | None:
    return float(v) if v is not None and math.isfinite(v) else None


# ---------------------------------------------------------------------------- the cells


@dataclass(frozen=True)
class _Cells:
    """The per-item table as dense arrays (zeros where not answered), with per-model column sums.

    ``SQ`` None means ``X**2`` (one sample per cell, or the within variance
    unknown); ``U`` None means no model's within-item variance is known (all
    zero), so a binary board of one sample per item holds only ``X`` and ``M``.
    """

    X: np.ndarray  # cell means (0 where missing)
    M: np.ndarray  # answered (bool)
    SQ: np.ndarray | None  # mean squares
    U: np.ndarray | None  # unbiased within variance of one sample (imputed per model; 0 where missing)
    UK: np.ndarray | None  # U / K
    u_known: np.ndarray  # per model: whether the prediction noise can be estimated
    binary: np.ndarray  # per model: every answered cell is 0/1 from one sample
    complete: bool
    n_answered: np.ndarray  # per model
    k_mean: np.ndarray  # per model: mean K over answered cells
    sum_x: np.ndarray  # per model: column sums of X, X**2, SQ, U, UK
    sum_x2: np.ndarray
    sum_sq: np.ndarray
    sum_u: np.ndarray
    sum_uk: np.ndarray


def _cells(t: PerItem) -> _Cells:
    Y = t.outcomes
    M = ~np.isnan(Y)
    complete = bool(M.all())
    X = Y if complete else np.where(M, Y, 0.0)
    m = Y.shape[1]
    n_answered = M.sum(axis=0)
    sum_x = X.sum(axis=0)
    sum_x2 = np.einsum("ij,ij->j", X, X)
    if t.samples is None:
        k_mean = np.ones(m)
        one_sample = np.ones(m, dtype=bool)
    else:
        K = t.samples
        k_mean = np.where(M, K, 0).sum(axis=0) / np.maximum(n_answered, 1)
        one_sample = np.all(~M | (K == 1), axis=0)
    binary = one_sample & _all_zero_one(X, M)
    SQ = U = UK = None
    known = np.zeros(m, dtype=bool)
    if t.squares is not None and t.samples is not None and not one_sample.all():
        K = np.where(M, t.samples, 1).astype(np.float64)
        SQ = np.where(M, np.maximum(t.squares, X * X), 0.0)
        multi = M & (K >= 2)
        u = np.where(multi, (SQ - X * X) * K / np.maximum(K - 1, 1), 0.0)
        known = multi.any(axis=0)
        fill = np.where(known, u.sum(axis=0) / np.maximum(multi.sum(axis=0), 1), 0.0)
        U = np.where(multi, u, np.where(M, fill[None, :], 0.0))
        U = np.where(known[None, :], U, 0.0)
        # a K = 1 cell whose within variance is imputed holds that much prediction noise in its mean square
        SQ = np.where(M & ~multi & known[None, :], X * X + U, SQ)
        UK = U / K
    elif t.squares is not None:
        SQ = np.where(M, np.maximum(t.squares, X * X), 0.0)
    return _Cells(
        X=X,
        M=M,
        SQ=SQ,
        U=U,
        UK=UK,
        u_known=known,
        binary=binary,
        complete=complete,
        n_answered=n_answered,
        k_mean=k_mean,
        sum_x=sum_x,
        sum_x2=sum_x2,
        sum_sq=sum_x2 if SQ is None else SQ.sum(axis=0),
        sum_u=np.zeros(m) if U is None else U.sum(axis=0),
        sum_uk=np.zeros(m) if UK is None else UK.sum(axis=0),
    )


def _cluster_codes(t: PerItem, clusters: Any) -> np.ndarray | None:
    if clusters is None:
        return None
    if isinstance(clusters, str):
        if clusters not in t.item_info:
            known = ", ".join(repr(k) for k in t.item_info) or "none"
            raise ValueError(f"clusters={clusters!r} is not a column of per_item.item_info (it has: {known})")
        labels = np.asarray(t.item_info[clusters])
    else:
        labels = np.asarray(clusters)
    if labels.ndim != 1 or labels.shape[0] != t.n:
        raise ValueError(f"clusters must give one label per item ({t.n}), got shape {labels.shape}")
    text = np.array(["" if _missing_label(v) else str(v) for v in labels.tolist()], dtype=object)
    if np.any(text == ""):
        i = int(np.argmax(text == ""))
        raise ValueError(f"clusters: item {t.items[i]!r} (row {i + 1}) has no cluster label")
    _, codes = np.unique(text.astype(str), return_inverse=True)
    return codes.astype(np.int64)


def _missing_label(v: Any) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v)) or (isinstance(v, str) and not v.strip())


def _cluster_sum(codes: np.ndarray | None, E: np.ndarray) -> np.ndarray:
    """Sums of the rows of ``E`` within each cluster (``E`` itself without clusters)."""
    if codes is None:
        return E
    out = np.zeros((int(codes.max()) + 1, E.shape[1]))
    np.add.at(out, codes, E)
    return out


# ---------------------------------------------------------------------------- exact tests


def _sign_test(wins_a: np.ndarray, wins_b: np.ndarray) -> np.ndarray:
    """Two-sided exact binomial test of ``floor(wins_a)`` successes in ``floor(wins_a + wins_b)`` at 1/2.

    eval-arena's ``binomtest(int(awins), int(awins + bwins))``: for 0/1
    outcomes the sign test on the discordant items (McNemar's exact test); 1
    where there is no discordant item.
    """
    k = np.floor(np.asarray(wins_a) + 1e-9)
    total = np.floor(np.asarray(wins_a) + np.asarray(wins_b) + 1e-9)
    k = np.minimum(k, total)
    low = np.minimum(k, total - k)
    with np.errstate(invalid="ignore"):
        kk = np.where(total > 0, low, 0)
        nn = np.maximum(total, 0)
        kk = np.where(np.isfinite(kk), kk, 0).astype(np.int64)
        nn = np.where(np.isfinite(nn), nn, 0).astype(np.int64)
        p = np.minimum(1.0, 2.0 * special.bdtr(kk, nn, 0.5))
    p = np.where(total <= 0, 1.0, p)
    p = np.where(2 * k == total, 1.0, p)
    return np.where(np.isfinite(wins_a) & np.isfinite(wins_b), p, np.nan)


def _critical_counts(n_max: int, threshold: float) -> np.ndarray:
    """For each number of discordant items ``t <= n_max``, the largest ``k`` whose sign test has p <= threshold.

    ``-1`` where none has.  The p-value ``2 P(X <= k)`` grows with ``k <=
    t/2``, so ``p > threshold`` exactly when ``min(k, t - k) >
    critical[t]``: the summary tells close pairs apart without a p-value each.
    """
    t = np.arange(n_max + 1, dtype=np.int64)
    lo = np.full(t.shape, -1, dtype=np.int64)  # p(lo) <= threshold holds (vacuously at -1)
    hi = t // 2 + 1  # p(hi) > threshold is assumed: the search never returns beyond t // 2
    while True:
        active = hi - lo > 1
        if not active.any():
            return lo
        mid = (lo + hi) // 2
        p = np.minimum(1.0, 2.0 * special.bdtr(np.maximum(mid, 0), t, 0.5))
        p = np.where(2 * mid == t, 1.0, p)
        ok = (p <= threshold) & active
        lo = np.where(ok, mid, lo)
        hi = np.where(active & ~ok, mid, hi)


def _holm(p: np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values, by the judging package's :func:`holm` (NaN stays NaN, not counted)."""
    from ._wilcoxon import holm

    out = np.full(p.shape, np.nan)
    ok = np.isfinite(p)
    out[ok] = holm(p[ok])
    return out


def _bh(p: np.ndarray) -> np.ndarray:
    """Benjamini--Hochberg q-values (NaN stays NaN and is not counted)."""
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(np.isfinite(p))
    if ok.size == 0:
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    m = order.size
    q = p[order] * m / np.arange(1, m + 1)
    out[order] = np.minimum(1.0, np.minimum.accumulate(q[::-1])[::-1])
    return out


# ---------------------------------------------------------------------------- results


def _json_column(values: Any) -> list:
    """A column as Python values (``tolist()``), NaN and infinities as None."""
    out = np.asarray(values).tolist()
    if np.asarray(values).dtype.kind == "f":
        return [v if math.isfinite(v) else None for v in out]
    return out


def _records(columns: dict[str, Any]) -> Iterator[dict]:
    """One JSON-safe dict per row of equal-length columns, keys in the columns' order (NaN as None)."""
    keys = list(columns)
    lists = [_json_column(columns[key]) for key in keys]
    for row in zip(*lists, strict=True):
        yield dict(zip(keys, row, strict=True))


@dataclass(frozen=True, repr=False)
class ModelNoise(Result):
    """Per-model error bars, columnar (one array entry per model).

    Attributes
    ----------
    model : tuple of str
        Model names.
    accuracy : numpy.ndarray
        Mean outcome over the items the model answered.
    se : numpy.ndarray
        The paper's total standard error ``SE(A)``: of one sample per item
        (``sqrt(se_data**2 + se_pred**2)`` before clipping); where the
        within-item variance is unknown, the standard error of the
        accuracy as given (``se_mean``).  Clustered when clusters are given.
    se_data, se_pred : numpy.ndarray
        Data noise ``SE_x(A)`` and prediction noise ``SE_pred(A)``; NaN
        (None in ``to_dict()``) where they cannot be estimated (one sample
        per item, or no ``squares``).
    se_mean : numpy.ndarray
        Standard error of the accuracy as reported (the mean of ``K``
        samples per item): ``sqrt(se_data**2 + se_pred**2 / K)``, measured
        from the spread of the cells; equals ``se`` when ``K = 1``.  The
        interval is built on it.
    ci_low, ci_high : numpy.ndarray
        The interval of level ``1 - alpha`` of the accuracy.
    interval : tuple of str
        Which interval each model got: ``"normal"``, ``"clopper-pearson"``
        or ``"jeffreys"``.
    n_items : numpy.ndarray
        Items the model answered.
    samples : numpy.ndarray
        ``K`` per item (its mean where it varies).
    """

    model: tuple
    accuracy: np.ndarray
    se: np.ndarray
    se_data: np.ndarray
    se_pred: np.ndarray
    se_mean: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    interval: tuple
    n_items: np.ndarray
    samples: np.ndarray

    _COLUMNS = ("accuracy", "se", "se_data", "se_pred", "se_mean", "ci_low", "ci_high", "n_items", "samples")

    def _columns(self) -> dict[str, Any]:
        cols: dict[str, Any] = {"model": np.array(self.model, dtype=object)}
        for key in self._COLUMNS:
            cols[key] = np.asarray(getattr(self, key))
        cols["interval"] = np.array(self.interval, dtype=object)
        return cols

    def to_records(self) -> list[dict]:
        """One JSON-safe dict per model (None where a quantity cannot be estimated)."""
        return list(_records(self._columns()))

    def to_frame(self) -> Any:
        """A pandas DataFrame, one row per model."""
        import pandas as pd

        return pd.DataFrame(self._columns())

    def to_dict(self) -> dict:
        """The per-model records under ``"models"``."""
        return {"models": self.to_records()}


def _jsonl_texts(values: Any) -> list[str]:
    """One column as JSON texts: ``true``/``false``, integers, floats (``null`` for NaN), as json.dumps writes them."""
    arr = np.asarray(values)
    if arr.dtype == bool:
        return ["true" if v else "false" for v in arr.tolist()]
    if arr.dtype.kind in "iu":
        return list(map(str, arr.tolist()))
    out = list(map(repr, arr.astype(float).tolist()))  # repr is what json.dumps writes for a float
    for k in np.flatnonzero(~np.isfinite(arr)).tolist():
        out[k] = "null"
    return out


def _num(v: float | None, spec: str = ".4f") -> str:
    return "-" if v is None or v != v else format(v, spec)


@dataclass(frozen=True, repr=False)
class PairNoise(Result):
    """Every unordered pair of models on their shared items, columnar (model ``a`` before ``b``).

    Attributes
    ----------
    models : tuple of str
        The model names ``ia`` and ``ib`` index.
    ia, ib : numpy.ndarray
        Indices of the two models of each pair (``a`` and ``b`` give names).
    n_items : numpy.ndarray
        Shared items.
    difference : numpy.ndarray
        ``accuracy(a) - accuracy(b)`` on the shared items.
    se, se_data, se_pred : numpy.ndarray
        Paired standard error of the difference of one sample per item
        (paper's ``SE(A-B)``) and its split into data and prediction noise
        (NaN where not estimable).
    se_mean : numpy.ndarray
        Standard error of the difference as reported (means of ``K``).
    corr : numpy.ndarray
        Pearson correlation of the two models' cells over the shared items.
    p_value : numpy.ndarray
        The exact sign test: on 0/1 outcomes McNemar's exact test (the
        discordant items); on graded ones eval-arena's test on the expected
        win counts ``sum a(1-b)`` and ``sum (1-a)b``, truncated to integers.
    p_adjusted : numpy.ndarray
        Holm's step-down adjustment over all pairs.
    q_value : numpy.ndarray
        Benjamini--Hochberg q-values over all pairs.
    significant : numpy.ndarray
        ``p_adjusted <= alpha``: the pair is told apart with the family-wise
        error held at ``alpha``.
    """

    models: tuple
    ia: np.ndarray
    ib: np.ndarray
    n_items: np.ndarray
    difference: np.ndarray
    se: np.ndarray
    se_data: np.ndarray
    se_pred: np.ndarray
    se_mean: np.ndarray
    corr: np.ndarray
    p_value: np.ndarray
    p_adjusted: np.ndarray
    q_value: np.ndarray
    significant: np.ndarray

    _COLUMNS = (
        "difference",
        "se",
        "se_data",
        "se_pred",
        "corr",
        "p_value",
        "p_adjusted",
        "q_value",
        "significant",
        "se_mean",
        "n_items",
    )

    @property
    def a(self) -> np.ndarray:
        """Name of the first model of each pair."""
        return np.asarray(self.models, dtype=object)[self.ia]

    @property
    def b(self) -> np.ndarray:
        """Name of the second model of each pair."""
        return np.asarray(self.models, dtype=object)[self.ib]

    def __len__(self) -> int:
        return int(self.ia.shape[0])

    def iter_records(self, chunk: int = 65536) -> Iterator[dict]:
        """The pairs one JSON-safe dict at a time (for streaming to a JSONL file)."""
        names = np.asarray(self.models, dtype=object)
        for start in range(0, len(self), chunk):
            sl = slice(start, start + chunk)
            cols: dict[str, Any] = {"a": names[self.ia[sl]], "b": names[self.ib[sl]]}
            for key in self._COLUMNS:
                cols[key] = getattr(self, key)[sl]
            yield from _records(cols)

    def write_jsonl(self, path: str | os.PathLike, *, chunk: int = 65536) -> None:
        """Write every pair to ``path``, one JSON object a line: the records of :meth:`iter_records`.

        Formats the columns (not one dictionary per pair), which writes
        500,000 pairs several times faster; memory stays at ``chunk`` pairs.
        """
        with open(path, "w", encoding="utf-8") as fh:
            if len(self) == 0:
                return
            keys = ["a", "b", *self._COLUMNS]
            template = "{" + ",".join(f"{json.dumps(k)}:%s" for k in keys) + "}\n"
            names = [json.dumps(str(m)) for m in self.models]
            for start in range(0, len(self), chunk):
                sl = slice(start, start + chunk)
                cols = {"a": [names[i] for i in self.ia[sl].tolist()], "b": [names[i] for i in self.ib[sl].tolist()]}
                cols.update((k, _jsonl_texts(getattr(self, k)[sl])) for k in self._COLUMNS)
                fh.write("".join(template % row for row in zip(*(cols[k] for k in keys), strict=True)))

    def to_frame(self) -> Any:
        """A pandas DataFrame, one row per pair."""
        import pandas as pd

        cols: dict[str, Any] = {"a": self.a, "b": self.b}
        for key in self._COLUMNS:
            cols[key] = getattr(self, key)
        return pd.DataFrame(cols)

    def to_dict(self) -> dict:
        """The pairs as records under ``"pairs"``."""
        return {"pairs": list(self.iter_records())}


@dataclass(frozen=True, repr=False)
class NoiseSummary(Result):
    """A benchmark in a few numbers (eval-arena's summary, over unordered pairs).

    Attributes
    ----------
    n_items, n_models, n_pairs : int
        Items, models and unordered pairs with a shared item.
    close_pairs : int
        Unordered pairs as eval-arena counts its "close" ones: accuracies
        within 0.2, both above 0.1, and not told apart at 5 sigma (exact
        sign test p-value above ``2 Phi(-5)``).
    no_solve : int
        Items no model got any credit on.
    tau_minus : int
        Items on which better models do worse: Kendall's tau between the
        item's outcomes and the models' accuracies is negative.
    se, se_data, se_pred : float or None
        Mean over the models with accuracy above 0.1 of each standard error
        (of those where it can be estimated).  Unlike eval-arena's published
        model columns (see :func:`benchmark_noise_table`), the split is the
        small-K corrected one, and a model with one sample per item is left
        out of ``se_data``/``se_pred`` rather than counted as 0.
    se_diff, se_diff_data, se_diff_pred, corr : float or None
        Mean over the close pairs of the paired standard errors and of the
        correlation.  eval-arena counts ordered pairs and tests each order;
        on graded outcomes the truncated win counts of the two orders can
        differ, and here each pair is tested once, ``a`` against ``b``.
    min_detectable_difference : float or None
        :func:`minimum_detectable_difference` of ``se_diff`` at the call's
        ``alpha`` and power 0.8: the smallest difference a typical close
        pair tells apart.
    """

    n_items: int
    n_models: int
    n_pairs: int
    close_pairs: int
    no_solve: int
    tau_minus: int
    se: float | None
    se_data: float | None
    se_pred: float | None
    se_diff: float | None
    se_diff_data: float | None
    se_diff_pred: float | None
    corr: float | None
    min_detectable_difference: float | None


@dataclass(frozen=True, repr=False)
class EvaluationNoise(Result):
    """What :func:`evaluation_noise` returns: per model, per pair, and the summary.

    Attributes
    ----------
    models : ModelNoise
        Per-model error bars.
    pairs : PairNoise or None
        Every unordered pair (None with ``pairs=False``).
    summary : NoiseSummary
        The benchmark in a few numbers.
    alpha : float
        Level of the intervals and of Holm's control.
    interval_method : str
        The interval rule asked for: ``"auto"``, ``"normal"`` or ``"exact"``.
    clustered : bool
        Whether the standard errors are clustered.
    """

    models: ModelNoise
    pairs: PairNoise | None
    summary: NoiseSummary
    alpha: float
    interval_method: str
    clustered: bool

    def to_dict(self, *, max_pairs: int | None = None) -> dict:
        """The JSON of ``sotalib errorbars --json``: ``models``, ``pairs`` (when computed), ``summary``.

        With ``max_pairs`` and more pairs than that, ``pairs`` is left out
        and ``note`` says so (stream them with ``pairs.iter_records()``).
        """
        out: dict = {"models": self.models.to_records()}
        if self.pairs is not None:
            if max_pairs is not None and len(self.pairs) > max_pairs:
                out["note"] = f"{len(self.pairs)} pairs, more than {max_pairs}: left out of this object"
            else:
                out["pairs"] = list(self.pairs.iter_records())
        out["summary"] = self.summary.to_dict()
        out["alpha"] = self.alpha
        out["interval_method"] = self.interval_method
        out["clustered"] = self.clustered
        return out

    def to_text(self, *, listed: int = 50, more: str = "PairNoise.write_jsonl writes every pair") -> str:
        """The models, then the pairs told apart (the closest ``listed`` first), then the summary.

        What ``sotalib errorbars`` prints; ``more`` says where the pairs not
        listed can be found.
        """
        models = self.models.to_records()
        summary = self.summary.to_dict()
        lines = [
            f"error bars of {self.summary.n_models:,} models on {self.summary.n_items:,} items (alpha {self.alpha:g})",
            "",
        ]
        width = max([len("model")] + [len(str(r["model"])) for r in models])
        level = f"{100 * (1 - self.alpha):g}% interval"
        lines.append(
            f"{'model':<{width}}  {'accuracy':>8}  {'se':>6}  {'se_data':>7}  {'se_pred':>7}  "
            f"{level:>17}  {'items':>6}  {'K':>5}"
        )
        for r in models:
            ci = f"[{_num(r['ci_low'])}, {_num(r['ci_high'])}]"
            lines.append(
                f"{str(r['model']):<{width}}  {_num(r['accuracy']):>8}  {_num(r['se']):>6}  {_num(r['se_data']):>7}  "
                f"{_num(r['se_pred']):>7}  {ci:>17}  {r['n_items']:>6}  {_num(r['samples'], 'g'):>5}"
            )
        if self.pairs is not None:
            lines += self._pairs_lines(listed, more)
        lines += ["", "summary"]
        for key, value in summary.items():
            shown = "-" if value is None else (f"{value:,}" if isinstance(value, int) else f"{value:.4g}")
            lines.append(f"  {key:<26} {shown}")
        return "\n".join(lines)

    def _pairs_lines(self, listed: int, more: str) -> list[str]:
        pairs = self.pairs
        assert pairs is not None
        told = np.flatnonzero(pairs.significant)
        lines = ["", f"pairs told apart (Holm's control at alpha {self.alpha:g}): {told.size:,} of {len(pairs):,}"]
        if told.size == 0:
            return lines
        # the closest pairs told apart first (the informative ones); each pair written better model first
        order = told[np.argsort(np.abs(pairs.difference[told]), kind="stable")][:listed]
        names = np.asarray(pairs.models, dtype=object)
        rows = []
        for k in order:
            a, b, d = names[pairs.ia[k]], names[pairs.ib[k]], float(pairs.difference[k])
            first, second = (a, b) if d >= 0 else (b, a)
            rows.append((f"{first} > {second}", abs(d), float(pairs.se[k]), float(pairs.p_adjusted[k])))
        width = max(len("pair (closest first)"), *(len(r[0]) for r in rows))
        lines.append(f"  {'pair (closest first)':<{width}}  {'difference':>10}  {'se':>6}  {'p_adjusted':>10}")
        lines += [f"  {p:<{width}}  {d:>10.4f}  {_num(se):>6}  {q:>10.3g}" for p, d, se, q in rows]
        if told.size > len(order):
            lines.append(f"  ... and {told.size - len(order):,} more ({more})")
        return lines


# ---------------------------------------------------------------------------- per model


def _model_noise(c: _Cells, codes: np.ndarray | None, alpha: float, interval: str, models: tuple) -> ModelNoise:
    X, M = c.X, c.M
    nj = c.n_answered.astype(np.float64)
    safe = np.maximum(nj, 1)
    acc = c.sum_x / safe
    if codes is None:  # sum of squared deviations, without an n x m temporary
        crse2 = np.maximum(c.sum_x2 - acc * c.sum_x, 0.0) / safe**2
    else:
        G = _cluster_sum(codes, np.where(M, X - acc[None, :], 0.0))
        crse2 = (G * G).sum(axis=0) / safe**2  # variance of the accuracy as reported (Miller's CRSE)
    mean_u = c.sum_u / safe
    data2 = crse2 - c.sum_uk / safe**2
    pred2 = mean_u / safe
    known = c.u_known
    se2 = np.maximum(data2, 0.0) + pred2  # U = 0 where unknown: then crse2, the cell counted as one sample
    if codes is None:  # the same numbers, written as the paper writes them
        total = c.sum_sq / safe - acc**2
        se2 = np.maximum(total, 0.0) / safe
    se = np.sqrt(np.maximum(se2, 0.0))
    se_data = np.where(known, np.sqrt(np.maximum(data2, 0.0)), np.nan)
    se_pred = np.where(known, np.sqrt(np.maximum(pred2, 0.0)), np.nan)
    se_mean = np.sqrt(np.maximum(crse2, 0.0))
    Kbar = c.k_mean
    z = float(stats.norm.ppf(1 - alpha / 2))
    lo = acc - z * se_mean
    hi = acc + z * se_mean
    kinds = []
    for j in range(len(models)):
        small = nj[j] < SMALL_N or min(acc[j], 1 - acc[j]) * nj[j] < 10
        use_exact = interval == "exact" or (interval == "auto" and small and codes is None)
        if nj[j] == 0:
            kinds.append("none")
            lo[j] = hi[j] = np.nan
        elif not use_exact:
            kinds.append("normal")
            lo[j], hi[j] = max(0.0, lo[j]), min(1.0, hi[j])
        elif c.binary[j]:
            k = round(acc[j] * nj[j])
            n = int(nj[j])
            kinds.append("clopper-pearson")
            lo[j] = 0.0 if k == 0 else float(stats.beta.ppf(alpha / 2, k, n - k + 1))
            hi[j] = 1.0 if k == n else float(stats.beta.ppf(1 - alpha / 2, k + 1, n - k))
        else:
            # Jeffreys' interval on the effective number of items: the one whose binomial variance is se_mean**2
            v = se_mean[j] ** 2
            p = min(max(acc[j], 0.0), 1.0)
            n_eff = p * (1 - p) / v if v > 0 else nj[j]
            n_eff = float(min(max(n_eff, 1.0), 1e12))
            kinds.append("jeffreys")
            lo[j] = 0.0 if p <= 0 else float(stats.beta.ppf(alpha / 2, p * n_eff + 0.5, (1 - p) * n_eff + 0.5))
            hi[j] = 1.0 if p >= 1 else float(stats.beta.ppf(1 - alpha / 2, p * n_eff + 0.5, (1 - p) * n_eff + 0.5))
    return ModelNoise(
        model=tuple(models),
        accuracy=np.where(nj > 0, acc, np.nan),
        se=np.where(nj > 0, se, np.nan),
        se_data=se_data,
        se_pred=se_pred,
        se_mean=np.where(nj > 0, se_mean, np.nan),
        ci_low=lo,
        ci_high=hi,
        interval=tuple(kinds),
        n_items=nj.astype(np.int64),
        samples=Kbar,
    )


# ---------------------------------------------------------------------------- pairs


@dataclass
class _PairBlock:
    ia: np.ndarray
    ib: np.ndarray
    n: np.ndarray
    diff: np.ndarray
    acc_a: np.ndarray
    acc_b: np.ndarray
    se: np.ndarray
    se_data: np.ndarray
    se_pred: np.ndarray
    se_mean: np.ndarray
    corr: np.ndarray
    wins_a: np.ndarray
    wins_b: np.ndarray


def _pair_blocks(c: _Cells, codes: np.ndarray | None, *, block: int | None = None) -> Iterator[_PairBlock]:
    """The pairs ``a < b`` block by block of ``a`` (O(block x m) memory), by matrix products over the items."""
    X, M = c.X, c.M
    n_items, m = X.shape
    block = _block_size(m) if block is None else block
    X32 = X.astype(np.float32) if c.binary.all() and n_items < 2**24 else None
    if codes is not None:
        n_cl = int(codes.max()) + 1
    if not c.complete:
        Mf = M.astype(np.float64)
        X2 = X * X
        SQ = X2 if c.SQ is None else c.SQ

    def per_model(v: np.ndarray, rows: slice, shape: tuple) -> tuple[np.ndarray, np.ndarray]:
        return np.broadcast_to(v[rows][:, None], shape), np.broadcast_to(v[rows.start :][None, :], shape)

    for a0 in range(0, m - 1, block):
        a1 = min(a0 + block, m - 1)
        cols = slice(a0, m)  # b >= a0; the entries with b <= a are dropped below
        rows = slice(a0, a1)
        shape = (a1 - a0, m - a0)
        if c.complete:
            N = np.full(shape, float(n_items))
            SXa, SXb = per_model(c.sum_x, rows, shape)
            SX2a, SX2b = per_model(c.sum_x2, rows, shape)
            SQa, SQb = per_model(c.sum_sq, rows, shape)
            SUa, SUb = per_model(c.sum_u, rows, shape)
            SUKa, SUKb = per_model(c.sum_uk, rows, shape)
        else:
            Ma, Mb = Mf[:, rows], Mf[:, cols]
            N = Ma.T @ Mb
            SXa = X[:, rows].T @ Mb
            SXb = Ma.T @ X[:, cols]
            SX2a = X2[:, rows].T @ Mb
            SX2b = Ma.T @ X2[:, cols]
            SQa = SQ[:, rows].T @ Mb
            SQb = Ma.T @ SQ[:, cols]
            if c.U is None or c.UK is None:
                SUa = SUb = SUKa = SUKb = np.zeros(shape)
            else:
                SUa = c.U[:, rows].T @ Mb
                SUb = Ma.T @ c.U[:, cols]
                SUKa = c.UK[:, rows].T @ Mb
                SUKb = Ma.T @ c.UK[:, cols]
        if X32 is not None:  # 0/1 cells: the counts are exact in single precision, at twice the speed
            SXX = (X32[:, rows].T @ X32[:, cols]).astype(np.float64)
        else:
            SXX = X[:, rows].T @ X[:, cols]
        with np.errstate(invalid="ignore", divide="ignore"):
            mu_a = SXa / N
            mu_b = SXb / N
            cov = SXX / N - mu_a * mu_b
            var_a = SX2a / N - mu_a**2
            var_b = SX2b / N - mu_b**2
            corr = cov / np.sqrt(var_a * var_b)
            var_cells = var_a + var_b - 2 * cov  # var(x_a - x_b): of the difference as reported
            total = (SQa / N - mu_a**2) + (SQb / N - mu_b**2) - 2 * cov
            pred = (SUa + SUb) / N
            bias = (SUKa + SUKb) / N
            if codes is not None:
                if c.complete:
                    Ga = _cluster_sum(codes, X[:, a0:a1] - mu_a[:, 0][None, :])
                    Gb = _cluster_sum(codes, X[:, cols] - X[:, cols].mean(axis=0)[None, :])
                    Q = (Ga * Ga).sum(axis=0)[:, None] + (Gb * Gb).sum(axis=0)[None, :] - 2 * Ga.T @ Gb
                else:
                    Q = np.empty(N.shape)
                    for r, a in enumerate(range(a0, a1)):
                        mask = Mf[:, a : a + 1] * Mb
                        d = (X[:, a : a + 1] - X[:, cols]) * mask
                        Dc = np.zeros((n_cl, m - a0))
                        Nc = np.zeros((n_cl, m - a0))
                        np.add.at(Dc, codes, d)
                        np.add.at(Nc, codes, mask)
                        dbar = Dc.sum(axis=0) / np.maximum(Nc.sum(axis=0), 1)
                        Q[r] = ((Dc - Nc * dbar[None, :]) ** 2).sum(axis=0)
                crse2 = Q / N**2
                data2 = crse2 - bias / N
                total = np.maximum(data2, 0.0) * N + pred
                var_cells = crse2 * N
            else:
                data2 = (var_cells - bias) / N
            se_mean = np.sqrt(np.maximum(var_cells, 0.0) / N)
            wins_a = SXa - SXX
            wins_b = SXb - SXX
        known = c.u_known[a0:a1, None] & c.u_known[None, cols]
        # a model whose within-item variance is unknown has U = 0 and SQ = x**2: its cell counts as one sample
        se = np.sqrt(np.maximum(total, 0.0) / N)
        se_data = np.where(known, np.sqrt(np.maximum(data2, 0.0)), np.nan)
        se_pred = np.where(known, np.sqrt(np.maximum(pred, 0.0) / N), np.nan)
        ra, rb = np.nonzero(np.arange(a0, a1)[:, None] < np.arange(a0, m)[None, :])
        pick = (ra, rb)
        yield _PairBlock(
            ia=(ra + a0).astype(np.int64),
            ib=(rb + a0).astype(np.int64),
            n=N[pick].astype(np.int64),
            diff=(mu_a - mu_b)[pick],
            acc_a=mu_a[pick],
            acc_b=mu_b[pick],
            se=se[pick],
            se_data=se_data[pick],
            se_pred=se_pred[pick],
            se_mean=se_mean[pick],
            corr=corr[pick],
            wins_a=wins_a[pick],
            wins_b=wins_b[pick],
        )


# ---------------------------------------------------------------------------- items: no_solve, tau-


@njit
def _tau_signs(X: np.ndarray, M: np.ndarray, y: np.ndarray) -> np.ndarray:  # noqa: C901 - one compiled loop
    """Sign of Kendall's tau between each row of ``X`` (answered cells) and ``y``, in O(m log m) per row.

    The sign of tau-a, tau-b and tau-c is the sign of ``S = sum_{j<k}
    sign(x_j - x_k) sign(y_j - y_k)``, counted with a Fenwick tree over the
    ranks of ``x`` while the models are visited by increasing ``y`` (ties in
    ``y`` visited as one group, so they add nothing).  0 where fewer than
    two models answered or ``S = 0``.
    """
    n, m = X.shape
    order = np.argsort(y, kind="mergesort")
    out = np.zeros(n, dtype=np.int64)
    tree = np.zeros(m + 2, dtype=np.int64)
    for i in range(n):
        vals = np.empty(m)
        cnt = 0
        for j in range(m):
            if M[i, j]:
                vals[cnt] = X[i, j]
                cnt += 1
        if cnt < 2:
            continue
        uniq = np.unique(vals[:cnt])
        R = uniq.shape[0]
        if R < 2:
            continue
        for r in range(R + 2):
            tree[r] = 0
        inserted = 0
        S = 0
        g = 0
        while g < m:
            h = g
            while h + 1 < m and y[order[h + 1]] == y[order[g]]:
                h += 1
            # count, for each model of the group, the earlier (smaller y) models below and above it in x
            for t in range(g, h + 1):
                j = order[t]
                if not M[i, j]:
                    continue
                r = np.searchsorted(uniq, X[i, j]) + 1  # 1-based rank
                below = 0
                q = r - 1
                while q > 0:
                    below += tree[q]
                    q -= q & (-q)
                le = 0
                q = r
                while q > 0:
                    le += tree[q]
                    q -= q & (-q)
                above = inserted - le
                S += below - above
            for t in range(g, h + 1):
                j = order[t]
                if not M[i, j]:
                    continue
                r = np.searchsorted(uniq, X[i, j]) + 1
                q = r
                while q <= R:
                    tree[q] += 1
                    q += q & (-q)
                inserted += 1
            g = h + 1
        out[i] = 1 if S > 0 else (-1 if S < 0 else 0)
    return out


def _item_counts(c: _Cells, acc: np.ndarray) -> tuple[int, int]:
    """eval-arena's ``no_solve`` (items whose mean outcome over the models is 0) and ``tau-``."""
    answered = c.M.sum(axis=1)
    no_solve = int(np.sum((answered > 0) & (c.X.sum(axis=1) == 0)))
    y = np.where(np.isfinite(acc), acc, 0.0)
    signs = _tau_signs(np.ascontiguousarray(c.X), np.ascontiguousarray(c.M), y.astype(np.float64))
    return no_solve, int(np.sum(signs < 0))


# ---------------------------------------------------------------------------- public functions


def minimum_detectable_difference(se_diff: ArrayLike, *, alpha: float = 0.05, power: float = 0.8) -> Any:
    r"""The smallest true difference a two-sided z test at level ``alpha`` detects with probability ``power``.

    ``(z_{1 - alpha/2} + z_{power}) * se_diff``: 2.80 standard errors at
    the usual 0.05 and 0.8.  With a paired ``se_diff`` (from
    :func:`evaluation_noise`) it is the paired test's; with
    ``sqrt(se_a**2 + se_b**2)`` the unpaired one's.

    Parameters
    ----------
    se_diff : float or array_like
        Standard error(s) of the difference, ``>= 0``.
    alpha : float
        Level of the two-sided test, in (0, 1).
    power : float
        Probability of detecting the difference, in (0, 1).

    Returns
    -------
    float or numpy.ndarray
        The difference (same shape as ``se_diff``).

    Raises
    ------
    ValueError
        ``se_diff`` negative or not finite, ``alpha`` or ``power`` outside (0, 1).

    References
    ----------
    Wang (2025), *Measuring all the noises of LLM evals*; Miller (2024),
    *Adding error bars to evals*, Section 5 (power analysis).

    Examples
    --------
    >>> import sotalib
    >>> round(sotalib.minimum_detectable_difference(0.01), 4)
    0.028
    """
    alpha = check_probability("alpha", alpha, open_low=True, open_high=True)
    power = check_probability("power", power, open_low=True, open_high=True)
    s = np.asarray(se_diff, dtype=np.float64)
    if not np.all(np.isfinite(s)) or np.any(s < 0):
        raise ValueError("se_diff must be finite standard errors >= 0")
    k = float(stats.norm.ppf(1 - alpha / 2) + stats.norm.ppf(power))
    out = k * s
    return float(out) if out.ndim == 0 else out


#: Bytes held per pair by ``evaluation_noise(pairs=True)`` at its peak: 13 columns of 8 bytes, kept block by
#: block and then joined (twice), with the sorts of Holm's and Benjamini-Hochberg's adjustments.
PAIR_BYTES = 256


def evaluation_noise(
    per_item: Any,
    *,
    alpha: float = 0.05,
    clusters: str | ArrayLike | None = None,
    pairs: bool = True,
    interval: Literal["auto", "normal", "exact"] = "auto",
) -> EvaluationNoise:
    r"""Error bars of every model and of every pair of models, with the noise split as Wang (2025) splits it.

    **Per model**: the accuracy (mean outcome over its answered items), its
    standard error ``se`` (the paper's ``SE(A)``, of one sample per item),
    its data noise ``se_data`` (``SE_x``) and prediction noise ``se_pred``
    (``SE_pred``) with the small-K correction (see the module text; None
    where ``K = 1`` everywhere or ``squares`` is unknown: one sample per item
    cannot tell them apart, and eval-arena's published table prints 0
    there), and an interval of level ``1 - alpha``.

    **Interval rule** (``interval="auto"``): the normal interval
    ``accuracy -/+ z se_mean`` when the model answered at least 100 items
    with at least 10 successes and 10 failures (``n p`` and ``n (1 - p)``)
    or when clusters are given; else an exact one: Clopper--Pearson for 0/1
    outcomes, and for graded ones Jeffreys' Bayesian interval (Beta(x + 1/2,
    n' - x + 1/2) quantiles) on the effective number of items ``n' =
    p (1 - p) / se_mean**2`` with ``x = p n'``.  ``"normal"`` and ``"exact"``
    force one kind (Clopper--Pearson assumes independent items: with
    clusters, ``"auto"`` keeps the normal interval on the clustered error).

    **Clusters** (Miller 2024, eq. 4): the variance of the accuracy is
    ``sum_c (sum_{i in c} (x_i - mean))**2 / n**2`` (the cluster-robust
    sandwich), and the data noise is that minus the prediction noise it
    holds (``sum_i u_i / K_i / n**2``); without clusters every item is its
    own cluster and the formulas are the paper's.

    **Pairs** (``a`` before ``b`` in the table's order), on the items both
    answered: the difference, its paired standard error from the covariance
    (``Var[A-B] = Var[A] + Var[B] - 2 Cov[x_a, x_b]``) with its data and
    prediction split, the correlation, the exact sign test, Holm's adjusted
    p-values (``significant``: at most ``alpha`` after Holm) and
    Benjamini--Hochberg q-values.

    **Memory and time.**  The pairs are computed by matrix products over
    the items, in blocks of at most 256 models ``a`` against every ``b``: the
    working memory is, besides the table, a single-precision copy of a
    complete 0/1 table (``4 n m`` bytes; a table with missing cells or
    samples holds up to five ``8 n m``-byte arrays instead), its mask
    (``n m`` bytes) and about 40 arrays of ``block x m`` floats, the block
    made small enough for them to take at most 128 MiB.
    Every pair kept takes about 100 bytes (twice that while they are
    gathered); ``pairs=False`` keeps none: the summary's pair means are
    accumulated block by block.  1,000 models x 1,000 items (499,500 pairs)
    take about 2 s; 4,500 models x 12,000 items with ``pairs=False`` about
    25 s and 0.5 GB besides the table (0.43 GB).

    Parameters
    ----------
    per_item : PerItem or pandas.DataFrame
        Items as rows, models as columns, outcomes in [0, 1] (NaN: not
        answered); ``samples`` and ``squares`` split the noise.
    alpha : float
        Level of the intervals and of Holm's control, in (0, 1).
    clusters : str or array_like, optional
        A key of ``per_item.item_info`` or one label per item: clustered
        standard errors.
    pairs : bool
        Compute every pair (``m (m - 1) / 2`` of them).
    interval : {"auto", "normal", "exact"}
        The per-model interval (rule above).

    Returns
    -------
    EvaluationNoise
        ``models`` (:class:`ModelNoise`), ``pairs`` (:class:`PairNoise` or
        None), ``summary`` (:class:`NoiseSummary`); ``to_dict()`` is the JSON
        of ``sotalib errorbars --json``.

    Raises
    ------
    ValueError
        Outcomes outside [0, 1], ``alpha`` outside (0, 1), an unknown
        ``interval``, clusters not one label per item or not a key of
        ``item_info``.

    References
    ----------
    Wang (2025), *Measuring all the noises of LLM evals*, Sections 3.4-3.8
    (eval-arena, ``estimators.py`` and ``arena.py`` at ``89f867d``); Miller
    (2024), *Adding error bars to evals*, arXiv:2411.00640, Section 2.2
    (clustered standard errors); Holm (1979); Benjamini and Hochberg (1995).

    Examples
    --------
    >>> import numpy as np
    >>> import sotalib
    >>> y = np.array([[1, 1, 0], [1, 0, 0], [0, 1, 1], [1, 1, 0], [1, 0, 0], [0, 0, 0]])
    >>> r = sotalib.evaluation_noise(sotalib.PerItem(y, models=["A", "B", "C"]))
    >>> [round(float(v), 4) for v in r.models.accuracy]
    [0.6667, 0.5, 0.1667]
    >>> round(float(r.models.se[0]), 4), r.models.se_pred[0]
    (0.1925, np.float64(nan))
    >>> for rec in r.pairs.iter_records():
    ...     print(rec["a"], rec["b"], round(rec["difference"], 4), rec["p_value"])
    A B 0.1667 1.0
    A C 0.5 0.375
    B C 0.3333 0.5
    """
    t = as_per_item(per_item)
    alpha = check_probability("alpha", alpha, open_low=True, open_high=True)
    interval = check_choice("interval", interval, ("auto", "normal", "exact"))  # type: ignore[assignment]
    if pairs:  # every pair is kept (13 columns, and their copies while they are joined): refused up front if too many
        n_all = t.m * (t.m - 1) // 2
        check_memory(
            n_all * PAIR_BYTES,
            f"pairs on {t.m:,} models ({n_all:,} of them)",
            "leave out pairs (the summary is computed block by block in bounded memory), or read fewer models",
        )
    Y = t.outcomes
    bad = ~np.isnan(Y) & ((Y < 0) | (Y > 1))
    if bad.any():
        i, j = (int(v) for v in np.argwhere(bad)[0])
        raise ValueError(
            f"per_item: outcomes must lie in [0, 1]; row {i + 1} (item {t.items[i]!r}), "
            f"column {j + 1} (model {t.models[j]!r}) is {float(Y[i, j]):g}"
        )
    codes = _cluster_codes(t, clusters)
    c = _cells(t)
    models = _model_noise(c, codes, alpha, str(interval), t.models)
    acc = models.accuracy
    thr = 2 * float(stats.norm.sf(SIGMA))
    n_max = t.n
    critical = _critical_counts(n_max, thr)
    kept = ("ia", "ib", "n", "diff", "se", "se_data", "se_pred", "se_mean", "corr")
    keep: dict[str, list] = {k: [] for k in (*kept, "p")}
    n_pairs = close = 0
    sums = np.zeros(4)
    counts = np.zeros(4)
    for blk in _pair_blocks(c, codes):
        ok = blk.n > 0
        n_pairs += int(ok.sum())
        near = (
            ok & (np.abs(acc[blk.ia] - acc[blk.ib]) <= MAX_DIFF) & (acc[blk.ia] > MIN_PERF) & (acc[blk.ib] > MIN_PERF)
        )
        if pairs:
            p = np.where(ok, _sign_test(blk.wins_a, blk.wins_b), np.nan)  # no shared item: no test
            is_close = near & (p > thr)
        else:  # only the summary: compare the counts with the critical ones, no p-value each
            wins = np.floor(blk.wins_a + 1e-9)
            total = np.floor(blk.wins_a + blk.wins_b + 1e-9)
            low = np.minimum(np.minimum(wins, total), total - np.minimum(wins, total))
            ti = np.clip(total, 0, n_max).astype(np.int64)
            is_close = near & (low > critical[ti])
        close += int(is_close.sum())
        for k, arr in enumerate((blk.se, blk.se_data, blk.se_pred, blk.corr)):
            v = arr[is_close]
            v = v[np.isfinite(v)]
            sums[k] += v.sum()
            counts[k] += v.size
        if pairs:
            for key in kept:
                keep[key].append(getattr(blk, key))
            keep["p"].append(p)
    pair_result = None
    if pairs:

        def cat(key: str, dtype: Any = np.float64) -> np.ndarray:
            return np.concatenate(keep[key]) if keep[key] else np.zeros(0, dtype=dtype)

        p_all = cat("p")
        holm = _holm(p_all)
        pair_result = PairNoise(
            models=t.models,
            ia=cat("ia", np.int64),
            ib=cat("ib", np.int64),
            n_items=cat("n", np.int64),
            difference=cat("diff"),
            se=cat("se"),
            se_data=cat("se_data"),
            se_pred=cat("se_pred"),
            se_mean=cat("se_mean"),
            corr=cat("corr"),
            p_value=p_all,
            p_adjusted=holm,
            q_value=_bh(p_all),
            significant=np.isfinite(holm) & (holm <= alpha),
        )
    above = np.isfinite(acc) & (acc > MIN_PERF)

    def mean_of(v: np.ndarray) -> float | None:
        w = v[above & np.isfinite(v)]
        return float(w.mean()) if w.size else None

    pair_means = [float(s / k) if k else None for s, k in zip(sums, counts, strict=True)]
    no_solve, tau_minus = _item_counts(c, acc)
    mdd = None if pair_means[0] is None else minimum_detectable_difference(pair_means[0], alpha=alpha)
    summary = NoiseSummary(
        n_items=t.n,
        n_models=t.m,
        n_pairs=n_pairs,
        close_pairs=close,
        no_solve=no_solve,
        tau_minus=tau_minus,
        se=mean_of(models.se),
        se_data=mean_of(models.se_data),
        se_pred=mean_of(models.se_pred),
        se_diff=pair_means[0],
        se_diff_data=pair_means[1],
        se_diff_pred=pair_means[2],
        corr=pair_means[3],
        min_detectable_difference=mdd,
    )
    return EvaluationNoise(
        models=models,
        pairs=pair_result,
        summary=summary,
        alpha=alpha,
        interval_method=str(interval),
        clustered=codes is not None,
    )


# ---------------------------------------------------------------------------- eval-arena's summary row

#: The columns of eval-arena's summary row that are distributions (``describe()`` of pandas).
TABLE_COLUMNS = (
    "SE(A)",
    "SE_x(A)",
    "SE_pred(A)",
    "SE(A-B)",
    "SE_x(A-B)",
    "SE_pred(A-B)",
    "SE_signtest",
    "corr(A,B)",
    "sum(A!=B)",
)


_CRUX_PAIRS = (
    ("deepseek-base-33b", "deepseek-base-6.7b"),
    ("deepseek-instruct-33b", "deepseek-instruct-6.7b"),
    ("codellama-34b+cot", "codellama-13b+cot"),
    ("codellama-13b+cot", "codellama-7b+cot"),
)
_MBPP_PAIRS = (("deepseek-coder-33b-instruct", "deepseek-coder-6.7b-instruct"), ("wizardcoder-34b", "wizardcoder-7b"))
#: eval-arena's model pairs of one family and two sizes (``signal_noise.py``, ``model_pairs``), larger first,
#: for the code benchmarks vendored in ``data/llm/eval-arena`` (its dictionaries repeat a key for CRUXEval,
#: and the last one counts, so only the ``+cot`` codellama pairs are used).
EVAL_ARENA_SIZE_PAIRS: dict[str, tuple[tuple[str, str], ...]] = {
    "humaneval+": (
        ("deepseek-coder-33b-instruct", "deepseek-coder-6.7b-instruct"),
        ("opencodeinterpreter-ds-33b", "opencodeinterpreter-ds-6.7b"),
    ),
    "mbpp": _MBPP_PAIRS,
    "mbpp+": _MBPP_PAIRS,
    "CRUXEval-input-T0.2": _CRUX_PAIRS,
    "CRUXEval-output-T0.2": _CRUX_PAIRS,
    "CRUXEval-input-T0.8": _CRUX_PAIRS,
    "CRUXEval-output-T0.8": _CRUX_PAIRS,
}
_SIZE = re.compile(r"(.*)[-_x](\d+\.?\d?)[bB]")


def _signal_to_noise(t: PerItem, pairs: Sequence[tuple[str, str]]) -> float | None:
    """eval-arena's ``sig_noise``: the median over the pairs of ``sum(A-B) / sqrt(sum(A!=B)) / log2(size ratio)``."""
    index = {name: j for j, name in enumerate(t.models)}
    values = []
    for big, small in pairs:
        if big not in index or small not in index:
            return None  # eval-arena drops the benchmark when a pair is missing
        sizes = []
        for name in (big, small):
            found = _SIZE.search(name)
            if found is None:
                raise ValueError(f"size_pairs: no size such as '7b' in the model name {name!r}")
            sizes.append(float(found.group(2)))
        a, b = t.outcomes[:, index[big]], t.outcomes[:, index[small]]
        both = ~np.isnan(a) & ~np.isnan(b)
        wins_a = float(np.sum(a[both] * (1 - b[both])))
        wins_b = float(np.sum((1 - a[both]) * b[both]))
        values.append((wins_a - wins_b) / math.sqrt(wins_a + wins_b) / (math.log2(sizes[0]) - math.log2(sizes[1])))
    return float(np.median(values)) if values else None


def _describe(v: np.ndarray) -> dict:
    """As pandas' ``Series.describe()``: count, mean, std (n - 1), min, quartiles (linear), max; NaN left out."""
    v = np.asarray(v, dtype=np.float64)
    v = v[np.isfinite(v)]
    if v.size == 0:
        return {"count": 0, "mean": None, "std": None, "min": None, "25%": None, "50%": None, "75%": None, "max": None}
    q = np.percentile(v, [25, 50, 75])
    return {
        "count": int(v.size),
        "mean": float(v.mean()),
        "std": float(v.std(ddof=1)) if v.size > 1 else None,
        "min": float(v.min()),
        "25%": float(q[0]),
        "50%": float(q[1]),
        "75%": float(q[2]),
        "max": float(v.max()),
    }


@dataclass(frozen=True, repr=False)
class BenchmarkNoiseTable(Result):
    """eval-arena's summary row of one benchmark (``summary.csv`` of the paper's site).

    Attributes
    ----------
    size : int
        Items.
    models : int
        Models.
    total_pairs : int
        **Ordered** pairs of different models whose accuracies differ by at
        most ``max_diff``.
    close_pairs : int
        Of those, the pairs both above ``min_perf`` whose sign-test p-value
        exceeds ``2 Phi(-z)`` (not told apart at ``z`` standard errors).
    no_solve : int
        Items whose mean outcome over all models is 0.
    tau_minus : int
        Items with a negative Kendall tau between their outcomes and the
        models' accuracies (eval-arena's ``tau-``).
    columns : dict
        For each of ``SE(A)``, ``SE_x(A)``, ``SE_pred(A)`` (over the models
        above ``min_perf``) and ``SE(A-B)``, ``SE_x(A-B)``, ``SE_pred(A-B)``,
        ``SE_signtest``, ``corr(A,B)``, ``sum(A!=B)`` (over the close pairs):
        ``count``, ``mean``, ``std``, ``min``, ``25%``, ``50%``, ``75%``, ``max``.
    sig_noise : float or None
        eval-arena's signal to noise of model size: over pairs of one family
        (larger, smaller), the median of ``sum(A - B) / sqrt(sum(A != B)) /
        log2(size ratio)`` (``signal_noise.py`` defines the per-pair value;
        the published column is their median: with four CRUXEval pairs it
        matches the median to 10 digits, not the mean); None without
        ``size_pairs`` or when a model of a pair is missing.
    """

    size: int
    models: int
    total_pairs: int
    close_pairs: int
    no_solve: int
    tau_minus: int
    columns: dict
    sig_noise: float | None

    def to_text(self) -> str:
        """The counts, then each column's count, mean and median, as the published row prints them."""
        lines = [
            f"{self.size:,} items, {self.models} models: {self.total_pairs:,} ordered pairs within reach, "
            f"{self.close_pairs:,} close; no_solve {self.no_solve}, tau- {self.tau_minus}",
            f"  {'column':<14} {'count':>7} {'mean':>10} {'median':>10}",
        ]
        for name, col in self.columns.items():
            lines.append(
                f"  {name:<14} {col['count']:>7g} {_num(col['mean'], '.4g'):>10} {_num(col['50%'], '.4g'):>10}"
            )
        lines.append(f"  sig_noise {_num(self.sig_noise, '.4g')}")
        return "\n".join(lines)


def benchmark_noise_table(
    per_item: Any,
    *,
    max_diff: float = MAX_DIFF,
    z: float = SIGMA,
    min_perf: float = MIN_PERF,
    size_pairs: str | Sequence[tuple[str, str]] | None = None,
) -> BenchmarkNoiseTable:
    r"""eval-arena's published summary row of a benchmark, computed with its definitions.

    The definitions of ``arena.py`` (``summarize_benchmark``) and
    ``estimators.py`` at commit ``89f867d``, kept as they are so that the
    published ``summary.csv`` can be checked:

    * the model columns use the **uncorrected** split of
      ``model_table``: ``SE(A) = sqrt(total / n)``, ``SE_x(A) = std(x) /
      sqrt(n)``, ``SE_pred(A) = sqrt(mean(s - x**2) / n)`` (0 for one 0/1
      sample per item, which is why the published table prints 0 where the
      prediction noise cannot be estimated), over models with accuracy above
      ``min_perf``;
    * the pair columns use ``Paired.from_bernoulli_prob_unbiasedK`` with the
      model's ``K`` (NaN, so not counted, when either model has ``K = 1``),
      clipped at 0; ``SE_signtest = sqrt(sum(A != B)) / n``; ``corr`` is
      Pearson's on the cells; the p-value is ``binomtest(int(awins),
      int(awins + bwins))``; over ordered pairs within ``max_diff`` that are
      "close" (see :class:`BenchmarkNoiseTable`).

    Where ``per_item.squares`` is None the samples are taken as 0/1, as
    eval-arena does (``s = x``).  A model's ``K`` is its rounded mean of
    ``samples``.

    Parameters
    ----------
    per_item : PerItem or pandas.DataFrame
        A complete grid (every model answered every item), outcomes in [0, 1].
    max_diff : float
        Pairs whose accuracies differ by more are not counted (eval-arena's
        ``max_diff``; its published table used 0.2), ``>= 0``.
    z : float
        Close pairs are not told apart at this many standard errors
        (eval-arena's ``sigma_thres``, 5), ``> 0``.
    min_perf : float
        Models at or below this accuracy are left out of the model columns and
        of the close pairs, in [0, 1).
    size_pairs : str or sequence of (str, str), optional
        For ``sig_noise``: pairs of models of one family, larger first, with
        the size in the name (``"...-33b"``), or the benchmark id of one of
        eval-arena's lists (``EVAL_ARENA_SIZE_PAIRS``: ``"humaneval+"``,
        ``"mbpp"``, ``"mbpp+"``, ``"CRUXEval-input-T0.2"``, ...).

    Returns
    -------
    BenchmarkNoiseTable
        The row.

    Raises
    ------
    ValueError
        A missing cell (eval-arena requires a complete grid), outcomes outside
        [0, 1], an option out of range, an unknown ``size_pairs`` benchmark or
        a model name without a size.

    References
    ----------
    Wang (2025), *Measuring all the noises of LLM evals*; eval-arena
    (``crux-eval/eval-arena``), ``arena.py`` and ``estimators.py`` at ``89f867d``.

    Examples
    --------
    >>> import numpy as np
    >>> import sotalib
    >>> rng = np.random.default_rng(0)
    >>> y = (rng.random((50, 4)) < [0.3, 0.4, 0.5, 0.6]).astype(float)
    >>> row = sotalib.benchmark_noise_table(sotalib.PerItem(y))
    >>> row.size, row.models, row.total_pairs
    (50, 4, 10)
    >>> row.columns["SE_pred(A)"]["mean"]
    0.0
    """
    t = as_per_item(per_item)
    max_diff = check_real("max_diff", max_diff, low=0.0)
    z = check_real("z", z, low=0.0, low_open=True)
    min_perf = check_real("min_perf", min_perf, low=0.0, high=1.0, high_open=True)
    if isinstance(size_pairs, str):
        if size_pairs not in EVAL_ARENA_SIZE_PAIRS:
            raise ValueError(
                f"size_pairs={size_pairs!r} is not one of eval-arena's lists: {', '.join(EVAL_ARENA_SIZE_PAIRS)} "
                "(or give the pairs of models)"
            )
        size_pairs = EVAL_ARENA_SIZE_PAIRS[size_pairs]
    Y = t.outcomes
    if np.isnan(Y).any():
        i, j = (int(v) for v in np.argwhere(np.isnan(Y))[0])
        raise ValueError(
            f"per_item: eval-arena's table needs a complete grid; row {i + 1} (item {t.items[i]!r}) has no "
            f"outcome for model {t.models[j]!r} (column {j + 1})"
        )
    if np.any((Y < 0) | (Y > 1)):
        raise ValueError("per_item: outcomes must lie in [0, 1]")
    squares = Y.copy() if t.squares is None else t.squares
    K = np.ones(Y.shape[1]) if t.samples is None else np.round(t.samples.mean(axis=0))
    Kc = np.broadcast_to(K[None, :], Y.shape).astype(np.int64)
    t2 = PerItem(Y, items=t.items, models=t.models, samples=Kc, squares=squares)
    c = _cells(t2)
    n = float(t.n)
    acc = Y.mean(axis=0)
    w = np.maximum(squares - Y * Y, 0.0)
    total = squares.mean(axis=0) - acc**2
    above = acc > min_perf
    cols = {
        "SE(A)": np.sqrt(np.maximum(total, 0.0) / n)[above],
        "SE_x(A)": (Y.std(axis=0) / math.sqrt(n))[above],
        "SE_pred(A)": np.sqrt(w.mean(axis=0) / n)[above],
    }
    thr = 2 * float(stats.norm.sf(abs(z)))
    parts: dict[str, list] = {k: [] for k in TABLE_COLUMNS[3:]}
    total_pairs = close = 0
    for blk in _pair_blocks(c, None):
        a, b = blk.ia, blk.ib
        within = np.abs(acc[a] - acc[b]) <= max_diff
        both = (acc[a] > min_perf) & (acc[b] > min_perf)
        diff_sum = blk.wins_a + blk.wins_b
        for wa, wb in ((blk.wins_a, blk.wins_b), (blk.wins_b, blk.wins_a)):  # both orders of each pair
            p = _sign_test(wa, wb)
            is_close = within & both & (p > thr)
            total_pairs += int(within.sum())
            close += int(is_close.sum())
            parts["SE(A-B)"].append(blk.se[is_close])
            parts["SE_x(A-B)"].append(blk.se_data[is_close])
            parts["SE_pred(A-B)"].append(blk.se_pred[is_close])
            parts["SE_signtest"].append(np.sqrt(diff_sum[is_close]) / n)
            parts["corr(A,B)"].append(blk.corr[is_close])
            parts["sum(A!=B)"].append(diff_sum[is_close])
    for key, chunks in parts.items():
        cols[key] = np.concatenate(chunks) if chunks else np.zeros(0)
    no_solve, tau_minus = _item_counts(c, acc)
    return BenchmarkNoiseTable(
        size=t.n,
        models=t.m,
        total_pairs=total_pairs,
        close_pairs=close,
        no_solve=no_solve,
        tau_minus=tau_minus,
        columns={key: _describe(cols[key]) for key in TABLE_COLUMNS},
        sig_noise=None if size_pairs is None else _signal_to_noise(t, size_pairs),
    )
