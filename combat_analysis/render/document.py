"""One renderer for every report and metadata table: a small document model, rendered by Jinja2 templates.

Answers (`report.py`), match reports (`match_report.py`) and the season report (`season_report.py`) each build a
`Document`; `to_markdown` and `to_html` render it through `templates/document.md.j2` and
`templates/document.html.j2` (their blocks in `blocks.md.j2` and `blocks.html.j2`), in one page style
(`templates/report.css`). Every text in a document is data: the HTML templates autoescape it, and the markdown
templates pass every text through the `md` filter (`md_text`), so a player name from a log, a question or a
language model's words can never add a link, an image, HTML or structure. `md_table` is the one markdown table
writer, for reports and Dagster metadata alike.
"""

from __future__ import annotations

import base64
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, ClassVar, Literal, Protocol, cast
from urllib.parse import quote

import jinja2

from combat_analysis.formatting import MISSING

# --- escaping ----------------------------------------------------------------------------------------------------

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|~])")


def md_text(text: Any) -> str:
    """Text as inert markdown: it renders as exactly these characters, on one line. Line breaks become
    spaces (no new block can start: no heading, list, fence or HTML block) and every character that could
    open markup is backslash-escaped (no link, image, HTML tag, emphasis, code span or table cell)."""
    return _MD_SPECIAL.sub(r"\\\1", " ".join(str(text).splitlines()))


def md_code_block(code: str, language: str = "") -> str:
    """A fenced code block that its content cannot close: the fence is longer than any backtick run in it."""
    longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{code}\n{fence}"


def md_code_span(text: Any) -> str:
    """Inline code that its content cannot close, on one line."""
    flat = " ".join(str(text).splitlines())
    longest = max((len(run) for run in re.findall(r"`+", flat)), default=0)
    fence = "`" * (longest + 1)
    return f"{fence} {flat} {fence}" if longest else f"`{flat}`"


def href(target: str) -> str:
    """A link target (a relative path or file name of ours) percent-encoded, so no character in it can end
    the markdown link or the HTML attribute early."""
    return quote(str(target).replace(os.sep, "/"), safe="/._-~+")


_CLOCK = re.compile(r"\d+:[0-5]\d")


def is_figure(text: Any) -> bool:
    """A formatted figure ("1,234", "2.86", "71.4%", "-3") or a time on the match clock ("3:44"), which tables
    align right."""
    text = str(text)
    if _CLOCK.fullmatch(text):
        return True
    return text.replace(",", "").replace(".", "", 1).rstrip("%").lstrip("-").isdigit()


# --- the document model ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Span:
    """A run of inline text: plain, strong or code, optionally a link to a file beside the report."""

    text: str
    style: Literal["", "strong", "code"] = ""
    href: str = ""


Inline = str | Span


def spans(parts: Iterable[Inline]) -> tuple[Span, ...]:
    return tuple(p if isinstance(p, Span) else Span(str(p)) for p in parts)


def strong(text: Any) -> Span:
    return Span(str(text), "strong")


def code(text: Any) -> Span:
    return Span(str(text), "code")


def link(text: Any, target: str | os.PathLike) -> Span:
    return Span(str(text), "", str(target))


Role = Literal["", "answer", "refusal", "kpi", "note"]


@dataclass(frozen=True)
class Paragraph:
    """A paragraph. Its role picks a look: the direct answer (or a refusal), a KPI box, a small note."""

    kind: ClassVar[str] = "paragraph"
    spans: tuple[Span, ...]
    role: Role = ""


def para(*parts: Inline, role: Role = "") -> Paragraph:
    return Paragraph(spans(parts), role)


@dataclass(frozen=True)
class Item:
    spans: tuple[Span, ...]
    lead: str = ""  # shown in bold before the text
    badge: str = ""  # a short tag (a finding's significance), shown before the text


@dataclass(frozen=True)
class Bullets:
    kind: ClassVar[str] = "bullets"
    items: tuple[Item, ...]


def bullets(items: Iterable[Item | Inline | Sequence[Inline]]) -> Bullets:
    out = []
    for item in items:
        if isinstance(item, Item):
            out.append(item)
        elif isinstance(item, (str, Span)):
            out.append(Item(spans((item,))))
        else:
            out.append(Item(spans(item)))
    return Bullets(tuple(out))


@dataclass(frozen=True)
class QandA:
    """Questions, each with its answer below it (follow-ups)."""

    kind: ClassVar[str] = "qanda"
    pairs: tuple[tuple[str, str], ...]


Cell = str | Span


@dataclass(frozen=True)
class Table:
    """A table of formatted cells (text, or a link). Columns whose every cell is a figure align right.
    A table of more than `CARD_COLUMNS` columns reflows into one card per row on a phone. `groups` splits the
    rows, in order, into captioned runs (a scoreboard's teams): one table with aligned columns in HTML, one
    captioned table per group in markdown."""

    kind: ClassVar[str] = "table"
    CARD_COLUMNS: ClassVar[int] = 4
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    caption: str = ""  # a small heading above the table
    groups: tuple[tuple[str, int], ...] = ()  # (caption, number of rows)

    @property
    def parts(self) -> list[tuple[str, tuple[tuple[Cell, ...], ...]]]:
        """The rows as (caption, rows) runs: the groups, or the whole table under its caption."""
        if not self.groups:
            return [(self.caption, self.rows)]
        out, start = [], 0
        for caption, count in self.groups:
            out.append((caption, self.rows[start:start + count]))
            start += count
        return out

    @property
    def numeric(self) -> tuple[bool, ...]:
        def text(cell: Cell) -> str:
            return cell.text if isinstance(cell, Span) else str(cell)

        out = []
        for i in range(len(self.columns)):
            cells = [text(row[i]) for row in self.rows if i < len(row) and text(row[i]) not in ("", MISSING)]
            out.append(bool(cells) and all(is_figure(c) for c in cells))
        return tuple(out)

    @property
    def wide(self) -> bool:
        return len(self.columns) > self.CARD_COLUMNS


def _cells(row: Sequence[Any]) -> tuple[Cell, ...]:
    return tuple(c if isinstance(c, Span) else ("" if c is None else str(c)) for c in row)


def table(columns: Sequence[str], rows: Iterable[Sequence[Any]], caption: str = "") -> Table:
    return Table(tuple(str(c) for c in columns), tuple(_cells(row) for row in rows), caption)


def grouped_table(columns: Sequence[str], groups: Iterable[tuple[str, Iterable[Sequence[Any]]]]) -> Table:
    """One table whose rows come in captioned groups, e.g. a scoreboard per team."""
    rows: list[tuple[Cell, ...]] = []
    counts: list[tuple[str, int]] = []
    for caption, group in groups:
        cells = [_cells(row) for row in group]
        rows += cells
        counts.append((caption, len(cells)))
    return Table(tuple(str(c) for c in columns), tuple(rows), groups=tuple(counts))


@dataclass(frozen=True)
class Figure:
    """A chart: the PNG beside the report (markdown links it, HTML embeds it as a data URI)."""

    kind: ClassVar[str] = "figure"
    path: Path
    alt: str  # what the image shows, in words, for a reader who cannot see it
    caption: str = ""


@dataclass(frozen=True)
class CodeBlock:
    kind: ClassVar[str] = "code"
    code: str
    language: str = ""
    caption: tuple[Span, ...] = ()


@dataclass(frozen=True)
class Heading:
    """A sub-heading inside a section (a player's card, a team's table)."""

    kind: ClassVar[str] = "heading"
    text: str


Block = Paragraph | Bullets | QandA | Table | Figure | CodeBlock | Heading


@dataclass(frozen=True)
class Section:
    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Document:
    """A report: a title, blocks before the first section (the answer, the result line), sections, a footer.
    `base` is the folder the markdown file is written to: figures and links are relative to it."""

    title: str
    lead: tuple[Block, ...] = ()
    sections: tuple[Section, ...] = ()
    footer: str = ""
    base: Path | None = None


# --- rendering -----------------------------------------------------------------------------------------------------

def _relative(path: Path, base: Path | None) -> str:
    if base is None:
        return Path(path).name
    try:
        return os.path.relpath(path, base)
    except ValueError:  # another drive
        return str(path)


def png_data_uri(path: Path) -> str:
    return "data:image/png;base64," + base64.b64encode(Path(path).read_bytes()).decode("ascii")


@cache
def environment() -> jinja2.Environment:
    """The templates: every one autoescaped for HTML except the markdown ones (`*.md.j2`), whose texts all go
    through the `md` filter instead.

    Compiled templates are cached in the user's private temporary folder (keyed by each template's source, so an
    edited template is compiled again): compiling them costs a command-line answer about 60 ms."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("combat_analysis.render", "templates"),
        bytecode_cache=jinja2.FileSystemBytecodeCache(),
        autoescape=lambda name: not str(name or "").endswith(".md.j2"),
        undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters.update(md=md_text, code_block=md_code_block, md_code_span=md_code_span, href=href, data_uri=png_data_uri)
    env.globals.update(relative=_relative, exists=lambda p: Path(p).is_file())
    return env


def to_markdown(doc: Document) -> str:
    return environment().get_template("document.md.j2").render(doc=doc)


def to_html(doc: Document) -> str:
    return environment().get_template("document.html.j2").render(doc=doc)


class _BlockMacros(Protocol):
    """The macros of blocks.md.j2 that Python calls directly."""

    def table(self, table: Table) -> str: ...

    def block(self, block: Block, base: Path | None) -> str: ...


def _block_macros() -> _BlockMacros:
    # cast: jinja2 types a template's module as TemplateModule, which cannot name the macros it holds
    return cast(_BlockMacros, environment().get_template("blocks.md.j2").module)


def md_table(columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A markdown table, every cell escaped: for reports' tables and for Dagster metadata previews."""
    return _block_macros().table(table(columns, rows)).rstrip("\n")


def md_blocks(*blocks: Block, base: Path | None = None) -> str:
    """Blocks as markdown without a page around them (Dagster metadata), escaped like any report."""
    macros = _block_macros()
    return "\n".join(macros.block(b, base) for b in blocks).rstrip("\n")


def md_bullets(pairs: Iterable[tuple[str, str]]) -> str:
    """A bullet list of (bold lead, text) pairs, both escaped."""
    return md_blocks(Bullets(tuple(Item(spans([text]), lead=lead) for lead, text in pairs)))


def md_image(alt: str, uri: str) -> str:
    """A markdown image of a data URI (Dagster metadata): the alt text escaped, the URI ours."""
    if not uri.startswith("data:image/png;base64,"):
        raise ValueError("md_image embeds PNG data URIs only")
    return f"![{md_text(alt)}]({uri})"


_FILE_IMAGE = re.compile(r"!\[((?:[^\]\\]|\\.)*)\]\((?!data:)[^)\s]*\)")


def md_preview(markdown: str, limit: int = 20000) -> str:
    """A report's markdown for Dagster's metadata view: images of files beside the report (which the UI cannot
    load) become their alt text, and the text stops at `limit` characters."""
    return _FILE_IMAGE.sub(lambda m: f"_Chart: {m.group(1)}_", markdown)[:limit]


def md_chart(title: str, alt: str, png_b64: str, report: Path | str | None = None) -> str:
    """A chart for Dagster's metadata view: its title, the image (a base64 PNG), and where the report is."""
    lines = [f"**{md_text(title)}**", "", md_image(alt, "data:image/png;base64," + png_b64)]
    if report is not None:
        lines += ["", f"The whole report: {md_code_span(str(report))}"]
    return "\n".join(lines)
