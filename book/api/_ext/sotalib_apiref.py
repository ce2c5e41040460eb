"""The book's API reference: one page per package, made from the package itself.

``.. sotalib-package:: sotalib.judging`` renders the package's docstring (its
sections and ``.. autosummary::`` tables, as ``scipy.stats`` renders its
reference page) and then an entry for every name of the package's
``__all__``, grouped under the docstring's section titles in the order of its
tables.  A public name that no table lists (while a package's docstring is
being brought to the target format) still gets an entry, under "Other public
names".  Nothing here lists names: the pages follow ``__all__`` at build time,
and the autosummary tables link to the entries on the same page, so no stub
files are generated (the book builds only the files its table of contents
lists).

Functions and classes are documented by autodoc and napoleon (numpydoc
sections); a class shows the methods it defines itself, and its fields through
its ``Attributes`` section only (no field is documented twice).  Other data
(constants) get a ``py:data`` entry with the ``#:`` comment of the module that
defines them.  Footnote and citation labels of docstrings (``.. [1]``) are made
unique per entry, as numpydoc does, so that two docstrings on one page, or one
docstring on two pages, never collide.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import re
import sys
import types

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.ext import autodoc
from sphinx.pycode import ModuleAnalyzer
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

logger = logging.getLogger(__name__)

#: The title of the group of public names that no ``.. autosummary::`` table lists.
OTHER = "Other public names"
#: Underline characters of the section titles in the packages' docstrings.
_UNDERLINES = "=-~^\"'`#*+"


def sections(module: types.ModuleType) -> list[tuple[str, list[str]]]:
    """The names each section of a module's docstring lists in ``.. autosummary::`` blocks.

    The same reading as ``listed()`` in ``tests/test_api.py``, with the title of
    the section around each block.  Sections without a table are left out.
    """
    lines = (module.__doc__ or "").splitlines()
    out: dict[str, list[str]] = {}
    title = ""
    inside = False
    for i, line in enumerate(lines):
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        stripped = line.strip()
        if inside:
            if not stripped or stripped.startswith(":"):
                continue
            if line.startswith(" "):
                out.setdefault(title, []).append(stripped)
                continue
            inside = False
        if stripped.startswith(".. autosummary::"):
            inside = True
        elif (
            stripped
            and not line.startswith(" ")
            and len(set(nxt.strip())) == 1
            and nxt.strip()[0] in _UNDERLINES
            and len(nxt.strip()) >= len(stripped)
        ):
            title = stripped
    return list(out.items())


def public_names(module: types.ModuleType) -> list[str]:
    """The public names of ``module``: its ``__all__``."""
    return list(getattr(module, "__all__", ()))


def _resolves(module: types.ModuleType, name: str, warn) -> bool:
    try:
        getattr(module, name)
    except Exception as exc:  # noqa: BLE001 - reported, and the build fails on the warning
        warn(f"{module.__name__}.{name} is in __all__ but cannot be imported: {exc}", type="sotalib", subtype="api")
        return False
    return True


def groups(module: types.ModuleType, warn=logger.warning) -> list[tuple[str, list[str]]]:
    """Every public name but the subpackages, grouped as the docstring's tables group them."""
    names = [n for n in public_names(module) if _resolves(module, n, warn) and not inspect.ismodule(getattr(module, n))]
    out: list[tuple[str, list[str]]] = []
    seen: set[str] = set()
    for title, listed in sections(module):
        keep = [n for n in listed if n in names and n not in seen]
        seen.update(keep)
        if keep:
            out.append((title, keep))
    rest = [n for n in names if n not in seen]
    if rest:
        out.append((OTHER, rest))
    return out


def _attribute_names(cls: type) -> set[str]:
    """Names the ``Attributes`` and ``Methods`` sections of a class's docstring document.

    Napoleon makes an entry of each; autodoc must not make a second one.
    """
    doc = inspect.getdoc(cls) or ""
    names: set[str] = set()
    for m in re.finditer(r"^(?:Attributes|Methods)\n-+\n(.*?)(?=^\S[^\n]*\n-+\n|\Z)", doc, flags=re.M | re.S):
        names.update(re.findall(r"^(\w+)\b", m.group(1), flags=re.M))
    return names


def own_members(cls: type) -> list[str]:
    """Public methods and properties a class defines itself, not its fields."""
    fields = set(getattr(cls, "__dataclass_fields__", {})) | _attribute_names(cls)
    out = []
    for name, value in vars(cls).items():
        if name.startswith("_") or name in fields:
            continue
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        if (inspect.isfunction(value) or isinstance(value, property)) and inspect.getdoc(value):
            out.append(name)
    return out


def _data_comment(package: str, name: str, obj: object) -> list[str]:
    """The ``#:`` comment of the sotalib module that defines the constant ``name``."""
    candidates = [
        m for mname, m in list(sys.modules.items()) if mname.startswith("sotalib.") and isinstance(m, types.ModuleType)
    ]
    for mod in sorted(candidates, key=lambda m: (m.__name__ == package, m.__name__)):
        if vars(mod).get(name) is not obj:
            continue
        try:
            docs = ModuleAnalyzer.for_module(mod.__name__).find_attr_docs()
        except Exception:  # noqa: BLE001 - no source: no comment
            continue
        if ("", name) in docs:
            return list(docs["", name])
    return []


def entry(package: str, name: str, obj: object) -> list[str]:
    """The reStructuredText of one public name's entry."""
    full = f"{package}.{name}"
    if inspect.isclass(obj):
        lines = [f".. autoclass:: {full}"]
        members = own_members(obj)
        if members:
            lines.append(f"   :members: {', '.join(members)}")
        return [*lines, ""]
    if callable(obj):
        return [f".. autofunction:: {full}", ""]
    lines = [f".. py:data:: {name}", f"   :module: {package}"]
    text = repr(obj)
    if isinstance(obj, (str, int, float, bool, type(None))) and len(text) <= 60:
        lines.append(f"   :value: {text}")
    else:
        lines.append(f"   :type: {type(obj).__name__}")
    comment = _data_comment(package, name, obj)
    if comment:
        lines += ["", *(f"   {line}" if line.strip() else "" for line in comment)]
    return [*lines, ""]


def package_rst(package: str, warn=logger.warning) -> list[str]:
    """The reStructuredText of one package's reference page: its docstring, then an entry per public name."""
    module = importlib.import_module(package)
    lines = [f".. automodule:: {package}", "", ""]
    lines += ["Entries", "=======", ""]
    for title, names in groups(module, warn):
        lines += [f".. rubric:: {title}", "   :class: sotalib-api-group", ""]
        for name in names:
            lines += entry(package, name, getattr(module, name))
    return lines


class PackageDirective(SphinxDirective):
    """``.. sotalib-package:: sotalib.consistency``: a package's reference page."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        """Render the package named by the directive's argument."""
        package = self.arguments[0]
        source = self.get_source_info()[0]
        content = StringList()

        def warn(message: str, **kwargs) -> None:
            logger.warning(message, location=self.get_location(), **kwargs)

        for i, line in enumerate(package_rst(package, warn)):
            content.append(line, f"{source} <sotalib-package {package}>", i)
        node = nodes.container()
        nested_parse_with_titles(self.state, content, node)
        # an incremental build (without --all) reads the page again when a docstring changes
        for name in [m for m in sys.modules if m == package or m.startswith(f"{package}.")]:
            path = getattr(sys.modules[name], "__file__", None)
            if path:
                self.env.note_dependency(path)
        return node.children


_LABEL = re.compile(r"^(\s*\.\.\s+)\[([^\]#*|]+)\](?=\s)", flags=re.M)


def unique_footnotes(_app, _what, name, _obj, _options, lines) -> None:
    """Rename ``.. [1]`` and ``[1]_`` of a docstring to an auto-numbered footnote unique to this entry."""
    text = "\n".join(lines)
    labels = {m.group(2) for m in _LABEL.finditer(text)}
    if not labels:
        return
    prefix = "r" + hashlib.sha1(name.encode()).hexdigest()[:8]
    for label in labels:
        new = f"#{prefix}-{re.sub(r'[^A-Za-z0-9]+', '-', label)}"
        text = re.sub(rf"(?<![\w\]])\[{re.escape(label)}\]_", f"[{new}]_", text)
        text = re.sub(rf"^(\s*\.\.\s+)\[{re.escape(label)}\]", rf"\1[{new}]", text, flags=re.M)
    lines[:] = text.split("\n")


class ClassDocumenter(autodoc.ClassDocumenter):
    """A class is canonical only on the page of the package that defines it.

    ``sotalib.SotaEstimate`` and ``sotalib.multiplicity.SotaEstimate`` are one
    class, defined in ``sotalib.multiplicity._sota``: autodoc would declare that
    canonical name on both pages (a duplicate object); here only the
    subpackage's entry declares it.
    """

    def get_canonical_fullname(self) -> str | None:
        """The private module's name only where Sphinx would otherwise record it as canonical."""
        canonical = super().get_canonical_fullname()
        if canonical and canonical.startswith(f"{self.modname}._"):
            return canonical
        return None


def attribute_types_inline(_app, _what, _name, _obj, _options, lines) -> None:
    """Show an attribute's type beside its name (``mean: float``), not as a field under it.

    Napoleon writes each entry of an ``Attributes`` section as ``.. attribute::``
    with its type as a ``:type:`` field after the description; moved up, it is
    the directive's option, which the signature shows.
    """
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^(\s*)\.\. attribute:: ", line)
        if not m:
            out.append(line)
            i += 1
            continue
        indent = len(m.group(1))
        end = i + 1
        while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) > indent):
            end += 1
        block = lines[i + 1 : end]
        pad = " " * (indent + 3)
        types = [k for k, b in enumerate(block) if b.startswith(f"{pad}:type: ")]
        if len(types) == 1 and not any(b.startswith(f"{pad}:") for b in block[: types[0]]):
            k = types[0]
            option = block.pop(k)
            if k > 0 and not block[k - 1].strip():
                block.pop(k - 1)
            out += [line, option, *block]
        else:
            out += [line, *block]
        i = end
    lines[:] = out


def no_stub_tables(_app, what, _name, _obj, _options, lines) -> None:
    """Drop ``:toctree:`` from the autosummary tables of a package's docstring.

    Stub pages would be files outside the book's table of contents; here a
    table links to the entries on its own page instead.
    """
    if what == "module":
        lines[:] = [line for line in lines if not re.match(r"^\s+:toctree:", line)]


#: Pages that list names documented on their packages' pages too (``sotalib.results`` lists every result class):
#: their entries are recorded as aliases, so that a short reference (``PerItemFile``) keeps resolving to the
#: package's entry instead of becoming ambiguous.  A fully qualified reference still reaches them.
LISTS = ("sotalib.results",)


def lists_are_aliases(_app, env) -> None:
    """Record the entries of the pages of :data:`LISTS` as aliases in the Python domain."""
    objects = env.get_domain("py").objects
    for name, obj in list(objects.items()):
        if name.startswith(tuple(f"{page}." for page in LISTS)) and not obj.aliased:
            objects[name] = obj._replace(aliased=True)


def setup(app):
    """Register the extension with Sphinx."""
    app.setup_extension("sphinx.ext.autodoc")
    app.add_autodocumenter(ClassDocumenter, override=True)
    app.add_directive("sotalib-package", PackageDirective)
    # after napoleon (priority 500) has turned numpydoc sections into reStructuredText
    app.connect("autodoc-process-docstring", unique_footnotes, priority=600)
    app.connect("autodoc-process-docstring", attribute_types_inline, priority=600)
    app.connect("autodoc-process-docstring", no_stub_tables)
    app.connect("env-updated", lists_are_aliases)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
