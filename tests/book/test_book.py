"""The book builds from scratch with every notebook executed and no warning,
and the rendered pages print the papers' numbers."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
import yaml

# Numbers the papers print that each page must show (from executed code, via glue).
PAGE_NUMBERS = {
    "notebooks/01_coin_flip": ["0.02069", "0.01479", "0.00020", "0.8765", "0.1823"],
    "notebooks/02_sample_maximum": [
        "0.9173",
        "0.001817",
        "0.9213",
        "0.8887",
        "0.9105",
        "0.0996",
        "0.0190",
        "0.0161",
        "0.9135",
        "0.9196",
        "0.9294",
        "0.9096",
        "0.8707",
        "0.9624",
        "0.9163",
        "0.001923",
    ],
    "notebooks/03_noniid": ["0.9101", "0.9173", "0.9207", "0.9140", "0.9177", "0.001485", "0.003655", "0.593"],
    # the paper's Table 2 numbers printed beside the book's, and the Cassava interval (real boards)
    "notebooks/04_real_challenges": ["0.9159", "0.9128", "0.9191", "0.9086", "0.9177", "0.9082", "0.9050"],
    # eval-arena's published counts of pairs (humaneval+, mbpp+, mbpp, CRUXEval input and output), reproduced
    "notebooks/04d_llm_noise": ["1476", "2728", "2466", "826", "844"],
    "notebooks/05_auc": ["0.9562", "0.004459", "0.9486", "0.9662", "0.9490"],
    "notebooks/06_consistency": [
        "0.6820",
        "0.6821",
        "673",
        "918",
        "1468",
        "0.8290",
        "0.8280",
        "0.9447",
        "0.9139",
        "0.9733",
        "2,616,607",
        "421,821",
        "5,492,313,581,364",
        "acc 0.8280 -> 0.8287",  # the typo finder's nearest suggestion, as chapter 6 prints and explains it
    ],
    # the Open LLM Leaderboard's rows and ARC's printable values; DeepSeek-R1's cells (all, checkable, no single
    # run); MMLU-Pro's merged run (correct answers, questions scored, the overall as a board prints it)
    "notebooks/06d_llm_scores": [
        "1,804",
        "1,173",
        "175 cells; 97 checkable; 38 cannot be one run",
        "10,363",
        "12,030",
        "86.14",
    ],
    "notebooks/07_judging": ["10,000", "9,900"],
}


def toc_files(root: Path) -> list[str]:
    toc = yaml.safe_load((root / "_toc.yml").read_text())
    files = [toc["root"]]
    for part in toc.get("parts", []):
        for chapter in part["chapters"]:
            files.append(chapter["file"])
            files += [s["file"] for s in chapter.get("sections", [])]
    return files


def page_text(html: Path) -> str:
    return unescape(re.sub(r"<[^>]+>", " ", html.read_text(encoding="utf-8")))


def prose_text(html: Path) -> str:
    """The page's text without its code (cell sources and literal blocks may show roles verbatim)."""
    text = re.sub(r"<pre\b.*?</pre>", " ", html.read_text(encoding="utf-8"), flags=re.S)
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", text, flags=re.S)
    return unescape(re.sub(r"<[^>]+>", " ", text))


@pytest.mark.book
def test_every_page_is_built(built, root):
    for f in toc_files(root):
        assert (built / f"{f}.html").exists(), f


@pytest.mark.book
def test_no_error_output_in_any_page(built, root):
    for f in toc_files(root):
        text = (built / f"{f}.html").read_text(encoding="utf-8")
        assert "Traceback (most recent call last)" not in text, f
        assert "output traceback" not in text and "output stderr" not in text, f


@pytest.mark.book
@pytest.mark.parametrize("page", sorted(PAGE_NUMBERS))
def test_pages_print_the_papers_numbers(built, page):
    text = page_text(built / f"{page}.html")
    missing = [v for v in PAGE_NUMBERS[page] if v not in text]
    assert not missing, f"{page} does not print {missing}"


@pytest.mark.book
def test_figures_are_images_numbered_and_referenced(built, root):
    for f in toc_files(root):
        html = (built / f"{f}.html").read_text(encoding="utf-8")
        n_fig = len(re.findall(r'<figure class="align-default" id="fig-', html))
        n_img = len(re.findall(r"<img[^>]+(?:data:image/png|\.png)", html))
        assert n_img >= n_fig, f"{f}: {n_fig} figures but {n_img} images (a figure rendered as text?)"
        assert "&lt;Figure size" not in html, f"{f}: a matplotlib figure rendered as text"
    text = page_text(built / "notebooks/02_sample_maximum.html")
    for k in (1, 2, 3):
        assert re.search(rf"Figure\s+2\.{k}", text), f"Figure 2.{k} missing"


@pytest.mark.book
def test_no_raw_role_text_in_any_page(built, root):
    """A role that was not rendered ({glue:text} inside $...$, a typo) shows as raw text."""
    for f in toc_files(root):
        text = prose_text(built / f"{f}.html")
        raw = sorted(set(re.findall(r"\{(?:glue|numref|cite|eq|ref|doc)[^}]*\}", text)))
        assert not raw, f"{f}: raw role text {raw}"
        assert not re.search(r"\(\(\d+\.\d+\)\)", text), f"{f}: a doubled equation reference '((N.M))'"


@pytest.mark.book
def test_pages_load_nothing_from_the_network(built):
    """MathJax and every script and stylesheet ship with the book: it reads offline."""
    for html in sorted(built.rglob("*.html")):
        page = html.read_text(encoding="utf-8")
        scripts = re.findall(r"<script\b[^>]*\bsrc=[\"'](?:https?:)?//[^\"']+", page)
        links = [
            tag
            for tag in re.findall(r"<link\b[^>]*>", page)
            if re.search(r"\bhref=[\"'](?:https?:)?//", tag)
            and re.search(r"rel=[\"'](?:stylesheet|preload|modulepreload)", tag)
        ]
        assert not scripts and not links, f"{html.relative_to(built)} loads {scripts + links}"
    assert (built / "_static" / "mathjax" / "tex-chtml.js").exists(), "MathJax is not shipped with the book"


@pytest.mark.book
def test_tables_are_numbered_as_tables(built, root):
    for f in toc_files(root):
        html = (built / f"{f}.html").read_text(encoding="utf-8")
        for fig in re.findall(r"<figure\b.*?</figure>", html, flags=re.S):
            assert "<table" not in fig, f"{f}: a table captioned as a figure"
        for caption in re.findall(r"<table\b[^>]*>\s*<caption>(.*?)</caption>", html, flags=re.S):
            assert "Table" in caption, f"{f}: a table whose caption is not 'Table N.M': {caption[:80]}"


@pytest.mark.book
def test_figures_have_real_alt_text(built, root):
    for f in toc_files(root):
        html = (built / f"{f}.html").read_text(encoding="utf-8")
        for fig in re.findall(r"<figure\b.*?</figure>", html, flags=re.S):
            for alt in re.findall(r"<img\b[^>]*\balt=\"([^\"]*)\"", fig):
                assert len(alt.split()) >= 5 and not re.search(r"\.(png|svg|jpe?g)\b|_images/", alt), (
                    f"{f}: a figure's alt text is not a description: {alt!r}"
                )


@pytest.mark.book
def test_chapters_offer_their_executed_notebook(built, root):
    import nbformat

    for f in toc_files(root):
        if not f.startswith("notebooks/"):
            continue
        html = (built / f"{f}.html").read_text(encoding="utf-8")
        assert f"_sources/{f}.ipynb" in html, f"{f}: no .ipynb in the download menu"
        nb = nbformat.read(built / "_sources" / f"{f}.ipynb", as_version=4)
        assert any(cell.get("outputs") for cell in nb.cells if cell.cell_type == "code"), f"{f}.ipynb has no outputs"


def test_citation_follows_the_package(root):
    """CITATION.cff's version and release date are the package's (pyproject.toml and its CHANGELOG entry)."""
    cff = yaml.safe_load((root / "CITATION.cff").read_text(encoding="utf-8"))
    version = re.search(r'^version = "([^"]+)"$', (root / "pyproject.toml").read_text(encoding="utf-8"), re.M).group(1)
    assert cff["version"] == version
    dated = re.search(
        rf"^## {re.escape(version)} — (\d{{4}}-\d{{2}}-\d{{2}})$", (root / "CHANGELOG.md").read_text(), re.M
    )
    assert dated, f"CHANGELOG.md has no dated entry for {version}"
    assert str(cff["date-released"]) == dated.group(1)
    titles = " ".join(ref["title"] for ref in cff["references"])
    for paper in ("multiplicity", "consistency of performance scores", "How to judge a competition"):
        assert paper in titles
    assert "doi" not in cff, "no DOI that the project does not own"
    # no URL but the book's own address, once it is published (_config.yml's html.baseurl)
    baseurl = yaml.safe_load((root / "_config.yml").read_text(encoding="utf-8"))["html"].get("baseurl") or ""
    assert cff.get("url", "") == baseurl, "CITATION.cff's url is not where the book is published"
