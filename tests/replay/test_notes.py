"""Notes on steps (``game.annotated``): written by the table, never a change to the game."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from events import codec
from events.errors import HistoryEditRefused, NoteRefused
from events.history import build
from events.lifecycle import NOTE_MAX_CHARS, Amended, Noted, Undone
from projections.fold import fold, start
from replay.frames import frames, take_back_moves
from replay.simulate import random_game

PLAYERS = ("Ana", "Bea")


def play(recorder, gid, count, seed=0):
    rng = random.Random(seed)
    for _ in range(count):
        game = recorder.projector.state(gid)
        legal = game.title.legal_moves(game.state)
        recorder.record(gid, legal[rng.randrange(len(legal))])


def notes_by_step(recorder, gid, at=None):
    return {f.index: [n["text"] for n in f.notes] for f in frames(recorder.projector, gid, at=at) if f.notes}


def test_a_note_round_trips_through_the_codec():
    note = Noted(seq=4, text="Bea hesitated — «¿seguro?» 考え中")
    assert codec.decode(codec.encode(note)) == note
    assert codec.from_builtins(codec.to_builtins(note)) == note
    assert codec.to_builtins(note)["type"] == "game.annotated"


def test_a_note_shows_beside_its_step_and_changes_nothing(recorder):
    gid, _ = recorder.create("lost-cities", PLAYERS, {"rounds": 1}, seed=3)
    play(recorder, gid, 6)
    before = recorder.projector.state(gid)
    steps = len(frames(recorder.projector, gid))
    recorder.note(gid, 4, "  Ana played it face up by mistake  ")
    after = recorder.projector.state(gid)
    assert after.state == before.state and after.length == before.length
    assert len(frames(recorder.projector, gid)) == steps  # a note is not a step
    assert notes_by_step(recorder, gid) == {4: ["Ana played it face up by mistake"]}


def test_a_note_is_not_a_move_to_take_back(recorder):
    gid, _ = recorder.create("lost-cities", PLAYERS, {"rounds": 1}, seed=3)
    play(recorder, gid, 4)
    entries = recorder.projector.history(gid).entries()
    to_seq = take_back_moves(entries, True, 1)
    recorder.note(gid, len(entries) - 1, "on the last move")
    assert take_back_moves(recorder.projector.history(gid).entries(), True, 1) == to_seq


def test_a_note_follows_its_step_through_undo_and_redo(recorder):
    gid, _ = recorder.create("lost-cities", PLAYERS, {"rounds": 1}, seed=3)
    play(recorder, gid, 4)
    last = len(recorder.projector.history(gid).entries()) - 1
    recorder.note(gid, 2, "early")
    recorder.note(gid, last, "late")
    to_seq = take_back_moves(recorder.projector.history(gid).entries(), True, 1)
    recorder.undo(gid, to_seq)
    # undo returns to how the game stood after to_seq: the notes written since go too
    assert notes_by_step(recorder, gid) == {}
    recorder.redo(gid)
    assert notes_by_step(recorder, gid) == {2: ["early"], last: ["late"]}


def test_undo_to_just_before_a_note_removes_it_and_keeps_the_others(recorder):
    gid, _ = recorder.create("lost-cities", PLAYERS, {"rounds": 1}, seed=3)
    play(recorder, gid, 4)
    recorder.note(gid, 1, "kept")
    result = recorder.note(gid, 3, "removed")
    recorder.undo(gid, result.first_seq - 1)
    assert notes_by_step(recorder, gid) == {1: ["kept"]}
    assert recorder.projector.state(gid).length == recorder.projector.state_at(gid, result.first_seq).length


def test_an_amended_note_replaces_its_text_and_an_amended_step_keeps_its_notes(recorder):
    gid, _ = recorder.create("lost-cities", PLAYERS, {"rounds": 1}, seed=3)
    play(recorder, gid, 2)
    written = recorder.note(gid, 0, "first game of the night")
    recorder.amend(gid, written.first_seq, Noted(seq=1, text="first game of the evening"))
    assert notes_by_step(recorder, gid) == {0: ["first game of the evening"]}
    with pytest.raises(HistoryEditRefused) as caught:
        recorder.amend(gid, written.first_seq, Noted(seq=2, text="elsewhere"))
    assert caught.value.code == "amend-note-shape"
    step = recorder.projector.history(gid).entries()[2]
    recorder.note(gid, 2, "a slip")
    recorder.amend(gid, step.seq, step.body)  # the same move, corrected to itself
    assert notes_by_step(recorder, gid) == {0: ["first game of the evening"], 2: ["a slip"]}


@pytest.mark.parametrize(
    ("text", "code"),
    [("", "note-empty"), ("   \n ", "note-empty"), ("x" * (NOTE_MAX_CHARS + 1), "note-too-long"), ("bell\x07", "note-control-characters")],
)
def test_a_bad_note_is_refused_and_writes_nothing(recorder, text, code):
    gid, result = recorder.create("lost-cities", PLAYERS, {"rounds": 1}, seed=3)
    with pytest.raises(NoteRefused) as caught:
        recorder.note(gid, 0, text)
    assert caught.value.code == code and caught.value.status == 422
    assert recorder.log.last_seq(gid) == result.last_seq


def test_a_note_on_a_step_that_is_not_there_is_refused(recorder):
    gid, result = recorder.create("lost-cities", PLAYERS, {"rounds": 1}, seed=3)
    with pytest.raises(HistoryEditRefused) as caught:
        recorder.note(gid, 9, "nowhere")
    assert caught.value.code == "note-step-out-of-range"
    h = build([*recorder.log.read_bodies(gid), Undone(to_seq=1)])
    with pytest.raises(HistoryEditRefused) as caught:
        h.push(Noted(seq=2, text="on an undone step"))
    assert caught.value.code == "note-step-not-effective"
    assert recorder.log.last_seq(gid) == result.last_seq


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), where=st.lists(st.tuples(st.floats(0, 1), st.text(min_size=1, max_size=20)), max_size=8))
def test_a_random_game_with_random_notes_folds_to_the_same_state(seed, where):
    events = random_game("lost-cities", PLAYERS, {"rounds": 1}, seed=seed)
    rng = random.Random(seed)
    noted = list(events)
    for fraction, text in where:
        at = 1 + int(fraction * (len(noted) - 1))
        noted.insert(at, Noted(seq=rng.randint(1, at), text=text))
    # the step a note names is the raw seq of a step before it: renumber as the log would
    plain = build(events)
    with_notes = build(_renumbered(noted))
    assert [e.body for e in with_notes.entries()] == [e.body for e in plain.entries()]
    bodies = [e.body for e in with_notes.entries()]
    assert fold(start(bodies[0]), bodies[1:]).state == fold(start(events[0]), events[1:]).state


def _renumbered(bodies):
    """Each note pointed at a step by its position among the steps so far, as raw seqs."""
    out, step_seqs = [], []
    for body in bodies:
        if isinstance(body, Noted):
            out.append(Noted(seq=step_seqs[min(body.seq, len(step_seqs)) - 1], text=body.text))
        else:
            out.append(body)
            step_seqs.append(len(out))
    return out


def test_a_fork_keeps_the_notes_on_the_steps_it_copies(recorder):
    gid, _ = recorder.create("lost-cities", PLAYERS, {"rounds": 1}, seed=3)
    play(recorder, gid, 4)
    recorder.note(gid, 0, "setup")
    at = recorder.note(gid, 3, "kept").first_seq
    recorder.note(gid, 4, "after the fork point")
    child, result = recorder.fork(gid, at)
    # the fork's record of its parent is its step 1: the parent's step 3 is the fork's step 4
    assert notes_by_step(recorder, child) == {0: ["setup"], 4: ["kept"]}
    assert recorder.first_append(child)[0].last_seq == result.last_seq  # a retried fork's answer


def test_a_move_cannot_be_amended_into_a_note(recorder):
    gid, _ = recorder.create("lost-cities", PLAYERS, {"rounds": 1}, seed=3)
    play(recorder, gid, 2)
    step = recorder.projector.history(gid).entries()[2]
    last = recorder.log.last_seq(gid)
    with pytest.raises(HistoryEditRefused) as caught:
        recorder.amend(gid, step.seq, Noted(seq=step.seq, text="not a move"))
    assert caught.value.code == "amend-not-a-move"
    with pytest.raises(HistoryEditRefused) as caught:  # nor by a log that says so (an import)
        build([*recorder.log.read_bodies(gid), Amended(seq=step.seq, body=codec.to_builtins(Noted(seq=1, text="x")))])
    assert caught.value.code == "amend-note-shape"
    assert recorder.log.last_seq(gid) == last
