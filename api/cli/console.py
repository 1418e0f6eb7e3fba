"""Rendering for the command line (rich): a title's view as a tree, a game's log as a table.

Views are plain dicts from the title's ``view``; nothing here knows any title.
"""

from __future__ import annotations

import json
from typing import Any

from rich.table import Table
from rich.tree import Tree

from events.history import History
from events.lifecycle import Amended, Redone, Undone
from events.log import StoredEvent
from projections.fold import GameState
from replay.frames import describe


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _inline(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, list) and all(_scalar(v) for v in value):
        return " ".join(_inline(v) for v in value) if value else "(none)"
    if _scalar(value):
        return str(value)
    return json.dumps(value, ensure_ascii=False)


def _add(tree: Tree, key: str, value: Any) -> None:
    if isinstance(value, dict) and value and not all(_scalar(v) for v in value.values()):
        branch = tree.add(f"[bold]{key}[/]")
        for k, v in value.items():
            _add(branch, str(k), v)
    elif isinstance(value, dict):
        tree.add(f"[bold]{key}[/]: " + ", ".join(f"{k} {_inline(v)}" for k, v in value.items()))
    elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        branch = tree.add(f"[bold]{key}[/]")
        for index, item in enumerate(value):
            _add(branch, str(index), item)
    else:
        tree.add(f"[bold]{key}[/]: {_inline(value)}")


def view_tree(label: str, view: dict[str, Any]) -> Tree:
    tree = Tree(label)
    for key, value in view.items():
        _add(tree, str(key), value)
    return tree


def log_table(game: GameState, history: History, events: list[StoredEvent]) -> Table:
    """Every raw event, marking those the effective history no longer counts."""
    counted = {entry.seq: entry.amended_by for entry in history.entries()}
    table = Table(title=f"{game.created.title}: {', '.join(game.players)}")
    for column in ("seq", "recorded at (UTC)", "actor", "who", "event", "note"):
        table.add_column(column)
    for event in events:
        body = event.body
        seat = getattr(body, "seat", None)
        who = game.players[seat] if isinstance(seat, int) and 0 <= seat < len(game.players) else ""
        edit = isinstance(body, (Undone, Redone, Amended))
        note = ""
        if not edit and event.seq not in counted:
            note = "undone"
        elif counted.get(event.seq):
            note = f"amended by #{counted[event.seq]}"
        table.add_row(
            str(event.seq),
            event.recorded_at.strftime("%Y-%m-%d %H:%M:%S"),
            event.actor,
            who,
            describe(game, body),
            note,
        )
    return table
