"""The built book in a real browser: every page fits its column, its figures are legible,
its header is whole, and it loads nothing from the network.

Each page of the table of contents is opened in Chromium (Debian's package, driven by
Playwright's Python API through ``executable_path``: ``playwright install`` would download a
browser from outside the package registries) at a laptop's 1280 x 800 px and a phone's
390 x 844 px.  ``make test`` installs Chromium when it is missing and it runs as root (CI);
elsewhere these tests skip, saying why, when Chromium cannot be found or started.

The column is the content box of the page's ``article.bd-article`` (inside its padding).
At 1280 px no table, code block (``div.highlight pre``, ``div.cell_output pre``), displayed
equation or image may be wider than the column or scroll inside its box.  At 390 px tables,
code blocks and displayed equations may scroll sideways, but only inside their own box,
which itself fits the column; nothing else may be wider than the column.

GitHub Pages serves the book under a path prefix (``https://OWNER.github.io/REPO/``,
``.github/workflows/book.yml``), so the pages are also opened from a sub-path of the local
server (``http://127.0.0.1:PORT/REPO/``): every request of every page (stylesheets, scripts,
images, fonts) succeeds and stays under the prefix, and every link of the pages (to another
page, an anchor, a download such as a chapter's ``.ipynb``) leads to a file under the prefix
that exists, at an anchor that exists.

The tests marked ``book`` read the built book; the checks of the figures' font sizes in the
style and the plotting code run without it.
"""

from __future__ import annotations

import functools
import http.server
import re
import shutil
import threading
import urllib.error
import urllib.request
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlparse

import pytest
import yaml

VIEWPORTS = {"laptop": (1280, 800), "phone": (390, 844)}
#: A figure is at most as tall as a laptop's screen (displayed at 1280 px wide).
MAX_FIGURE_HEIGHT_PX = 800
#: Tick labels and legends as rendered at 1280 px, in points (CSS: 1 pt = 96/72 px).
MIN_RENDERED_PT = 9.0
#: Font sizes a figure may use: every text of the style is at least this large (see the style test).
STYLE = Path(__file__).resolve().parents[2] / "sotalib" / "book" / "sotalib.mplstyle"
LOCAL_HOSTS = {"127.0.0.1", "localhost", ""}


def toc_pages(root: Path) -> list[str]:
    """Every page of ``_toc.yml`` (landing page, reader's pages, chapters and their sections, API)."""
    toc = yaml.safe_load((root / "_toc.yml").read_text())
    pages = [toc["root"]]

    def walk(entries):
        for entry in entries or ():
            if "file" in entry:
                pages.append(entry["file"])
            walk(entry.get("sections"))
            walk(entry.get("chapters"))

    for part in toc.get("parts", ()):
        walk(part.get("chapters"))
    return [f"{p}.html" for p in pages]


def test_toc_pages_lists_every_kind_of_page(root):
    pages = toc_pages(root)
    assert pages[0] == "book/intro.html"
    assert any(p.startswith("notebooks/") for p in pages)
    assert any(p.startswith("book/api/") for p in pages)
    assert "notebooks/06b_drive.html" in pages  # a chapter's section
    assert len(pages) == len(set(pages))


# ---------------------------------------------------------------------------------------------
# Measuring a page (runs in the page)
# ---------------------------------------------------------------------------------------------

#: Returns {column, offenders, images, search, title}: the blocks wider than the column (or
#: scrolling inside their box), with whether each scrolls inside a box of its own that fits.
MEASURE = r"""
() => {
  const art = document.querySelector('article.bd-article');
  if (!art) return {column: null, offenders: [], images: [], search: [], title: null};
  const cs = getComputedStyle(art);
  const ar = art.getBoundingClientRect();
  const left = ar.left + parseFloat(cs.paddingLeft), right = ar.right - parseFloat(cs.paddingRight);
  const column = right - left;
  const visible = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const describe = el => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    const cls = Array.from(el.classList).filter(c => !c.startsWith('mjx-')).slice(0, 3);
    if (cls.length) s += '.' + cls.join('.');
    const up = el.parentElement && el.parentElement.closest('div.cell, div.highlight, figure, div.math, table, .pst-scrollable-table-container');
    if (up && up !== el) {
      let u = up.tagName.toLowerCase() + (up.classList.length ? '.' + Array.from(up.classList).slice(0, 2).join('.') : '');
      s = u + ' ' + s;
    }
    const sec = el.closest('section[id]');
    return (sec ? 'section#' + sec.id + ' ' : '') + s;
  };
  const text = el => (el.tagName === 'IMG' ? 'img ' + (el.getAttribute('alt') || el.getAttribute('src'))
                                         : el.textContent).replace(/\s+/g, ' ').trim().slice(0, 60);
  const scroller = el => {
    for (let e = el; e && e !== art; e = e.parentElement) {
      const o = getComputedStyle(e).overflowX;
      if (o === 'auto' || o === 'scroll') return e;
    }
    return null;
  };
  const fits = r => r.left >= left - 1 && r.right <= right + 1;
  const kinds = [
    ['table', 'table'], ['code', 'div.highlight pre'], ['code', 'div.cell_output pre'],
    ['math', 'div.math'], ['math', 'mjx-container[display="true"]'], ['image', 'img'],
  ];
  const offenders = [], reported = [];
  for (const [kind, sel] of kinds) {
    for (const el of art.querySelectorAll(sel)) {
      if (!visible(el) || reported.some(o => o.contains(el) || el.contains(o))) continue;
      const r = el.getBoundingClientRect();
      const inner = el.tagName === 'IMG' ? r.width : el.scrollWidth;
      const overflows = inner > el.clientWidth + 1 && el.tagName !== 'IMG';
      if (!overflows && fits(r)) continue;
      const box = scroller(el);
      const own = box !== null && fits(box.getBoundingClientRect());
      offenders.push({kind, selector: describe(el), text: text(el), width: Math.round(Math.max(inner, r.width)),
                      right: Math.round(r.right - left), scrolls_in_own_box: own && kind !== 'image'});
      reported.push(el);
    }
  }
  // anything else that sticks out of the article (a long word or formula, a wide box); an
  // inline formula at a line's end may reach into the article's padding, where it is still seen
  for (const el of art.querySelectorAll('*')) {
    if (!visible(el) || reported.some(o => o.contains(el) || el.contains(o))) continue;
    const r = el.getBoundingClientRect();
    if (r.left >= ar.left - 1 && r.right <= ar.right + 1) continue;
    const box = scroller(el);
    if (box !== null && box !== el && fits(box.getBoundingClientRect())) continue;  // inside a scroll box
    const cs2 = getComputedStyle(el);
    if (cs2.position === 'absolute' || cs2.position === 'fixed') continue;
    offenders.push({kind: 'other', selector: describe(el), text: text(el), width: Math.round(r.width),
                    right: Math.round(r.right - left), scrolls_in_own_box: false});
    reported.push(el);
  }
  const page = document.documentElement.scrollWidth;
  if (page > window.innerWidth + 1) {
    offenders.push({kind: 'page', selector: 'html', text: 'the page scrolls sideways', width: page,
                    right: page, scrolls_in_own_box: false});
  }
  const images = Array.from(art.querySelectorAll('img')).filter(visible).map(img => {
    const r = img.getBoundingClientRect();
    const fig = img.closest('figure');
    const cap = fig && fig.querySelector('figcaption');
    return {src: img.currentSrc || img.src, natural_width: img.naturalWidth, natural_height: img.naturalHeight,
            width: r.width, height: r.height,
            name: cap ? cap.textContent.replace(/\s+/g, ' ').trim().slice(0, 40) : text(img)};
  });
  // search boxes shown on screen; the book's title in the sidebar and what covers it
  const search = Array.from(document.querySelectorAll('.search-button-field, input[type=search]'))
    .filter(el => visible(el) && getComputedStyle(el).visibility !== 'hidden').map(describe);
  const side = document.querySelector('.bd-sidebar-primary');
  if (side) side.scrollTop = 0;  // the sidebar scrolls to the current page's entry: look at its top
  window.scrollTo(0, 0);
  const t = document.querySelector('.bd-sidebar-primary .logo__title');
  let title = null;
  if (t && visible(t)) {
    const r = t.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + Math.min(10, r.width / 2), r.top + r.height / 2);
    title = {clipped: t.scrollWidth > t.clientWidth + 1 || t.scrollHeight > t.clientHeight + 1,
             covered: !(hit && (t.contains(hit) || hit.contains(t))), by: hit ? describe(hit) : null};
  }
  return {column, offenders, images, search, title};
}
"""


# ---------------------------------------------------------------------------------------------
# Fixtures: a local server and the browser
# ---------------------------------------------------------------------------------------------


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # noqa: D401 - the test output stays readable
        pass


@pytest.fixture(scope="module")
def site(built):
    """``_build/html`` served on a free local port, in a thread."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(built)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    thread.join()


#: The sub-path the site is served from, as GitHub Pages serves a project's site (/REPO/).
PREFIX = "/sotalib-book/"


@pytest.fixture(scope="module")
def prefixed_site(built, tmp_path_factory):
    """``_build/html`` served at ``http://127.0.0.1:PORT/sotalib-book/``: the server's root is a
    directory that holds the book under that name, as Pages serves a repository's site."""
    served = tmp_path_factory.mktemp("pages")
    (served / PREFIX.strip("/")).symlink_to(built, target_is_directory=True)
    handler = functools.partial(_Quiet, directory=str(served))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}{PREFIX}"
    server.shutdown()
    thread.join()


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


# session scope, like the build: set up before it, so that without Chromium nothing is built
@pytest.fixture(scope="session")
def browser():
    from playwright import sync_api  # the test extra installs it: a missing package is an error

    path = chromium_path()
    if path is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium; `make test` does it as root)")
    with sync_api.sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=path)
        except Exception as exc:  # noqa: BLE001 - any failure to start is a reason to skip, said
            pytest.skip(f"Chromium at {path} could not be started: {str(exc).splitlines()[0]}")
        yield b
        b.close()


@pytest.fixture(scope="module")
def measured(root, browser, site):
    """Every page at each viewport: its measurements and the hosts it sent requests to.

    The browser starts first: without Chromium the tests skip before the book is built.
    """
    out = {}
    for view, (width, height) in VIEWPORTS.items():
        context = browser.new_context(viewport={"width": width, "height": height})
        for path in toc_pages(root):
            page = context.new_page()
            requests: list[str] = []
            page.on("request", lambda req, requests=requests: requests.append(req.url))
            response = page.goto(f"{site}/{path}", wait_until="load")
            assert response is not None and response.ok, f"{path}: HTTP {response and response.status}"
            # MathJax typesets after load: measure the equations it draws
            page.evaluate("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
            page.evaluate("() => document.fonts.ready")
            # a reader may open every folded block (hidden code, solutions): measure them open
            page.evaluate(
                "() => { document.querySelectorAll('details').forEach(d => d.open = true);"
                " document.querySelectorAll('.toggle-hidden').forEach(e => e.classList.remove('toggle-hidden')); }"
            )
            page.wait_for_timeout(50)
            data = page.evaluate(MEASURE)
            data["requests"] = requests
            data["contents"] = _open_contents(page) if view == "laptop" else None
            out[view, path] = data
            page.close()
        context.close()
    return out


def _open_contents(page) -> int | None:
    """Click the article header's contents button: the number of links the dialog shows, or None
    when the page has no such button (a page without sections)."""
    button = page.locator(".bd-header-article button.secondary-toggle")
    if button.count() == 0 or not button.first.is_visible():
        return None
    button.first.click()
    page.wait_for_timeout(100)
    return page.evaluate(
        "() => { const d = document.getElementById('pst-secondary-sidebar-modal');"
        " return d && d.open ? Array.from(d.querySelectorAll('nav a')).filter(a => a.offsetWidth > 0).length : 0; }"
    )


def _report(rows: list[str]) -> str:
    return f"{len(rows)} found:\n  " + "\n  ".join(rows)


#: Every address a page refers to: links, stylesheets, scripts, images, sources, downloads.
REFERENCES = r"""
() => {
  const out = [];
  for (const [sel, attr] of [['a[href]', 'href'], ['link[href]', 'href'], ['script[src]', 'src'],
                             ['img[src]', 'src'], ['source[src]', 'src'], ['iframe[src]', 'src']]) {
    for (const el of document.querySelectorAll(sel)) {
      const raw = el.getAttribute(attr);
      if (!raw || raw.startsWith('javascript:') || raw.startsWith('mailto:')) continue;
      const rel = (el.getAttribute('rel') || '').toLowerCase();
      if (rel.includes('canonical') || rel.includes('preconnect') || rel.includes('dns-prefetch')) continue;
      out.push({tag: el.tagName.toLowerCase(), raw, url: el[attr]});
    }
  }
  return out;
}
"""


@pytest.fixture(scope="module")
def crawled(root, browser, prefixed_site):
    """Every page of the table of contents opened from the sub-path at 1280 px: the requests it
    made with their status (or failure), and the addresses it refers to."""
    out = {}
    width, height = VIEWPORTS["laptop"]
    context = browser.new_context(viewport={"width": width, "height": height})
    for path in toc_pages(root):
        page = context.new_page()
        statuses: dict[str, int | str] = {}
        page.on("response", lambda r, s=statuses: s.__setitem__(r.url, r.status))
        page.on("requestfailed", lambda r, s=statuses: s.__setitem__(r.url, f"failed: {r.failure}"))
        response = page.goto(prefixed_site + path, wait_until="load")
        assert response is not None and response.ok, f"{path}: HTTP {response and response.status}"
        page.evaluate("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
        page.evaluate("() => document.fonts.ready")
        page.wait_for_timeout(50)
        out[path] = {"statuses": statuses, "references": page.evaluate(REFERENCES)}
        page.close()
    context.close()
    return out


class _Anchors(HTMLParser):
    """The ids and names an HTML page defines (the targets of ``#fragment`` links)."""

    def __init__(self):
        super().__init__()
        self.found: set[str] = set()

    def handle_starttag(self, tag, attrs):  # noqa: ARG002 - any element may carry an id
        self.found |= {value for key, value in attrs if key in ("id", "name") and value}


def _fetch(url: str) -> tuple[int, bytes, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as r:  # noqa: S310 - the local test server only
            return r.status, r.read(), r.headers.get_content_type()
    except urllib.error.HTTPError as exc:
        return exc.code, b"", ""


def broken_references(crawled: dict, site: str, fetch=_fetch) -> list[str]:
    """Each reference of the crawled pages that is broken under ``site`` (a URL ending in the
    prefix): a request that failed or answered an error, a request or a link to this host outside
    the prefix, a link to a file that does not exist or to an anchor its page does not define."""
    host = urlparse(site).netloc
    rows, targets = [], {}
    for path, data in crawled.items():
        for url, status in data["statuses"].items():
            parts = urlparse(url)
            if parts.scheme in ("data", "blob", "about"):
                continue
            if parts.netloc == host and not parts.path.startswith(PREFIX):
                rows.append(f"{path}: requests {url}, outside {PREFIX}")
            elif status != 200 and not (isinstance(status, int) and status in (204, 206, 304)):
                rows.append(f"{path}: {url} -> {status}")
        for ref in data["references"]:
            parts = urlparse(ref["url"])
            if parts.netloc != host:
                continue  # another site: never fetched (no request leaves the machine)
            if not parts.path.startswith(PREFIX):
                rows.append(f"{path}: <{ref['tag']}> {ref['raw']!r} leads to {parts.path}, outside {PREFIX}")
                continue
            targets.setdefault(ref["url"], []).append(f"{path}: <{ref['tag']}> {ref['raw']!r}")
    pages: dict[str, tuple[int, set[str] | None]] = {}
    for url, where in sorted(targets.items()):
        address, fragment = urldefrag(url)
        if address not in pages:
            status, body, kind = fetch(address)
            anchors = None
            if status == 200 and kind == "text/html":
                parser = _Anchors()
                parser.feed(body.decode("utf-8", "replace"))
                anchors = parser.found
            pages[address] = (status, anchors)
        status, anchors = pages[address]
        if status != 200:
            rows.append(f"{where[0]} -> HTTP {status} ({len(where)} such links)")
        elif fragment and anchors is not None and unquote(fragment) not in anchors:
            rows.append(f"{where[0]} -> no anchor #{fragment} in {urlparse(address).path}")
    return rows


@pytest.mark.book
def test_the_site_works_from_a_sub_path(crawled, prefixed_site):
    """Served as Pages serves it: every request of every page succeeds and stays under the prefix,
    and every link (pages, anchors, downloads) leads to what exists under the prefix."""
    kinds = {ref["tag"] for data in crawled.values() for ref in data["references"]}
    assert {"a", "link", "script", "img"} <= kinds, f"the pages refer to {kinds}"
    downloads = {ref["url"] for data in crawled.values() for ref in data["references"] if ref["url"].endswith(".ipynb")}
    assert downloads, "no chapter offers its notebook"
    rows = broken_references(crawled, prefixed_site)
    assert not rows, f"broken under {PREFIX}: " + _report(rows)


@pytest.mark.book
def test_search_finds_pages_from_a_sub_path(browser, prefixed_site):
    """The search page (its index is loaded by a script, its results are links it builds) works
    under the prefix: a word of every chapter finds pages, and each result opens."""
    page = browser.new_page()
    try:
        page.goto(prefixed_site + "search.html?q=leaderboard", wait_until="load")
        page.wait_for_selector("#search-results ul.search li a", timeout=30_000)
        links = page.eval_on_selector_all("#search-results ul.search li a", "els => els.map(a => a.href)")
    finally:
        page.close()
    assert len(links) >= 3, links
    rows = []
    for url in sorted(set(links)):
        if not urlparse(url).path.startswith(PREFIX) or _fetch(urldefrag(url)[0])[0] != 200:
            rows.append(url)
    assert not rows, "search results that do not open under the prefix: " + _report(rows)


def test_broken_references_are_found(tmp_path):
    """The check finds what it should: a missing file, an anchor that is not there, a request or a
    link outside the prefix, and a request that failed (a server answering two pages)."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.html").write_text('<h1 id="top">A</h1><a name="old"></a>')
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(tmp_path / "sub"))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    refs = [
        {"tag": "a", "raw": "a.html#top", "url": f"{base}{PREFIX}a.html#top"},
        {"tag": "a", "raw": "a.html#old", "url": f"{base}{PREFIX}a.html#old"},
        {"tag": "a", "raw": "https://example.org/", "url": "https://example.org/"},
        {"tag": "a", "raw": "a.html#gone", "url": f"{base}{PREFIX}a.html#gone"},
        {"tag": "img", "raw": "missing.png", "url": f"{base}{PREFIX}missing.png"},
        {"tag": "a", "raw": "/a.html", "url": f"{base}/a.html"},
    ]
    statuses = {f"{base}{PREFIX}a.html": 200, f"{base}/_static/x.js": 200, f"{base}{PREFIX}y.css": 404}
    try:
        # this server's root stands for the prefix
        rows = broken_references(
            {"p.html": {"statuses": statuses, "references": refs}},
            base + PREFIX,
            fetch=lambda url: _fetch(url.replace(PREFIX, "/", 1)),
        )
    finally:
        server.shutdown()
        thread.join()
    text = "\n".join(rows)
    assert "#gone" in text and "missing.png" in text and "'/a.html' leads to /a.html" in text, text
    assert "_static/x.js, outside" in text and "y.css -> 404" in text, text
    assert "#top" not in text and "#old" not in text and "example.org" not in text, text
    assert len(rows) == 5, text


# ---------------------------------------------------------------------------------------------
# The layout
# ---------------------------------------------------------------------------------------------


@pytest.mark.book
def test_every_page_has_its_column(measured):
    for (view, path), data in measured.items():
        assert data["column"] is not None, f"{path} ({view}): no article column"
    # the laptop's column shows 79 characters of 13 px code with the cell's padding
    laptop = [d["column"] for (view, _), d in measured.items() if view == "laptop"]
    assert min(laptop) >= 79 * 0.6 * 13 + 2 * 16, f"the column at 1280 px is {min(laptop):.0f} px"


@pytest.mark.book
@pytest.mark.parametrize("view", VIEWPORTS)
def test_every_block_fits_its_column(measured, view):
    """At 1280 px nothing is wider than the column; at 390 px only tables, code and equations,
    each scrolling inside its own box."""
    rows = []
    for (v, path), data in measured.items():
        if v != view:
            continue
        for o in data["offenders"]:
            if view == "phone" and o["kind"] in ("table", "code", "math") and o["scrolls_in_own_box"]:
                continue
            rows.append(
                f"{path}: {o['kind']} {o['selector']} {o['width']} px vs column {data['column']:.0f} px"
                f" (right edge {o['right']} px): {o['text']!r}"
            )
    assert not rows, f"blocks wider than the column at {VIEWPORTS[view][0]} px: " + _report(rows)


@pytest.mark.book
def test_one_search_box_and_the_title_whole(measured):
    rows = []
    for (view, path), data in measured.items():
        if view != "laptop":
            continue
        if len(data["search"]) != 1:
            rows.append(f"{path}: {len(data['search'])} search boxes shown: {data['search']}")
        title = data["title"]
        if title is None:
            rows.append(f"{path}: the book's title is not shown in the sidebar")
        elif title["clipped"] or title["covered"]:
            rows.append(f"{path}: the book's title is clipped or covered (by {title['by']})")
    assert not rows, _report(rows)


@pytest.mark.book
def test_the_contents_open_from_the_article_header(measured):
    """Without the right-hand sidebar, a chapter's contents open from the article header at 1280 px."""
    rows = [
        f"{path}: the contents button shows {data['contents']} links"
        for (view, path), data in measured.items()
        if view == "laptop" and path.startswith("notebooks/") and not data["contents"]
    ]
    assert not rows, _report(rows)


@pytest.mark.book
def test_no_request_leaves_the_machine(measured):
    rows = sorted(
        {
            f"{path}: {url}"
            for (_, path), data in measured.items()
            for url in data["requests"]
            if urlparse(url).scheme not in ("data", "blob", "about") and urlparse(url).hostname not in LOCAL_HOSTS
        }
    )
    assert not rows, "requests outside localhost: " + _report(rows)


# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------


#: matplotlib's named font sizes, relative to ``font.size``
NAMED_SIZES = {"xx-small": 0.579, "x-small": 0.694, "small": 0.833, "medium": 1.0, "large": 1.2, "x-large": 1.44}


def style_rc(style: Path = STYLE) -> dict[str, str]:
    rc = {}
    for line in style.read_text().splitlines():
        key, sep, value = line.split("#", 1)[0].partition(":")
        if sep:
            rc[key.strip()] = value.strip().strip("\"'")
    return rc


def style_min_font_pt(style: Path = STYLE) -> float:
    """The smallest text size the book's style gives tick labels, legends, labels and titles (pt)."""
    rc = style_rc(style)
    base = float(rc["font.size"])
    keys = ["font.size", "xtick.labelsize", "ytick.labelsize", "legend.fontsize", "axes.labelsize", "axes.titlesize"]
    value = {k: rc.get(k, "medium") for k in keys}
    return min(base * NAMED_SIZES[v] if v in NAMED_SIZES else float(v) for v in value.values())


#: Sizes set by hand in plotting code (``fontsize=8``, ``fontsize="small"``, ``labelsize=7``).
FONT_ARG = re.compile(r"""\b(?:fontsize|labelsize|size)\s*=\s*(?:(?P<num>\d+(?:\.\d+)?)\b|["'](?P<name>[a-z-]+)["'])""")


def hand_set_fonts(root: Path) -> list[tuple[str, float]]:
    """Every font size the book's plotting code sets by hand: (file:line, size in pt)."""
    base = float(style_rc()["font.size"])
    found = []
    for path in sorted([*(root / "sotalib" / "book").glob("*.py"), *(root / "notebooks").glob("*.md")]):
        for no, line in enumerate(path.read_text().splitlines(), 1):
            for m in FONT_ARG.finditer(line):
                if m.group("num"):
                    size = float(m.group("num"))
                elif m.group("name") in NAMED_SIZES:
                    size = base * NAMED_SIZES[m.group("name")]
                else:
                    continue
                found.append((f"{path.relative_to(root)}:{no}: {line.strip()}", size))
    return found


def smallest_font_pt(root: Path) -> float:
    """The smallest text in any figure: the style's, or a size the plotting code sets by hand."""
    return min([style_min_font_pt(), *(size for _, size in hand_set_fonts(root))])


def png_dpi(path: Path) -> float | None:
    """The resolution a PNG was saved at (its pHYs chunk), or None."""
    from PIL import Image

    with Image.open(path) as im:
        dpi = im.info.get("dpi")
    return float(dpi[0]) if dpi and dpi[0] > 1 else None


def rendered_pt(font_pt: float, dpi: float, natural_width: float, displayed_width: float) -> float:
    """A font of ``font_pt`` points in a figure saved at ``dpi``, as the browser shows it, in points.

    The saved figure is ``W = natural_width / dpi`` inches wide; the browser draws it
    ``displayed_width`` CSS px wide, and a CSS px is 1/96 inch (1 pt = 96/72 px).  So

        rendered pt = font_pt * displayed_width / (W * 96)
                    = font_pt * (dpi / 96) * displayed_width / natural_width.

    Example: a 10 pt label in a figure 6.4 in wide shown 688 px wide renders at
    10 * 688 / (6.4 * 96) = 11.2 pt (14.9 CSS px).
    """
    return font_pt * (dpi / 96.0) * displayed_width / natural_width


def test_rendered_pt_formula():
    assert rendered_pt(10, 96, 6.4 * 96, 688) == pytest.approx(10 * 688 / (6.4 * 96))
    # a retina PNG (twice the resolution) shown at its 1x size: the font keeps its nominal size x dpi/96
    assert rendered_pt(9, 220, 1408, 704) == pytest.approx(9 * 110 / 96)


def test_the_style_draws_text_at_least_the_minimum():
    """Tick labels and legends of the style are large enough for the check below to mean something."""
    assert style_min_font_pt() >= MIN_RENDERED_PT


def test_hand_set_fonts_are_found(root):
    sizes = dict(hand_set_fonts(root))
    assert all(size > 0 for size in sizes.values())
    assert FONT_ARG.search('ax.legend(fontsize="small")') and FONT_ARG.search("ax.text(0, 0, s, fontsize=8)")
    assert not FONT_ARG.search("plt.subplots(figsize=(8, 3))") and not FONT_ARG.search("capsize=3")


def test_no_plotting_code_sets_a_small_font(root):
    """No figure's text is set by hand below 9 pt (the figures are measured with the smallest size)."""
    rows = [f"{where} ({size:.2f} pt)" for where, size in hand_set_fonts(root) if size < MIN_RENDERED_PT - 1e-9]
    assert not rows, f"text smaller than {MIN_RENDERED_PT:g} pt: " + _report(rows)


@pytest.mark.book
def test_figures_are_legible_and_fit_a_laptop_screen(measured, built, root):
    """At 1280 px every figure's smallest text (the style's or a size set by hand) renders at
    9 pt or more, and the figure is at most 800 px tall (see :func:`rendered_pt` for the formula)."""
    font = smallest_font_pt(root)
    rows, figures = [], 0
    for (view, path), data in measured.items():
        if view != "laptop":
            continue
        for img in data["images"]:
            file = built / unquote(urlparse(img["src"]).path).lstrip("/")
            dpi = png_dpi(file) if file.suffix == ".png" and file.exists() else None
            if dpi is None or not img["natural_width"]:
                continue  # not a matplotlib figure
            figures += 1
            pt = rendered_pt(font, dpi, img["natural_width"], img["width"])
            where = f"{path}: {img['name']!r} ({file.name[:12]})"
            if pt < MIN_RENDERED_PT - 1e-6:
                rows.append(
                    f"{where}: {font:g} pt text renders at {pt:.1f} pt ({img['width']:.0f} px wide for"
                    f" {img['natural_width'] / dpi:.2f} in at {dpi:.0f} dpi)"
                )
            if img["height"] > MAX_FIGURE_HEIGHT_PX + 0.5:
                rows.append(f"{where}: {img['height']:.0f} px tall, more than a laptop's {MAX_FIGURE_HEIGHT_PX} px")
    assert figures > 0, "no figure found on any page"
    assert not rows, _report(rows)
