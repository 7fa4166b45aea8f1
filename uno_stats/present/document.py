"""A tiny document model (headings, paragraphs, tables, images) rendered three ways.

The same blocks become terminal text (tabulate ``simple`` tables fitted to
:func:`text_width`, 100 columns unless told otherwise), Markdown (``github`` tables with
every cell escaped so that a GFM parser reads the same cells, images linked as PNG files
next to the document) and an HTML page with one inline stylesheet whose images also refer
to the PNG files beside it, so every plot is stored once.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import overload
from urllib.parse import quote

from tabulate import tabulate

from uno_stats.present.text_fit import fill, fit_table, keep_together

TEXT_WIDTH = 100
"""Columns terminal text fits by default (``--wide``: no limit)."""
_WIDTH: ContextVar[int | None] = ContextVar("text_width", default=TEXT_WIDTH)
_HTML_START = re.compile(r"<(?=[A-Za-z/!?])")


@dataclass(frozen=True)
class Heading:
    """A section heading; level 1 is the document title."""

    text: str
    level: int = 2


@dataclass(frozen=True)
class Paragraph:
    """A paragraph of plain text."""

    text: str


class LazyRows(Sequence[list[object]]):
    """``count`` table rows, row ``i`` built by ``row(i)`` when first read: a table cut to
    its first rows (the terminal summary of a sweep) builds only those."""

    def __init__(self, count: int, row: Callable[[int], list[object]]) -> None:
        self._count, self._row = count, row
        self._built: dict[int, list[object]] = {}

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> list[object]: ...

    @overload
    def __getitem__(self, index: slice) -> list[list[object]]: ...

    def __getitem__(self, index: int | slice) -> list[object] | list[list[object]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._count))]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError(index)
        if index not in self._built:
            self._built[index] = self._row(index)
        return self._built[index]


@dataclass(frozen=True)
class Table:
    """A table of preformatted cells."""

    headers: Sequence[str]
    rows: Sequence[Sequence[object]]
    caption: str | None = None


@dataclass(frozen=True)
class Image:
    """A PNG file written beside the document."""

    path: Path
    alt: str


@dataclass(frozen=True)
class Contents:
    """A table of contents: a link to every level-2 heading (Markdown and HTML only)."""


Block = Heading | Paragraph | Table | Image | Contents


@dataclass
class Document:
    """An ordered list of blocks."""

    blocks: list[Block] = field(default_factory=list)

    def heading(self, text: str, level: int = 2) -> None:
        """Append a heading."""
        self.blocks.append(Heading(text, level))

    def para(self, text: str) -> None:
        """Append a paragraph."""
        self.blocks.append(Paragraph(text))

    def table(
        self, headers: Sequence[str], rows: Sequence[Sequence[object]], caption: str | None = None
    ) -> None:
        """Append a table (skipped when it has no rows)."""
        if rows:
            kept = rows if isinstance(rows, LazyRows) else [list(r) for r in rows]
            self.blocks.append(Table(list(headers), kept, caption))

    def image(self, path: Path, alt: str) -> None:
        """Append an image."""
        self.blocks.append(Image(path, alt))

    def contents(self) -> None:
        """Append a table of contents (it lists the level-2 headings of the whole document)."""
        self.blocks.append(Contents())


def anchors(doc: Document) -> dict[int, str]:
    """Each heading's anchor (block index -> id), as GitHub derives it from the text:
    lower case, punctuation dropped, spaces to hyphens, ``-1``, ``-2`` ... on repeats."""
    out: dict[int, str] = {}
    seen: dict[str, int] = {}
    for i, block in enumerate(doc.blocks):
        if isinstance(block, Heading):
            base = re.sub(r"[^\w\- ]", "", block.text.lower()).replace(" ", "-")
            count = seen.get(base, 0)
            seen[base] = count + 1
            out[i] = f"{base}-{count}" if count else base
    return out


def _contents(doc: Document, ids: dict[int, str]) -> list[tuple[str, str]]:
    """(heading text, anchor) of every level-2 heading."""
    return [
        (b.text, ids[i])
        for i, b in enumerate(doc.blocks)
        if isinstance(b, Heading) and b.level == 2
    ]


@contextmanager
def text_width(width: int | None) -> Iterator[None]:
    """Within the block, :func:`render_text` fits ``width`` columns (None: no limit)."""
    token = _WIDTH.set(width)
    try:
        yield
    finally:
        _WIDTH.reset(token)


def md_cell(value: object) -> str:
    """``value`` as the text of one GFM table cell that renders as itself: backslashes and
    ``|`` escaped (a bare ``|`` ends the cell), line breaks as ``<br>``, and a ``<`` that
    could open an HTML tag as ``&lt;``."""
    text = str(value).replace("\\", "\\\\").replace("|", "\\|")
    text = _HTML_START.sub("&lt;", text)
    return "<br>".join(line.strip() for line in text.splitlines()) if "\n" in text else text


def markdown_table(headers: Sequence[object], rows: Sequence[Sequence[object]]) -> str:
    """A GitHub-flavoured Markdown table, every header and cell through :func:`md_cell`."""
    return tabulate(
        [[md_cell(c) for c in r] for r in rows],
        headers=[md_cell(h) for h in headers],
        tablefmt="github",
        disable_numparse=True,
    )


def render_text(doc: Document) -> str:
    """Terminal text: underlined headings, ``simple`` tables; images are left out. Paragraphs
    and tables fit the current :func:`text_width` (tables wrap at spaces, never inside a
    value, then split into column blocks)."""
    width = _WIDTH.get()
    out: list[str] = []
    for block in doc.blocks:
        if isinstance(block, Heading):
            rule = "=" if block.level <= 2 else "-"
            out.append(f"{block.text}\n{rule * len(block.text)}")
        elif isinstance(block, Paragraph):
            out.append(fill(block.text, width))
        elif isinstance(block, Table):
            caption = f"{fill(block.caption, width)}\n" if block.caption else ""
            out.append(caption + fit_table(block.headers, block.rows, width))
    return "\n\n".join(out) + "\n"


def render_markdown(doc: Document) -> str:
    """Markdown: ``#`` headings, GitHub tables, images linked by file name."""
    out: list[str] = []
    ids = anchors(doc)
    for block in doc.blocks:
        if isinstance(block, Contents):
            out.append("Contents: " + " · ".join(f"[{t}](#{a})" for t, a in _contents(doc, ids)))
        elif isinstance(block, Heading):
            out.append(f"{'#' * block.level} {block.text}")
        elif isinstance(block, Paragraph):
            out.append(block.text)
        elif isinstance(block, Table):
            caption = f"*{block.caption}*\n\n" if block.caption else ""
            out.append(caption + markdown_table(block.headers, block.rows))
        elif isinstance(block, Image):
            out.append(f"![{block.alt}]({block.path.name})")
    return "\n\n".join(out) + "\n"


_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; max-width: 1100px;
       margin: 2em auto; padding: 0 1em; color: #222; line-height: 1.45; }
h1, h2, h3 { color: #1b3a5c; } h2 { border-bottom: 1px solid #ccd; padding-bottom: .2em; }
table { border-collapse: collapse; margin: .6em 0 1.2em; font-size: .9em; }
th, td { border: 1px solid #ccd; padding: .25em .6em; text-align: right; }
th { background: #eef2f7; } td:first-child, th:first-child { text-align: left; }
figure { margin: 1em 0; } img { max-width: 100%; height: auto; }
figcaption, .caption { font-size: .85em; color: #555; }
nav.contents { font-size: .9em; margin: .5em 0 1em; }
"""


def render_html(doc: Document, title: str) -> str:
    """An HTML page: inline CSS; images refer to the PNG files beside the page by name; a
    value (``p = 1.8e-66``, ``[48.60, 50.70]``) never breaks across lines."""
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>",
    ]
    ids = anchors(doc)
    for i, block in enumerate(doc.blocks):
        if isinstance(block, Contents):
            links = " · ".join(
                f'<a href="#{html.escape(a)}">{html.escape(t)}</a>' for t, a in _contents(doc, ids)
            )
            out.append(f'<nav class="contents">Contents: {links}</nav>')
        elif isinstance(block, Heading):
            out.append(
                f'<h{block.level} id="{html.escape(ids[i])}">{html.escape(block.text)}'
                f"</h{block.level}>"
            )
        elif isinstance(block, Paragraph):
            out.append(f"<p>{html.escape(keep_together(block.text))}</p>")
        elif isinstance(block, Table):
            if block.caption:
                out.append(f'<p class="caption">{html.escape(block.caption)}</p>')
            rows = [[keep_together(str(c)) for c in r] for r in block.rows]
            out.append(
                tabulate(rows, headers=list(block.headers), tablefmt="html", disable_numparse=True)
            )
        elif isinstance(block, Image):
            alt = html.escape(block.alt)
            src = html.escape(quote(block.path.name))
            out.append(
                f'<figure><img alt="{alt}" src="{src}"><figcaption>{alt}</figcaption></figure>'
            )
    out.append("</body></html>")
    return "\n".join(out) + "\n"
