"""Recording through the rules core: moves, the end, history edits and forks, with Lost Cities."""

from __future__ import annotations

import random
import threading

import pytest

from events.errors import ConcurrencyConflict, HistoryEditRefused, IllegalMove
from events.lifecycle import Amended, GameEnded, Undone
from rules.lost_cities import CardDiscarded, CardDrawn, CardPlayed, CardsDealt, DeckShuffled

PLAYERS = ("Ana", "Bea")


def rows(log, gid):
    return log.con.execute("SELECT seq, hash FROM events WHERE game_id = ? ORDER BY seq", [gid]).fetchall()


def random_moves(recorder, gid, count, seed=0):
    rng = random.Random(seed)
    for _ in range(count):
        game = recorder.projector.state(gid)
        if game.ended is not None:
            return
        legal = game.title.legal_moves(game.state)
        recorder.record(gid, legal[rng.randrange(len(legal))])


def test_a_digital_game_records_its_shuffle_and_ends_with_its_result(recorder):
    gid, result = recorder.create("lost-cities", PLAYERS, {"rounds": 1}, seed=42)
    first = recorder.log.read(gid)
    assert result.last_seq == 2 and isinstance(first[1].body, DeckShuffled)
    random_moves(recorder, gid, 10_000, seed=1)
    game = recorder.projector.state(gid)
    last = recorder.log.read(gid)[-1].body
    assert isinstance(last, GameEnded)
    outcome = game.title.outcome(game.state)
    assert (last.scores, last.ranks, last.winners) == (outcome.scores, outcome.ranks, outcome.winners)


def test_the_same_seed_deals_the_same_deck(recorder):
    a, _ = recorder.create("lost-cities", PLAYERS, seed=7)
    b, _ = recorder.create("lost-cities", PLAYERS, seed=7)
    assert recorder.log.read(a)[1].body == recorder.log.read(b)[1].body


def test_an_illegal_move_names_the_rule_and_writes_nothing(recorder, log):
    gid, _ = recorder.create("lost-cities", PLAYERS, seed=1)
    game = recorder.projector.state(gid)
    card = game.state.hands[0][0]
    recorder.record(gid, CardPlayed(card=card))
    before = rows(log, gid)
    with pytest.raises(IllegalMove) as caught:
        recorder.record(gid, CardPlayed(card=game.state.hands[0][1]))  # must draw first
    assert caught.value.code.startswith("lost-cities.")
    assert rows(log, gid) == before


def test_a_stale_expected_seq_is_refused_and_writes_nothing(recorder, log):
    gid, _ = recorder.create("lost-cities", PLAYERS, seed=1)
    game = recorder.projector.state(gid)
    before = rows(log, gid)
    with pytest.raises(ConcurrencyConflict):
        recorder.record(gid, CardDiscarded(card=game.state.hands[0][0]), expected_seq=1)
    assert rows(log, gid) == before


def test_a_retried_idempotency_key_records_the_move_once(recorder, log):
    gid, _ = recorder.create("lost-cities", PLAYERS, seed=1)
    card = recorder.projector.state(gid).state.hands[0][0]
    first = recorder.record(gid, CardDiscarded(card=card), expected_seq=2, idempotency_key="k")
    again = recorder.record(gid, CardDiscarded(card=card), expected_seq=2, idempotency_key="k")
    assert again.replayed and (again.first_seq, again.last_seq) == (first.first_seq, first.last_seq)
    assert recorder.log.last_seq(gid) == 3


def test_undo_then_redo_returns_the_identical_state(recorder):
    gid, _ = recorder.create("lost-cities", PLAYERS, seed=3)
    random_moves(recorder, gid, 30, seed=3)
    before = recorder.projector.state(gid).state
    recorder.undo(gid, 9)
    assert recorder.projector.state(gid).state == recorder.projector.state_at(gid, 9).state
    recorder.redo(gid)
    assert recorder.projector.state(gid).state == before


def test_undo_to_zero_goes_back_before_the_first_move(recorder):
    gid, _ = recorder.create("lost-cities", PLAYERS, {"rounds": 1})  # a table game: no shuffle
    recorder.record(gid, CardsDealt(round=1))
    recorder.undo(gid, 0)
    game = recorder.projector.state(gid)
    assert game.state == game.title.setup(PLAYERS, {"rounds": 1})


def test_undo_in_a_digital_game_to_before_the_shuffle_draws_it_again(recorder):
    gid, _ = recorder.create("lost-cities", PLAYERS, seed=4)
    recorder.undo(gid, 1)
    bodies = [e.body for e in recorder.log.read(gid)]
    assert isinstance(bodies[2], Undone) and isinstance(bodies[3], DeckShuffled)
    assert recorder.projector.state(gid).title.to_move(recorder.projector.state(gid).state) == 0


def test_redo_after_a_new_move_is_refused(recorder, log):
    gid, _ = recorder.create("lost-cities", PLAYERS, seed=3)
    random_moves(recorder, gid, 4, seed=3)
    recorder.undo(gid, 3)
    random_moves(recorder, gid, 1, seed=9)
    before = rows(log, gid)
    with pytest.raises(HistoryEditRefused) as caught:
        recorder.redo(gid)
    assert caught.value.code == "nothing-to-redo"
    assert rows(log, gid) == before


def test_an_amendment_replaces_a_mis_entered_card(recorder):
    gid, _ = recorder.create("lost-cities", PLAYERS, {"rounds": 1})
    recorder.record(gid, CardsDealt(round=1))
    recorder.record(gid, CardDiscarded(card="R5"))  # seq 3: actually it was R6
    recorder.record(gid, CardDrawn(source="deck"))
    recorder.amend(gid, 3, CardDiscarded(card="R6"))
    game = recorder.projector.state(gid)
    assert game.title.view(game.state, None)["discard_piles"] != {}
    assert [e.body for e in recorder.projector.history(gid).entries()][2] == CardDiscarded(card="R6", seat=0)
    assert isinstance(recorder.log.read(gid)[-1].body, Amended)


def test_an_amendment_that_breaks_a_later_move_is_refused_with_the_breaking_seq(recorder, log):
    gid, _ = recorder.create("lost-cities", PLAYERS, {"rounds": 1})
    recorder.record(gid, CardsDealt(round=1))
    recorder.record(gid, CardDiscarded(card="R5"))  # seq 3
    recorder.record(gid, CardDrawn(source="deck"))  # seq 4
    recorder.record(gid, CardDiscarded(card="B4"))  # seq 5, seat 1
    recorder.record(gid, CardDrawn(source="red"))  # seq 6: takes R5 from the red pile
    before = rows(log, gid)
    with pytest.raises(HistoryEditRefused) as caught:
        recorder.amend(gid, 3, CardPlayed(card="R5"))  # then the red pile would be empty at seq 6
    assert caught.value.status == 409
    assert caught.value.details["breaking_seq"] == 6
    assert rows(log, gid) == before


def test_a_fork_starts_as_the_parents_effective_history(recorder):
    gid, _ = recorder.create("lost-cities", PLAYERS, seed=8)
    random_moves(recorder, gid, 12, seed=8)
    child, _ = recorder.fork(gid, 9)
    parent_bodies = [e.body for e in recorder.projector.history(gid).entries(9)]
    child_bodies = [e.body for e in recorder.projector.history(child).entries()]
    assert child_bodies[0] == parent_bodies[0]
    assert child_bodies[2:] == parent_bodies[1:]
    assert recorder.projector.state(child).state == recorder.projector.state_at(gid, 9).state
    assert recorder.projector.state(child).forked.parent_id == gid


def test_concurrent_appends_to_many_games_lose_and_duplicate_nothing(tmp_path):
    """Group commit: 16 writers on 16 games; every acknowledged event is stored exactly once."""
    from events.duckdb_log import DuckDBEventLog
    from events.lifecycle import GameCreated, Redone

    log = DuckDBEventLog(str(tmp_path / "g.duckdb"))
    created = GameCreated(title="lost-cities", players=PLAYERS)
    acknowledged: dict[str, list[int]] = {}

    def writer(n: int) -> None:
        gid = f"game-{n:02d}"
        seqs = [log.append(gid, [created], 0).last_seq]
        for i in range(60):
            seqs.append(log.append(gid, [Undone(to_seq=1), Redone()], seqs[-1], idempotency_key=f"k{i}").last_seq)
        acknowledged[gid] = seqs

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(acknowledged) == 16
    for gid, seqs in acknowledged.items():
        assert seqs == [1, *range(3, 122, 2)]
        assert [e.seq for e in log.read(gid)] == list(range(1, 122))
        assert log.verify(gid).ok
    log.close()


def test_a_fact_that_contradicts_what_is_known_is_refused_and_writes_nothing(recorder, log):
    from events.errors import ContradictsKnownFacts

    gid, _ = recorder.create("lost-cities", PLAYERS, {"rounds": 1})
    recorder.record_notation(gid, "deal")
    recorder.record_notation(gid, "-R5")
    recorder.record_notation(gid, "d")
    before = rows(log, gid)
    with pytest.raises(ContradictsKnownFacts) as caught:
        recorder.record_notation(gid, "R5")  # seat 1 cannot hold R5: it lies on the red discard pile
    assert caught.value.code == "lost-cities.card-not-in-hand"
    assert "red discard pile" in caught.value.message
    assert rows(log, gid) == before


def test_recording_a_simulated_digital_game_reproduces_it_exactly(recorder):
    """Chance is drawn from (seed, seq) outside the rules: the recorder and the simulator agree."""
    from replay.simulate import random_game

    events = random_game("lost-cities", PLAYERS, {"rounds": 2}, seed=21)
    gid, _ = recorder.create("lost-cities", PLAYERS, {"rounds": 2}, seed=21)
    for event in events[1:]:
        if isinstance(event, (DeckShuffled, GameEnded)):
            continue  # the recorder draws and appends these itself
        recorder.record(gid, event)
    assert [e.body for e in recorder.log.read(gid)] == events


def test_undo_to_zero_in_a_fork_keeps_its_parent(recorder):
    gid, _ = recorder.create("lost-cities", PLAYERS, seed=8)
    random_moves(recorder, gid, 6, seed=8)
    child, _ = recorder.fork(gid, 5)
    recorder.undo(child, 0)
    game = recorder.projector.state(child)
    assert game.forked is not None and game.forked.parent_id == gid
    assert recorder.log.con.execute("SELECT parent_id FROM games WHERE game_id = ?", [child]).fetchall() == [(gid,)]


def test_a_key_reused_for_another_move_is_refused(recorder):
    from events.errors import IdempotencyKeyReused

    gid, _ = recorder.create("lost-cities", PLAYERS, {"rounds": 1})
    recorder.record_notation(gid, "deal")
    recorder.record_notation(gid, "R7", idempotency_key="k")
    assert recorder.record_notation(gid, "R7", idempotency_key="k").replayed
    with pytest.raises(IdempotencyKeyReused):
        recorder.record_notation(gid, "R8", idempotency_key="k")
