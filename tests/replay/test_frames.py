"""Replay frames: each step of the effective history with who moved, the move and the table;
windows fold incrementally from the projector's seek; diffs rebuild the views."""

from __future__ import annotations

import time

import pytest

from events.errors import HistoryEditRefused
from events.lifecycle import GameCreated
from projections.fold import fold_all
from replay.frames import PUBLIC, Perspective, apply_diff, diff_views, frames, raw_frames, state_before, take_back_seq
from replay.simulate import random_game
from rules.lost_cities import CardDiscarded, CardPlayed


def first_moves(recorder, game_id: str, n: int) -> None:
    for _ in range(n):
        game = recorder.projector.state(game_id)
        recorder.record(game_id, game.title.legal_moves(game.state)[0])


@pytest.fixture
def edited(recorder):
    """A digital game with an undo, a redo, an amendment and more moves after them."""
    game_id, _ = recorder.create("lost-cities", ["Ana", "Bea"], {"rounds": 1}, seed=8)
    first_moves(recorder, game_id, 6)
    recorder.undo(game_id, 4)
    recorder.redo(game_id)
    first_moves(recorder, game_id, 3)  # a play at seq 11, then its draw at 12, then a play
    played = recorder.projector.history(game_id).entries()[-3].body
    assert isinstance(played, CardPlayed)
    recorder.amend(game_id, 11, CardDiscarded(card=played.card, seat=played.seat))
    first_moves(recorder, game_id, 2)
    return game_id


def from_scratch(projector, game_id: str, index: int, at: int | None = None):
    """The state after the first ``index + 1`` effective steps, folded from the creation."""
    entries = projector.history(game_id).entries(at)
    return fold_all(e.body for e in entries[: index + 1])


def test_frames_follow_the_effective_history_and_match_a_fold_from_scratch(projector, edited):
    steps = frames(projector, edited)
    entries = projector.history(edited).entries()
    assert [f.seq for f in steps] == [e.seq for e in entries]
    assert [f.index for f in steps] == list(range(len(entries)))
    assert steps[0].type == "game.created" and steps[0].move is None
    for frame in steps:
        game = from_scratch(projector, edited, frame.index)
        assert frame.view == game.title.view(game.state, None)
        assert frame.status == game.title.status(game.state)
        assert frame.to_move == game.title.to_move(game.state)
    amended = next(f for f in steps if f.seq == 11)
    assert amended.amended_by is not None and amended.type == "lost-cities.card-discarded"


def test_who_moved_and_the_notation_as_each_viewer_may_see_it(projector, edited):
    public = frames(projector, edited)
    seat0 = frames(projector, edited, perspective=Perspective(seat=0))
    full = frames(projector, edited, perspective=Perspective(full=True, all_moves=True))
    for p, s, f in zip(public, seat0, full):
        assert (p.seat, p.player) == (s.seat, s.player) == (f.seat, f.player)
        if p.seat is not None:
            assert p.player == ["Ana", "Bea"][p.seat]
        # the public reads each move as the table saw it: never a drawn card nor a shuffle's order
        assert (p.move is not None) == f.type.startswith("lost-cities.")
        assert p.move is None or ("=" not in p.move and "," not in p.move)
        assert s.move == (f.move if s.seat == 0 else p.move)
        assert f.move is not None or not f.type.startswith("lost-cities.")
        assert p.text and (p.player is None or p.text.startswith(p.player))
    assert full[1].move.startswith("shuffle ")
    assert "hand" in seat0[-1].view and "hand" not in public[-1].view and "hands" in full[-1].view


def test_a_window_is_the_same_as_a_slice_of_the_whole(projector, edited):
    whole = frames(projector, edited)
    for lo, hi in ((1, 1), (3, 9), (10, 13), (12, 99), (0, 2)):
        window = frames(projector, edited, from_seq=lo, to_seq=hi)
        assert window == [f for f in whole if lo <= f.seq <= hi]
    assert frames(projector, edited, from_seq=9, to_seq=3) == []


def test_frames_at_an_earlier_seq_show_the_history_as_it_was_then(projector, edited):
    at = 8  # before the undo at seq 9
    then = frames(projector, edited, at=at)
    assert [f.seq for f in then] == [e.seq for e in projector.history(edited).entries(at)]
    game = projector.state_at(edited, at)
    assert then[-1].view == game.title.view(game.state, None)


def test_diff_frames_rebuild_every_view(projector, edited):
    plain = frames(projector, edited, from_seq=3)
    diffs = frames(projector, edited, from_seq=3, diff=True)
    assert diffs[0].view == plain[0].view and diffs[0].diff is None
    view = diffs[0].view
    for p, d in zip(plain[1:], diffs[1:]):
        assert d.view is None and d.diff is not None
        view = apply_diff(view, d.diff)
        assert view == p.view


def test_a_diff_names_only_changed_top_level_keys():
    ops = diff_views({"a": 1, "b": [1], "c/d": 0, "gone": 1}, {"a": 1, "b": [1, 2], "c/d": 1, "new": None})
    assert ops == [
        {"op": "replace", "path": "/b", "value": [1, 2]},
        {"op": "replace", "path": "/c~1d", "value": 1},
        {"op": "add", "path": "/new", "value": None},
        {"op": "remove", "path": "/gone"},
    ]
    assert apply_diff({"a": 1, "b": [1], "c/d": 0, "gone": 1}, ops) == {"a": 1, "b": [1, 2], "c/d": 1, "new": None}


def test_raw_frames_show_the_table_after_every_raw_event_edits_included(projector, edited):
    last = projector.history(edited).last_seq
    raw = raw_frames(projector, edited, 1, last)
    assert [f.seq for f in raw] == list(range(1, last + 1))
    for frame in raw:
        game = projector.state_at(edited, frame.seq)
        assert frame.view == game.title.view(game.state, None)
    edits = {f.seq: (f.type, f.edit) for f in raw if f.edit is not None}
    assert edits[9] == ("game.undone", {"to_seq": 4}) and edits[10] == ("game.redone", {})
    assert edits[14][0] == "game.amended" and edits[14][1] == {"seq": 11}
    assert all(f.body is None for f in raw)
    assert raw_frames(projector, edited, 5, 7) == raw[4:7]
    assert raw_frames(projector, edited, last + 1, last + 5) == []


def test_take_back_skips_what_the_recorder_added_after_the_move(recorder, projector):
    game_id, _ = recorder.create("lost-cities", ["Ana", "Bea"], {"rounds": 1}, seed=1)
    entries = projector.history(game_id).entries()
    assert take_back_seq(entries, digital=True) is None  # only the creation and the shuffle
    first_moves(recorder, game_id, 2)
    assert take_back_seq(projector.history(game_id).entries(), digital=True) == 3
    physical, _ = recorder.create("lost-cities", ["Ana", "Bea"], {"rounds": 1})
    assert take_back_seq(projector.history(physical).entries(), digital=False) is None
    recorder.record_notation(physical, "deal")
    assert take_back_seq(projector.history(physical).entries(), digital=False) == 1


def test_state_before_a_step(projector, edited):
    game = state_before(projector, edited, 11)
    expected = from_scratch(projector, edited, [e.seq for e in projector.history(edited).entries()].index(11) - 1)
    assert game.state == expected.state
    with pytest.raises(HistoryEditRefused) as refused:
        state_before(projector, edited, 1)
    assert refused.value.code == "amend-creation"
    with pytest.raises(HistoryEditRefused) as refused:
        state_before(projector, edited, 9)  # the undo itself is no step
    assert refused.value.code == "amend-not-effective"


def test_a_window_at_the_end_of_a_long_game_does_not_refold_the_game(log, projector):
    events = random_game("lost-cities", ["Ana", "Bea"], {"rounds": 12}, seed=4, policy=lambda moves, rng: moves[0])
    assert isinstance(events[0], GameCreated) and len(events) > 1000
    log.import_games([("long", events)])
    projector.state("long")
    last = len(events)

    def fastest(**window) -> float:
        times = []
        for _ in range(3):
            started = time.perf_counter()
            frames(projector, "long", **window)
            times.append(time.perf_counter() - started)
        return min(times)

    whole = frames(projector, "long")
    window = frames(projector, "long", from_seq=last - 9, to_seq=last)
    whole_s, window_s = fastest(), fastest(from_seq=last - 9, to_seq=last)
    assert window_s < whole_s / 5, (window_s, whole_s)
    assert window == whole[-10:]
    assert frames(projector, "long", from_seq=last - 9, perspective=PUBLIC, diff=True)[0].view == whole[-10].view
