"""A tiny document model (headings, paragraphs, tables, images) rendered three ways.

The same blocks become terminal text (tabulate ``simple`` tables), Markdown (``github``
tables, images linked as PNG files next to the document) and an HTML page with one inline
stylesheet whose images also refer to the PNG files beside it, so every plot is stored once.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from tabulate import tabulate


@dataclass(frozen=True)
class Heading:
    """A section heading; level 1 is the document title."""

    text: str
    level: int = 2


@dataclass(frozen=True)
class Paragraph:
    """A paragraph of plain text."""

    text: str


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
            self.blocks.append(Table(list(headers), [list(r) for r in rows], caption))

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


def _tab(table: Table, fmt: str) -> str:
    return tabulate(table.rows, headers=list(table.headers), tablefmt=fmt, disable_numparse=True)


def render_text(doc: Document) -> str:
    """Terminal text: underlined headings, ``simple`` tables; images are left out."""
    out: list[str] = []
    for block in doc.blocks:
        if isinstance(block, Heading):
            rule = "=" if block.level <= 2 else "-"
            out.append(f"{block.text}\n{rule * len(block.text)}")
        elif isinstance(block, Paragraph):
            out.append(block.text)
        elif isinstance(block, Table):
            caption = f"{block.caption}\n" if block.caption else ""
            out.append(caption + _tab(block, "simple"))
        # Contents and images have no terminal form.
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
            out.append(caption + _tab(block, "github"))
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
    """An HTML page: inline CSS; images refer to the PNG files beside the page by name."""
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
            out.append(f"<p>{html.escape(block.text)}</p>")
        elif isinstance(block, Table):
            if block.caption:
                out.append(f'<p class="caption">{html.escape(block.caption)}</p>')
            out.append(_tab(block, "html"))
        elif isinstance(block, Image):
            alt = html.escape(block.alt)
            src = html.escape(quote(block.path.name))
            out.append(
                f'<figure><img alt="{alt}" src="{src}"><figcaption>{alt}</figcaption></figure>'
            )
    out.append("</body></html>")
    return "\n".join(out) + "\n"
