"""Sphinx extension: each chapter page offers its executed notebook (``.ipynb``) for download.

The chapters are MyST Markdown notebooks (Jupytext).  While the HTML pages are written, this
extension reads each chapter's ``.md`` with Jupytext, merges the outputs of the build's own
execution (the Jupyter cache that MyST-NB filled moments before), writes the notebook next to
the page's source in ``_sources/`` and tells the theme, so that the page's download menu lists
``.ipynb`` beside ``.md``.  Opened in JupyterLab, the downloaded notebook shows the outputs the
book shows and runs again as it is.

Enabled in ``_config.yml`` (``sphinx.extra_extensions``).
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["executed_notebook", "setup"]


def executed_notebook(source: Path, cache_path: Path):
    """The notebook of ``source`` (a Jupytext ``.md``) with the outputs stored in the Jupyter cache.

    Raises ``KeyError`` when the cache holds no execution of this exact notebook.
    """
    import jupytext
    from jupyter_cache import get_cache

    nb = jupytext.read(source)
    _, merged = get_cache(str(cache_path)).merge_match_into_notebook(nb)
    merged.metadata.pop("source_map", None)
    return merged


def _is_chapter(source: Path) -> bool:
    if source.suffix != ".md":
        return False
    head = source.read_text(encoding="utf-8")[:2000]
    return head.startswith("---") and "kernelspec:" in head


def _add_notebook(app, pagename, _templatename, context, doctree) -> None:
    if doctree is None or app.builder.format != "html":
        return
    source = Path(app.env.doc2path(pagename))
    if not pagename.startswith("notebooks/") or not _is_chapter(source):
        return
    import nbformat

    cache_path = Path(app.env.mystnb_config.execution_cache_path or Path(app.outdir).parent / ".jupyter_cache")
    try:
        nb = executed_notebook(source, cache_path)
    except KeyError as exc:  # the page was not executed through the cache: nothing to offer
        from sphinx.util import logging

        logging.getLogger(__name__).warning(f"no executed notebook for {pagename}: {exc}")
        return
    target = Path(app.outdir) / "_sources" / f"{pagename}.ipynb"
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, target)
    context["ipynb_source"] = f"{pagename}.ipynb"


def setup(app):
    # before sphinx-book-theme builds its header buttons (priority 501)
    app.connect("html-page-context", _add_notebook, priority=500)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
