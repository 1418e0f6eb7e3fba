"""Helpers for the API tests: games created through the API, played through it or in process."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import httpx

from api.http.services import Services


@dataclass(frozen=True)
class Game:
    id: str
    write: str
    seats: tuple[str, ...]
    players: tuple[str, ...]

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.write}"}

    def seat_auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.seats[seat]}"}


def new_game(
    client: httpx.Client, *, seed: int | None = 7, players: tuple[str, ...] = ("Ana", "Bea"), **options: Any
) -> Game:
    body: dict[str, Any] = {"title": "lost-cities", "players": list(players), "options": options or {"rounds": 1}}
    if seed is not None:
        body["seed"] = seed
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.text
    out = response.json()
    return Game(
        out["game_id"],
        out["tokens"]["write_token"],
        tuple(t["token"] for t in out["tokens"]["seat_tokens"]),
        tuple(players),
    )


def last_seq(client: httpx.Client, game_id: str) -> int:
    return client.get(f"/games/{game_id}").json()["last_seq"]


def play(
    client: httpx.Client, game: Game, moves: int = 1, rng: random.Random | None = None, first: bool = False
) -> list[dict]:
    """Record ``moves`` legal moves through the API, picked at random from its legal moves (or
    always the first: in Lost Cities a draw from the deck, which ends a round soonest)."""
    # a fresh generator per call would pick the same way every turn, and could cycle forever
    rng = rng or random.Random(f"{game.id}:{last_seq(client, game.id)}")
    answers = []
    for _ in range(moves):
        legal = client.get(f"/games/{game.id}/legal-moves", headers=game.auth).json()
        if not legal["moves"]:
            break
        pick = legal["moves"][0 if first else rng.randrange(len(legal["moves"]))]
        response = client.post(
            f"/games/{game.id}/moves",
            headers=game.auth,
            json={"notation": pick["notation"], "expected_seq": legal["at"]},
        )
        assert response.status_code == 201, response.text
        answers.append(response.json())
    return answers


def finish(svc: Services, game_id: str) -> None:
    """Play the game to its end in process, through the real recorder; always the first legal
    move (in Lost Cities a draw from the deck), which ends a round soonest."""
    while True:
        game = svc.projector.state(game_id)
        if game.ended is not None:
            return
        moves = game.title.legal_moves(game.state)
        assert moves, game.title.status(game.state)
        svc.recorder.record(game_id, moves[0])


def log_rows(svc: Services) -> list[tuple]:
    """Every event row of every game, to show that a rejected request wrote nothing."""
    cur = svc.log.store.cursor()
    try:
        return cur.execute("SELECT game_id, seq, hash FROM events ORDER BY game_id, seq").fetchall()
    finally:
        cur.close()


def read_stream(
    client: httpx.Client, game_id: str, until_seq: int, headers: dict | None = None, **params
) -> list[dict]:
    """SSE messages of a game's live stream, read until the one with id ``until_seq``."""
    from sse import sse_messages

    messages: list[dict] = []
    with client.stream("GET", f"/games/{game_id}/stream", params=params, headers=headers or {}) as response:
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"].startswith("text/event-stream")
        for message in sse_messages(response.iter_lines()):
            messages.append(message)
            if message.get("id") == until_seq:
                break
    return messages


def log_size(svc: Services) -> tuple[int, int]:
    """How many events and token rows the database holds: the log is append-only (no code path
    updates or deletes an event), so an unchanged count is an unchanged log."""
    cur = svc.log.store.cursor()
    try:
        return (
            cur.execute("SELECT count(*) FROM events").fetchone()[0],
            cur.execute("SELECT count(*) FROM game_tokens").fetchone()[0],
        )
    finally:
        cur.close()
