"""The codec: stable tags, msgpack in storage, JSON on the wire, typed errors."""

from __future__ import annotations

import msgspec
import pytest

from events import codec
from events.base import Event
from events.errors import MalformedEvent, UnknownEventType
from events.lifecycle import Amended, GameCreated, GameEnded, Undone


def test_lifecycle_events_round_trip_msgpack_and_json():
    events = [
        GameCreated(title="lost-cities", players=("Ana", "Bea"), options={"rounds": 3}, seed=7),
        GameEnded(scores=(40, -12), ranks=(1, 2), winners=(0,)),
        Undone(to_seq=3),
        Amended(seq=4, body={"type": "game.undone", "to_seq": 1}),
    ]
    for event in events:
        assert codec.decode(codec.encode(event)) == event
        assert codec.decode_json(codec.encode_json(event)) == event
        assert codec.from_builtins(codec.to_builtins(event)) == event


def test_tags_are_namespaced_strings_not_class_names():
    for tag, event_type in codec.registered().items():
        assert "." in tag
        assert tag != event_type.__name__
        assert codec.tag_of(event_type) == tag
    assert codec.encode_json(Undone(to_seq=1)).startswith(b'{"type":"game.undone"')


def test_a_class_without_an_explicit_namespaced_tag_is_refused():
    class Untagged(Event, frozen=True):
        n: int

    with pytest.raises(TypeError, match="explicit namespaced tag"):
        codec.register(Untagged)


def test_two_types_cannot_share_a_tag():
    class Impostor(Event, frozen=True, tag="game.undone"):
        to_seq: int

    with pytest.raises(TypeError, match="used by both"):
        codec.register(Impostor)


def test_events_are_immutable():
    event = Undone(to_seq=1)
    with pytest.raises(AttributeError):
        event.to_seq = 2  # type: ignore[misc]


def test_malformed_bytes_give_a_typed_error():
    with pytest.raises(MalformedEvent) as caught:
        codec.decode(b"\xc1\xff\x00")
    assert caught.value.code == "malformed-event"
    assert "msgpack" in caught.value.message


def test_an_unknown_tag_gives_a_typed_error_naming_the_tag():
    with pytest.raises(UnknownEventType) as caught:
        codec.decode_json(b'{"type": "chess.castled"}')
    assert caught.value.code == "unknown-event-type"
    assert "chess.castled" in caught.value.message
    with pytest.raises(UnknownEventType):
        codec.decode(msgspec.msgpack.encode({"type": "nope"}))


def test_a_wrong_field_type_names_the_field():
    with pytest.raises(MalformedEvent) as caught:
        codec.decode_json(b'{"type": "game.undone", "to_seq": "three"}')
    assert caught.value.code == "malformed-event"
    assert "to_seq" in caught.value.message
