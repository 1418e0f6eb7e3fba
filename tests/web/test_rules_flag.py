"""The game page flags an ended game whose recorded result today's rules compute differently, and
says where a game's stored log was altered."""

from __future__ import annotations

import duckdb
import pytest
from pagehelp import shot

import live_server
import tampering
from api.cli.main import layers
from events.lifecycle import GameEnded
from events.log import new_game_id


def ended_games(db: str) -> tuple[str, str, str, int]:
    """An ended game, a copy whose end was recorded with other scores, and a game to alter."""
    with layers(db) as lay:
        game_id, _ = lay.recorder.create("lost-cities", ["Ana", "Bea"], {"rounds": 1}, seed=9)
        while (state := lay.projector.state(game_id)).ended is None:
            lay.recorder.record(game_id, state.title.legal_moves(state.state)[0])
        bodies = [e.body for e in lay.log.read(game_id)]
        end = next(i for i, body in enumerate(bodies) if isinstance(body, GameEnded))
        recorded = bodies[end]
        other_day = GameEnded(scores=tuple(s + 5 for s in recorded.scores), ranks=recorded.ranks, winners=recorded.winners)
        copy = new_game_id()
        lay.log.append(copy, [*bodies[:end], other_day, *bodies[end + 1 :]], expected_seq=0)
        altered, _ = lay.recorder.create("lost-cities", ["Cy", "Di"], {"rounds": 1}, seed=3)
        for _ in range(3):
            state = lay.projector.state(altered)
            lay.recorder.record(altered, state.title.legal_moves(state.state)[0])
        last = lay.log.last_seq(altered)
    con = duckdb.connect(db)
    tampering.delete_last(con, altered)
    con.close()
    return game_id, copy, altered, last


@pytest.fixture
def prepared(tmp_path):
    db = str(tmp_path / "flag.duckdb")
    games = ended_games(db)
    base, proc = live_server.start(db)
    yield base, games
    live_server.stop(proc)


def test_the_page_flags_a_result_todays_rules_compute_differently(page, prepared):
    base, (agrees, differs, altered, last) = prepared
    page.goto(f"{base}/?game={differs}")
    flag = page.locator("#rules-flag")
    flag.wait_for()
    assert "today's rules compute scores" in flag.get_attribute("title")
    assert page.locator("#score").is_visible()
    assert "Today's rules compute another result" in page.locator("#rules-differ").inner_text()
    shot(page, "rules-flag-01-result-differs")
    page.goto(f"{base}/?game={agrees}")
    page.locator("#score").wait_for()
    assert page.locator("#rules-flag").count() == 0 and page.locator("#rules-differ").count() == 0
    page.goto(f"{base}/?game={altered}")
    error = page.locator(".error")
    error.wait_for()
    assert f"seq {last}" in error.inner_text()
    shot(page, "rules-flag-02-chain-broken")
