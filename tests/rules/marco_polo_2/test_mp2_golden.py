"""Golden games (``tests/golden/marco-polo-2/*.txt``): complete games in the title's notation, each
with its final score worked out by hand in the file. Replayed through the rules core and through
the whole pipeline (DuckDB log, projections), they must reach exactly the hand-worked score."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mp2_helpers import T, apply

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "marco-polo-2"
FILES = sorted(GOLDEN.glob("*.txt"))


def load(path: Path):
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


def test_there_are_three_golden_games():
    assert len(FILES) >= 3


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden_game_reaches_the_hand_worked_score(path):
    players, options, moves, expect, winners = load(path)
    state = T.setup(players, options)
    for text in moves:
        move = T.parse_move(state, text)
        assert T.format_move(move) == text, "the file is in canonical notation"
        state = apply(state, move)
    outcome = T.outcome(state)
    assert outcome is not None, T.status(state)
    rows = T.score(state)["seats"]
    for seat, fields in expect.items():
        got = {k: rows[seat][k] for k in fields}
        assert got == fields, (seat, got)
    assert outcome.winners == winners
    assert outcome.scores == tuple(expect[s]["total"] for s in range(len(players)))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden_game_through_the_pipeline(path, recorder):
    from projections.projector import Projector

    players, options, moves, expect, winners = load(path)
    gid, _ = recorder.create("marco-polo-2", players, options)
    for text in moves:
        recorder.record_notation(gid, text)
    game = Projector(recorder.log).state(gid)
    assert game.ended is not None and game.ended.winners == winners
    assert game.ended.scores == tuple(expect[s]["total"] for s in range(len(players)))
