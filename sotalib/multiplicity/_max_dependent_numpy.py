r"""The exact distribution of the maximum in plain NumPy: the engine for small and moderate problems.

It computes what the Numba kernel :func:`sotalib.multiplicity._max_dependent_kernels._max_kernel`
computes, with the same model, windows and truncations (see the docstring of
:mod:`sotalib.multiplicity._max_dependent`), but needs neither Numba nor SciPy, so a
command-line process that uses it starts in a fraction of the time it takes
to load Numba and its compiled kernels.

Given ``K_0 = k_0`` and a quadrature node (or atom) ``theta_i``, the successes
of a classifier are ``X = A + B`` with ``A ~ B(k_0, p_1)`` and
``B ~ B(n - k_0, p_0)``.  Each pmf is taken on the window where it exceeds
``eps`` times its mode (ratio recurrence from the mode, normalised on the
window), as in the kernel.  With ``A`` the shorter of the two windows (the
sum is symmetric),

.. math:: P(X > x) = \sum_a P(A = a)\, P(B > x - a), \qquad
          P(X \le x) = \sum_a P(A = a)\, P(B \le x - a),

sums of positive terms, the first used where ``x >= E X`` and the second
below, so that both tails keep their relative digits.  For a run of
consecutive ``x`` the sum is a Toeplitz matrix--vector product; all
``(k_0, theta_i)`` pairs of a chunk are done at once as one ``einsum`` over a
sliding-window view of a short buffer of ``P(B > y)`` (or ``P(B <= y)``), so
nothing of size ``(x window) x (a window)`` is materialised.

For each ``k_0`` the factor ``G(x | k_0)^m`` (or the product over a fixed
vector) is evaluated only on ``[lo_k, hi_k]``, where it lies in
``(e_k, 1 - e_k)`` with ``e_k = min(feps / P(k_0), 1/4)``; the ends are found by
the kernel's search (exponential search from a hint, then bisection), run for
all ``k_0`` of a chunk at once.  Below ``lo_k`` the factor counts as 0, above
``hi_k`` as 1.  Memory is bounded by processing ``k_0`` in chunks.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

__all__: list[str] = []  # the engine behind sotalib.multiplicity.max_distribution; nothing public

#: Elements per temporary array (rows x window): chunks of ``k_0`` are sized to stay below it.
_CHUNK_ELEMENTS = 1 << 21


def _windows(k: np.ndarray, p: np.ndarray, eps: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pmf of ``B(k_r, p_r)`` on the window where it exceeds ``eps`` times its mode, for each row ``r``.

    Returns ``(lo, L, pmf)``: the window is ``lo .. lo + L - 1`` and ``pmf[r, :L]``
    holds the pmf on it, normalised on it (zeros beyond), as the kernel's ``_binom_window``.
    """
    k = np.asarray(k, dtype=np.int64)
    p = np.asarray(p, dtype=float)
    P = k.size
    lo = np.where((k > 0) & (p >= 1.0), k, 0).astype(np.int64)
    L = np.ones(P, dtype=np.int64)
    nt = np.nonzero((k > 0) & (p > 0.0) & (p < 1.0))[0]
    if nt.size == 0:
        return lo, L, np.ones((P, 1))
    kk = k[nt]
    pp = p[nt]
    r = pp / (1.0 - pp)
    mode = np.minimum(np.floor((kk + 1) * pp).astype(np.int64), kk)
    # half-width: the window is about 13.6 sd either side for eps = 1e-40; more where it is skewed (below)
    H = int(min(int(kk.max()), math.ceil(14.0 * math.sqrt(float(np.max(kk * pp * (1.0 - pp))))) + 8))
    rows = np.arange(nt.size)
    cu: np.ndarray | None = None  # the ratios above the mode, all rows (from the first pass)
    cd: np.ndarray | None = None  # and below it
    nup = np.zeros(nt.size, dtype=np.int64)
    ndn = np.zeros(nt.size, dtype=np.int64)
    while rows.size:
        j = np.arange(1.0, H + 1.0)
        km, md, rr = kk[rows], mode[rows], r[rows]
        # up: f(a + 1) / f(a) = (k - a) / (a + 1) * r for a = mode, mode + 1, ...;  <= 0 past k
        up = np.maximum((km - md + 1.0)[:, None] - j, 0.0)
        up /= md[:, None] + j
        up *= rr[:, None]
        np.cumprod(up, axis=1, out=up)
        # down: f(a - 1) / f(a) = a / ((k - a + 1) r) for a = mode, mode - 1, ...;  <= 0 past 0
        dn = np.maximum((md + 1.0)[:, None] - j, 0.0)
        dn /= ((km - md).astype(float)[:, None] + j) * rr[:, None]
        np.cumprod(dn, axis=1, out=dn)
        up[up < eps] = 0.0
        dn[dn < eps] = 0.0
        nu = np.count_nonzero(up, axis=1)
        nd = np.count_nonzero(dn, axis=1)
        if cu is None:
            cu, cd = up, dn
        assert cd is not None  # set with cu
        nup[rows], ndn[rows] = nu, nd
        # rows whose window reaches the half-width without reaching 0 or k: again, twice as wide
        short = ((nu == H) & (md + H < km)) | ((nd == H) & (md - H > 0))
        if cu is not up:
            done = ~short
            w = min(H, cu.shape[1])
            cu[rows[done]] = 0.0
            cd[rows[done]] = 0.0
            cu[rows[done], :w] = up[done, :w]
            cd[rows[done], :w] = dn[done, :w]
        if short.any():
            H = min(2 * H, int(kk.max()))
            grow = H - cu.shape[1]
            if grow > 0:
                cu = np.pad(cu, ((0, 0), (0, grow)))
                cd = np.pad(cd, ((0, 0), (0, grow)))
        rows = rows[short]
    assert cu is not None and cd is not None  # nt is not empty: the loop ran
    H = cu.shape[1]
    lo[nt] = mode - ndn
    L[nt] = nup + ndn + 1
    Lmax = int(L.max())
    # [f(mode - H), ..., f(mode - 1), 1, f(mode + 1), ..., f(mode + H), 0, ...] relative to the mode
    comb = np.zeros((nt.size, 2 * H + 1 + Lmax))
    comb[:, :H] = cd[:, ::-1]
    comb[:, H] = 1.0
    comb[:, H + 1 : 2 * H + 1] = cu
    vals = sliding_window_view(comb, Lmax, axis=1)[np.arange(nt.size), H - ndn]
    vals /= vals.sum(axis=1, keepdims=True)
    pmf = np.zeros((P, Lmax))
    pmf[:, 0] = 1.0
    pmf[nt] = vals
    return lo, L, pmf


class _Chunk:
    """Windows and tables of ``A`` (pmf) and ``B`` (cdf and survival function) for ``k_0`` values x nodes."""

    def __init__(self, n, k0s, p1s, p0s, eps):
        K, Q = k0s.size, p1s.size
        self.K, self.Q = K, Q
        kA = np.repeat(k0s, Q)
        kB = n - kA
        pA = np.tile(p1s, K)
        pB = np.tile(p0s, K)
        self.mu = (k0s[:, None] * p1s[None, :] + (n - k0s)[:, None] * p0s[None, :]).ravel()
        loA, LA, fA = _windows(kA, pA, eps)
        loB, LB, fB = _windows(kB, pB, eps)
        self.smin = (loA + loB).reshape(K, Q).min(axis=1)
        self.smax = (loA + LA - 1 + loB + LB - 1).reshape(K, Q).max(axis=1)
        # the shorter window is summed over (the pmf side), the longer one tabulated
        swap = LB < LA
        Lp = int(np.where(swap, LB, LA).max())
        Lt = int(np.where(swap, LA, LB).max())
        self.plo = np.where(swap, loB, loA)
        self.pL = np.where(swap, LB, LA)
        self.tlo = np.where(swap, loA, loB)
        tL = np.where(swap, LA, LB)

        def pad(f, width):
            return f[:, :width] if f.shape[1] >= width else np.pad(f, ((0, 0), (0, width - f.shape[1])))

        self.pmf = np.where(swap[:, None], pad(fB, Lp), pad(fA, Lp))
        tab = np.where(swap[:, None], pad(fA, Lt), pad(fB, Lt))
        # extended tables on y - tlo + 1 = 0 .. Lt + 1: column 0 is left of the window, Lt + 1 right of it
        inside = np.arange(Lt)[None, :] < tL[:, None]
        cdf = np.where(inside, np.cumsum(tab, axis=1), 1.0)
        sf = np.zeros_like(tab)
        sf[:, :-1] = np.cumsum(tab[:, :0:-1], axis=1)[:, ::-1]  # P(B > tlo + t): summed from the right
        R = K * Q
        ext = np.empty((2, R, Lt + 2))
        ext[0, :, 0], ext[0, :, 1:-1], ext[0, :, -1] = 0.0, cdf, 1.0
        ext[1, :, 0], ext[1, :, 1:-1], ext[1, :, -1] = 1.0, sf, 0.0
        self.ext = ext.reshape(-1)
        self.Lt = Lt
        self.Lp = Lp

    def values(self, rows, x0, W):
        """``P(X <= x)`` (where ``x < mu``) or ``P(X > x)`` (where ``x >= mu``) for rows, ``x = x0 .. x0 + W - 1``.

        Returns ``(val, upper)``: ``upper`` says which of the two ``val`` is.  ``W`` is
        a common length; rows whose side changes inside the range are split.
        """
        mu = self.mu[rows]
        xs = x0[:, None] + np.arange(W)
        upper = xs >= mu[:, None]
        val = np.empty(xs.shape)
        # first index of each row on the upper side
        split = np.clip(np.ceil(mu).astype(np.int64) - x0, 0, W)
        for side in (0, 1):
            if side == 0:
                start, length = np.zeros_like(split), split
            else:
                start, length = split, W - split
            keep = np.nonzero(length > 0)[0]
            if keep.size == 0:
                continue
            self._toeplitz(side, rows[keep], x0[keep] + start[keep], length[keep], val, keep, start[keep])
        return val, upper

    def _toeplitz(self, side, rows, xstart, length, out, out_rows, out_start):
        """``out[out_rows, out_start + i] = sum_a pmf(a) T_side(xstart + i - a)`` for ``i < length``."""
        # group rows by the length of their pmf window (padding waste at most 2x)
        pL = self.pL[rows]
        group = np.ceil(np.log2(pL)).astype(np.int64)
        Lt2 = self.Lt + 2
        for g in np.unique(group):
            sel = np.nonzero(group == g)[0]
            Lg = int(pL[sel].max())
            Wg = int(length[sel].max())
            step = max(1, _CHUNK_ELEMENTS // (Wg + Lg))
            for s0 in range(0, sel.size, step):
                s = sel[s0 : s0 + step]
                r = rows[s]
                # buffer[t] = T(xstart - plo - (Lg - 1) + t), t = 0 .. Wg + Lg - 2
                y = (xstart[s] - self.plo[r] - (Lg - 1) - self.tlo[r] + 1)[:, None] + np.arange(Wg + Lg - 1)
                buf = self.ext[(side * self.K * self.Q + r)[:, None] * Lt2 + np.clip(y, 0, Lt2 - 1)]
                prev = np.ascontiguousarray(self.pmf[r, :Lg][:, ::-1])
                v = np.einsum("tij,tj->ti", sliding_window_view(buf, Lg, axis=1)[:, :Wg], prev)
                i = np.arange(Wg)
                ok = i[None, :] < length[s][:, None]
                rr, ii = np.nonzero(ok)
                out[out_rows[s][rr], out_start[s][rr] + ii] = v[rr, ii]

    def log_factor(self, ks, x0, W, m_or_zero, w):
        """``m log G(x | k_0)`` (mixture) or ``sum_i w_i log P_i(x | k_0)`` (product, ``m_or_zero = 0``).

        For ``k_0`` indices ``ks`` (into this chunk) and ``x = x0 .. x0 + W - 1``: shape ``(len(ks), W)``.
        """
        Q = self.Q
        rows = (ks[:, None] * Q + np.arange(Q)).ravel()
        val, upper = self.values(rows, np.repeat(x0, Q), W)
        val = val.reshape(ks.size, Q, W)
        upper = upper.reshape(ks.size, Q, W)
        with np.errstate(divide="ignore", invalid="ignore"):
            if m_or_zero > 0:
                c = np.where(upper, 1.0 - val, val)
                s = np.where(upper, val, 1.0 - val)
                gc = np.einsum("q,kqx->kx", w, c)
                gs = np.einsum("q,kqx->kx", w, s)
                lc = m_or_zero * np.log(np.maximum(gc, 0.0))
                ls = m_or_zero * np.log1p(-np.clip(gs, 0.0, 1.0))
                return np.where(gc < 0.5, lc, ls)
            term = np.where(upper, np.log1p(-np.clip(val, 0.0, 1.0)), np.log(np.maximum(val, 0.0)))
            return np.einsum("q,kqx->kx", w, term)


def work_estimate(n: int, nk: int, p1s: np.ndarray, p0s: np.ndarray, m_or_zero: int) -> float:
    """A rough count of the multiply-adds of :func:`max_kernel` (to choose between the engines)."""
    k0 = n if nk == 1 else n // 2
    sa = np.sqrt(k0 * p1s * (1 - p1s))
    sb = np.sqrt((n - k0) * p0s * (1 - p0s)) if nk > 1 else np.zeros_like(sa)
    la = 27.0 * np.minimum(sa, sb) + 3.0  # the shorter pmf window
    sd = float(np.sqrt(np.max(sa * sa + sb * sb)) + 0.5)
    mus = k0 * p1s + (n - k0) * p0s
    # the window of the maximum: ~20 sd for one classifier, less for many; plus the spread of the nodes' means
    wx = 20.0 * sd + (float(mus.max() - mus.min()) if m_or_zero <= 1 else 0.3 * float(mus.max() - mus.min())) + 4
    return float(nk * wx * la.sum())


def _ends(lf, lfe, efe):
    """First ``x`` with ``log G^m > lfe`` and first ``x`` from there with ``1 - G^m <= exp(lfe)`` (column indices).

    Also whether the row's range certifies them: the first predicate false at
    its start and the second true somewhere in it.
    """
    p0 = lf > lfe[:, None]
    with np.errstate(invalid="ignore"):
        p1 = -np.expm1(lf) <= efe[:, None]
    i_lo = np.argmax(p0, axis=1)
    p1 &= np.arange(lf.shape[1])[None, :] >= i_lo[:, None]
    i_hi = np.argmax(p1, axis=1)
    ok_lo = ~p0[:, 0]
    ok_hi = p1[np.arange(lf.shape[0]), i_hi]
    return i_lo, i_hi, ok_lo, ok_hi


def _factors(chunk, glo, ghi, lfe, m_or_zero, w):
    """``lo_k, hi_k`` and the log factors on ``[lo_k, hi_k]`` for each ``k_0`` of the chunk.

    ``[glo, ghi]`` are guesses of the windows; the factor is computed on them and
    each is widened until it is certified (the factor below ``e_k`` at its start,
    above ``1 - e_k`` at its end), which settles ``lo_k`` and ``hi_k`` as the
    kernel's search does.  ``glo >= smin - 1``, where the factor is 0, and
    ``ghi <= smax``, where it is 1, are always certified.
    """
    K = glo.size
    lo_k = np.empty(K, dtype=np.int64)
    hi_k = np.empty(K, dtype=np.int64)
    vals = [None] * K
    efe = np.exp(lfe)
    glo = np.maximum(glo, chunk.smin - 1)
    ghi = np.minimum(np.maximum(ghi, glo), chunk.smax)
    pending = np.arange(K)
    grow = np.maximum(2, (ghi - glo) // 8)
    while pending.size:
        # k0 of similar window length together (at most 4 groups)
        width = ghi[pending] - glo[pending] + 1
        pending = pending[np.argsort(width, kind="stable")]
        retry = []
        for ks in np.array_split(pending, min(4, pending.size)):
            W = int((ghi[ks] - glo[ks]).max()) + 1
            lf = chunk.log_factor(ks, glo[ks], W, m_or_zero, w)
            i_lo, i_hi, ok_lo, ok_hi = _ends(lf, lfe[ks], efe[ks])
            ok_lo |= glo[ks] <= chunk.smin[ks] - 1
            ok_hi |= glo[ks] + W - 1 >= chunk.smax[ks]
            # a row whose window is not certified: ends not found, so i_hi defaults to the last column
            i_hi = np.where(ok_hi, i_hi, W - 1)
            for j in np.nonzero(ok_lo & ok_hi)[0]:
                k = ks[j]
                lo_k[k] = glo[k] + i_lo[j]
                hi_k[k] = glo[k] + i_hi[j]
                vals[k] = lf[j, i_lo[j] : i_hi[j] + 1]
            bad = ~(ok_lo & ok_hi)
            if bad.any():
                kb = ks[bad]
                glo[kb] = np.where(ok_lo[bad], glo[kb], np.maximum(glo[kb] - grow[kb], chunk.smin[kb] - 1))
                ghi[kb] = np.where(ok_hi[bad], glo[kb] + W - 1, np.minimum(ghi[kb] + grow[kb], chunk.smax[kb]))
                grow[kb] *= 2
                retry.append(kb)
        pending = np.concatenate(retry) if retry else np.empty(0, dtype=np.int64)
    return lo_k, hi_k, vals


def max_kernel(n, m_or_zero, k0s, pk0, p1s, p0s, w, eps, feps):
    """``(xlo, F, S)``: ``P(max <= x)`` and ``P(max > x)`` on ``x = xlo, xlo + 1, ...`` (as the Numba kernel)."""
    n = int(n)
    m_or_zero = int(m_or_zero)
    k0s = np.asarray(k0s, dtype=np.int64)
    pk0 = np.asarray(pk0, dtype=float)
    p1s = np.ascontiguousarray(p1s, dtype=float)
    p0s = np.ascontiguousarray(p0s, dtype=float)
    w = np.ascontiguousarray(w, dtype=float)
    nk, nq = k0s.size, w.size
    lfe_all = np.minimum(math.log(feps) - np.log(np.maximum(pk0, 1e-300)), math.log(0.25))
    # chunks of k0 whose tables stay below the memory budget
    sd = math.sqrt(
        max(int(k0s.max()) * float(np.max(p1s * (1 - p1s))), (n - int(k0s.min())) * float(np.max(p0s * (1 - p0s))))
    )
    width = 2 * int(math.ceil(16 * sd)) + 80
    per_chunk = max(1, min(nk, _CHUNK_ELEMENTS // max(1, nq * width)))
    # the windows at a few anchor k0, from the whole support, interpolated as guesses for the others
    anchors = np.unique(np.linspace(0, nk - 1, min(nk, 7)).round().astype(np.int64))
    ch = _Chunk(n, k0s[anchors], p1s, p0s, eps)
    a_lo, a_hi, _ = _factors(ch, ch.smin - 1, ch.smax, lfe_all[anchors], m_or_zero, w)
    idx = np.arange(nk)
    margin = 2 + (a_hi - a_lo).max() // 16
    guess_lo = np.floor(np.interp(idx, anchors, a_lo)).astype(np.int64) - margin
    guess_hi = np.ceil(np.interp(idx, anchors, a_hi)).astype(np.int64) + margin
    lo_k = np.empty(nk, dtype=np.int64)
    hi_k = np.empty(nk, dtype=np.int64)
    vals = []
    for c0 in range(0, nk, per_chunk):
        sl = slice(c0, min(nk, c0 + per_chunk))
        ch = _Chunk(n, k0s[sl], p1s, p0s, eps)
        lo_k[sl], hi_k[sl], v = _factors(ch, guess_lo[sl], guess_hi[sl], lfe_all[sl], m_or_zero, w)
        vals.extend(v)
    xlo = int(lo_k.min())
    W = int(hi_k.max()) - xlo + 1
    # F(x) = sum_k P(k) [0 below lo_k, G^m on the window, 1 above hi_k], S likewise; summed with the same
    # order for every x, so that F and S are monotone as the kernel's are
    F = np.zeros(W)
    S = np.zeros(W)
    X = np.arange(W)[None, :]
    step = max(1, _CHUNK_ELEMENTS // W)
    for c0 in range(0, nk, step):
        ks = np.arange(c0, min(nk, c0 + step))
        lo, hi = (lo_k[ks] - xlo)[:, None], (hi_k[ks] - xlo)[:, None]
        Wk = hi_k[ks] - lo_k[ks] + 1
        lfd = np.zeros((ks.size, W))
        rows = np.repeat(np.arange(ks.size), Wk)
        cols = np.repeat(lo[:, 0], Wk) + (np.arange(Wk.sum()) - np.repeat(np.cumsum(Wk) - Wk, Wk))
        lfd[rows, cols] = np.concatenate([vals[k] for k in ks])
        inside = (X >= lo) & (X <= hi)
        pk = pk0[ks][:, None]
        F += (pk * np.where(inside, np.exp(lfd), (X > hi).astype(float))).sum(axis=0)
        S += (pk * np.where(inside, -np.expm1(lfd), (X < lo).astype(float))).sum(axis=0)
    return xlo, F, S
