"""Secrets: a seat sees its own hand and nothing else hidden; the public sees no hand; the full
view, the raw log and the seed stay closed until the end."""

from __future__ import annotations

import re

import pytest
from apiplay import finish, last_seq, new_game, play, read_stream


@pytest.fixture
def app_settings(any_store_settings):
    return any_store_settings  # these tests run on DuckDB and on PostgreSQL


CARD = re.compile(r"(?<![A-Za-z0-9_=-])[YBWGRP](?:10|[2-9]|x)(?![A-Za-z0-9_])")


def cards_in(text: str) -> set[str]:
    return set(CARD.findall(text))


def seat_reads(client, game, seat: int, until: int) -> list[str]:
    """Every answer a seat's token gets for its own seat's view."""
    headers = game.seat_auth(seat)
    params = {"seat": seat}
    texts = [
        client.get(f"/games/{game.id}/state", params=params, headers=headers).text,
        client.get(f"/games/{game.id}/frames", params=params, headers=headers).text,
        client.get(f"/games/{game.id}/frames", params=params | {"mode": "diff"}, headers=headers).text,
        client.get(f"/games/{game.id}", headers=headers).text,
    ]
    texts += [str(m) for m in read_stream(client, game.id, until, headers=headers, since=0, seat=seat)]
    return texts


def public_reads(client, game, until: int) -> list[str]:
    texts = [
        client.get(f"/games/{game.id}/state").text,
        client.get(f"/games/{game.id}/frames").text,
        client.get(f"/games/{game.id}/frames", params={"mode": "diff"}).text,
        client.get(f"/games/{game.id}").text,
        client.get("/games").text,
    ]
    texts += [str(m) for m in read_stream(client, game.id, until, since=0)]
    return texts


def test_right_after_the_shuffle_a_seat_sees_only_its_hand_and_the_public_no_card(client, svc):
    game = new_game(client, seed=5)
    full = svc.projector.state(game.id)
    hands = [set(h["cards"]) for h in full.title.full_view(full.state)["hands"]]
    for seat in (0, 1):
        seen = set().union(*(cards_in(t) for t in seat_reads(client, game, seat, 2)))
        assert seen == hands[seat]
    assert set().union(*(cards_in(t) for t in public_reads(client, game, 2))) == set()


def _hidden_from(svc, game_id: str, seat: int | None) -> set[str]:
    """Cards in hands (other than ``seat``'s) or in the draw pile that ``seat`` (None: the public)
    never held and never saw laid out."""
    title = svc.projector.state(game_id).title
    known: set[str] = set()
    for at in range(1, svc.log.last_seq(game_id) + 1):
        view = title.view(svc.projector.state_at(game_id, at).state, seat)
        known |= cards_in(str(view["expeditions"])) | cards_in(str(view["discard_piles"]))
        if seat is not None:
            known |= set(view["hand"]["cards"])
    full = title.full_view(svc.projector.state(game_id).state)
    secret = set(full["draw_pile_order"]) | {c for h in full["hands"] if h["seat"] != seat for c in h["cards"]}
    return {c for c in secret - known if not c.endswith("x")}  # wagers come in threes


def test_in_mid_game_a_seat_token_never_yields_the_other_hand_nor_the_deck(client, svc):
    game = new_game(client, seed=9)
    play(client, game, 12)
    until = last_seq(client, game.id)
    for seat in (0, 1):
        hidden = _hidden_from(svc, game.id, seat)
        assert len(hidden) > 20
        for text in seat_reads(client, game, seat, until):
            assert not cards_in(text) & hidden


def test_in_mid_game_the_public_never_yields_a_hand(client, svc):
    game = new_game(client, seed=9)
    play(client, game, 12)
    until = last_seq(client, game.id)
    hidden = _hidden_from(svc, game.id, None)
    assert len(hidden) > 30
    public = set()
    for text in public_reads(client, game, until):
        public |= cards_in(text)
    assert not public & hidden
    frames = client.get(f"/games/{game.id}/frames").json()["frames"]
    # public moves are named (a card played, a discard pile's top taken); a draw from the draw
    # pile never names its card, and the sentences name no hidden card either
    draws = [f for f in frames if f["type"] == "lost-cities.card-drawn"]
    assert draws and all(f["move"] == "d" or f["move"][1] in "YBWGRP" for f in draws)
    assert all(f["move"] for f in frames if f["type"] == "lost-cities.card-played")
    assert not cards_in(" ".join(f["text"] for f in frames)) & hidden
    assert all("hand" not in f["view"] and "hands" not in f["view"] for f in frames)


def test_one_seat_token_does_not_open_the_other_seat_nor_the_write_token_a_seat(client):
    game = new_game(client)
    for seat, token in ((1, game.seats[0]), (0, game.seats[1]), (0, game.write), (1, game.write)):
        headers = {"Authorization": f"Bearer {token}"}
        for path in ("state", "frames"):
            response = client.get(f"/games/{game.id}/{path}", params={"seat": seat}, headers=headers)
            assert response.status_code == 403 and response.json()["code"] == "token-wrong"
        with client.stream("GET", f"/games/{game.id}/stream", params={"seat": seat}, headers=headers) as response:
            assert response.status_code == 403


def test_a_seat_token_of_another_game_opens_nothing(client):
    game, other = new_game(client), new_game(client)
    response = client.get(f"/games/{game.id}/state", params={"seat": 0}, headers=other.seat_auth(0))
    assert response.status_code == 403


def test_the_full_view_the_log_and_the_seed_are_closed_until_the_end_then_open(client, svc):
    game = new_game(client, seed=21)
    for headers in ({}, game.auth, game.seat_auth(0), game.seat_auth(1)):
        for path in ("state", "frames"):
            response = client.get(f"/games/{game.id}/{path}", params={"full": True}, headers=headers)
            assert response.status_code == 403 and response.json()["code"] == "full-view-before-end"
        with client.stream("GET", f"/games/{game.id}/stream", params={"full": True}, headers=headers) as response:
            assert response.status_code == 403
        assert client.get(f"/games/{game.id}/events", headers=headers).status_code == 403
    assert client.get(f"/games/{game.id}").json()["seed"] is None
    finish(svc, game.id)
    full = client.get(f"/games/{game.id}/state", params={"full": True})
    assert full.status_code == 200 and full.json()["perspective"] == "full" and "hands" in full.json()["view"]
    assert client.get(f"/games/{game.id}/state", params={"seat": 1}).status_code == 200  # no secrets left
    assert client.get(f"/games/{game.id}").json()["seed"] == 21
    frames = client.get(f"/games/{game.id}/frames").json()["frames"]
    assert all(f["move"] for f in frames if f["type"].startswith("lost-cities."))


def test_a_seat_sees_the_notation_of_its_own_moves_only(client, svc):
    game = new_game(client)
    play(client, game, 6)
    frames = client.get(f"/games/{game.id}/frames", params={"seat": 0}, headers=game.seat_auth(0)).json()["frames"]
    draws = [f for f in frames if f["type"] == "lost-cities.card-drawn" and f["move"].startswith("d=")]
    assert draws and all(f["seat"] == 0 for f in draws)  # the drawn card: only in its own seat's moves
    assert all(f["move"] for f in frames if f["type"].startswith("lost-cities."))
