"""The book's one plotting style and the helpers every chapter shares.

Each chapter calls :func:`use_style` once, at the top.  Colours carry the same
meaning in every figure (:data:`COLORS`), from the Okabe-Ito palette (safe for
colour-blind readers): blue for a single classifier, vermillion for a better
one, pink (reddish purple) for an observed sample maximum, bluish green for a
state-of-the-art estimate, grey for observed leaderboards.  Captions name these
colours with these words.  Each meaning also has a marker (:data:`MARKERS`) and
the style's cycle pairs every colour with a line style, so that a figure printed
in grey still tells its series apart.
"""

from __future__ import annotations

import html
import numbers
import re
from collections.abc import Mapping
from importlib import resources

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
import seaborn as sns

__all__ = [
    "COLORS",
    "MARKERS",
    "STYLE",
    "Table",
    "sci",
    "table",
    "use_style",
    "add_proportion_axis",
    "vline",
]

#: Path of the style sheet shipped inside the package.
STYLE = str(resources.files("sotalib.book").joinpath("sotalib.mplstyle"))

#: Semantic colours used by every chapter (the Okabe-Ito palette, colour-blind safe).
COLORS = {
    "single": "#0072B2",  # blue: one classifier (theta)
    "better": "#D55E00",  # vermillion: a better classifier (theta_{1-alpha/2})
    "maximum": "#CC79A7",  # reddish purple: the sample maximum (theta_hat_max)
    "observed": "#999999",  # grey: an observed leaderboard
    "sota": "#009E73",  # bluish green: a state-of-the-art estimate
    "shade": "#009E73",  # shaded probabilities
    "reference": "#000000",  # black: reference lines
    # orange: Okabe-Ito's, lighter and yellower than vermillion (seaborn's "colorblind"
    # orange was hard to tell from it); beside vermillion, give the two different markers
    "accent": "#E69F00",
}

#: A marker for each meaning of :data:`COLORS`: points of different series differ in shape
#: too, so that they can be told apart in grey and by readers who do not see the colours.
MARKERS = {
    "single": "o",
    "better": "s",
    "maximum": "^",
    "observed": "D",
    "sota": "v",
    "shade": "v",
    "reference": "x",
    "accent": "P",
}


def use_style() -> None:
    """Apply the book's style (matplotlib rc parameters and seaborn palette).

    In a notebook kernel, figures are also sent as PNG at twice their resolution
    ("retina"), so that they stay crisp on high-resolution screens, in the book and
    in JupyterLab alike.  NumPy scalars print as plain numbers (``0.0566``, not
    ``np.float64(0.0566)``), so that a reader sees numbers and a glued value can be
    formatted in the prose (``{glue:text}`key:.3f```).
    """
    np.set_printoptions(legacy="1.25")
    mpl.rcParams.update(mpl.rcParamsDefault)
    plt.style.use(STYLE)
    sns.set_palette(plt.rcParams["axes.prop_cycle"].by_key()["color"])
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with the book extra
        return
    if get_ipython() is not None:
        from matplotlib_inline.backend_inline import set_matplotlib_formats

        set_matplotlib_formats("retina")


# ---------------------------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------------------------

_ROLE = re.compile(r"\{([a-z:+-]+)\}`([^`]*)`")
_NUMBER_LIKE = re.compile(
    r"[\s\d.,±+\-−–()%×eE\[\]]*\d[\s\d.,±+\-−–()%×eE\[\]]*"
)


def _plain_caption(text: str) -> str:
    """A caption for plain HTML (JupyterLab): MyST roles reduced to their text."""

    def repl(m):
        role, inner = m.group(1), m.group(2)
        if role == "eq":
            return f"({inner})"
        # {numref}`Figure %s <fig-x>` or {eq}`eq-x`: keep the text, or the target's name
        target = re.match(r"^(.*?)\s*<([^>]+)>$", inner)
        return (target.group(1) or target.group(2)) if target else inner

    return _ROLE.sub(repl, text)


_SUPERSCRIPT = str.maketrans(
    "-0123456789",
    "\u207b\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079",
)
_E_NOTATION = re.compile(
    r"(?<![\w.])(-?\d+(?:\.\d+)?)e([+-]?)0*(\d+)(?![\w.])"
)


def _readable_exponents(text: str) -> str:
    """Python's ``7.7e-07`` as a reader writes it: ``7.7 × 10⁻⁷``."""

    def repl(m):
        sign = "-" if m.group(2) == "-" else ""
        return f"{m.group(1)} \u00d7 10{(sign + m.group(3)).translate(_SUPERSCRIPT)}"

    return _E_NOTATION.sub(repl, text)


def sci(x: float, digits: int = 1) -> str:
    """A number in scientific notation for prose and tables: ``sci(7.66e-07)`` is ``"7.7 × 10⁻⁷"``."""
    return _readable_exponents(f"{float(x):.{digits}e}")


def _format_cell(value, fmt: str | None, *, top: bool = True) -> str:
    """One cell as text: booleans as yes/no, lists joined, numbers by ``fmt`` or by their kind.

    Inside a list (``top=False``) numbers have no thousands separators, and inner lists are
    parenthesised: ``[[743, 4031], [743, 4032]]`` reads "(743, 4031), (743, 4032)".
    """
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return ""
    if isinstance(value, bool | np.bool_):
        return "yes" if value else "no"
    if fmt is not None:
        # an "e" format prints as a reader writes it: 4.471 × 10⁻⁴, not 4.471e-04
        return _readable_exponents(
            fmt.format(value) if "{" in fmt else format(value, fmt)
        )
    if isinstance(value, numbers.Integral):
        return f"{int(value):,}" if top else str(int(value))
    if isinstance(value, numbers.Real):
        return f"{float(value):,.4f}" if top else f"{float(value):.4f}"
    if isinstance(value, list | tuple | np.ndarray):
        inner = ", ".join(_format_cell(v, None, top=False) for v in value)
        return inner if top else f"({inner})"
    return str(value)


def _is_numeric(column) -> bool:
    """Numbers, or text that reads as numbers ("0.9173 ± 0.0018", "(0.90, 0.93)"): right-aligned."""
    values = [
        v
        for v in column
        if v is not None and not (isinstance(v, float) and np.isnan(v))
    ]

    def number_like(v) -> bool:
        if isinstance(v, bool | np.bool_):
            return False
        return isinstance(v, numbers.Number) or (
            isinstance(v, str) and _NUMBER_LIKE.fullmatch(v) is not None
        )

    return bool(values) and all(number_like(v) for v in values)


def _label(key) -> str:
    if isinstance(key, tuple):
        return " ".join(str(k) for k in key if str(k))
    return str(key)


class Table:
    """A captioned, named table of the book; see :func:`table`.

    It displays as a styled HTML table with its caption in JupyterLab (``_repr_html_``)
    and as a MyST ``table`` directive in the book (``_repr_markdown_``; the book's
    configuration prefers Markdown outputs), so that the book numbers it "Table N.M"
    and ``{numref}`` can refer to it.
    """

    def __init__(
        self,
        df,
        *,
        caption: str,
        name: str,
        formats: Mapping[str, str] | None = None,
        index: bool = False,
    ):
        import pandas as pd

        if not isinstance(df, pd.DataFrame):
            df = pd.DataFrame(df)
        if not caption or not caption.strip():
            raise ValueError("caption must be a non-empty sentence")
        if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", name or ""):
            raise ValueError(
                f"name must be a label such as 'tbl-coin-any' (lower case, digits, '-'); got {name!r}"
            )
        if index:
            df = df.reset_index()
        formats = dict(formats or {})
        unknown = sorted(
            set(map(str, formats)) - {_label(c) for c in df.columns}
        )
        if unknown:
            raise ValueError(
                f"formats names columns the table does not have: {unknown}"
            )
        self.caption = " ".join(caption.split())
        self.name = name
        self.columns = [_label(c) for c in df.columns]
        self.numeric = [_is_numeric(df[c]) for c in df.columns]
        self.rows = [
            [
                _format_cell(v, formats.get(label))
                for v, label in zip(row, self.columns, strict=True)
            ]
            for row in df.itertuples(index=False, name=None)
        ]
        self.data = df

    # -- the book -----------------------------------------------------------------------------
    def _repr_markdown_(self) -> str:
        def cell(text: str) -> str:
            return text.replace("|", "\\|") or " "

        # a last column of sentences gets room to wrap into a few lines, not one word a line
        long_text = (
            bool(self.rows)
            and not self.numeric[-1]
            and max(len(r[-1]) for r in self.rows) > 60
        )
        lines = [
            f":::{{table}} {self.caption}",
            f":name: {self.name}",
            ":class: sotalib-table"
            + (" sotalib-long-text" if long_text else ""),
            "",
            "| " + " | ".join(cell(c) for c in self.columns) + " |",
            "|"
            + "|".join("---:" if num else ":---" for num in self.numeric)
            + "|",
        ]
        lines += [
            "| " + " | ".join(cell(v) for v in row) + " |" for row in self.rows
        ]
        lines.append(":::")
        return "\n".join(lines) + "\n"

    # -- JupyterLab ---------------------------------------------------------------------------
    def _repr_html_(self) -> str:
        def align(num: bool) -> str:
            pad = "padding:0.2em 0.7em;"
            return pad + (
                "text-align:right;white-space:nowrap"
                if num
                else "text-align:left"
            )

        head = "".join(
            f'<th style="{align(n)};border-bottom:1px solid currentColor">{html.escape(c)}</th>'
            for c, n in zip(self.columns, self.numeric)
        )
        body = "".join(
            "<tr>"
            + "".join(
                f'<td style="{align(n)}">{html.escape(v)}</td>'
                for v, n in zip(row, self.numeric)
            )
            + "</tr>"
            for row in self.rows
        )
        caption = html.escape(_plain_caption(self.caption))
        return (
            f'<table class="sotalib-table" id="{self.name}" style="border-collapse:collapse">'
            f'<caption style="caption-side:top;text-align:left"><b>Table.</b> {caption}</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        )

    # -- a terminal ---------------------------------------------------------------------------
    def __repr__(self) -> str:
        widths = [
            max(len(c), *(len(r[i]) for r in self.rows))
            if self.rows
            else len(c)
            for i, c in enumerate(self.columns)
        ]

        def line(cells):
            return "  ".join(
                c.rjust(w) if num else c.ljust(w)
                for c, w, num in zip(cells, widths, self.numeric, strict=True)
            ).rstrip()

        out = [f"Table. {_plain_caption(self.caption)}", line(self.columns)]
        out += [line(r) for r in self.rows]
        return "\n".join(out)


def table(
    df,
    *,
    caption: str,
    name: str,
    formats: dict[str, str] | None = None,
    index: bool = False,
) -> Table:
    """A numbered, captioned table of the book: make it the last expression of a visible cell.

    Parameters
    ----------
    df : pandas.DataFrame (or anything ``pandas.DataFrame`` accepts)
        The values, unformatted.
    caption : str
        One or more sentences in MyST Markdown (math ``$...$`` and roles such as ``{eq}`` allowed).
    name : str
        The label, e.g. ``"tbl-coin-any"``; refer to the table with ``{numref}`tbl-coin-any```.
    formats : dict, optional
        Column label -> format, either a format spec (``".4f"``, ``",d"``) or a format string
        (``"{:.4f}"``).  Columns without one: integers with thousands separators, other numbers
        with four decimals, booleans as "yes"/"no", lists joined by commas, text as is.
    index : bool, default False
        Show the DataFrame's index as the first column(s).

    Returns
    -------
    Table
        Displayed as "Table N.M" with its caption in the book, and as a styled HTML table in
        JupyterLab.  Numeric columns are right-aligned and never wrap.
    """
    return Table(df, caption=caption, name=name, formats=formats, index=index)


def add_proportion_axis(
    ax, n: int, label: str = r"accuracy $\hat\theta = x/n$", nbins: int = 4
):
    """Add a top axis showing counts ``x`` as proportions ``x / n`` (as in Figure 2).

    At most ``nbins`` ticks, so that labels such as "0.9175" never run into each other.
    """
    from matplotlib.ticker import MaxNLocator

    sec = ax.secondary_xaxis(
        "top", functions=(lambda x: x / n, lambda p: p * n)
    )
    sec.xaxis.set_major_locator(
        MaxNLocator(nbins=nbins, steps=[1, 2, 2.5, 5, 10])
    )
    sec.set_xlabel(label)
    return sec


def vline(
    ax,
    x: float,
    label: str | None = None,
    color: str | None = None,
    ls: str = "--",
    **kwargs,
):
    """A labelled vertical reference line."""
    return ax.axvline(
        x,
        color=color or COLORS["reference"],
        ls=ls,
        lw=1.2,
        label=label,
        **kwargs,
    )


def plot_cdf_pmf(
    dist, axes=None, color: str | None = None, label: str | None = None
):
    """Cdf (left) and pmf (right) of a :class:`~sotalib.multiplicity._max_iid.MaxDistribution` (Figures 2 and 6).

    The bottom axis counts successes ``x``; the top axis shows the accuracy ``x / n``.
    """
    if axes is None:
        fig, axes = plt.subplots(1, 2, figsize=(8, 3.4))
    color = color or COLORS["maximum"]
    x = dist.x
    axes[0].step(x, dist.cdf, where="post", color=color, label=label)
    axes[0].set_ylabel(r"cdf $F(x)$")
    axes[1].bar(
        x,
        dist.pmf,
        width=1.0,
        color=color,
        alpha=0.8,
        linewidth=0,
        label=label,
    )
    axes[1].set_ylabel(r"pmf $f(x)$")
    lo, hi = dist.quantile(1e-5) * dist.n, dist.quantile(1 - 1e-5) * dist.n
    pad = max(1.0, 0.05 * (hi - lo))
    for ax in axes:
        ax.set_xlim(lo - pad, hi + pad)
        ax.xaxis.set_major_locator(
            mpl.ticker.MaxNLocator(nbins=5, integer=True)
        )
        ax.set_xlabel(r"number of successes $x$ of the best classifier")
        add_proportion_axis(ax, dist.n, label=r"$\hat\theta_{\max} = x/n$")
    return axes


def plot_beating_the_ensemble(
    n: int,
    theta: float,
    theta_better: float,
    dist,
    alpha: float = 0.05,
    ax=None,
):
    """Figure 3: pmfs of one classifier at ``theta`` and at ``theta_better`` against the maximum.

    Shades the probabilities that the better classifier reaches the expected
    maximum and the upper end of the maximum's interval.
    """
    from scipy import stats

    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.6))
    x = np.arange(
        int(
            n * min(theta, theta_better) - 6 * np.sqrt(n * theta * (1 - theta))
        ),
        int(
            n * max(theta, theta_better) + 6 * np.sqrt(n * theta * (1 - theta))
        )
        + 1,
    )
    p_single = stats.binom.pmf(x, n, theta)
    p_better = stats.binom.pmf(x, n, theta_better)
    mean_max = dist.mean()
    hi_max = dist.interval(alpha)[1]
    ax.plot(
        x / n,
        p_single,
        color=COLORS["single"],
        label=rf"$\hat\theta$, $\theta = {theta:g}$",
    )
    ax.plot(
        x / n,
        p_better,
        color=COLORS["better"],
        label=rf"$\hat\theta_{{m+1}}$, $\theta_{{m+1}} = \theta_{{1-\alpha/2}} = {theta_better:.4f}$",
    )
    sel_mean = x / n >= mean_max - 1e-12
    sel_hi = x / n >= hi_max - 1e-12
    ax.fill_between(
        x[sel_mean] / n,
        p_better[sel_mean],
        step=None,
        color=COLORS["shade"],
        alpha=0.25,
        lw=0,
        label=r"$P(\hat\theta_{m+1} \geq \mathrm{E}\,\hat\theta_{\max})$",
    )
    ax.fill_between(
        x[sel_hi] / n,
        p_better[sel_hi],
        color=COLORS["shade"],
        alpha=0.55,
        lw=0,
        label=r"$P(\hat\theta_{m+1} \geq \theta^m_{1-\alpha/2})$",
    )
    ax.axvline(theta_better, color=COLORS["better"], ls=":", lw=1)
    vline(
        ax,
        mean_max,
        color=COLORS["maximum"],
        ls="--",
        label=r"$\mathrm{E}\,\hat\theta_{\max}$",
    )
    vline(
        ax,
        hi_max,
        color=COLORS["maximum"],
        ls="-.",
        label=r"$\theta^m_{1-\alpha/2}$",
    )
    from ..multiplicity._binomial import clopper_pearson

    lo_ci, hi_ci = clopper_pearson(round(n * theta), n, alpha=alpha)
    ax.hlines(
        0,
        lo_ci,
        hi_ci,
        color=COLORS["single"],
        lw=4,
        label=r"CI $(\theta_{\alpha/2}, \theta_{1-\alpha/2})$",
    )
    ax.set_xlabel(r"accuracy $\hat\theta = x / n$")
    ax.set_ylabel("probability")
    ax.legend(loc="upper left")
    return ax


def plot_bias_sd(
    values,
    curves: dict,
    ax_bias,
    ax_sd,
    xlabel: str,
    logx: bool = False,
    marks=(),
):
    """One column of Figure 4: bias and standard deviation against one parameter.

    ``curves`` maps a legend label to ``(bias, sd)`` arrays over ``values``;
    the first entry is the default curve (black), the others offsets.
    ``marks`` are parameter values with grey vertical lines (Table 3 rows).
    """
    styles = ["-", "--", ":", "-."]
    colors = [
        COLORS["reference"],
        COLORS["single"],
        COLORS["better"],
        COLORS["sota"],
    ]
    for i, (label, (bias, sd)) in enumerate(curves.items()):
        kw = dict(
            color=colors[i % len(colors)],
            ls=styles[i % len(styles)],
            label=label,
        )
        ax_bias.plot(values, bias, **kw)
        ax_sd.plot(values, sd, **kw)
    for ax, ylabel in (
        (ax_bias, r"bias $\mathrm{E}\,\hat\theta_{\max} - \theta$"),
        (ax_sd, r"standard deviation of $\hat\theta_{\max}$"),
    ):
        for v in marks:
            ax.axvline(v, color="0.6", lw=0.8, zorder=0)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        if logx:
            ax.set_xscale("log")
    ax_bias.legend()
    return ax_bias, ax_sd
