"""The book can be cited: the version on every page, a how-to-cite page, a status page, a complete bibliography."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

import sotalib

from .test_book import toc_files

PAPERS = ("mollersen2025multiplicity", "fazekas2024consistency", "pavao2024judge")


def bibliography(root: Path):
    from pybtex.database import parse_file

    return parse_file(str(root / "book" / "references.bib"), bib_format="bibtex")


def test_cite_bibliography_articles_are_complete(root):
    """Each article names its journal, year and volume, and its pages or an address (URL or DOI)."""
    problems = []
    for key, entry in bibliography(root).entries.items():
        fields = {name.lower() for name in entry.fields}
        if entry.type == "article":
            missing = {"journal", "year", "volume"} - fields
            if not fields & {"pages", "url", "doi"}:
                missing.add("pages, url or doi")
            if missing:
                problems.append(f"{key}: no {', '.join(sorted(missing))}")
        elif entry.type == "misc" and "eprint" in fields and "url" not in fields:
            problems.append(f"{key}: a preprint without its URL")
    assert not problems, "\n".join(problems)


def test_cite_papers_reproduced_have_an_address(root):
    entries = bibliography(root).entries
    for key in PAPERS:
        fields = {name.lower() for name in entries[key].fields}
        assert key == "pavao2024judge" or fields & {"url", "doi"}, key


def test_cite_citation_cff_has_the_papers_and_no_doi(root):
    cff = yaml.safe_load((root / "CITATION.cff").read_text(encoding="utf-8"))
    assert cff["version"] == sotalib.__version__
    assert "doi" not in cff and "identifiers" not in cff
    arxiv = [i["value"] for ref in cff["references"] for i in ref.get("identifiers", [])]
    assert "arXiv:2303.07272" in arxiv and "arXiv:2310.12527" in arxiv


@pytest.mark.book
def test_footer_shows_the_version_on_every_page(built, root):
    pages = toc_files(root)
    assert len(pages) > 10
    for page in pages:
        html = (built / f"{page}.html").read_text(encoding="utf-8")
        shown = re.findall(r'class="sotalib-version-number">([^<]+)<', html)
        assert shown == [sotalib.__version__], f"{page}: footer shows {shown}"
        assert 'class="extra_footer"' in html, page


@pytest.mark.book
def test_cite_page(built):
    from bs4 import BeautifulSoup

    soup = BeautifulSoup((built / "book" / "cite.html").read_text(encoding="utf-8"), "html.parser")
    article = soup.find("article")
    text = " ".join(article.get_text(" ").split())
    cff = yaml.safe_load((Path(sotalib.__file__).parent.parent / "CITATION.cff").read_text(encoding="utf-8"))
    assert f"version {sotalib.__version__}" in text and str(cff["date-released"]) in text
    assert "No DOI exists yet" in text
    blocks = [cell.get_text() for cell in article.select("div.tag_bibtex pre")]
    assert len(blocks) == 2, "the book's entry and the papers' entries"
    assert f"version = {{{sotalib.__version__}}}" in blocks[0]
    for key in PAPERS:
        assert f"{{{key}," in blocks[1], key
    # the entries wrap, on this page only
    style = " ".join(s.get_text() for s in article.find_all("style"))
    assert re.search(r"\.tag_bibtex pre\s*\{[^}]*white-space:\s*pre-wrap", style)
    for css in (built / "_static").glob("sotalib*.css"):
        assert "tag_bibtex" not in css.read_text(encoding="utf-8")


@pytest.mark.book
def test_status_page_lists_each_chapter(built, root):
    from bs4 import BeautifulSoup

    chapters = [f for f in toc_files(root) if f.startswith("notebooks/")]
    soup = BeautifulSoup((built / "book" / "status.html").read_text(encoding="utf-8"), "html.parser")
    table = soup.find("table", class_="sotalib-status")
    rows = [[td.get_text(" ", strip=True) for td in tr.find_all("td")] for tr in table.find("tbody").find_all("tr")]
    linked = {a["href"].split("#")[0] for a in table.find_all("a", href=True)}
    for chapter in chapters:
        assert f"../{chapter}.html" in linked, f"{chapter} is not on the status page"
    for row in rows:
        chapter, when, seconds, version, status = row
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}", when), row
        assert float(seconds) > 0, row
        assert version == sotalib.__version__ and status == "ran", row
    assert re.search(rf"sotalib\s*:\s*{re.escape(sotalib.__version__)}\b", soup.find("article").get_text(" "))
