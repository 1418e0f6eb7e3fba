"""The page of a game imported from BG Stats by its result alone says it has no moves and shows
its final score, on a phone and on a laptop."""

from __future__ import annotations

import pytest
from pagehelp import shot

import live_server
from api.formats import bgstats
from api.cli.main import layers

PLAY = {
    "players": [{"id": 1, "name": "Ana"}, {"id": 2, "name": "Bea"}],
    "games": [{"id": 1, "name": "Lost Cities", "bggId": 50}],
    "plays": [{"uuid": "C0FFEE00-0000-4000-8000-000000000001", "gameRefId": 1, "playDate": "2024-05-04 20:00:00",
               "durationMin": 30, "playerScores": [
                   {"playerRefId": 1, "score": "38", "winner": True, "startPlayer": True, "seatOrder": 1},
                   {"playerRefId": 2, "score": "21", "seatOrder": 2}]}],
}


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("score-only") / "score-only.duckdb")
    with layers(db) as lay:
        (game_id,) = bgstats.import_document(lay.log, lay.projector, PLAY).imported
    base, proc = live_server.start(db)
    yield base, game_id
    live_server.stop(proc)


@pytest.mark.parametrize("viewer", ["phone", "page"])
def test_the_page_of_a_score_only_game_says_it_has_no_moves(imported, viewer, request):
    base, game_id = imported
    page = request.getfixturevalue(viewer)
    page.goto(f"{base}/?game={game_id}")
    note = page.locator("#no-moves")
    note.wait_for()
    assert "no moves to replay" in note.inner_text()
    assert page.locator("#score-only").inner_text() == "score only"
    assert not page.locator("#drawing").is_visible()
    ranking = page.locator("#score .ranking li")
    assert [ranking.nth(i).get_attribute("data-score") for i in range(ranking.count())] == ["38", "21"]
    assert "no moves to replay" in page.locator("#status-line").inner_text()
    shot(page, f"score-only-{viewer}")


def test_the_games_list_marks_a_score_only_game(imported, page):
    base, game_id = imported
    page.goto(f"{base}/")
    card = page.locator(f'li[data-game="{game_id}"]')
    card.wait_for()
    assert "score only" in card.inner_text()
