"""MyST Markdown as plain (Jupyter) Markdown: what a chapter's prose says, without the book.

The chapters' prose is MyST: numbers come from ``{glue:text}`` roles, tables and figures are
referred to with ``{numref}``, equations with ``{eq}``, papers with ``{cite:t}``, and notes are
admonitions.  JupyterLab (without a MyST extension) shows that syntax as it is.  The downloaded
notebook of each chapter (:mod:`sotalib.book.notebook_download`) writes its markdown through
:class:`MystToMarkdown`, which replaces every role and directive by the text the book shows:

* ``{glue:text}`key:fmt``` and ``{glue}`key``` by the glued value, formatted as MyST-NB formats it;
* ``{numref}``, ``{eq}``, ``{ref}``, ``{doc}`` and the citation roles by the text Sphinx resolved
  them to ("Table 4.3", "(3.1)", "Møllersen and Holsbø [2025]");
* ``{math}`` by ``$...$``, the Python roles by the name in code;
* admonitions, dropdowns, notes, exercises and solutions by a block quote with a bold title;
* figures, glued figures and tables by an image (a cell attachment) and a numbered caption;
* labelled display maths by ``\\tag{3.1}``; ``(label)=`` targets and ``%`` comments are dropped.

What a reference resolves to comes from a *resolver* (duck-typed): ``glue(key)`` returns the
glued output's mime bundle or ``None``; ``xref(domain, typ, target, title)`` the text of a
resolved cross-reference or ``None``; ``cite(typ, target)`` the Markdown of a citation or
``None``.  The Sphinx extension resolves them with the build's own domains; the tests with dicts.
"""

from __future__ import annotations

import re

__all__ = ["MystToMarkdown", "blockquote"]

# A directive fence: ```{name} argument  or  :::{name} argument (indented at most three spaces).
_DIRECTIVE = re.compile(
    r"^(?P<indent> {0,3})(?P<fence>`{3,}|:{3,})\{(?P<name>[^}\s]+)\}[ \t]*(?P<arg>.*)$"
)
_CODE_FENCE = re.compile(
    r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})(?!.*`)(?P<info>.*)$"
)
_OPTION = re.compile(r"^\s*:(?P<key>[\w-]+):(?:\s+(?P<value>.*))?\s*$")
_TARGET = re.compile(r"^\s*\([^()\s]+\)=\s*$")
_COMMENT = re.compile(r"^%")
# {role}`text` (any number of backticks) or a code span, which is kept as it is; either may
# run over a line break within its paragraph (never over a blank line)
_SPAN = r"(?:[^\n]|\n(?!\s*\n))+?"
_INLINE = re.compile(
    r"\{(?P<name>[\w:.+-]+)\}(?P<ticks>`+)(?P<text>"
    + _SPAN
    + r")(?P=ticks)|(?P<code>(?P<cticks>`+)"
    + _SPAN
    + r"(?P=cticks))"
)
# $$ ... $$ (label): a labelled display equation
_LABELLED_MATH = re.compile(
    r"\$\$(?P<body>.+?)\$\$[ \t]*\((?P<label>[^()\s]+)\)", re.DOTALL
)
_EXPLICIT = re.compile(r"^(?P<title>.*?)\s*<(?P<target>[^<>]+)>$", re.DOTALL)

_ADMONITION_TITLES = {
    "note": "Note",
    "tip": "Tip",
    "hint": "Hint",
    "important": "Important",
    "warning": "Warning",
    "caution": "Caution",
    "attention": "Attention",
    "danger": "Danger",
    "error": "Error",
    "seealso": "See also",
    "margin": "Note",
    "sidebar": "Note",
    "epigraph": "",
    "topic": "",
}
_PY_ROLES = {
    "func",
    "meth",
    "class",
    "mod",
    "attr",
    "obj",
    "data",
    "exc",
    "const",
    "any",
    "envvar",
    "program",
}
_GLUE_MIME_ORDER = (
    "text/markdown",
    "text/html",
    "image/svg+xml",
    "image/png",
    "image/jpeg",
    "text/latex",
    "text/plain",
)
_IMAGE_EXT = {"image/png": "png", "image/jpeg": "jpg", "image/svg+xml": "svg"}


def blockquote(text: str) -> str:
    """``text`` as a Markdown block quote (every line prefixed by ``>``)."""
    return "\n".join(
        f"> {line}".rstrip() for line in text.strip("\n").split("\n")
    )


def _escape(text: str) -> str:
    """Plain text (a glued value) safe inside Markdown: the characters that would start markup."""
    return re.sub(r"([\\`*_$<])", r"\\\1", text)


class MystToMarkdown:
    """Convert MyST Markdown to plain Markdown with the values and numbers a resolver gives.

    Parameters
    ----------
    resolver : object
        Has ``glue(key)``, ``xref(domain, typ, target, title)`` and ``cite(typ, target)``.

    Attributes
    ----------
    attachments : dict
        Images of glued figures met by the last calls to :meth:`convert`: name -> mime bundle,
        for the Markdown cell's ``attachments``.
    """

    def __init__(self, resolver):
        self.resolver = resolver
        self.attachments: dict[str, dict[str, str]] = {}

    # -- blocks --------------------------------------------------------------------------------
    def convert(self, text: str) -> str:
        """The Markdown of the MyST ``text``: no role, directive, target or comment left."""
        lines = text.split("\n")
        out: list[str] = []
        prose: list[str] = []

        def flush():
            if prose:
                out.append(self.inline("\n".join(prose)))
                prose.clear()

        i = 0
        while i < len(lines):
            line = lines[i]
            m = _DIRECTIVE.match(line)
            if m:
                end = _closing(lines, i + 1, m.group("fence"))
                flush()
                options, body = _options_and_body(lines[i + 1 : end])
                out.append(
                    self.directive(
                        m.group("name"), m.group("arg").strip(), options, body
                    )
                )
                i = end + 1
                continue
            m = _CODE_FENCE.match(line)
            if m:
                end = _closing(lines, i + 1, m.group("fence"))
                flush()
                out.append("\n".join(lines[i : end + 1]))
                i = end + 1
                continue
            if not (_TARGET.match(line) or _COMMENT.match(line)):
                prose.append(line)
            i += 1
        flush()
        result = "\n".join(out)
        return re.sub(r"\n{3,}", "\n\n", result).strip("\n")

    def directive(  # noqa: C901 - one branch a kind
        self, name: str, arg: str, options: dict[str, str], body: str
    ) -> str:
        """The Markdown of one directive (its body converted too)."""
        name = name.lower()
        if name in ("admonition", "dropdown"):
            return self._titled(self.inline(arg) if arg else "", body)
        if name in _ADMONITION_TITLES:
            content = f"{arg}\n{body}" if arg else body
            return self._titled(_ADMONITION_TITLES[name], content)
        if name == "exercise":
            title = (
                self.number("std", "numref", options.get("label", ""), None)
                or "Exercise"
            )
            if arg:
                title += f" ({self.inline(arg)})"
            return self._titled(title, body)
        if name in ("solution", "solution-start"):
            target = self.number("std", "numref", arg, None) if arg else None
            return self._titled(
                f"Solution to {target}" if target else "Solution", body
            )
        if name == "solution-end":
            return ""
        if name in ("math", "glue:math"):
            if name == "glue:math":
                body = self._glue_text(arg, "text/latex").strip().strip("$")
            number = self.number("math", "eq", options.get("label", ""), None)
            return _display_math(body, number)
        if name == "figure":
            alt = options.get("alt", "")
            return self._captioned(
                options.get("name", ""), f"![{alt}]({arg})", body
            )
        if name in ("glue:figure", "glue", "glue:", "glue:any", "glue:md"):
            shown = self.glue_markdown(arg, display=True)
            return (
                self._captioned(options.get("name", ""), shown, body)
                if body.strip()
                else shown
            )
        if name in ("table", "list-table", "csv-table"):
            caption = self.inline(arg) if arg else ""
            return self._captioned(
                options.get("name", ""),
                self.convert(body),
                caption,
                above=True,
            )
        if name in ("code-block", "code", "sourcecode", "code-cell"):
            return f"```{arg}\n{body}\n```"
        if name in ("raw",):
            return body if arg.strip() == "html" else ""
        if name in (
            "bibliography",
            "toctree",
            "tableofcontents",
            "contents",
            "nb-exec-table",
        ):
            return ""
        if name in (
            "only",
            "div",
            "container",
            "card",
            "grid",
            "grid-item",
            "tab-set",
            "tab-item",
            "tab",
        ):
            return self._titled(
                self.inline(arg)
                if arg and name in ("card", "tab-item", "tab")
                else "",
                body,
            )
        return self._titled(self.inline(arg) if arg else "", body)

    def _titled(self, title: str, body: str) -> str:
        inner = self.convert(body)
        head = f"**{title}**" if title else ""
        return (
            blockquote(f"{head}\n\n{inner}".strip("\n"))
            if (head or inner)
            else ""
        )

    def _captioned(
        self, label: str, shown: str, caption: str, *, above: bool = False
    ) -> str:
        number = self.number("std", "numref", label, None) if label else None
        caption = self.convert(caption) if caption.strip() else ""
        lead = f"**{number}.**" if number else ""
        text = " ".join(part for part in (lead, caption) if part)
        if not text:
            return shown
        return f"{text}\n\n{shown}" if above else f"{shown}\n\n{text}"

    # -- inline --------------------------------------------------------------------------------
    def inline(self, text: str) -> str:
        """Roles and labelled display maths of a run of prose replaced by their text."""

        def math(m):
            number = self.number("math", "eq", m.group("label"), None)
            return _display_math(m.group("body"), number, inline_fence=True)

        text = _LABELLED_MATH.sub(math, text)
        return _INLINE.sub(
            lambda m: (
                m.group("code") or self.role(m.group("name"), m.group("text"))
            ),
            text,
        )

    def role(self, name: str, text: str) -> str:  # noqa: C901 - one branch a kind of role
        """The Markdown a role shows."""
        name = name.lower()
        if name == "glue:text":
            # as MyST-NB reads it: the format follows the last colon
            key, fmt = text.rsplit(":", 1) if ":" in text else (text, "s")
            return _escape(self._glue_text(key, "text/plain", fmt))
        if name in ("glue", "glue:", "glue:any", "glue:md"):
            return self.glue_markdown(text, display=False)
        if name == "math":
            return f"${text}$"
        title, target = _explicit(text)
        if name in (
            "numref",
            "ref",
            "doc",
            "std:ref",
            "std:numref",
            "std:doc",
        ):
            typ = name.rpartition(":")[2]
            return self.number("std", typ, target, title) or title or target
        if name in ("eq", "math:numref"):
            return self.number("math", "eq", target, None) or f"({target})"
        if name == "cite" or name.startswith("cite:"):
            typ = "p" if name == "cite" else name.partition(":")[2]
            return self.resolver.cite(typ, text) or text
        if name.startswith("py:") or name in _PY_ROLES:
            if title is None:
                title = (
                    target.lstrip("~").rsplit(".", 1)[-1]
                    if target.startswith("~")
                    else target
                )
                if name.rpartition(":")[2] in (
                    "func",
                    "meth",
                ) and not title.endswith(")"):
                    title += "()"
            return f"`{title}`"
        if name in ("sub", "subscript"):
            return f"<sub>{text}</sub>"
        if name in ("sup", "superscript"):
            return f"<sup>{text}</sup>"
        if name == "kbd":
            return f"<kbd>{text}</kbd>"
        if name in ("code", "literal", "samp", "file", "command"):
            return f"`{text}`"
        return title if title is not None else target

    # -- values ---------------------------------------------------------------------------------
    def number(
        self, domain: str, typ: str, target: str, title: str | None
    ) -> str | None:
        """The text a cross-reference resolves to ("Table 4.3", "(3.1)"), or None."""
        if not target:
            return None
        return self.resolver.xref(domain, typ, target, title)

    def _glue_text(self, key: str, mime: str, fmt: str = "") -> str:
        from myst_nb.core.variables import format_plain_text

        data = self.resolver.glue(key) or {}
        if mime not in data:
            return f"[{key}]"
        if mime != "text/plain":
            return data[mime]
        return format_plain_text(data[mime], fmt)

    def glue_markdown(self, key: str, *, display: bool) -> str:
        """A glued output as Markdown, in MyST-NB's order of preference for HTML."""
        data = self.resolver.glue(key) or {}
        mime = next((m for m in _GLUE_MIME_ORDER if m in data), None)
        if mime is None:
            return f"[{key}]"
        value = data[mime]
        if mime in _IMAGE_EXT:
            name = f"{re.sub(r'[^A-Za-z0-9_-]', '-', key)}.{_IMAGE_EXT[mime]}"
            self.attachments[name] = {mime: value}
            return f"![{key}](attachment:{name})"
        if mime == "text/latex":
            body = value.strip().strip("$")
            return f"$$\n{body}\n$$" if display else f"${body}$"
        if mime == "text/plain":
            return _escape(value)
        return value.strip()


def _explicit(text: str) -> tuple[str | None, str]:
    m = _EXPLICIT.match(text)
    return (m.group("title"), m.group("target")) if m else (None, text.strip())


def _display_math(
    body: str, number: str | None, *, inline_fence: bool = False
) -> str:
    tag = f" \\tag{{{number.strip('()')}}}" if number else ""
    if inline_fence:
        return f"$${body.rstrip()}{tag}$$"
    return f"$$\n{body.strip()}{tag}\n$$"


def _closing(lines: list[str], start: int, fence: str) -> int:
    """Index of the line closing ``fence`` (or the last line)."""
    char, n = fence[0], len(fence)
    close = re.compile(rf"^\s*{re.escape(char)}{{{n},}}\s*$")
    for j in range(start, len(lines)):
        if close.match(lines[j]):
            return j
    return len(lines)


def _options_and_body(lines: list[str]) -> tuple[dict[str, str], str]:
    """A directive's ``:key: value`` options (or YAML front block) and its content."""
    options: dict[str, str] = {}
    i = 0
    if lines and lines[0].strip() == "---":
        import yaml

        end = next(
            (j for j in range(1, len(lines)) if lines[j].strip() == "---"),
            None,
        )
        if end is not None:
            loaded = yaml.safe_load("\n".join(lines[1:end])) or {}
            options = {str(k): str(v) for k, v in loaded.items()}
            i = end + 1
    while i < len(lines):
        m = _OPTION.match(lines[i])
        if not m:
            break
        options[m.group("key")] = (m.group("value") or "").strip()
        i += 1
    return options, "\n".join(lines[i:]).strip("\n")
