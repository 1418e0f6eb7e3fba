"""Upcasting, exercised once: a test-only version 2 of ``lost-cities.card-played`` whose ``card``
is renamed ``expedition_card``, with its upcaster. Logs stored by version 1 read as version 2 and
fold to the same state."""

from __future__ import annotations

import json

import msgspec
import pytest

import golden_logs
from events import codec, upcasting
from events.base import Event
from events.errors import MalformedEvent
from events.log import new_game_id
from events.stores import open_log
from projections.fold import fold_all
from projections.projector import Projector
from replay.simulate import random_game
from rules.lost_cities import evolve as lost_cities_evolve
from rules.lost_cities.events import CardPlayed

TAG = "lost-cities.card-played"


class CardPlayedV2(Event, frozen=True, tag=TAG):
    expedition_card: str
    seat: int | None = None
    v: int = 2


def renamed_card(body: dict) -> dict:
    body["expedition_card"] = body.pop("card")
    return body


def as_v1(event: CardPlayedV2) -> CardPlayed:
    return CardPlayed(card=event.expedition_card, seat=event.seat)


@pytest.fixture
def ship_version_2(monkeypatch):
    """Puts version 2 in place of version 1, as a release that renamed the field would."""

    def ship() -> None:
        monkeypatch.setitem(codec._types, TAG, CardPlayedV2)
        played = lost_cities_evolve.EVOLVERS[CardPlayed]
        monkeypatch.setitem(lost_cities_evolve.EVOLVERS, CardPlayedV2, lambda state, event: played(state, as_v1(event)))
        upcasting.register_upcaster(TAG, 1, renamed_card)

    yield ship
    upcasting.unregister_upcasters(TAG)
    monkeypatch.undo()
    codec._forget_decoders()


@pytest.fixture
def version_2(ship_version_2):
    ship_version_2()


def stored_game(db: str) -> tuple[str, list[Event]]:
    """A finished Lost Cities game stored by version 1."""
    events = random_game("lost-cities", ("Ana", "Bea"), {"rounds": 1}, seed=5)
    game_id = new_game_id()
    log = open_log(db)
    log.import_games([(game_id, events)])
    log.close()
    return game_id, events


def test_a_log_stored_by_version_1_reads_as_version_2_and_folds_to_the_same_state(lasting_db, ship_version_2):
    game_id, events = stored_game(lasting_db)
    ship_version_2()
    log = open_log(lasting_db)
    bodies = log.read_bodies(game_id)
    played = [b for b in bodies if codec.tag_of(type(b)) == TAG]
    assert played and all(type(b) is CardPlayedV2 for b in played)
    assert [as_v1(b) for b in played] == [e for e in events if isinstance(e, CardPlayed)]
    assert Projector(log).state(game_id).state == fold_all(events).state
    log.close()


def test_a_version_2_body_says_so_and_is_read_without_upcasting(version_2):
    event = CardPlayedV2(expedition_card="Y5", seat=1)
    assert msgspec.msgpack.decode(codec.encode(event))["v"] == 2
    assert codec.decode(codec.encode(event)) == event
    assert codec.decode_many([codec.encode(event)] * 2) == [event, event]


def test_an_old_export_or_client_shape_is_read_through_the_upcaster(version_2):
    old = {"type": TAG, "card": "W3", "seat": 0}
    assert codec.from_builtins(dict(old)) == CardPlayedV2(expedition_card="W3", seat=0)
    assert codec.from_wire(dict(old)) == CardPlayedV2(expedition_card="W3", seat=0)
    assert codec.decode_json(json.dumps(old)) == CardPlayedV2(expedition_card="W3", seat=0)


def test_a_body_of_a_version_this_code_does_not_know_is_refused_by_its_code(version_2):
    newer = msgspec.msgpack.encode({"type": TAG, "expedition_card": "W3", "v": 3})
    with pytest.raises(MalformedEvent) as refused:
        codec.decode(newer)
    assert refused.value.code == "unknown-event-version"
    assert "versions 1 to 2" in refused.value.message


def test_the_shape_check_names_a_rename_without_an_upcaster_and_passes_with_one(version_2):
    recorded = json.loads(golden_logs.SHAPES.read_text(encoding="utf-8"))
    assert golden_logs.shape_changes(recorded, golden_logs.shapes()) == []
    upcasting.unregister_upcasters(TAG)
    (change,) = golden_logs.shape_changes(recorded, golden_logs.shapes())
    assert change.startswith(f"{TAG}: its shape changed (-card +expedition_card +v) with no upcaster from version 1")
    assert f"register_upcaster({TAG!r}, 1, fn)" in change


def test_upcasters_come_in_turn_from_version_1():
    with pytest.raises(TypeError, match="next is from 1"):
        upcasting.register_upcaster("lost-cities.card-drawn", 2, renamed_card)
