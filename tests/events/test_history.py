"""The effective history after undo, redo and amendments — every edit itself an appended event."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from events import codec
from events.base import Event
from events.errors import HistoryEditRefused
from events.history import History, build
from events.lifecycle import Amended, GameCreated, Redone, Undone


class Mark(Event, frozen=True, tag="test.mark"):
    n: int


codec.register(Mark)
CREATED = GameCreated(title="lost-cities", players=("Ana", "Bea"))


def marks(history: History, seq: int | None = None) -> list[int]:
    return [e.body.n for e in history.entries(seq) if isinstance(e.body, Mark)]


def test_undo_to_any_point_then_new_moves_continue_from_there():
    h = build([CREATED, Mark(n=1), Mark(n=2), Mark(n=3), Undone(to_seq=2), Mark(n=9)])
    assert marks(h) == [1, 9]
    assert [e.seq for e in h.entries()] == [1, 2, 6]
    assert marks(h, 4) == [1, 2, 3]  # the state at any raw seq is still there


def test_undo_to_zero_keeps_only_the_creation():
    h = build([CREATED, Mark(n=1), Undone(to_seq=0)])
    assert [type(e.body) for e in h.entries()] == [GameCreated]


def test_redo_restores_what_the_last_undo_removed():
    h = build([CREATED, Mark(n=1), Mark(n=2), Undone(to_seq=2), Undone(to_seq=1), Redone()])
    assert marks(h) == [1]
    h.push(Redone())
    assert marks(h) == [1, 2]


def test_redo_is_refused_once_something_new_was_appended():
    h = build([CREATED, Mark(n=1), Undone(to_seq=1), Mark(n=5)])
    with pytest.raises(HistoryEditRefused) as caught:
        h.push(Redone())
    assert caught.value.code == "nothing-to-redo"


def test_undo_out_of_range_is_refused():
    h = build([CREATED, Mark(n=1)])
    with pytest.raises(HistoryEditRefused) as caught:
        h.push(Undone(to_seq=3))
    assert caught.value.code == "undo-out-of-range"


def test_amend_replaces_one_event_and_keeps_the_rest():
    h = build([CREATED, Mark(n=1), Mark(n=2), Mark(n=3), Amended(seq=3, body={"type": "test.mark", "n": 20})])
    assert marks(h) == [1, 20, 3]
    amended = [e for e in h.entries() if e.seq == 3][0]
    assert amended.amended_by == 5
    assert marks(h, 4) == [1, 2, 3]


def test_amending_an_undone_event_is_refused():
    h = build([CREATED, Mark(n=1), Mark(n=2), Undone(to_seq=2)])
    with pytest.raises(HistoryEditRefused) as caught:
        h.push(Amended(seq=3, body={"type": "test.mark", "n": 7}))
    assert caught.value.code == "amend-not-effective"


edits = st.lists(
    st.one_of(
        st.builds(lambda n: ("mark", n), st.integers(0, 99)),
        st.builds(lambda k: ("undo", k), st.integers(0, 40)),
        st.just(("redo", 0)),
    ),
    max_size=40,
)


@settings(max_examples=200, deadline=None)
@given(edits)
def test_undo_then_redo_returns_the_same_history(ops):
    """Property: wherever we are, undoing to any earlier point and redoing restores the history."""
    h = build([CREATED])
    for op, arg in ops:
        try:
            if op == "mark":
                h.push(Mark(n=arg))
            elif op == "undo":
                h.push(Undone(to_seq=arg % (h.last_seq + 1)))
            else:
                h.push(Redone())
        except HistoryEditRefused:
            continue
        before = h.entries()
        h.push(Undone(to_seq=h.last_seq // 2))
        h.push(Redone())
        assert h.entries() == before
