"""The book can be cited: the version on every page, a how-to-cite page, a status page, a complete bibliography."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

import sotalib
from sotalib.book.citation import bibtex, published_at, where_to_find

from .test_book import toc_files

PAPERS = ("mollersen2025multiplicity", "fazekas2024consistency", "pavao2024judge")
#: An address as GitHub Pages gives a project's site.
PAGES = "https://owner.github.io/sotalib-book/"


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


def test_cite_the_address_is_the_configs_and_citation_cffs(root):
    """Where the book is published: _config.yml's html.baseurl, the same as CITATION.cff's url
    (both empty until it is published)."""
    cff = yaml.safe_load((root / "CITATION.cff").read_text(encoding="utf-8"))
    url = published_at(root / "_config.yml")
    assert cff.get("url", "") == url
    assert url == "" or (url.startswith("https://") and url.endswith("/")), url


def test_cite_published_at_reads_the_config(tmp_path):
    config = tmp_path / "_config.yml"
    for text, expected in [
        ('html:\n  baseurl: ""\n', ""),
        ("html:\n  use_edit_page_button: false\n", ""),
        ("title: x\n", ""),
        (f"html:\n  baseurl: {PAGES}\n", PAGES),
    ]:
        config.write_text(text)
        assert published_at(config) == expected, text
    config.write_text("html:\n  baseurl: http://owner.github.io/x/\n")
    with pytest.raises(ValueError, match="html.baseurl"):
        published_at(config)


def _software_entry(text: str):
    from pybtex.database import parse_string

    (entry,) = parse_string(text, "bibtex").entries.values()
    return entry


@pytest.mark.parametrize("url", ["", PAGES])
def test_cite_the_text_and_the_entry_read_correctly_either_way(root, url):
    cff = yaml.safe_load((root / "CITATION.cff").read_text(encoding="utf-8"))
    text = " ".join(where_to_find(url).split())
    assert text.startswith("**No DOI exists yet.**")
    entry = _software_entry(bibtex(cff, url))
    assert entry.type == "software" and entry.fields["version"] == sotalib.__version__
    assert entry.fields["date"] == str(cff["date-released"])
    if url:
        assert f"The book is published at <{url}>: cite that address" in text
        assert "no public address" not in text and entry.fields["url"] == url
        assert "no public address" not in entry.fields["note"]
    else:
        assert "there is no public address to cite" in text and "published at" not in text
        assert "url" not in entry.fields and "no public address yet" in entry.fields["note"]


@pytest.mark.slow
@pytest.mark.parametrize("url", ["", PAGES])
def test_cite_page_runs_with_and_without_an_address(root, tmp_path, url, monkeypatch):
    """The how-to-cite page's code, run in a fresh kernel on a copy of the repository's files with
    the address set (in _config.yml and CITATION.cff) or empty: its paragraph and its entry."""
    jupytext = pytest.importorskip("jupytext")
    nbclient = pytest.importorskip("nbclient")
    monkeypatch.setenv("PYTHONPATH", str(root))
    (tmp_path / "book").mkdir()
    for name in ("book/cite.md", "book/references.bib"):
        shutil.copy(root / name, tmp_path / name)
    config = (root / "_config.yml").read_text(encoding="utf-8")
    cff = (root / "CITATION.cff").read_text(encoding="utf-8")
    config = re.sub(r"^  baseurl: .*$", f'  baseurl: "{url}"', config, count=1, flags=re.M)
    cff = re.sub(r"^url: .*\n", "", cff, flags=re.M)
    if url:
        cff = cff.replace("\nlicense: MIT\n", f'\nlicense: MIT\nurl: "{url}"\n')
    (tmp_path / "_config.yml").write_text(config, encoding="utf-8")
    (tmp_path / "CITATION.cff").write_text(cff, encoding="utf-8")
    nb = jupytext.read(tmp_path / "book" / "cite.md")
    nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path / "book")}}
    ).execute()
    markdown = [
        out["data"]["text/markdown"]
        for cell in nb.cells
        for out in cell.get("outputs", ())
        if "text/markdown" in out.get("data", {})
    ]
    printed = [out["text"] for cell in nb.cells for out in cell.get("outputs", ()) if out.get("name") == "stdout"]
    (paragraph,) = markdown
    entry = _software_entry(printed[0])
    if url:
        assert f"published at <{url}>" in paragraph and entry.fields["url"] == url
    else:
        assert "no public address to cite" in paragraph and "url" not in entry.fields


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
    url = published_at(Path(sotalib.__file__).parent.parent / "_config.yml")
    if url:
        assert f"The book is published at {url}" in text
    else:
        assert "there is no public address to cite" in text and "published at" not in text
    blocks = [cell.get_text() for cell in article.select("div.tag_bibtex pre")]
    assert len(blocks) == 2, "the book's entry and the papers' entries"
    assert f"version = {{{sotalib.__version__}}}" in blocks[0]
    assert (f"url     = {{{url}}}" in blocks[0]) if url else ("url" not in blocks[0])
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
