"""Rendering for the command line (rich): a game's log as a table (the table itself: ``table``)."""

from __future__ import annotations

from rich.table import Table

from events.history import History
from events.lifecycle import Amended, Redone, Undone
from events.log import StoredEvent
from projections.fold import GameState
from replay.frames import describe


def log_table(game: GameState, history: History, events: list[StoredEvent]) -> Table:
    """Every raw event, marking those the effective history no longer counts."""
    counted = {entry.seq: entry.amended_by for entry in history.entries()}
    counted.update({note.seq: note.amended_by for note in history.notes_at()})
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
