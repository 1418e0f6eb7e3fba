"""Golden games: complete games in a title's notation, each with its final score worked out by
hand in the file (``tests/golden/<title>/*.txt``).

A file has ``# title:``, ``# players:`` and ``# options:`` (JSON) header lines, one move per line,
``expect <seat> <field>=<value> ...`` lines for the score breakdown and a ``winners`` line.
"""

from __future__ import annotations

import json
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent / "golden"


def files(title_id: str) -> list[Path]:
    return sorted((GOLDEN / title_id).glob("*.txt"))


def load(path: Path):
    """(players, options, moves, expected score fields by seat, winners)."""
    header: dict = {}
    moves: list[str] = []
    expect: dict[int, dict[str, int]] = {}
    winners: tuple[int, ...] = ()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.startswith("# ") and ":" in line and line[2:].split(":")[0] in ("title", "players", "options"):
            key, _, value = line[2:].partition(":")
            header[key] = value.strip()
        elif not line or line.startswith("#"):
            continue
        elif line.startswith("expect "):
            _, seat, *pairs = line.split()
            expect[int(seat)] = {k: int(v) for k, v in (p.split("=") for p in pairs)}
        elif line.startswith("winners "):
            winners = tuple(int(x) for x in line.split()[1:])
        else:
            moves.append(line)
    players = tuple(p.strip() for p in header["players"].split(","))
    return players, json.loads(header["options"]), moves, expect, winners


def check_by_rules(path: Path, title, apply) -> None:
    """Replay through the rules core alone; it must reach the hand-worked score."""
    players, options, moves, expect, winners = load(path)
    state = title.setup(players, options)
    for text in moves:
        move = title.parse_move(state, text)
        assert title.format_move(move) == text, "the file is in canonical notation"
        state = apply(state, move)
    outcome = title.outcome(state)
    assert outcome is not None, title.status(state)
    rows = title.score(state)["seats"]
    for seat, fields in expect.items():
        got = {k: rows[seat][k] for k in fields}
        assert got == fields, (seat, got)
    assert outcome.winners == winners
    assert outcome.scores == tuple(expect[s]["total"] for s in range(len(players)))


def check_through_the_pipeline(path: Path, title_id: str, recorder) -> None:
    """Record through the recorder, DuckDB log and a fresh projector; same final score."""
    from projections.projector import Projector

    players, options, moves, expect, winners = load(path)
    gid, _ = recorder.create(title_id, players, options)
    for text in moves:
        recorder.record_notation(gid, text)
    game = Projector(recorder.log).state(gid)
    assert game.ended is not None and game.ended.winners == winners
    assert game.ended.scores == tuple(expect[s]["total"] for s in range(len(players)))
