"""A new title is one folder plus one line: a test-only title (noughts and crosses, in
``tests/extra_titles``) registered from here is recorded, replayed, undone and counted in the
statistics through the real service (uvicorn on 127.0.0.1), with no change to tabletape."""

from __future__ import annotations

import httpx
import live_server
import pytest

import rules
from extra_titles.noughts_and_crosses import NoughtsAndCrosses
from rules.base import Title


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """The real service in a process of its own, where the title is registered (this one's
    registry, which the other tests read, stays as it is)."""
    url, proc = live_server.start(tmp_path_factory.mktemp("nc") / "t.duckdb", module="extra_titles.serve")
    yield url
    live_server.stop(proc)


def _move(client: httpx.Client, game: dict, square: int) -> httpx.Response:
    auth = {"Authorization": f"Bearer {game['tokens']['write_token']}"}
    at = client.get(f"/games/{game['game_id']}").json()["last_seq"]
    return client.post(f"/games/{game['game_id']}/moves", headers=auth, json={"notation": str(square), "expected_seq": at})


def test_a_title_from_outside_is_recorded_replayed_undone_and_counted(base):
    with httpx.Client(base_url=base, timeout=30) as client:
        assert "noughts-and-crosses" in {t["id"] for t in client.get("/titles").json()}
        created = client.post("/games", json={"title": "noughts-and-crosses", "players": ["Ana", "Bea"]})
        assert created.status_code == 201, created.text
        game = created.json()
        gid = game["game_id"]
        for square in (1, 4, 2):
            assert _move(client, game, square).status_code == 201
        taken = _move(client, game, 4)
        assert taken.status_code == 422 and taken.json()["code"] == "noughts-and-crosses.square-taken"

        auth = {"Authorization": f"Bearer {game['tokens']['write_token']}"}
        at = client.get(f"/games/{gid}").json()["last_seq"]
        undone = client.post(f"/games/{gid}/undo", headers=auth, json={"expected_seq": at})
        assert undone.status_code == 201, undone.text
        assert client.get(f"/games/{gid}/state").json()["view"]["squares"] == ["X", "", "", "O", "", "", "", "", ""]

        for square in (2, 5, 3):  # X takes the top row
            assert _move(client, game, square).status_code == 201
        state = client.get(f"/games/{gid}").json()
        assert state["outcome"]["winners"] == [0] and state["status_line"] == "the game is over"

        frames = client.get(f"/games/{gid}/frames").json()["frames"]
        # the effective history: creation, five marks (the one taken back is gone), the end
        assert [f["type"].split(".")[-1] for f in frames] == ["created"] + ["mark-placed"] * 5 + ["ended"]
        assert frames[3]["view"]["squares"] == ["X", "X", "", "O", "", "", "", "", ""]

        board = client.get("/stats/leaderboard").json()["rows"]
        ana = next(r for r in board if r["player"] == "Ana")
        assert ana["games"] == 1 and ana["wins"] == 1


def test_a_title_missing_a_rule_is_refused_when_registered():
    class Half(Title):
        id = "half"
        name = "Half a game"
        event_types = NoughtsAndCrosses.event_types
        state_type = dict

        def setup(self, players, options):
            return {}

    with pytest.raises(TypeError, match="does not implement decide"):
        rules.register_title(Half())
    assert "half" not in rules.titles()


def test_a_title_whose_id_is_taken_is_refused():
    class Other(NoughtsAndCrosses):
        id = "lost-cities"

    with pytest.raises(TypeError, match="is taken by LostCities"):
        rules.register_title(Other())
