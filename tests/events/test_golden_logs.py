"""Old logs stay readable: the golden logs of every title fold to what they folded to when written,
and no event type changes its stored shape without an upcaster."""

from __future__ import annotations

import json

import golden_logs
import rules
from events import codec
from events.stores import open_log


def test_every_golden_log_replays_to_the_state_and_score_it_was_written_with(lasting_db):
    log = open_log(lasting_db)
    try:
        got, wanted = golden_logs.replay_into(log), golden_logs.expected()
    finally:
        log.close()
    assert sorted(got) == sorted(wanted)
    differing = [game_id for game_id in wanted if got[game_id] != wanted[game_id]]
    assert not differing, f"these golden games fold differently now: {differing}"


def test_the_golden_logs_hold_every_title_finished_scored_only_and_edited():
    bodies = [json.loads(line)["body"] for path in golden_logs.LOGS.glob("*.jsonl") for line in path.read_text().splitlines()]
    titles = {body["title"] for body in bodies if body["type"] == "game.created"}
    kinds = {body["type"] for body in bodies}
    assert titles == set(rules.titles())
    assert {"game.ended", "game.score-only", "game.undone", "game.redone", "game.amended", "game.forked"} <= kinds


def test_no_event_type_changed_its_stored_shape_without_an_upcaster():
    recorded = json.loads(golden_logs.SHAPES.read_text(encoding="utf-8"))
    changes = golden_logs.shape_changes(recorded, golden_logs.shapes())
    assert not changes, "old logs could not be read:\n" + "\n".join(changes)


def test_every_event_type_has_its_shape_recorded():
    recorded = json.loads(golden_logs.SHAPES.read_text(encoding="utf-8"))
    ours = {tag for tag, t in codec.registered().items() if t.__module__.partition(".")[0] in ("events", "rules")}
    unrecorded = sorted(ours - set(recorded))  # not the types other tests register for themselves
    assert not unrecorded, f"record the shape of {unrecorded}: PYTHONPATH=. python -m tests.golden_logs shapes"
