"""Refusals in the reader's language: the same wrong move answered in English, Spanish and
Japanese (``Accept-Language``), with the same code, its parameters and the rulebook's words."""

from __future__ import annotations

import httpx
from apiplay import new_game

from api import i18n

LANGUAGES = {"en": "en-GB,en;q=0.9", "es": "fr;q=0.9, es-ES;q=0.8, en;q=0.1", "ja": "ja-JP"}
#: the colours of Lost Cities' expeditions as each language names them (the Spanish seed's feminine: "la expedición roja")
COLOURS = {
    "en": dict(zip("YBWGRP", ("yellow", "blue", "white", "green", "red", "purple"))),
    "es": dict(zip("YBWGRP", ("amarilla", "azul", "blanca", "verde", "roja", "morada"))),
    "ja": dict(zip("YBWGRP", ("黄", "青", "白", "緑", "赤", "紫"))),
}
ASCEND = "Las cartas siempre deben agregarse al final de la expedición y con números más altos que la carta previa."


def descending_play(client: httpx.Client) -> tuple[object, dict, str, str]:
    """A Lost Cities game where seat 0 started an expedition with its higher card of a colour and
    now tries the lower one: the game, the move's body, the lower card and the higher."""
    game = new_game(client)
    legal = client.get(f"/games/{game.id}/legal-moves", headers=game.auth).json()
    plays = [m["notation"] for m in legal["moves"] if not m["notation"].startswith(("-", "d"))]
    value = lambda card: 11 if card[1:] == "x" else int(card[1:])  # noqa: E731
    by_colour: dict[str, list[str]] = {}
    for card in plays:
        by_colour.setdefault(card[0], []).append(card)
    colour = next(c for c, cards in by_colour.items() if len({value(x) for x in cards if x[1:] != "x"}) >= 2)
    numbers = sorted((x for x in by_colour[colour] if x[1:] != "x"), key=value)
    low, high = numbers[0], numbers[-1]
    for notation in (high, "d"):
        at = client.get(f"/games/{game.id}", headers=game.auth).json()["last_seq"]
        ok = client.post(f"/games/{game.id}/moves", headers=game.auth, json={"notation": notation, "expected_seq": at})
        assert ok.status_code == 201, ok.text
    for _ in range(2):  # seat 1 discards and draws
        legal = client.get(f"/games/{game.id}/legal-moves", headers=game.auth).json()
        pick = next(m["notation"] for m in legal["moves"] if m["notation"].startswith(("-", "d")))
        client.post(f"/games/{game.id}/moves", headers=game.auth, json={"notation": pick, "expected_seq": legal["at"]})
    at = client.get(f"/games/{game.id}", headers=game.auth).json()["last_seq"]
    return game, {"notation": low, "expected_seq": at}, low, high


def answers(client: httpx.Client, game, body: dict) -> dict[str, httpx.Response]:
    return {
        lang: client.post(f"/games/{game.id}/moves", headers={**game.auth, "Accept-Language": header}, json=body)
        for lang, header in LANGUAGES.items()
    }


def check_three(answered: dict[str, httpx.Response], low: str, high: str) -> None:
    bodies = {lang: r.json() for lang, r in answered.items()}
    assert {r.status_code for r in answered.values()} == {422}
    assert {b["code"] for b in bodies.values()} == {"lost-cities.expedition-must-ascend"}
    assert {r.headers["content-language"] for r in answered.values()} == set(LANGUAGES)
    colour = {lang: COLOURS[lang][low[0]] for lang in LANGUAGES}
    assert bodies["en"]["message"] == f'{low} cannot go on Ana\'s {colour["en"]} expedition, which ends with {high}: "{ASCEND}"'
    assert bodies["es"]["message"] == f'{low} no puede ir en la expedición {colour["es"]} de Ana, que termina en {high}: "{ASCEND}"'
    assert bodies["ja"]["message"] == f'{low} は Ana の{colour["ja"]}の探検に置けません。最後は {high} です: "{ASCEND}"'
    assert len({b["message"] for b in bodies.values()}) == 3
    for b in bodies.values():
        assert b["params"] == {"card": low, "owners": "Ana", "colour": colour["en"], "cards_last": high, "rule": f'"{ASCEND}"'}
        assert b["rulebook"] == {"lang": "es", "text": ASCEND}
        assert ASCEND in b["message"]  # the rulebook's words stay in its language, in every message


def test_the_same_refusal_in_three_languages_has_one_code_and_three_messages(client):
    game, body, low, high = descending_play(client)
    before = client.get(f"/games/{game.id}", headers=game.auth).json()["last_seq"]
    check_three(answers(client, game, body), low, high)
    assert client.get(f"/games/{game.id}", headers=game.auth).json()["last_seq"] == before


def test_a_real_server_answers_in_the_language_asked(live_base):
    with httpx.Client(base_url=live_base, timeout=10) as http:
        game, body, low, high = descending_play(http)
        check_three(answers(http, game, body), low, high)
        unknown = http.get("/games/nope", headers={"Accept-Language": "ja"})
        assert unknown.json()["code"] == "unknown-game" and unknown.status_code == 404
        assert http.get("/no/such/route", headers={"Accept-Language": "es"}).json()["message"] == "no hay ruta GET /no/such/route"


def test_a_language_we_lack_or_no_header_is_english(client):
    game, body, low, high = descending_play(client)
    for header in ({}, {"Accept-Language": "de-DE, fr;q=0.8"}, {"Accept-Language": "es;q=0, en;q=0.5"}):
        r = client.post(f"/games/{game.id}/moves", headers={**game.auth, **header}, json=body)
        assert r.headers["content-language"] == "en" and r.json()["message"].startswith(f"{low} cannot go on ")


def test_q_values_rank_the_languages():
    assert i18n.negotiate("en;q=0.3, ja;q=0.9, es;q=0.5") == "ja"
    assert i18n.negotiate("es-MX") == "es"
    assert i18n.negotiate("*") == "en"
    assert i18n.negotiate("xx, ja;q=oops, es;q=0.2") == "es"


def test_the_page_reads_the_same_catalogues(client):
    for lang in i18n.LANGS:
        doc = client.get(f"/i18n/{lang}.json").json()
        assert doc == i18n.catalogue(lang)
    assert client.get("/i18n/de.json").status_code == 422


def test_an_unknown_game_is_refused_in_the_language_asked(client):
    said = {lang: client.get("/games/nope", headers={"Accept-Language": lang}).json() for lang in ("en", "es", "ja")}
    assert [b["message"] for b in said.values()] == ["no game 'nope'", "no existe la partida 'nope'", "ゲーム 'nope' はありません"]
    assert all(b["code"] == "unknown-game" and b["params"] == {"game_id": "nope"} for b in said.values())


def test_an_amendment_names_the_refusal_it_ran_into_in_the_language_asked(client):
    game = new_game(client, seed=None)
    for notation in ("deal", "R7", "d", "B5", "d", "R8", "d"):  # Ana's R8 at seq 7 follows her R7
        at = client.get(f"/games/{game.id}").json()["last_seq"]
        client.post(f"/games/{game.id}/moves", headers=game.auth, json={"notation": notation, "expected_seq": at})
    body = {"seq": 3, "notation": "R9", "expected_seq": 8}
    said = {
        lang: client.post(f"/games/{game.id}/amend", headers={**game.auth, "Accept-Language": lang}, json=body).json()
        for lang in ("en", "es", "ja")
    }
    assert said["en"]["message"].startswith("the amendment makes seq 7 illegal: R8 cannot go on Ana's red expedition")
    assert said["es"]["message"].startswith("la enmienda hace ilegal seq 7: R8 no puede ir en la expedición roja de Ana")
    assert said["ja"]["message"].startswith("この修正で seq 7 が不正になります: R8 は Ana の赤の探検に置けません")
    inner = said["es"]["params"]["message_"]
    assert inner["code"] == "lost-cities.expedition-must-ascend" and inner["message"].startswith("R8 no puede ir")
    assert all(b["rule"] == "lost-cities.expedition-must-ascend" for b in said.values())


def test_a_refusal_with_a_nested_phrase_answers_its_params_in_the_language_asked(client):
    # the notation's "why" is a phrase: the message and the params read in the reader's language
    game = new_game(client)
    at = client.get(f"/games/{game.id}", headers=game.auth).json()["last_seq"]
    answered = answers(client, game, {"notation": "d=Q9", "expected_seq": at})
    bodies = {lang: r.json() for lang, r in answered.items()}
    assert {b["code"] for b in bodies.values()} == {"lost-cities.bad-notation"}
    assert bodies["en"]["params"]["value_plus"] == ": 'Q9' is not a card id"
    assert bodies["es"]["params"]["value_plus"] == ": 'Q9' no es una carta"
    assert bodies["ja"]["params"]["value_plus"] == ": 'Q9' はカードの id ではありません"
    assert bodies["en"]["message"].startswith("cannot read 'd=Q9': 'Q9' is not a card id; expected one of: R7 or Rx")
    assert bodies["es"]["message"].startswith("no se puede leer 'd=Q9': 'Q9' no es una carta; se espera uno de: R7 o Rx")
    assert "is not a card id" not in bodies["ja"]["message"] and "expected" not in bodies["ja"]["message"]


def test_a_method_a_route_does_not_take_is_refused_in_the_language_asked(client):
    """Before: Starlette's own "Method Not Allowed", in every language."""
    answered = {lang: client.delete("/titles", headers={"Accept-Language": h}) for lang, h in LANGUAGES.items()}
    assert {r.status_code for r in answered.values()} == {405}
    assert {r.json()["code"] for r in answered.values()} == {"method-not-allowed"}
    messages = {lang: r.json()["message"] for lang, r in answered.items()}
    assert messages["en"] == "DELETE is not allowed on /titles"
    assert messages["es"] == "DELETE no está permitido en /titles"
    assert messages["ja"] == "/titles では DELETE は使えません"


def test_a_body_too_large_is_refused_in_the_language_asked(client):
    """Before: the 413's message was the same English sentence whatever the request asked for."""
    game = new_game(client)
    big = b'{"notation": "' + b"x" * 100_000 + b'", "expected_seq": 2}'
    answered = {
        lang: client.post(f"/games/{game.id}/moves", content=big,
                          headers={**game.auth, "Accept-Language": h, "Content-Type": "application/json"})
        for lang, h in LANGUAGES.items()
    }
    assert {r.status_code for r in answered.values()} == {413}
    bodies = {lang: r.json() for lang, r in answered.items()}
    assert {b["code"] for b in bodies.values()} == {"body-too-large"}
    limit = bodies["en"]["limit"]
    assert bodies["en"]["message"] == f"the body of a moves request may hold at most {limit} bytes"
    assert bodies["es"]["message"] == f"el cuerpo de una petición moves puede tener como mucho {limit} bytes"
    assert bodies["ja"]["message"] == f"moves リクエストの本文は最大 {limit} バイトです"
