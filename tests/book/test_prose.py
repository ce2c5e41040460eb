"""The chapters read like lectures: short paragraphs, counts in English, no lab log.

Checked on the sources (paragraph length, "the tests" outside the folded notes) and on the
built pages (counts, whose numbers come from glue and exist only once the book is built).
"""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest

from .test_book import toc_files

ROOT = Path(__file__).resolve().parents[2]
MAX_WORDS = 150


def chapter_sources() -> list[Path]:
    return [ROOT / f"{f}.md" for f in toc_files(ROOT) if f.startswith("notebooks/")]


def prose_paragraphs(text: str) -> list[tuple[int, str]]:
    """(line, paragraph) of the markdown prose: no code, directives' options, tables, maths."""
    out, para, start = [], [], 0
    fence = None
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if fence:
            if fence == "$$" and stripped.startswith("$$"):  # "$$ (eq-label)" closes it too
                fence = None
            elif fence == "```" and stripped and stripped.strip("`") == "":
                fence = None
            continue
        if stripped.startswith("```") or stripped.startswith("$$"):
            fence = stripped[:3] if stripped.startswith("```") else "$$"
            if stripped.startswith("$$") and stripped.count("$$") > 1:
                fence = None
            para and out.append((start, " ".join(para)))
            para = []
            continue
        prose = stripped and not (
            stripped.startswith((":::", "|", "#", ":", "(", "---")) or re.match(r"^[-*] |^\d+\. ", stripped)
        )
        if prose:
            if not para:
                start = number
            para.append(stripped)
        else:
            para and out.append((start, " ".join(para)))
            para = []
            if re.match(r"^[-*] |^\d+\. ", stripped):  # a list item is a paragraph of its own
                start, para = number, [stripped]
    para and out.append((start, " ".join(para)))
    return out


def words(paragraph: str) -> int:
    text = re.sub(r"\{[a-z:]+\}`[^`]*`", "W", paragraph)  # a role is one word
    text = re.sub(r"\$[^$]*\$", "W", text)  # so is inline maths
    return len(text.split())


def test_no_paragraph_is_longer_than_150_words():
    long = []
    for path in chapter_sources():
        for line, para in prose_paragraphs(path.read_text(encoding="utf-8")):
            if words(para) > MAX_WORDS:
                long.append(f"{path.name}:{line}: {words(para)} words: {para[:70]}...")
    assert not long, "\n".join(long)


def test_the_word_counter_counts():
    text = "One two {glue:text}`x:.4f` three $a + b$ four.\n\nFive six.\n\n```python\nnot prose\n```\n"
    assert [words(p) for _, p in prose_paragraphs(text)] == [6, 2]


def test_verification_talk_stays_in_the_folded_notes():
    """Which tests check what belongs in a "How this is checked" note, not in the lecture."""
    found = []
    for path in chapter_sources():
        text = path.read_text(encoding="utf-8")
        notes = re.findall(r":::\{admonition\} How this is checked.*?\n:::", text, flags=re.S)
        for note in notes:
            text = text.replace(note, "")
        for line, para in prose_paragraphs(text):
            if re.search(r"\bthe (library's )?tests\b", para, flags=re.I):
                found.append(f"{path.name}:{line}: {para[:80]}...")
    assert not found, "\n".join(found)


_COUNT = re.compile(r"(?:^|(?<=\s))(?:(\w+) )?(0|1) ([a-z]+s)\b")
#: Words after a count that are not plural nouns (verbs, adverbs) ...
_SINGULAR_OK = {"is", "was", "has", "does", "yes", "plus", "minus", "versus", "its", "this", "thus", "as"}
#: ... and words before a number that make it a label, not a count ("Table 1 lists", "candidate 1 beats").
_LABELS = {
    "table",
    "figure",
    "section",
    "chapter",
    "candidate",
    "team",
    "model",
    "row",
    "column",
    "step",
    "version",
    "equation",
    "eq",
    "fold",
    "class",
    "exercise",
    "classifier",
    "item",
    "judge",
    "task",
}


#: Verbs that follow a label's number ("the pair (1, 2) differs", "classifier 1 beats").
_VERBS = {
    "differs",
    "takes",
    "beats",
    "reads",
    "gives",
    "wins",
    "loses",
    "holds",
    "lies",
    "scores",
    "means",
    "needs",
    "makes",
    "shows",
    "uses",
    "agrees",
    "equals",
    "leaves",
    "goes",
    "stays",
    "becomes",
}


def test_the_count_check_catches_zero_and_one_plurals():
    found = [m.group(3) for m in _COUNT.finditer("and 0 classifiers, yet 0 papers; Table 1 lists 1 model")]
    assert found[:2] == ["classifiers", "papers"]


@pytest.mark.book
def test_counts_read_as_english_on_the_built_pages(built):
    bad = []
    for f in toc_files(ROOT):
        if not f.startswith("notebooks/"):
            continue
        page = (built / f"{f}.html").read_text(encoding="utf-8")
        body = re.sub(r"<(script|style|pre|table|math)\b.*?</\1>", " ", page, flags=re.S)
        body = re.sub(r"<div class=\"(math|highlight)[^\"]*\".*?</div>", " ", body, flags=re.S)
        text = unescape(re.sub(r"<[^>]+>", " ", body))
        for m in _COUNT.finditer(text):
            before, word = (m.group(1) or "").lower(), m.group(3)
            if word in _SINGULAR_OK or before in _LABELS or word.endswith(("ss", "es")) and word in _VERBS:
                continue
            if word in _VERBS:
                continue
            bad.append(f"{f}: '...{text[max(0, m.start() - 30) : m.end() + 10]}...'")
    assert not bad, "\n".join(bad)
