"""Notes in every export: the Parquet export and restore carry them, a BG Stats play carries a
finished game's notes as its comments, and a play's comments import as a note on its result."""

from __future__ import annotations

import random

from api.formats import bgstats
from api.formats.jsonl import check_games
from events.duckdb_log import DuckDBEventLog
from projections.projector import Projector
from projections.stats import parquet
from replay.frames import notes_listed
from replay.recorder import Recorder


def finished_with_notes(recorder: Recorder) -> str:
    gid, _ = recorder.create("lost-cities", ("Ana", "Bea"), {"rounds": 1}, seed=11)
    rng = random.Random(1)
    recorder.note(gid, 0, "first game at the club")
    while recorder.projector.state(gid).ended is None:
        game = recorder.projector.state(gid)
        legal = game.title.legal_moves(game.state)
        recorder.record(gid, legal[rng.randrange(len(legal))])
    last = len(recorder.projector.history(gid).entries()) - 1
    recorder.note(gid, 3, "Bea started blue")
    recorder.note(gid, last, "Ana by a nose")
    return gid


def texts(projector: Projector, gid: str) -> list[tuple[int, str]]:
    return [(n["step"], n["text"]) for n in notes_listed(projector.history(gid))]


def test_a_parquet_export_and_restore_keep_the_notes(layers, tmp_path):
    log, projector, recorder = layers
    gid = finished_with_notes(recorder)
    folder = tmp_path / "export"
    parquet.export(projector.read_models, folder)
    empty = DuckDBEventLog(str(tmp_path / "empty.duckdb"))
    try:
        restored = Projector(empty)
        parquet.restore(restored.read_models, folder, check=check_games)
        assert texts(restored, gid) == texts(projector, gid) and len(texts(projector, gid)) == 3
        assert restored.state(gid).state == projector.state(gid).state
    finally:
        empty.close()


def test_a_bg_stats_play_carries_the_notes_as_its_comments(layers):
    _, projector, recorder = layers
    gid = finished_with_notes(recorder)
    (play,) = [p for p in bgstats.export(projector.read_models)["plays"] if p["uuid"] == bgstats.game_uuid(gid)]
    assert play["comments"] == "Step 0: first game at the club\n\nStep 3: Bea started blue\n\nAna by a nose"


def test_a_plays_comments_import_as_a_note_on_its_result_and_export_again(layers):
    log, projector, _ = layers
    document = {
        "players": [{"id": 1, "name": "Ana"}, {"id": 2, "name": "Bea"}],
        "games": [{"id": 1, "name": "Lost Cities", "bggId": 50}],
        "plays": [
            {"uuid": "c1", "gameRefId": 1, "playDate": "2024-03-01 20:00:00", "comments": "  Rematch\u0007 tomorrow \n",
             "playerScores": [{"playerRefId": 1, "score": "45", "winner": True}, {"playerRefId": 2, "score": "30"}]},
            {"uuid": "c2", "gameRefId": 1, "playDate": "2024-03-02 20:00:00", "comments": "x" * 900,
             "playerScores": [{"playerRefId": 1, "score": "5"}, {"playerRefId": 2, "score": "30"}]},
        ],
    }
    report = bgstats.import_document(log, projector, document)
    assert len(report.imported) == 2
    plays = {p["uuid"]: p for p in bgstats.export(projector.read_models)["plays"]}
    assert plays["C1"]["comments"] == "Rematch  tomorrow"
    assert plays["C2"]["comments"] == "x" * 500  # a note's longest text
    again = bgstats.import_document(log, projector, document)
    assert again.imported == [] and len(again.already) == 2  # once each, comments and all


def test_the_moves_view_numbers_steps_as_the_replay_does_past_notes(layers):
    from projections.stats.sql import views

    _, projector, recorder = layers
    gid = finished_with_notes(recorder)
    projector.read_models.refresh()
    con = projector.read_models.log.cursor()
    try:
        select = views()["moves"][0]
        rows = con.execute(f"SELECT seq, step, kind FROM ({select}) WHERE game_id = ? ORDER BY seq", [gid]).fetchall()
        edited = con.execute("SELECT edited FROM game_facts WHERE game_id = ?", [gid]).fetchall()
    finally:
        con.close()
    entries = projector.history(gid).entries()
    expected = [(e.seq, index + 1) for index, e in enumerate(entries) if not type(e.body).__module__.startswith("events")]
    assert [(seq, step) for seq, step, _ in rows] == expected
    assert "game.annotated" not in {kind for _, _, kind in rows}
    assert edited == [(False,)]  # notes edit nothing
