"""The book's status page: how and when each chapter ran, and with which library.

Two directives, registered by :mod:`sotalib.book.notebook_download`:

``sotalib-status``
    A table with one row a chapter, in the book's order: its number and title, when its code ran
    (the execution recorded in the Jupyter cache), how long it took, the sotalib version it ran
    with and whether it succeeded.  The version is the build's: ``make book``
    (:mod:`sotalib.book.build`) discards the execution cache whenever the library's sources or
    the installed packages change, so every execution in the cache ran with this version.
``sotalib-build-info``
    When the book was built, with sotalib's and the main packages' versions.
"""

from __future__ import annotations

import posixpath
import sys
from datetime import datetime, timezone
from importlib import metadata

from docutils import nodes
from sphinx.addnodes import pending_xref
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective

__all__ = ["setup"]

PACKAGES = (
    "numpy",
    "scipy",
    "numba",
    "pandas",
    "matplotlib",
    "myst-nb",
    "jupyter-book",
)


class StatusNode(nodes.General, nodes.Element):
    """Placeholder for the status table, filled in once every chapter has run."""


class StatusTable(SphinxDirective):
    """``{sotalib-status}``: each chapter's execution time and library version."""

    def run(self):
        self.env.sotalib_status_docs = getattr(
            self.env, "sotalib_status_docs", set()
        ) | {self.env.docname}
        return [StatusNode()]


class BuildInfo(SphinxDirective):
    """``{sotalib-build-info}``: the build's date and versions, as a bullet list."""

    def run(self):
        from sotalib import __version__

        items = [
            ("sotalib", __version__),
            (
                "Built",
                datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            ),
            ("Python", sys.version.split()[0]),
        ]
        for name in PACKAGES:
            try:
                items.append((name, metadata.version(name)))
            except metadata.PackageNotFoundError:
                continue
        bullets = nodes.bullet_list()
        for name, value in items:
            para = nodes.paragraph()
            para += nodes.strong(text=name)
            para += nodes.Text(": ")
            para += nodes.literal(text=value)
            bullets += nodes.list_item("", para)
        return [bullets]


def _chapters(env) -> list[str]:
    """Executed documents in the book's order (chapter numbers, then name)."""
    from myst_nb.sphinx_ import NbMetadataCollector

    data = NbMetadataCollector.get_doc_data(env)
    docs = [d for d in data if data[d].get("exec_data")]

    def order(doc):
        number = env.toc_secnumbers.get(doc, {}).get("", ())
        return (tuple(number) or (10**6,), doc)

    return sorted(docs, key=order)


def _row(cells) -> nodes.row:
    row = nodes.row()
    for cell in cells:
        para = (
            cell
            if isinstance(cell, nodes.paragraph)
            else nodes.paragraph(text=str(cell))
        )
        row += nodes.entry("", para)
    return row


def status_table(env, docname: str) -> nodes.table:
    """The table of the chapters' executions (see the module's docstring)."""
    from myst_nb.sphinx_ import NbMetadataCollector

    from sotalib import __version__

    data = NbMetadataCollector.get_doc_data(env)
    headers = [
        "Chapter",
        "Executed (UTC)",
        "Run time (s)",
        "sotalib",
        "Status",
    ]
    table = nodes.table(classes=["colwidths-auto", "sotalib-status"])
    group = nodes.tgroup(cols=len(headers))
    table += group
    for _ in headers:
        group += nodes.colspec(colwidth=1)
    head = nodes.thead()
    head += _row(headers)
    group += head
    body = nodes.tbody()
    for doc in _chapters(env):
        run = data[doc]["exec_data"]
        number = ".".join(
            map(str, env.toc_secnumbers.get(doc, {}).get("", ()))
        )
        title = env.titles[doc].astext() if doc in env.titles else doc
        link = pending_xref(
            refdoc=docname,
            reftarget=posixpath.relpath(doc, posixpath.dirname(docname)),
            reftype="doc",
            refdomain="std",
            refexplicit=True,
            refwarn=True,
        )
        link += nodes.inline(text=f"{number} {title}".strip())
        chapter = nodes.paragraph()
        chapter += link
        when = (
            datetime.fromtimestamp(run["mtime"], timezone.utc).strftime(
                "%Y-%m-%d %H:%M"
            )
            if run["mtime"]
            else ""
        )
        seconds = "" if run.get("runtime") is None else f"{run['runtime']:.1f}"
        ok = "ran" if run.get("succeeded") else "failed"
        body += _row([chapter, when, seconds, __version__, ok])
    group += body
    return table


class StatusTransform(SphinxPostTransform):
    """Replace the placeholder by the table (before references are resolved, priority 10)."""

    default_priority = 8

    def run(self, **_kwargs) -> None:
        for node in list(self.document.findall(StatusNode)):
            node.replace_self(status_table(self.env, self.env.docname))


def _refresh(_app, env):
    # the status page is rewritten whenever a chapter ran again
    return sorted(getattr(env, "sotalib_status_docs", set()))


def setup(app) -> None:
    app.add_node(StatusNode)
    app.add_directive("sotalib-status", StatusTable)
    app.add_directive("sotalib-build-info", BuildInfo)
    app.add_post_transform(StatusTransform)
    app.connect("env-updated", _refresh)
