"""Sphinx extension: each chapter's executed notebook, readable anywhere; the version on every page.

The chapters are MyST Markdown notebooks (Jupytext).  While the HTML pages are written, this
extension reads each chapter's ``.md`` with Jupytext, merges the outputs of the build's own
execution (the Jupyter cache that MyST-NB filled moments before), writes the notebook next to
the page's source in ``_sources/`` and tells the theme, so that the page's download menu lists
``.ipynb`` beside ``.md``.  Opened in JupyterLab, the downloaded notebook shows the outputs the
book shows and runs again as it is.

Its prose reads as the page does (:func:`readable_notebook`): every glued number, table, figure
and equation number and citation is written into the Markdown cells (resolved by the build's own
Sphinx domains, so they are the numbers the HTML shows), admonitions become block quotes, the
tables' and figures' captions carry their numbers, and the cells the book removes are folded.

The extension also puts the package's version (and the release date of ``CITATION.cff``) in every
page's footer, and provides the ``sotalib-status`` and ``sotalib-build-info`` directives of the
status page: each chapter's execution time and the library version it ran with.

Enabled in ``_config.yml`` (``sphinx.extra_extensions``).
"""

from __future__ import annotations

import copy
import html
import re
from pathlib import Path

from sotalib.book.myst_markdown import MystToMarkdown

__all__ = ["executed_notebook", "glue_data", "readable_notebook", "setup"]

_TABLE_OUTPUT = re.compile(
    r"^\s*:::\{table\}[ \t]*(?P<caption>.*)$", re.MULTILINE
)
_TABLE_NAME = re.compile(r"^:name:\s*(?P<name>\S+)", re.MULTILINE)
_SOLUTION_START = re.compile(
    r"^\s*(?:`{3,}|:{3,})\{solution-start\}", re.MULTILINE
)
_SOLUTION_END = re.compile(
    r"^\s*(?:`{3,}|:{3,})\{solution-end\}", re.MULTILINE
)
_DROPDOWN = re.compile(r"^:class:.*\bdropdown\b", re.MULTILINE)
_HTML_CAPTION = re.compile(r"(<caption[^>]*>).*?(</caption>)", re.DOTALL)


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


# -- the notebook's prose -----------------------------------------------------------------------
def glue_data(nb) -> dict[str, dict[str, str]]:
    """The values glued by the notebook's code cells (MyST-NB's ``glue``): key -> mime bundle.

    MyST-NB stores a glued value as a ``display_data`` output whose metadata ``scrapbook`` names
    it; with ``display=False`` its mime types carry the prefix ``scrapbook.mime_prefix``.
    """
    data: dict[str, dict[str, str]] = {}
    for cell in nb.cells:
        for output in (
            cell.get("outputs", []) if cell.cell_type == "code" else []
        ):
            meta = output.get("metadata", {}).get("scrapbook")
            if not meta:
                continue
            n = len(meta.get("mime_prefix", ""))
            data[meta["name"]] = {
                k[n:]: _text(v) for k, v in output.get("data", {}).items()
            }
    return data


def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else value


def readable_notebook(nb, resolver):
    """A copy of the executed notebook ``nb`` whose Markdown holds what the book's page shows.

    Parameters
    ----------
    nb : nbformat.NotebookNode
        The executed chapter (outputs merged from the cache).
    resolver : object
        Resolves glue keys and cross-references (see :mod:`sotalib.book.myst_markdown`).

    Returns
    -------
    nbformat.NotebookNode
        Markdown cells without MyST roles or directives; tables' outputs captioned "Table N.M.";
        a captioned figure followed by a Markdown cell "**Figure N.M.** caption"; glue records
        (invisible in JupyterLab) dropped; the cells the book removes or hides folded.
    """
    nb = copy.deepcopy(nb)
    cells = []
    in_folded_solution = False
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            source = _text(cell.source)
            if _SOLUTION_START.search(source):
                in_folded_solution = bool(_DROPDOWN.search(source))
            if _SOLUTION_END.search(source):
                in_folded_solution = False
            conv = MystToMarkdown(resolver)
            cell.source = conv.convert(source)
            if conv.attachments:
                cell.attachments = conv.attachments
            if cell.source.strip():
                cells.append(cell)
            continue
        if cell.cell_type == "code":
            _fold(cell, solution=in_folded_solution)
            cell.outputs = [
                o for o in cell.get("outputs", []) if not _glue_record(o)
            ]
            for output in cell.outputs:
                _caption_table(output, MystToMarkdown(resolver))
        cells.append(cell)
        caption = _figure_caption(cell, MystToMarkdown(resolver))
        if caption:
            cells.append(_markdown_cell(caption, cell))
    nb.cells = cells
    return nb


def _fold(cell, *, solution: bool = False) -> None:
    """Fold in JupyterLab what the book removes or hides (``metadata.jupyter``).

    The code of a solution the book shows in a closed dropdown is folded too, with its output.
    """
    tags = set(cell.get("metadata", {}).get("tags", []))
    jupyter = cell.metadata.setdefault("jupyter", {})
    if solution or tags & {
        "remove-cell",
        "remove-input",
        "hide-input",
        "hide-cell",
    }:
        jupyter["source_hidden"] = True
    if solution or tags & {
        "remove-cell",
        "remove-output",
        "hide-output",
        "hide-cell",
    }:
        jupyter["outputs_hidden"] = True
    if not jupyter:
        del cell.metadata["jupyter"]


def _glue_record(output) -> bool:
    meta = output.get("metadata", {}).get("scrapbook")
    return bool(meta and meta.get("mime_prefix"))


def _caption_table(output, conv: MystToMarkdown) -> None:
    """A table of :func:`sotalib.book.style.table`: its number and caption in each of its forms."""
    data = output.get("data", {})
    md = _text(data.get("text/markdown", ""))
    head = _TABLE_OUTPUT.match(md)
    if not head:
        return
    name = _TABLE_NAME.search(md)
    number = (
        conv.number("std", "numref", name.group("name"), None)
        if name
        else None
    )
    caption = conv.inline(head.group("caption").strip())
    lead = f"{number}." if number else "Table."
    data["text/markdown"] = conv.convert(md) + "\n"
    if "text/html" in data:
        inner = f"<b>{html.escape(lead)}</b> {_inline_html(caption)}"
        data["text/html"] = _HTML_CAPTION.sub(
            lambda m: m.group(1) + inner + m.group(2),
            _text(data["text/html"]),
            1,
        )
    if "text/plain" in data:
        lines = _text(data["text/plain"]).split("\n")
        if lines and lines[0].startswith("Table"):
            lines[0] = f"{lead} {caption}"
        data["text/plain"] = "\n".join(lines)


def _inline_html(markdown: str) -> str:
    """One line of Markdown as HTML, its maths kept between ``$`` for JupyterLab's MathJax."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    md = MarkdownIt("commonmark").use(dollarmath_plugin)
    md.add_render_rule(
        "math_inline",
        lambda _self, tokens, idx, _options, _env: (
            f"${html.escape(tokens[idx].content)}$"
        ),
    )
    return md.renderInline(markdown)


def _figure_caption(cell, conv: MystToMarkdown) -> str:
    """The caption "**Figure N.M.** text" of a code cell whose figure the book captions (``mystnb.figure``)."""
    figure = (
        cell.get("metadata", {}).get("mystnb", {}).get("figure", {})
        if cell.cell_type == "code"
        else {}
    )
    if not figure.get("caption"):
        return ""
    number = (
        conv.number("std", "numref", figure["name"], None)
        if figure.get("name")
        else None
    )
    text = conv.convert(" ".join(str(figure["caption"]).split()))
    return f"**{number}.** {text}" if number else text


def _markdown_cell(source: str, after):
    import nbformat

    cell = nbformat.v4.new_markdown_cell(source)
    if "id" in after:
        cell["id"] = f"{after['id']}-caption"[:64]
    else:
        cell.pop("id", None)
    return cell


class SphinxResolver:
    """Glue keys and cross-references of one page, resolved as the build resolves them."""

    def __init__(self, app, pagename: str, glued: dict[str, dict[str, str]]):
        self.app, self.env, self.pagename, self.glued = (
            app,
            app.env,
            pagename,
            glued,
        )

    def glue(self, key: str):
        return self.glued.get(key.strip())

    def _resolve(self, domain: str, typ: str, target: str, title: str | None):
        from docutils import nodes
        from sphinx import addnodes
        from sphinx.util.logging import suppress_logging

        text = title if title is not None else target
        node = addnodes.pending_xref(
            "",
            refdomain=domain,
            reftype=typ,
            reftarget=target,
            refexplicit=title is not None,
            refdoc=self.pagename,
        )
        content = nodes.inline(text, text)
        node += content
        try:
            with suppress_logging():
                dom = self.env.get_domain(domain)
                return dom.resolve_xref(
                    self.env,
                    self.pagename,
                    self.app.builder,
                    typ,
                    target,
                    node,
                    content,
                )
        except Exception:  # noqa: BLE001 - an unresolvable reference keeps its text (the build has warned)
            return None

    def xref(
        self, domain: str, typ: str, target: str, title: str | None
    ) -> str | None:
        if domain == "std" and typ in ("ref", "numref"):
            target = target.lower()
        result = self._resolve(domain, typ, target, title)
        return result.astext() if result is not None else None

    def cite(self, typ: str, target: str) -> str | None:
        result = self._resolve("cite", typ, target, None)
        return _markdown_of(result).strip() if result is not None else None


def _markdown_of(node) -> str:
    """The text of resolved inline nodes, emphasis kept (a citation's "*et al.*")."""
    from docutils import nodes

    if isinstance(node, nodes.Text):
        return str(node)
    inner = "".join(_markdown_of(child) for child in node.children)
    if isinstance(node, nodes.emphasis):
        return f"*{inner}*"
    if isinstance(node, nodes.strong):
        return f"**{inner}**"
    return inner


# -- Sphinx hooks -------------------------------------------------------------------------------
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

    cache_path = Path(
        app.env.mystnb_config.execution_cache_path
        or Path(app.outdir).parent / ".jupyter_cache"
    )
    try:
        nb = executed_notebook(source, cache_path)
    except (
        KeyError
    ) as exc:  # the page was not executed through the cache: nothing to offer
        from sphinx.util import logging

        logging.getLogger(__name__).warning(
            f"no executed notebook for {pagename}: {exc}"
        )
        return
    nb = readable_notebook(nb, SphinxResolver(app, pagename, glue_data(nb)))
    target = Path(app.outdir) / "_sources" / f"{pagename}.ipynb"
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, target)
    context["ipynb_source"] = f"{pagename}.ipynb"


def release(srcdir: Path) -> tuple[str, str]:
    """The package's version and the release date that ``CITATION.cff`` gives it."""
    from sotalib import __version__

    cff = Path(srcdir) / "CITATION.cff"
    text = cff.read_text(encoding="utf-8") if cff.exists() else ""
    date = re.search(r"^date-released:\s*\"?([\d-]+)", text, re.MULTILINE)
    return __version__, date.group(1) if date else ""


def _footer(app, config) -> None:
    """Every page's footer names the version (sphinx-book-theme's ``extra_footer``)."""
    version, date = release(app.srcdir)
    options = dict(config.html_theme_options or {})
    released = f", released {date}" if date else ""
    options["extra_footer"] = (
        f'<p class="sotalib-version">sotalib <span class="sotalib-version-number">{html.escape(version)}</span>'
        f"{released}: this build shows the results of this version.</p>"
    )
    config.html_theme_options = options


def setup(app):
    from sotalib.book import status

    # before sphinx-book-theme builds its header buttons (priority 501)
    app.connect("html-page-context", _add_notebook, priority=500)
    app.connect("config-inited", _footer)
    status.setup(app)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
