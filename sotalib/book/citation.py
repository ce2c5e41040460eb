"""How to cite the book: its address once it is published, its BibTeX entry.

The address is ``html.baseurl`` in ``_config.yml`` (GitHub Pages serves the
book at ``https://OWNER.github.io/REPO/``), empty until the book is
published; ``CITATION.cff`` gives the same address as its ``url`` (a test
ties them).  The how-to-cite page (``book/cite.md``) reads both files when
the book is built, so its text and its entry say where the book is, or that
it has no public address yet.
"""

from __future__ import annotations

from pathlib import Path

import yaml

__all__ = ["bibtex", "published_at", "where_to_find"]


def published_at(config: Path) -> str:
    """The book's public address (``html.baseurl`` of ``_config.yml``), or ""."""
    cfg = yaml.safe_load(Path(config).read_text(encoding="utf-8")) or {}
    url = str((cfg.get("html") or {}).get("baseurl") or "").strip()
    if url and not url.startswith("https://"):
        raise ValueError(
            f"html.baseurl must be an https:// address, got {url!r}"
        )
    return url


def where_to_find(url: str) -> str:
    """The paragraph (Markdown) that says how to identify what is cited."""
    doi = (
        "**No DOI exists yet.**  Neither the book nor the library has been "
        "archived with a persistent identifier"
    )
    if not url:
        return (
            f"{doi}, and there is no public address to cite: cite the "
            "title, the version and the release date, which together "
            "identify the code and every number the book shows."
        )
    return (
        f"{doi}.  The book is published at <{url}>: cite that address "
        "with the version and the release date, which together identify "
        "the code and every number the book shows (the address shows the "
        "latest version; the footer of each page names the version)."
    )


def bibtex(cff: dict, url: str) -> str:
    """The ``@software`` entry of the book and library, from CITATION.cff."""
    year = str(cff["date-released"])[:4]
    version = cff["version"]
    doi = "no DOI" if url else "no DOI, no public address yet"
    lines = [
        f"@software{{sotalib{year},",
        f"  title   = {{{cff['title']}}},",
        f"  author  = {{{{{cff['authors'][0]['name']}}}}},",
        f"  year    = {{{year}}},",
        f"  version = {{{version}}},",
        f"  date    = {{{cff['date-released']}}},",
    ]
    if url:
        lines.append(f"  url     = {{{url}}},")
    lines += [
        "  note    = {Jupyter Book and Python library sotalib, version "
        f"{version}; {doi}}},",
        f"  license = {{{cff['license']}}}",
        "}",
    ]
    return "\n".join(lines)
