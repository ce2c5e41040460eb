"""sotalib.book.style.table: the book's numbered tables, readable in the book and in JupyterLab."""

from __future__ import annotations

import pandas as pd
import pytest

from sotalib.book.style import table


def frame():
    return pd.DataFrame(
        {
            "m": [1, 10_000],
            "theta": [0.5, 0.917322],
            "consistent": [True, False],
            "interval": ["0.917322 ± 0.000006", "a|b"],
            "pair": [[[743, 4031], [743, 4032]], (1, 2)],
        }
    )


def test_markdown_is_a_myst_table_directive_with_caption_and_name():
    md = table(frame(), caption="Two rows,\n  one caption.", name="tbl-demo")._repr_markdown_()
    lines = md.splitlines()
    assert lines[0] == ":::{table} Two rows, one caption."
    assert lines[1] == ":name: tbl-demo"
    assert lines[-1] == ":::"
    assert "| m | theta | consistent | interval | pair |" in lines
    # numbers (and text that reads as numbers) right-aligned, words left-aligned
    assert "|---:|---:|:---|:---|:---|" in lines


def test_cells_are_formatted_for_reading():
    md = table(frame(), caption="c", name="tbl-demo", formats={"theta": ".6f"})._repr_markdown_()
    assert "| 10,000 | 0.917322 | no | a\\|b | 1, 2 |" in md
    assert "| 1 | 0.500000 | yes | 0.917322 ± 0.000006 | (743, 4031), (743, 4032) |" in md
    assert "True" not in md and "[" not in md


def test_default_float_format_and_index():
    df = pd.DataFrame({"p": [0.123456]}, index=pd.Index([0.5], name="t"))
    md = table(df, caption="c", name="tbl-i", index=True, formats={"t": ".2f"})._repr_markdown_()
    assert "| t | p |" in md and "| 0.50 | 0.1235 |" in md


def test_html_has_caption_and_right_aligned_numbers_for_jupyterlab():
    html = table(frame(), caption="See Eq. {eq}`eq-x` and {numref}`tbl-y`.", name="tbl-demo")._repr_html_()
    assert "<caption" in html and "See Eq. (eq-x) and tbl-y." in html
    assert "text-align:right;white-space:nowrap" in html
    assert "{eq}" not in html


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(caption="", name="tbl-a"), "caption"),
        (dict(caption="c", name="Table 1"), "name"),
        (dict(caption="c", name="tbl-a", formats={"nope": ".2f"}), "formats"),
    ],
)
def test_bad_arguments_name_the_parameter(kwargs, message):
    with pytest.raises(ValueError, match=message):
        table(frame(), **kwargs)


def test_scientific_notation_reads_as_a_reader_writes_it():
    from sotalib.book.style import sci

    assert sci(7.66e-07) == "7.7 × 10⁻⁷"
    assert sci(4.4712e-4, 3) == "4.471 × 10⁻⁴"
    assert sci(2.5e12) == "2.5 × 10¹²"
    md = table(
        pd.DataFrame({"p": [7.66e-07], "v": [0.0132]}), caption="c", name="tbl-e", formats={"p": ".1e", "v": "{:.2e}"}
    )._repr_markdown_()
    assert "| 7.7 × 10⁻⁷ | 1.32 × 10⁻² |" in md
    assert "e-0" not in md


def test_a_last_column_of_sentences_is_marked_for_room():
    long = table(pd.DataFrame({"a": [1], "why": ["x" * 61]}), caption="c", name="tbl-l")._repr_markdown_()
    short = table(pd.DataFrame({"a": [1], "why": ["yes"]}), caption="c", name="tbl-s")._repr_markdown_()
    assert ":class: sotalib-table sotalib-long-text" in long
    assert ":class: sotalib-table\n" in short
