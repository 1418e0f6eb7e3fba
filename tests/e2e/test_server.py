"""End to end on a real uvicorn (``python -m api serve``) on 127.0.0.1: a complete digital Lost
Cities match recorded through the API (picking from its legal moves) with an undo, a redo, an
amendment and a fork; scrubbed through frames; watched on the live stream; then the server stops
and the stream ends cleanly."""

from __future__ import annotations

import random
import signal
import threading
import time

import httpx
import pytest

import live_server
from sse import sse_messages


@pytest.fixture
def server(tmp_path):
    base, proc = live_server.start(tmp_path / "t.duckdb")
    yield base, proc
    live_server.stop(proc)


class Spectator(threading.Thread):
    """Reads a game's live stream from the start until the server closes it."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.messages: list[dict] = []
        self.opened = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            with httpx.stream("GET", self.url, params={"since": 0}, timeout=httpx.Timeout(5, read=60)) as response:
                assert response.status_code == 200
                self.opened.set()
                for message in sse_messages(response.iter_lines()):
                    self.messages.append(message)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            self.error = exc


def pick(moves: list[dict], rng: random.Random) -> dict:
    """A random legal move; draws come from the deck, so that each round ends."""
    deck = [m for m in moves if m["move"]["type"] == "lost-cities.card-drawn" and m["move"]["source"] == "deck"]
    return deck[0] if deck else moves[rng.randrange(len(moves))]


def test_a_complete_match_over_a_real_server(server):
    base, proc = server
    api = httpx.Client(base_url=base, timeout=10)
    rng = random.Random(42)
    created = api.post("/games", json={"title": "lost-cities", "players": ["Ana", "Bea"], "seed": 2024})
    assert created.status_code == 201
    game_id = created.json()["game_id"]
    auth = {"Authorization": f"Bearer {created.json()['tokens']['write_token']}"}
    spectator = Spectator(f"{base}/games/{game_id}/stream")
    spectator.start()
    assert spectator.opened.wait(10)

    def post(path: str, body: dict) -> dict:
        response = api.post(f"/games/{game_id}/{path}", headers=auth, json=body)
        assert response.status_code == 201, response.text
        return response.json()

    moves = edits = 0
    amended = False
    while True:
        legal = api.get(f"/games/{game_id}/legal-moves", headers=auth).json()
        if not legal["moves"]:
            break
        chosen = pick(legal["moves"], rng)
        answer = post(
            "moves", {"notation": chosen["notation"], "expected_seq": legal["at"], "idempotency_key": f"m{moves}"}
        )
        moves += 1
        if moves == 20:  # take it back, then put it back
            before = api.get(f"/games/{game_id}/state").json()["view"]
            post("undo", {"expected_seq": answer["last_seq"]})
            post("redo", {"expected_seq": answer["last_seq"] + 1})
            assert api.get(f"/games/{game_id}/state").json()["view"] == before
            edits += 2
        if not amended and chosen["move"]["type"] == "lost-cities.card-played" and moves > 30:
            # the card was mis-entered: it was discarded, not played
            card = chosen["move"]["card"]
            post("amend", {"seq": answer["last_seq"], "notation": f"-{card}", "expected_seq": answer["last_seq"]})
            view = api.get(f"/games/{game_id}/state").json()["view"]
            assert view["discard_piles"][next(k for k in view["discard_piles"] if k[0].upper() == card[0])][-1] == card
            amended, edits = True, edits + 1
    assert amended
    game = api.get(f"/games/{game_id}").json()
    assert game["status"] == "ended" and game["outcome"]["winners"] and game["seed"] == 2024
    last = game["last_seq"]

    # the log is public now, chained, and holds every move and edit
    events = api.get(f"/games/{game_id}/events").json()["events"]
    assert [e["seq"] for e in events] == list(range(1, last + 1))
    types = [e["type"] for e in events]
    assert {"game.undone", "game.redone", "game.amended", "game.ended"} <= set(types)
    assert types.count("lost-cities.deck-shuffled") == 3

    # scrub: windows of diff frames rebuild every view the whole-history frames show
    whole = api.get(f"/games/{game_id}/frames").json()["frames"]
    view, rebuilt = None, []
    first = 0
    while first <= last:
        window = api.get(
            f"/games/{game_id}/frames", params={"from_seq": first, "to_seq": first + 49, "mode": "diff"}
        ).json()["frames"]
        for frame in window:
            if frame["view"] is not None:
                view = frame["view"]
            else:
                view = {**view, **{op["path"][1:]: op["value"] for op in frame["diff"]}}
            rebuilt.append(view)
        first += 50
    assert rebuilt == [f["view"] for f in whole]
    assert whole[-1]["ended"] and all(f["move"] for f in whole if f["type"].startswith("lost-cities."))
    middle = api.get(f"/games/{game_id}/state", params={"at": 100, "full": True}).json()
    assert middle["at"] == 100 and "hands" in middle["view"]

    # fork the finished match at seq 100 and play on in the fork
    fork = api.post(f"/games/{game_id}/fork", json={"at_seq": 100})
    assert fork.status_code == 201
    child = fork.json()["game_id"]
    child_auth = {"Authorization": f"Bearer {fork.json()['tokens']['write_token']}"}
    assert (
        api.get(f"/games/{child}/state").json()["view"]
        == api.get(f"/games/{game_id}/state", params={"at": 100}).json()["view"]
    )
    legal = api.get(f"/games/{child}/legal-moves", headers=child_auth).json()
    step = api.post(
        f"/games/{child}/moves",
        headers=child_auth,
        json={"notation": legal["moves"][0]["notation"], "expected_seq": legal["at"]},
    )
    assert step.status_code == 201
    assert api.get("/games", params={"status": "in-progress"}).json()["games"][0]["parent_id"] == game_id

    # the stream saw every event, in order; a reconnect resumes after Last-Event-ID
    deadline = time.monotonic() + 10
    while len(spectator.messages) < last and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [m["id"] for m in spectator.messages] == list(range(1, last + 1))
    assert [m["data"]["type"] for m in spectator.messages] == types
    with httpx.stream(
        "GET", f"{base}/games/{game_id}/stream", headers={"Last-Event-ID": str(last - 3)}, timeout=10
    ) as response:
        resumed = [int(line[4:]) for line in _lines_until(response, f"id: {last}") if line.startswith("id: ")]
    assert resumed == [last - 2, last - 1, last]

    # stopping the server ends the open stream cleanly, and the server exits
    stopping = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    # uvicorn re-raises the signal once it has shut down gracefully
    assert proc.wait(timeout=15) in (0, -signal.SIGTERM)
    assert time.monotonic() - stopping < 4  # not the 5 s grace period: the stream let go at once
    assert "Application shutdown complete" in proc.stdout.read().decode()
    spectator.join(timeout=10)
    assert not spectator.is_alive() and spectator.error is None
    assert moves > 100 and edits == 3


def _lines_until(response: httpx.Response, stop: str):
    for line in response.iter_lines():
        yield line
        if line == stop:
            return
