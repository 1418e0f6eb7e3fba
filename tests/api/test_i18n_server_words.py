"""The server's remaining words in the reader's language: the status line of a write's answer and
of the chance routes, the players a refusal names, phase names and costs, titles' names, the
settings' errors (``Accept-Language``), the English as it was."""

from __future__ import annotations

from apiplay import new_game
from mp2play import OPTIONS, game_lines

from rules.marco_polo_2.content import PUBLIC

HEADERS = {"en": "en-GB", "es": "es-ES,es;q=0.9", "ja": "ja-JP"}
STATUS = {
    "en": "round 1: Bea to play or discard",
    "es": "ronda 1: Bea juega o descarta una carta",
    "ja": "ラウンド1: Beaがカードを出すか捨てる",
}


def a_card(client, game) -> str:
    legal = client.get(f"/games/{game.id}/legal-moves", headers=game.auth).json()
    return next(m["notation"] for m in legal["moves"] if m["notation"][:1].isalpha() and m["notation"][1:] != "x")


def test_a_write_answers_its_status_line_in_three_languages(client):
    said = {}
    for lang, header in HEADERS.items():
        game = new_game(client)
        for notation in (a_card(client, game), "d"):
            at = client.get(f"/games/{game.id}").json()["last_seq"]
            response = client.post(
                f"/games/{game.id}/moves",
                headers={**game.auth, "Accept-Language": header},
                json={"notation": notation, "expected_seq": at},
            )
            assert response.status_code == 201, response.text
        said[lang] = response.json()["status_line"]
        at = client.get(f"/games/{game.id}").json()["last_seq"]
        undone = client.post(f"/games/{game.id}/undo", headers={**game.auth, "Accept-Language": header}, json={"expected_seq": at})
        at = client.get(f"/games/{game.id}").json()["last_seq"]
        redone = client.post(f"/games/{game.id}/redo", headers={**game.auth, "Accept-Language": header}, json={"expected_seq": at})
        assert undone.status_code == redone.status_code == 201, undone.text + redone.text
        assert redone.json()["status_line"] == said[lang]
        chance = client.get(f"/games/{game.id}/chance", headers={**game.auth, "Accept-Language": header})
        assert chance.status_code == 200 and chance.json()["status_line"] == said[lang]
    assert said == STATUS


def test_a_refusal_quoting_the_status_says_it_in_the_readers_language(client):
    game = new_game(client)
    answers = {
        lang: client.post(
            f"/games/{game.id}/chance", headers={**game.auth, "Accept-Language": header}, json={"outcome": [1]}
        ).json()
        for lang, header in HEADERS.items()
    }
    assert {a["code"] for a in answers.values()} == {"no-chance-awaited"}
    status = {
        "en": "round 1: Ana to play or discard",
        "es": "ronda 1: Ana juega o descarta una carta",
        "ja": "ラウンド1: Anaがカードを出すか捨てる",
    }
    for lang, answer in answers.items():
        assert answer["message"].endswith(status[lang]), answer


def partners_descending(client) -> tuple[object, dict]:
    """A four-seat Lost Cities game where Ana opened an expedition with a high card and her
    partner Cy, to play, tries a lower one of its colour: the game and Cy's move."""
    for seed in range(1, 30):
        game = new_game(client, seed=seed, players=("Ana", "Bea", "Cy", "Dan"))
        legal = client.get(f"/games/{game.id}/legal-moves", headers=game.auth).json()
        high = max(
            (m["notation"] for m in legal["moves"] if m["notation"][:1].isalpha() and m["notation"][1:].isdigit()),
            key=lambda n: int(n[1:]),
        )
        client.post(f"/games/{game.id}/moves", headers=game.auth, json={"notation": high, "expected_seq": legal["at"]})
        while (legal := client.get(f"/games/{game.id}/legal-moves", headers=game.auth).json())["to_move"] != 2 or any(
            m["notation"].startswith("d") for m in legal["moves"]
        ):
            pick = next(m["notation"] for m in legal["moves"] if m["notation"].startswith(("-", "d")))
            client.post(f"/games/{game.id}/moves", headers=game.auth, json={"notation": pick, "expected_seq": legal["at"]})
        for value in range(2, int(high[1:])):
            body = {"notation": f"{high[0]}{value}", "expected_seq": legal["at"]}
            tried = client.post(f"/games/{game.id}/moves", headers=game.auth, json=body).json()
            if tried["code"] == "lost-cities.expedition-must-ascend":
                return game, body
    raise AssertionError("no seed gives Cy a lower card of Ana's colour")


def test_a_partnerships_names_are_joined_in_the_readers_language(client):
    game, body = partners_descending(client)
    said = {
        lang: client.post(f"/games/{game.id}/moves", headers={**game.auth, "Accept-Language": h}, json=body).json()
        for lang, h in HEADERS.items()
    }
    assert {a["code"] for a in said.values()} == {"lost-cities.expedition-must-ascend"}
    assert "on Ana and Cy's " in said["en"]["message"]
    assert " de Ana y Cy, " in said["es"]["message"]
    assert "AnaとCy の" in said["ja"]["message"]
    assert said["es"]["params"]["owners"] == "Ana y Cy"


def test_a_phase_and_a_cost_are_words_of_the_readers_language(client):
    created = client.post("/games", json={"title": "marco-polo-2", "players": ["Ana", "Bea"], "options": {**OPTIONS, "content": PUBLIC.ref}})
    assert created.status_code == 201, created.text
    gid, auth = created.json()["game_id"], {"Authorization": f"Bearer {created.json()['tokens']['write_token']}"}
    lines = game_lines()
    for line in lines[:6]:
        at = client.get(f"/games/{gid}").json()["last_seq"]
        r = client.post(f"/games/{gid}/moves", headers=auth, json={"notation": line, "expected_seq": at})
        assert r.status_code == 201, r.text
    at = client.get(f"/games/{gid}").json()["last_seq"]
    said = {
        text: {
            lang: client.post(f"/games/{gid}/moves", headers={**auth, "Accept-Language": h}, json={"notation": text, "expected_seq": at}).json()
            for lang, h in HEADERS.items()
        }
        for text in ("roll 1 3,3,3,3,3;3,3,3,3,3", "@0 complete T1")
    }
    roll, pay = said.values()
    assert {a["code"] for a in roll.values()} == {"marco-polo-2.not-expected-now"}
    assert roll["en"]["message"] == "no round roll now: not expected in phase play"
    assert roll["es"]["message"].endswith("no se espera en la fase de turnos")
    assert roll["ja"]["message"].endswith("手番の段階では行えません")
    assert {a["code"] for a in pay.values()} == {"marco-polo-2.cannot-afford"}
    assert pay["en"]["message"].startswith("Ana cannot pay {'camels': 1, 'pepper': 1} to complete contract T1")
    assert pay["es"]["message"].startswith("Ana no puede pagar camellos: 1, pimienta: 1 para completar el contrato T1 (tiene camellos: 2, pimienta: 0,")
    assert pay["ja"]["message"].startswith("Ana は ラクダ1、胡椒1 を支払えません")
    assert {str(a["params"]["cost"]) for a in pay.values()} == {"{'camels': 1, 'pepper': 1}"}  # the ids stay in params


NAMES = {
    "en": {"lost-cities": "Lost Cities", "marco-polo": "The Voyages of Marco Polo", "marco-polo-2": "Marco Polo II: In the Service of the Khan"},
    "es": {"lost-cities": "Lost Cities", "marco-polo": "Los viajes de Marco Polo", "marco-polo-2": "Marco Polo II: Al servicio del Kan"},
    "ja": {"lost-cities": "ロストシティ", "marco-polo": "マルコ・ポーロの旅路", "marco-polo-2": "マルコ・ポーロ II"},
}


def test_the_titles_are_named_as_each_languages_edition_names_them(client):
    game = new_game(client)
    created = client.post("/games", json={"title": "marco-polo", "players": ["Ana", "Bea"], "seed": 3})
    assert created.status_code == 201, created.text
    mp = created.json()["game_id"]
    for lang, header in HEADERS.items():
        listed = client.get("/titles", headers={"Accept-Language": header}).json()
        assert {t["id"]: t["name"] for t in listed} == NAMES[lang]
        details = client.get("/titles/details", headers={"Accept-Language": header}).json()
        assert {t["id"]: t["name"] for t in details} == NAMES[lang]
        began = client.get(f"/games/{mp}/frames", headers={"Accept-Language": header}).json()["frames"][0]["text"]
        assert NAMES[lang]["marco-polo"] in began
        stats = client.get("/stats", headers={"Accept-Language": header})
        assert stats.status_code == 200, stats.text
    assert game.id


def test_a_grown_packs_conflicts_are_stored_as_templates_said_in_each_language():
    from api import i18n
    from rules.marco_polo_2.content import library

    lost = ("route", "BEI-NOWHERE", {"ends": ["BEI", "NOWHERE"], "coins": 1})
    _, _, conflicts = library.grow(PUBLIC.data, "ours-v1", [lost])
    (why,) = conflicts
    said = {lang: i18n.templated(why["why_template"], why["why_params"], lang, why["why"]) for lang in HEADERS}
    assert said["en"] == why["why"] and why["why"].startswith("pack.map.routes[0")
    assert said["es"] != said["en"] != said["ja"] and all(s.startswith("pack.map.routes[0") for s in said.values())


def test_a_body_limit_that_cannot_be_read_is_refused_in_the_clis_language(monkeypatch):
    from typer.testing import CliRunner

    from api import i18n
    from api.program import app as cli

    monkeypatch.setattr(i18n, "cli_lang", i18n.cli_lang)  # --lang sets it for the process: put it back
    said = {
        lang: CliRunner().invoke(cli, ["--lang", lang, "serve", "--db", ":memory:", "--body-limit", "moves=lots"]).output
        for lang in HEADERS
    }
    assert "'lots' is not a size" in said["en"]
    assert "'lots' no es un tamaño" in said["es"]
    assert "'lots' はサイズではありません" in said["ja"]
    wrong = CliRunner().invoke(cli, ["--lang", "es", "serve", "--db", ":memory:", "--body-limit", "nowhere=1KiB"]).output
    assert "'nowhere=1KiB': un límite de cuerpo es ruta=tamaño" in wrong


def test_a_step_the_title_cannot_word_reads_as_its_kind_in_each_language():
    from api import i18n
    from events.lifecycle import GameCreated
    from projections.fold import start
    from replay.frames import sentence
    from rules.lost_cities.events import CardDrawn

    game = start(GameCreated(title="lost-cities", players=("Ana", "Bea"), options={"rounds": 1}, seed=7))
    words = sentence(None, game, CardDrawn(seat=0, source="deck"), None)  # no state before: no describe
    said = {lang: i18n.sentence(words, lang) for lang in HEADERS}
    assert said == {"en": "Ana: card drawn", "es": "Ana: carta robada", "ja": "Ana: カードを引いた"}


def test_every_kind_of_event_has_its_words_in_every_language():
    from api import i18n
    from events import codec
    from events.lifecycle import LIFECYCLE_EVENTS
    from rules import titles

    tags = {codec.tag_of(e) for t in titles().values() for e in t.event_types} - {codec.tag_of(e) for e in LIFECYCLE_EVENTS}
    for lang in HEADERS:
        phrases = i18n.catalogue(lang)["phrases"]
        assert sorted(t for t in tags if not phrases.get(f"event-type/{t}")) == [], lang
    english = i18n.catalogue("en")["phrases"]
    assert {english[f"event-type/{t}"] for t in tags} == {t.split(".")[-1].replace("-", " ") for t in tags}


def test_an_unexpected_failure_says_so_in_the_readers_language(app_settings):
    """A bug answers 500 without internals, its one sentence in the reader's language."""
    from fastapi.testclient import TestClient

    from api.http.app import create_app

    app = create_app(app_settings)

    @app.get("/a-bug")
    def a_bug() -> None:
        raise RuntimeError("secret internals")

    said = {}
    with TestClient(app, raise_server_exceptions=False) as client:
        for lang, header in HEADERS.items():
            response = client.get("/a-bug", headers={"Accept-Language": header})
            assert response.status_code == 500
            assert response.json()["code"] == "internal-error"
            assert "secret" not in response.text
            assert response.headers["content-language"] == lang
            said[lang] = response.json()["message"]
    assert said == {"en": "internal error", "es": "error interno", "ja": "内部エラー"}
