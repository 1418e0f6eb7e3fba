"""What the read side can hold is checked at every door of both logs: an append, a bulk import, a
JSON Lines file; what is refused leaves the log as it was, and the store opens as before."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import rules  # noqa: F401  (registers the titles' events)
from api.cli.main import app as cli
from api.cli.main import layers
from events import limits
from events.errors import MalformedEvent
from events.lifecycle import GameCreated, GameEnded, ScoreOnly
from events.log import new_game_id
from events.stores import open_log

runner = CliRunner()
PLAYERS = ("Ana", "Bea")


def score_only(score: int = 10, played_at: str = "2026-05-01T20:00:00", duration: int | None = None) -> list:
    return [
        GameCreated(title="lost-cities", players=PLAYERS),
        ScoreOnly(source="bgstats", ref="X1", played_at=played_at, duration_min=duration),
        GameEnded(scores=(score, 1), ranks=(1, 2), winners=(0,)),
    ]


@pytest.fixture
def log(store_db):
    opened = open_log(store_db)
    yield opened
    opened.close()


@pytest.mark.parametrize(("events", "code", "field"), [
    (score_only(score=2**31), "value-out-of-range", "game.ended.scores.0"),
    (score_only(played_at="9999-12-31T23:59:59", duration=30), "date-out-of-range", "game.score-only.played_at"),
    (score_only(played_at="1899-12-31T23:00:00"), "date-out-of-range", "game.score-only.played_at"),
    (score_only(duration=-600_000), "value-out-of-range", "game.score-only.duration_min"),
    (score_only(duration=-(2**31)), "value-out-of-range", "game.score-only.duration_min"),
    (score_only(duration=2**31 - 1), "date-out-of-range", "game.score-only.played_at"),
    ([GameCreated(title="lost-cities", players=PLAYERS, options={"a\ud800": 1})], "not-unicode", "game.created.options.a\\ud800"),
    ([GameCreated(title="lost-cities", players=("A" * 10_001, "Bea"))], "string-too-long", "game.created.players.0"),
    ([GameCreated(title="lost-cities", players=("Ana\ud800", "Bea"))], "not-unicode", "game.created.players.0"),
    ([GameCreated(title="lost-cities", players=PLAYERS, seed=2**64)], "value-out-of-range", "game.created.seed"),
    ([GameCreated(title="lost-cities", players=PLAYERS, options={"x": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]})],
     "too-deeply-nested", None),
])
def test_an_append_or_an_import_the_read_side_cannot_hold_is_refused_and_writes_nothing(log, events, code, field):
    for door in ("append", "import"):
        game_id = new_game_id()
        with pytest.raises(MalformedEvent) as refused:
            if door == "append":
                log.append(game_id, events, expected_seq=0)
            else:
                log.import_games([(game_id, events)])
        assert refused.value.code == code, (door, refused.value)
        assert field is None or refused.value.details["field"] == field
        assert f"game {game_id} seq " in refused.value.message
        assert not log.exists(game_id)
    assert log.game_ids() == []


def test_what_a_store_holds_goes_in(log):
    game_id = new_game_id()
    log.append(game_id, [GameCreated(title="lost-cities", players=PLAYERS, seed=2**64 - 1)], expected_seq=0)
    log.import_games([(new_game_id(), score_only(score=-(2**31), played_at="2999-12-31T20:00:00", duration=60))])
    assert len(log.game_ids()) == 2


def test_a_json_lines_import_past_the_limits_is_refused_in_one_line(tmp_path):
    lines = [json.dumps({"game_id": "01jj05v1409dgw5dev3zccs9d6", "seq": seq, "body": {"type": tag, **body}})
             for seq, (tag, body) in enumerate([
                 ("game.created", {"title": "lost-cities", "players": list(PLAYERS)}),
                 ("game.score-only", {"source": "bgstats", "ref": "X1", "played_at": "2026-05-01T20:00:00"}),
                 ("game.ended", {"scores": [2**31, 1], "ranks": [1, 2], "winners": [0]}),
             ], 1)]
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(lines) + "\n")
    db = str(tmp_path / "s.duckdb")
    result = runner.invoke(cli, ["import", str(path), "--db", db])
    assert result.exit_code == 1 and len(result.output.strip().splitlines()) == 1, result.output
    assert result.output.startswith("value-out-of-range: game 01jj05v1409dgw5dev3zccs9d6 seq 3: game.ended.scores.0")
    with layers(db) as lay:
        assert lay.log.game_ids() == []
    assert runner.invoke(cli, ["games", "--db", db]).exit_code == 0


def test_nesting_depth_counts_lists_and_objects_and_stops_past_its_limit():
    assert [limits.nesting_depth(v) for v in (1, "x", [], {"a": [1, {"b": []}]})] == [0, 0, 1, 4]
    deep: list = []
    for _ in range(10_000):
        deep = [deep]
    assert limits.nesting_depth(deep, limit=5) == 6


def test_a_restored_parquet_export_the_read_side_cannot_hold_is_refused_and_writes_nothing(log, tmp_path):
    """The Parquet door: rows exported by another store, re-chained around a score past 32 bits
    (a chain is no secret), are refused by the restore before anything is written."""
    from events import codec
    from events.duckdb_log import DuckDBEventLog
    from events.log import chain_hash, micros

    source = DuckDBEventLog(str(tmp_path / "source.duckdb"))
    game_id = new_game_id()
    source.import_games([(game_id, score_only())])
    table = source.con.sql(
        "SELECT game_id, seq, recorded_at, actor, type, body, body_json, prev_hash, hash, idempotency_key "
        "FROM events ORDER BY seq"
    ).to_arrow_table()
    source.close()
    rows = table.to_pylist()
    forged = GameEnded(scores=(2**31, 1), ranks=(1, 2), winners=(0,))
    last = rows[-1]
    last["body"], last["body_json"] = codec.encode(forged), codec.encode_json(forged).decode()
    last["hash"] = chain_hash(last["prev_hash"], game_id, last["seq"], micros(last["recorded_at"]), last["actor"], last["body"])
    with pytest.raises(MalformedEvent) as refused:
        log.restore(table.from_pylist(rows, schema=table.schema))
    assert refused.value.code == "value-out-of-range"
    assert not log.exists(game_id)
