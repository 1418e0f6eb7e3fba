"""Move sentences in the reader's language: the same frames read in English, Spanish and Japanese
(``Accept-Language`` for a read, ``lang=`` for the live stream), the English exactly as the rules
word it, and what a viewer may not know absent in every language."""

from __future__ import annotations

import random

import pytest
from apiplay import finish, new_game, read_stream

from api import i18n
from events.errors import TabletapeError
from events.lifecycle import GameCreated
from events.messages import Phrase, phrase, say
from projections.fold import GameState, start
from replay.recorder import draw_chance
from rules.lost_cities.decide import _check_not_over as check_not_over
from rules.marco_polo_2.content import SYNTHETIC

HEADERS = {"en": "en-GB", "es": "es-ES,es;q=0.9", "ja": "ja-JP"}


def frames(client, game, lang: str, headers: dict | None = None, **params) -> list[dict]:
    response = client.get(
        f"/games/{game.id}/frames", params=params, headers={"Accept-Language": HEADERS[lang], **(headers or {})}
    )
    assert response.status_code == 200, response.text
    assert response.headers["content-language"] == lang
    return response.json()["frames"]


def record(client, game, notation: str) -> None:
    at = client.get(f"/games/{game.id}").json()["last_seq"]
    response = client.post(f"/games/{game.id}/moves", headers=game.auth, json={"notation": notation, "expected_seq": at})
    assert response.status_code == 201, response.text


def a_turn(client) -> tuple[object, str]:
    """A Lost Cities game where Ana played a card and drew from the draw pile: the game, the card."""
    game = new_game(client)
    legal = client.get(f"/games/{game.id}/legal-moves", headers=game.auth).json()
    card = next(m["notation"] for m in legal["moves"] if m["notation"][:1].isalpha() and m["notation"][1:] != "x")
    record(client, game, card)
    record(client, game, "d")
    return game, card


COLOUR = {"en": "red", "es": "roja", "ja": "赤"}


def test_the_same_frames_say_each_step_in_three_languages(client):
    game, card = a_turn(client)
    said = {lang: frames(client, game, lang) for lang in HEADERS}
    strip = lambda fs: [{k: v for k, v in f.items() if k not in ("text", "status")} for f in fs]  # noqa: E731
    assert strip(said["es"]) == strip(said["en"]) == strip(said["ja"])  # only the words differ
    colour = {lang: i18n.catalogue(lang)["sentences"]["lost-cities"]["colour"] for lang in HEADERS}
    name = {lang: colour[lang][dict(zip("YBWGRP", colour["en"]))[card[0]]] for lang in HEADERS}
    value = card[1:]
    texts = {lang: [f["text"] for f in fs] for lang, fs in said.items()}
    assert texts["en"][0] == "Lost Cities began: Ana, Bea"
    assert texts["en"][-2:] == [f"Ana played the {name['en']} {value}", "Ana drew from the draw pile"]
    assert texts["es"][-2:] == [f"Ana jugó la carta {name['es']} {value}", "Ana tomó una carta del mazo"]
    assert texts["ja"][-2:] == [f"Anaが{name['ja']}の{value}を出した", "Anaが山札から引いた"]
    assert texts["es"][0] == "Empezó Lost Cities: Ana, Bea" and texts["ja"][0] == "ロストシティ開始: Ana, Bea"  # the name its messages use


def test_the_status_line_of_frames_and_legal_moves_in_three_languages(client):
    game, _ = a_turn(client)
    status = {lang: frames(client, game, lang)[-1]["status"] for lang in HEADERS}
    assert status == {
        "en": "round 1: Bea to play or discard",
        "es": "ronda 1: Bea juega o descarta una carta",
        "ja": "ラウンド1: Beaがカードを出すか捨てる",
    }
    for lang, header in HEADERS.items():
        legal = client.get(f"/games/{game.id}/legal-moves", headers={**game.auth, "Accept-Language": header}).json()
        assert legal["status_line"] == status[lang]


def test_a_decision_of_the_setup_is_said_before_round_1_not_in_a_round_0(client):
    """Drafted characters are picked after the layout, before the first round begins."""
    made = client.post("/games", json={"title": "marco-polo", "players": ["Ana", "Bea"], "seed": 3,
                                       "options": {"characters": "draft"}}).json()
    said = {lang: client.get(f"/games/{made['game_id']}", headers={"Accept-Language": header}).json()["status_line"]
            for lang, header in HEADERS.items()}
    assert said["en"].startswith("before round 1: "), said
    assert said["es"].startswith("antes de la ronda 1: ") and said["ja"].startswith("ラウンド1の前: "), said
    assert not any("0" in line for line in said.values()), said


def test_a_game_of_one_round_is_over_after_1_round_not_1_rounds(client, svc):
    game = new_game(client, rounds=1)
    finish(svc, game.id)
    said = {lang: client.get(f"/games/{game.id}", headers={"Accept-Language": header}).json()["status_line"]
            for lang, header in HEADERS.items()}
    assert said["en"].startswith("game over after 1 round: ") and said["es"].startswith("fin de la partida tras 1 ronda: "), said
    ended = svc.projector.state(game.id)
    with pytest.raises(TabletapeError) as over:  # the rules' own refusal of a move after the end
        check_not_over(ended.state)
    assert "after the 1 agreed round:" in over.value.message and "tras la 1 ronda acordada" in i18n.message(over.value, "es")
    three = new_game(client, rounds=3)
    finish(svc, three.id)
    assert client.get(f"/games/{three.id}").json()["status_line"].startswith("game over after 3 rounds: ")


def test_a_drawn_card_is_named_only_to_its_seat_in_every_language(client):
    game, _ = a_turn(client)
    drawn = client.get(f"/games/{game.id}/frames", params={"seat": 0}, headers=game.seat_auth(0)).json()["frames"][-1]
    assert drawn["text"].startswith("Ana drew the ") and drawn["text"].endswith(" from the draw pile")
    words = drawn["text"][len("Ana drew the ") : -len(" from the draw pile")]  # "green 5"
    for lang in HEADERS:
        public = frames(client, game, lang)[-1]["text"]
        own = frames(client, game, lang, game.seat_auth(0), seat=0)[-1]["text"]
        value = words.split()[-1]
        assert value not in public and public != own, (lang, public)
        assert value in own, (lang, own)


def test_the_stream_speaks_the_language_its_lang_names(client):
    game, _ = a_turn(client)
    last = client.get(f"/games/{game.id}").json()["last_seq"]
    expected = {lang: {f["seq"]: f["text"] for f in frames(client, game, lang)} for lang in HEADERS}
    for lang in ("ja", "es", "en"):  # one after another: the cache of messages keeps each language apart
        messages = read_stream(client, game.id, last, headers={"Accept-Language": "ja"}, since=0, lang=lang)
        said = {m["id"]: m["data"]["text"] for m in messages if "id" in m}
        assert said == {seq: expected[lang][seq] for seq in said} and len(said) == last, lang
    # without lang= the stream follows Accept-Language; a language we lack is English
    messages = read_stream(client, game.id, last, headers={"Accept-Language": "es"}, since=0)
    assert messages[-1]["data"]["text"] == expected["es"][last]
    messages = read_stream(client, game.id, last, since=0, lang="fr")
    assert messages[-1]["data"]["text"] == expected["en"][last]


# -- every sentence the rules can say is in every catalogue --------------------------------------


def phrases(words) -> list[Phrase]:
    if not isinstance(words, Phrase):
        return []
    return [words] + [p for v in words.params.values() for p in phrases(v)]


def said_by(title_id: str, players: tuple[str, ...], options: dict, steps: int = 400) -> list[Phrase]:
    """Every phrase a random legal digital game says (each event whole and as the public saw it,
    and the status line after it)."""
    rng = random.Random(title_id)
    game = start(GameCreated(title=title_id, players=players, options=options, seed=5))
    title, state, out = game.title, game.state, []
    for n in range(steps):
        if title.outcome(state) is not None:
            break
        event = draw_chance(GameState(title, game.created, state), n + 2)
        if event is None:
            moves = title.legal_moves(state)
            if not moves:
                break
            event = rng.choice(moves)
        for done in title.decide(state, event):
            after = title.evolve(state, done)
            for known in (done, title.public_move(done)):
                if known is not None:
                    out += phrases(title.describe(state, known, after))
            state = after
            standing = title.status_words(state)
            assert say(standing) == title.status(state)  # the status line's English as the rules word it
            out += phrases(standing)
    return out


def template(lang: str, key: str) -> str | None:
    """The phrase's template: a sentence's, or a refusal phrase's (a pending step's words)."""
    found = i18n.catalogue(lang)
    node = found["sentences"]
    for part in key.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    return node if isinstance(node, str) else found["phrases"].get(key)


GAMES = [
    ("lost-cities", ("Ana", "Bea"), {"rounds": 1}),
    ("lost-cities", ("Ana", "Bea", "Cai", "Dan"), {"rounds": 1}),
    ("marco-polo", ("Ana", "Bea", "Cai"), {}),
    ("marco-polo-2", ("Ana", "Bea", "Cai"), {"content": SYNTHETIC.ref, "caravans": True}),
]


@pytest.mark.parametrize("title_id, players, options", GAMES)
def test_every_phrase_of_a_game_is_catalogued_with_the_rules_english(title_id, players, options):
    said = said_by(title_id, players, options)
    assert len({w.key for w in said}) > 8
    for words in said:
        assert template("en", words.key) == words.template, words.key
        for lang in ("es", "ja"):
            assert template(lang, words.key) is not None, (lang, words.key)
            assert i18n.sentence(words, lang) != "", (lang, words.key)


def test_the_game_and_its_state_say_the_status_line_in_the_language_asked_for(client):
    game, _ = a_turn(client)
    for lang, header in HEADERS.items():
        said = frames(client, game, lang)[-1]["status"]
        assert client.get(f"/games/{game.id}", headers={"Accept-Language": header}).json()["status_line"] == said
        assert client.get(f"/games/{game.id}/state", headers={"Accept-Language": header}).json()["status_line"] == said


def test_a_character_is_named_as_the_reader_s_edition_prints_it():
    """A pick names the character, not its id: イザベラ・ドナティ in Japanese."""
    picked = phrase("marco-polo-2.picked", "picked {character}", character="isabella")
    assert i18n.sentence(picked, "ja") == i18n.catalogue("ja")["sentences"]["marco-polo-2"]["picked"].format(
        character=i18n.catalogue("ja")["terms"]["marco-polo-2"]["character"]["isabella"]
    )
    assert "isabella" not in i18n.sentence(picked, "es") and "isabella" not in i18n.sentence(picked, "ja")
