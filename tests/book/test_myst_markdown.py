"""MyST prose as plain Markdown (the downloaded notebooks' Markdown cells): small strings, no build."""

from __future__ import annotations

import re

import nbformat
import pytest

from sotalib.book.myst_markdown import MystToMarkdown
from sotalib.book.notebook_download import glue_data, readable_notebook

GLUED = {
    "n-teams": {"text/plain": "3556"},
    "sota": {"text/plain": "0.907071234"},
    "phrase": {"text/plain": "'less than a thousandth'"},
    "md": {"text/markdown": "**bold** value", "text/plain": "<IPython.core.display.Markdown object>"},
    "fig": {"image/png": "iVBORw0KGgo=", "text/plain": "<Figure size 640x480 with 1 Axes>"},
    "formula": {"text/latex": "$x^2$", "text/plain": "x**2"},
}
NUMBERS = {
    ("std", "numref", "tbl-ch4-boards"): "Table 4.3",
    ("std", "numref", "fig-ch2-max"): "Figure 2.1",
    ("std", "numref", "sec-drive"): "Section 6.2",
    ("std", "numref", "ex-ch4-1"): "Exercise 4.1",
    ("std", "ref", "ch-auc"): "AUC: the same bias",
    ("std", "doc", "05_auc"): "AUC: the same bias",
    ("math", "eq", "eq-max-cdf"): "(2.1)",
}
CITES = {
    ("t", "mollersen2025multiplicity"): "Møllersen and Holsbø [2025]",
    ("p", "recht2019imagenet"): "[Recht *et al.*, 2019]",
}


class Resolver:
    def glue(self, key):
        return GLUED.get(key)

    def xref(self, domain, typ, target, title):
        number = NUMBERS.get((domain, typ, target))
        if number is None:
            return None
        if title and typ == "numref":
            return title.replace("%s", number.split()[-1])
        return title or number

    def cite(self, typ, target):
        return CITES.get((typ, target))


def convert(text: str) -> str:
    return MystToMarkdown(Resolver()).convert(text)


LEFTOVER = re.compile(r"\{[\w:.+-]+\}`|^\s*(?::{3,}|`{3,}\{)|^\s*\([^()\s]+\)=\s*$", re.MULTILINE)


@pytest.mark.parametrize(
    ("myst", "markdown"),
    [
        ("{glue:text}`n-teams` teams", "3556 teams"),
        ("{glue:text}`n-teams:,d` teams", "3,556 teams"),
        ("at {glue:text}`sota:.4f`.", "at 0.9071."),
        ("by {glue:text}`phrase`", "by less than a thousandth"),
        ("{glue:}`md` and {glue}`md`", "**bold** value and **bold** value"),
        ("see {numref}`tbl-ch4-boards`", "see Table 4.3"),
        ("see {numref}`Fig. %s <fig-ch2-max>`", "see Fig. 2.1"),
        ("{numref}`sec-drive`", "Section 6.2"),
        ("Eq. {eq}`eq-max-cdf`", "Eq. (2.1)"),
        ("{cite:t}`mollersen2025multiplicity` show", "Møllersen and Holsbø [2025] show"),
        ("shift {cite:p}`recht2019imagenet`", "shift [Recht *et al.*, 2019]"),
        ("{math}`\\hat\\theta`", "$\\hat\\theta$"),
        ("the {ref}`ch-auc` chapter", "the AUC: the same bias chapter"),
        ("the {ref}`AUC chapter <ch-auc>`", "the AUC chapter"),
        ("{doc}`05_auc`", "AUC: the same bias"),
        ("{py:func}`sotalib.estimate_sota`", "`sotalib.estimate_sota()`"),
        ("{py:func}`~sotalib.estimate_sota`", "`estimate_sota()`"),
        ("{py:class}`~sotalib.Leaderboard`", "`Leaderboard`"),
        ("{func}`estimate <sotalib.estimate_sota>`", "`estimate`"),
        ("code `{glue:text}` stays", "code `{glue:text}` stays"),
    ],
)
def test_roles(myst, markdown):
    assert convert(myst) == markdown


def test_unknown_glue_key_is_visible_not_silent():
    assert convert("{glue:text}`missing:.3f`") == "[missing]"


def test_glued_text_is_escaped():
    GLUED["star"] = {"text/plain": "'a*b_c'"}
    try:
        assert convert("{glue:text}`star`") == "a\\*b\\_c"
    finally:
        del GLUED["star"]


def test_targets_and_comments_are_dropped():
    assert convert("(sec-x)=\n## A section\n\n% a comment\ntext") == "## A section\n\ntext"


def test_labelled_equation_gets_its_number():
    assert convert("$$\nx = 1\n$$ (eq-max-cdf)\n\nafter") == "$$\nx = 1 \\tag{2.1}$$\n\nafter"
    assert convert("$$x = 1,$$ (eq-max-cdf)") == "$$x = 1, \\tag{2.1}$$"
    assert convert("```{math}\n:label: eq-max-cdf\nx = 1\n```") == "$$\nx = 1 \\tag{2.1}\n$$"


def test_admonitions_become_titled_block_quotes():
    myst = ":::{admonition} Take-aways\n:class: tip\n\n* one {glue:text}`n-teams:,d`\n* two\n:::\n\nafter"
    assert convert(myst) == "> **Take-aways**\n>\n> * one 3,556\n> * two\n\nafter"
    assert convert("```{note}\nA note.\n```") == "> **Note**\n>\n> A note."
    assert convert(":::{dropdown} How this is checked\nBy tests.\n:::") == "> **How this is checked**\n>\n> By tests."


def test_nested_directives():
    myst = "::::{admonition} Outer\n:::{note}\nInner {numref}`tbl-ch4-boards`.\n:::\n::::"
    assert convert(myst) == "> **Outer**\n>\n> > **Note**\n> >\n> > Inner Table 4.3."


def test_exercise_and_solution():
    myst = ":::{exercise}\n:label: ex-ch4-1\n\nCount the teams.\n:::"
    assert convert(myst) == "> **Exercise 4.1**\n>\n> Count the teams."
    start = "````{solution-start} ex-ch4-1\n:class: dropdown\n````"
    assert convert(start) == "> **Solution to Exercise 4.1**"
    assert convert("```{solution-end}\n```") == ""


def test_figures_and_tables():
    myst = ":::{figure} images/max.png\n:name: fig-ch2-max\n:alt: A curve\n\nThe maximum.\n:::"
    assert convert(myst) == "![A curve](images/max.png)\n\n**Figure 2.1.** The maximum."
    conv = MystToMarkdown(Resolver())
    glued = conv.convert("```{glue:figure} fig\n:name: fig-ch2-max\n\nGlued {math}`x`.\n```")
    assert glued == "![fig](attachment:fig.png)\n\n**Figure 2.1.** Glued $x$."
    assert conv.attachments == {"fig.png": {"image/png": "iVBORw0KGgo="}}
    table = ":::{table} Boards.\n:name: tbl-ch4-boards\n:class: sotalib-table\n\n| a |\n|---|\n| 1 |\n:::"
    assert convert(table) == "**Table 4.3.** Boards.\n\n| a |\n|---|\n| 1 |"


def test_plain_code_fences_are_kept_verbatim():
    myst = "```bash\nsotalib sota --json {numref}`x`\n```"
    assert convert(myst) == myst


def _notebook():
    glue_cell = nbformat.v4.new_code_cell("glue('n-teams', 3556, display=False)", metadata={"tags": ["remove-cell"]})
    glue_cell.outputs = [
        nbformat.v4.new_output(
            "display_data",
            data={"application/papermill.record/text/plain": "3556"},
            metadata={"scrapbook": {"name": "n-teams", "mime_prefix": "application/papermill.record/"}},
        )
    ]
    table_md = (
        ":::{table} Boards of {cite:t}`mollersen2025multiplicity`.\n:name: tbl-ch4-boards\n\n| a |\n|---|\n| 1 |\n:::\n"
    )
    table_cell = nbformat.v4.new_code_cell("table(df)")
    table_cell.outputs = [
        nbformat.v4.new_output(
            "execute_result",
            data={
                "text/markdown": table_md,
                "text/html": '<table><caption style="x"><b>Table</b> (tbl-ch4-boards): Boards.</caption></table>',
                "text/plain": "Table (tbl-ch4-boards): Boards.\na\n1",
            },
            execution_count=1,
        )
    ]
    figure_cell = nbformat.v4.new_code_cell(
        "plot()",
        metadata={"tags": ["hide-input"], "mystnb": {"figure": {"name": "fig-ch2-max", "caption": "The\nmaximum."}}},
    )
    return nbformat.v4.new_notebook(
        cells=[
            glue_cell,
            nbformat.v4.new_markdown_cell(
                "(ch-x)=\n# Title\n\n{glue:text}`n-teams:,d` teams, {numref}`tbl-ch4-boards`."
            ),
            table_cell,
            figure_cell,
            nbformat.v4.new_markdown_cell("```{solution-end}\n```"),
        ]
    )


def test_solutions_in_a_dropdown_are_folded():
    nb = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell(":::{solution-start} ex-ch4-1\n:class: dropdown\n:::"),
            nbformat.v4.new_code_cell("answer()"),
            nbformat.v4.new_markdown_cell(":::{solution-end}\n:::"),
            nbformat.v4.new_code_cell("visible()"),
        ]
    )
    out = readable_notebook(nb, Resolver())
    assert [c.source for c in out.cells] == ["> **Solution to Exercise 4.1**", "answer()", "visible()"]
    assert out.cells[1].metadata.jupyter == {"source_hidden": True, "outputs_hidden": True}
    assert "jupyter" not in out.cells[2].metadata


def test_readable_notebook():
    nb = _notebook()
    out = readable_notebook(nb, Resolver())
    assert glue_data(nb) == {"n-teams": {"text/plain": "3556"}}
    kinds = [c.cell_type for c in out.cells]
    # the solution's end (nothing to show) is gone; the figure's caption follows its cell
    assert kinds == ["code", "markdown", "code", "code", "markdown"]
    assert out.cells[0].outputs == []  # the glue record, which JupyterLab cannot show
    assert out.cells[0].metadata.jupyter == {"source_hidden": True, "outputs_hidden": True}
    assert out.cells[3].metadata.jupyter == {"source_hidden": True}
    assert "jupyter" not in out.cells[2].metadata
    assert out.cells[1].source == "# Title\n\n3,556 teams, Table 4.3."
    data = out.cells[2].outputs[0].data
    assert data["text/markdown"].startswith("**Table 4.3.** Boards of Møllersen and Holsbø [2025].\n\n| a |")
    assert '<caption style="x"><b>Table 4.3.</b> Boards of Møllersen and Holsbø [2025].</caption>' in data["text/html"]
    assert data["text/plain"].split("\n")[0] == "Table 4.3. Boards of Møllersen and Holsbø [2025]."
    assert out.cells[4].source == "**Figure 2.1.** The maximum."
    for cell in out.cells:
        if cell.cell_type == "markdown":
            assert not LEFTOVER.search(cell.source), cell.source
    # the input is not modified
    assert nb.cells[0].outputs and "jupyter" not in nb.cells[0].metadata
