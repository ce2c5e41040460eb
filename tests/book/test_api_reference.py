"""The book's API reference documents every public name, and builds with no warning.

The reference pages (the part "Reference" of ``_toc.yml``) are built alone, as
``make book`` builds them (warnings are errors), with their index page as the
root: no notebook is executed, so this takes seconds.  The checks are on
structure, not on what today's docstrings say: every name of each package's
``__all__`` has an entry (a signature with an anchor) on its package's page,
every name of the docstring's tables links to its entry, numpydoc sections
were rendered (no raw section underline or field markup), and no page outside
the table of contents was generated.
"""

from __future__ import annotations

import importlib
import inspect
import os
import re
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest
import yaml

PACKAGES = ["sotalib", "sotalib.multiplicity", "sotalib.consistency", "sotalib.judging", "sotalib.results"]
PART = "Reference"

pytestmark = pytest.mark.slow


def reference_files(root: Path) -> list[str]:
    """The files of the toc's part "Reference": its index page, then one page per package."""
    toc = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8"))
    parts = [p for p in toc.get("parts", []) if p.get("caption") == PART]
    assert len(parts) == 1, f'_toc.yml has no part captioned "{PART}"'
    files = []
    for chapter in parts[0]["chapters"]:
        files.append(chapter["file"])
        files += [s["file"] for s in chapter.get("sections", [])]
    return files


def package_pages(root: Path) -> dict[str, str]:
    """Package name -> the reference page (toc file) whose ``sotalib-package`` directive renders it."""
    pages = {}
    for f in reference_files(root):
        source = next((root / f).parent.glob(Path(f).name + ".*"))
        for package in re.findall(r"^\.\. sotalib-package::\s*(\S+)", source.read_text(encoding="utf-8"), re.M):
            pages[package] = f
    return pages


def listed(module) -> list[str]:
    """The names in the ``.. autosummary::`` blocks of a module's docstring (as tests/test_api.py reads them)."""
    names: list[str] = []
    inside = False
    for line in (module.__doc__ or "").splitlines():
        if line.strip().startswith(".. autosummary::"):
            inside = True
            continue
        if inside:
            if not line.strip() or line.strip().startswith(":"):
                continue
            if not line.startswith(" "):
                inside = False
                continue
            names.append(line.strip())
    return names


@pytest.fixture(scope="module")
def reference(root, tmp_path_factory):
    """Build the reference pages alone into a temporary directory; return (html directory, log, exit code)."""
    files = reference_files(root)
    out = tmp_path_factory.mktemp("apiref")
    toc = out / "_toc.yml"
    toc.write_text(
        yaml.safe_dump({"format": "jb-book", "root": files[0], "chapters": [{"file": f} for f in files[1:]]}),
        encoding="utf-8",
    )
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
    env["PYTHONPATH"] = os.pathsep.join([str(root), *filter(None, [env.get("PYTHONPATH")])])
    env.setdefault("NUMBA_CACHE_DIR", str(root / "_build" / "numba-cache"))
    exe = Path(sys.executable).parent / "jupyter-book"
    cmd = [str(exe), "build", str(root), "--toc", str(toc), "--path-output", str(out)]
    proc = subprocess.run(
        [*cmd, "--all", "--warningiserror", "--keep-going"], cwd=root, env=env, capture_output=True, text=True
    )
    html = out / "_build" / "html"
    assert html.is_dir(), proc.stdout[-3000:] + proc.stderr[-3000:]
    return html, proc.stdout + proc.stderr, proc.returncode


def test_reference_builds_without_warnings(reference):
    _, log, code = reference
    log = re.sub(r"\x1b\[[0-9;]*m", "", log)
    warnings = [line for line in log.splitlines() if re.search(r"\b(WARNING|ERROR|CRITICAL)\b", line)]
    warnings = [w for w in warnings if "IPKernelApp" not in w]
    assert code == 0 and not warnings, "the reference pages build with warnings:\n" + "\n".join(warnings[:40])


def test_every_package_has_a_page(root):
    pages = package_pages(root)
    assert sorted(pages) == sorted(PACKAGES), pages
    assert len(set(pages.values())) == len(pages), "two packages on one page"


def _ids(html: Path) -> dict[str, str]:
    """Anchor -> the tag that carries it."""
    text = html.read_text(encoding="utf-8")
    return {m.group(2): m.group(1) for m in re.finditer(r'<(\w+)\b[^>]*?\bid="([^"]+)"', text)}


@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_name_has_an_entry(reference, root, package):
    html, _, _ = reference
    page = html / f"{package_pages(root)[package]}.html"
    text = page.read_text(encoding="utf-8")
    module = importlib.import_module(package)
    entries = set(re.findall(r'<dt class="sig sig-object py[^"]*" id="([^"]+)"', text))
    all_ids = {}
    for other in html.rglob("*.html"):
        all_ids.update(_ids(other))
    assert f"module-{package}" in _ids(page), f"{page.name} does not document the module {package}"
    missing, unlinked = [], []
    for name in module.__all__:
        try:
            obj = getattr(module, name)
        except AttributeError:
            missing.append(name)
            continue
        if inspect.ismodule(obj):  # a subpackage: its own page
            if f"module-{obj.__name__}" not in all_ids:
                missing.append(name)
            continue
        anchor = f"{package}.{name}"
        if anchor not in entries:
            missing.append(name)
        elif f'href="#{anchor}"' not in text:  # the entry's permalink
            unlinked.append(name)
    assert not missing, f"{package}: public names without an entry on {page.name}: {missing}"
    assert not unlinked, f"{package}: entries without a permalink: {unlinked}"


@pytest.mark.parametrize("package", PACKAGES)
def test_tables_link_to_the_entries(reference, root, package):
    html, _, _ = reference
    text = (html / f"{package_pages(root)[package]}.html").read_text(encoding="utf-8")
    tables = re.findall(r'<table class="autosummary.*?</table>', text, flags=re.S)
    links = {m for t in tables for m in re.findall(r'<a class="reference internal" href="#([^"]+)"', t)}
    module = importlib.import_module(package)
    unlinked = [n for n in listed(module) if f"{package}.{n}" not in links]
    assert not unlinked, f"{package}: names of the docstring's tables that do not link to their entry: {unlinked}"


@pytest.mark.parametrize("package", PACKAGES)
def test_numpydoc_sections_are_rendered(reference, root, package):
    """Napoleon turned every numpydoc section into fields and rubrics: no underline or field markup is left."""
    html, _, _ = reference
    text = (html / f"{package_pages(root)[package]}.html").read_text(encoding="utf-8")
    text = re.sub(r"<pre\b.*?</pre>", " ", text, flags=re.S)  # examples may print anything
    prose = unescape(re.sub(r"<[^>]+>", " ", text))
    raw = re.findall(
        r"\b(?:Parameters|Returns|Yields|Raises|Warns|Attributes|Examples|References|Notes|See Also)\s+-{3,}", prose
    )
    assert not raw, f"{package}: numpydoc sections shown as raw text: {raw[:5]}"
    fields = re.findall(r":(?:param|type|rtype|returns|raises|ivar|vartype)\b[^:]*:", prose)
    assert not fields, f"{package}: field markup shown as raw text: {fields[:5]}"


def test_no_page_outside_the_toc(reference, root):
    """Autosummary generated no stub pages (the book builds only its toc's files)."""
    html, _, _ = reference
    built = {p.relative_to(html).with_suffix("").as_posix() for p in html.rglob("*.html") if "_static" not in p.parts}
    built -= {"genindex", "search", "py-modindex", "index"}
    assert built == set(reference_files(root)), sorted(built ^ set(reference_files(root)))
