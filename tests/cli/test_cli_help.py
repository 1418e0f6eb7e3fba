"""``--help`` of every command, as a terminal of 80 columns shows it: each line ends where the
text had to wrap or where a paragraph ends, never mid-sentence where the text had no break."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from typer.main import get_command
from typer.testing import CliRunner

from api.program import app  # serve too: the whole program

runner = CliRunner()
WIDTH = 80


def commands(group, path=()):
    """Every command path under ``group``: (), ("new",), ("pack",), ("pack", "list"), ..."""
    yield path
    for name, sub in sorted(getattr(group, "commands", {}).items()):
        yield from commands(sub, path + (name,))


PATHS = list(commands(get_command(app)))


def _cell(line: str) -> tuple[str, int]:
    """The line's text inside a panel's borders (padded, so columns stay), and where its right
    padding begins."""
    if line.startswith("│") and line.rstrip().endswith("│"):
        inner = line.rstrip()
        return " " + inner[1:-1] + " ", len(inner) - 2
    return line.rstrip(), WIDTH - 1


def broken_lines(output: str) -> list[str]:
    """Lines that end although the next word of the same text would have fitted on them, and
    lines cut short (…)."""
    lines = output.splitlines()
    found = []
    going_on = False  # in a panel: the line above goes on its row's text (it is not a new row)
    found += [line for line in lines if _cell(line)[0].rstrip().endswith("…")]  # cut, not wrapped
    for above, below in zip(lines, lines[1:]):
        a, limit = _cell(above)
        b, _ = _cell(below)
        text = b.lstrip()
        start, first = len(b) - len(text), len(a) - len(a.lstrip())
        if below.startswith("│"):
            new_row = text[:1] in ("-", "*")  # an option's or a required argument's row
            going_on = above.startswith("│") and not new_row and (start > first or (start == first and going_on))
            if not going_on:
                continue  # the panel's next row
        if not text or not a.strip() or text[0] in "[╭╰─│":  # typer's own lines: [default: ...]
            continue
        if start >= len(a) or a[start] == " " or (start > 0 and a[start - 1] != " "):
            continue  # not the same cell's text going on
        ending = a[start:].rstrip()
        word = text.split()[0]
        if "|" in word + ending.split(" ")[0]:
            continue  # a metavar's choices, folded in their own column
        if start + cell_len(ending) + 1 + cell_len(word) <= limit:
            found.append(f"{above.rstrip()}\n{below.rstrip()}")
    return found


@pytest.mark.parametrize("lang", ["en", "es", "ja"])
@pytest.mark.parametrize("path", PATHS, ids=lambda p: " ".join(p) or "tabletape")
def test_help_breaks_lines_only_where_the_text_wraps(path, lang):
    result = runner.invoke(app, ["--lang", lang, *path, "--help"], env={"COLUMNS": str(WIDTH), "NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    assert "Usage" in result.output
    assert broken_lines(result.output) == []
    assert max(cell_len(line) for line in result.output.splitlines()) <= WIDTH


def test_the_check_finds_a_paragraph_broken_in_the_source():
    """Before: the command list printed a docstring's line breaks (``export``, ``verify``)."""
    shown = (
        "│ export       Write whole ended games as JSON Lines, one event per line with  │\n"
        "│              its envelope (after the content                                 │\n"
        "│              packs they pin); or everything as Parquet; or the finished      │\n"
    )
    assert len(broken_lines(shown)) == 1
