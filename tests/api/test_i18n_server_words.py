"""The server's remaining words in the reader's language: the status line of a write's answer and
of the chance routes, the players a refusal names, phase names and costs, titles' names, the
settings' errors (``Accept-Language``), the English as it was."""

from __future__ import annotations

from apiplay import new_game

HEADERS = {"en": "en-GB", "es": "es-ES,es;q=0.9", "ja": "ja-JP"}
STATUS = {
    "en": "round 1: Bea to play or discard",
    "es": "ronda 1: Bea juega o deshecha una carta",
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
        "es": "ronda 1: Ana juega o deshecha una carta",
        "ja": "ラウンド1: Anaがカードを出すか捨てる",
    }
    for lang, answer in answers.items():
        assert answer["message"].endswith(status[lang]), answer
