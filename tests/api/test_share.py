"""Share links, the picture of the final table, the embed frame and the end-of-game slip over the
real app: an ended game opens with no token, a game in progress (or undone back into play) shows
nothing, a withdrawn link says so, a slip matches or names what does not, hostile input is 4xx."""

from __future__ import annotations

import duckdb
import pytest
from apiplay import finish, last_seq, new_game, play
from fastapi.testclient import TestClient

import tampering
from api.http.app import create_app
from api.http.settings import Settings


@pytest.fixture
def app_settings(tmp_path) -> Settings:
    return Settings(db_path=str(tmp_path / "share.duckdb"), stream_ping_s=0.2)


def share(client, game, **body) -> dict:
    made = client.post(f"/games/{game.id}/shares", headers=game.auth, json=body)
    assert made.status_code == 201, made.text
    return made.json()


def links(svc) -> int:
    cur = svc.log.store.cursor()
    try:
        return cur.execute("SELECT count(*) FROM share_links").fetchone()[0]
    finally:
        cur.close()


def shows_nothing_of(answer, game) -> None:
    assert answer.headers["content-type"].startswith("application/json")
    for word in (game.id, *game.players):
        assert word not in answer.text


def test_a_link_opens_an_ended_game_with_no_token_and_a_game_in_progress_not_at_all(client, svc):
    game = new_game(client)
    play(client, game, 4)
    made = share(client, game)
    assert made["link"] == f"/?share={made['share']}" and made["embed"] == f"/embed/{made['share']}"
    for path in (f"/shared/{made['share']}", f"{made['picture']}?format=png", f"{made['picture']}?format=svg"):
        going = client.get(path)
        assert going.status_code == 403 and going.json()["code"] == "shared-game-in-progress", going.text
        shows_nothing_of(going, game)
    finish(svc, game.id)
    got = client.get(f"/shared/{made['share']}")
    assert got.status_code == 200, got.text
    shared = got.json()
    full = client.get(f"/games/{game.id}/frames", params={"full": True}).json()["frames"]
    assert shared["players"] == ["Ana", "Bea"] and shared["title_name"] == "Lost Cities"
    assert len(shared["frames"]) == len(full) and shared["at"] == len(full) - 1
    assert shared["outcome"] == client.get(f"/games/{game.id}").json()["outcome"]
    assert "draw_pile_order" in shared["frames"][0]["view"]  # the full view: an ended game hides nothing
    png = client.get(made["picture"], params={"format": "png", "lang": "ja"})
    assert png.status_code == 200 and png.headers["content-type"] == "image/png" and png.content[:8] == b"\x89PNG\r\n\x1a\n"
    assert png.headers["content-language"] == "ja"
    svg = client.get(made["picture"])
    assert svg.headers["content-type"] == "image/svg+xml" and b"<svg" in svg.content
    assert client.get(f"/games/{game.id}/picture", params={"format": "png"}).content[:4] == b"\x89PNG"


def test_a_link_at_a_step_opens_there_and_at_the_end_when_the_game_is_shorter(client, svc):
    game = new_game(client)
    finish(svc, game.id)
    steps = len(client.get(f"/games/{game.id}/frames").json()["frames"])
    assert client.get(f"/shared/{share(client, game, at=3)['share']}").json()["at"] == 3
    assert client.get(f"/shared/{share(client, game, at=steps + 50)['share']}").json()["at"] == steps - 1


def test_only_the_write_token_makes_or_withdraws_a_link_and_a_refusal_writes_nothing(client, svc):
    game, other = new_game(client), new_game(client)
    before = links(svc)
    assert client.post(f"/games/{game.id}/shares", json={}).json()["code"] == "token-missing"
    wrong = client.post(f"/games/{game.id}/shares", headers=other.auth, json={})
    assert wrong.status_code == 403 and wrong.json()["code"] == "token-wrong"
    bad = client.post(f"/games/{game.id}/shares", headers=game.auth, json={"at": -1})
    assert bad.status_code == 422
    assert links(svc) == before
    made = share(client, game)
    assert client.delete(f"/games/{game.id}/shares/{made['share']}").status_code == 401
    assert client.delete(f"/games/{game.id}/shares/{made['share']}", headers=other.auth).status_code == 403
    # another game's link, withdrawn with that game's token: it is not this game's
    theirs = client.delete(f"/games/{other.id}/shares/{made['share']}", headers=other.auth)
    assert theirs.status_code == 404 and theirs.json()["code"] == "unknown-share"
    assert client.get(f"/shared/{made['share']}").json()["code"] == "shared-game-in-progress"


def test_a_withdrawn_link_answers_410_and_withdrawing_all_takes_every_link(client, svc):
    game = new_game(client)
    finish(svc, game.id)
    one, two, three = share(client, game), share(client, game), share(client, game)
    done = client.delete(f"/games/{game.id}/shares/{one['share']}", headers=game.auth)
    assert done.status_code == 200 and done.json() == {"game_id": game.id, "withdrawn": 1}
    for path in (f"/shared/{one['share']}", f"/shared/{one['share']}/picture"):
        gone = client.get(path, headers={"Accept-Language": "es"})
        assert gone.status_code == 410 and gone.json()["code"] == "share-withdrawn"
        assert gone.json()["message"] == "el dueño de la partida retiró este enlace compartido"
        shows_nothing_of(gone, game)
    assert client.get(f"/shared/{two['share']}").status_code == 200
    assert client.delete(f"/games/{game.id}/shares", headers=game.auth).json()["withdrawn"] == 2
    assert client.get(f"/shared/{three['share']}").status_code == 410


def test_a_shared_game_undone_back_into_play_shows_nothing_until_it_ends_again(client, svc):
    game = new_game(client)
    finish(svc, game.id)
    made = share(client, game)
    assert client.get(f"/shared/{made['share']}").status_code == 200
    last = last_seq(client, game.id)
    undone = client.post(f"/games/{game.id}/undo", headers=game.auth, json={"expected_seq": last})
    assert undone.status_code == 201, undone.text
    assert client.get(f"/games/{game.id}").json()["status"] == "in-progress"
    for path in (f"/shared/{made['share']}", f"/shared/{made['share']}/picture"):
        going = client.get(path)
        assert going.status_code == 403 and going.json()["code"] == "shared-game-in-progress"
        shows_nothing_of(going, game)
    assert client.get(f"/games/{game.id}/slip").json()["code"] == "slip-before-end"
    finish(svc, game.id)
    assert client.get(f"/shared/{made['share']}").status_code == 200


@pytest.mark.parametrize("token", ["x", "A" * 43, "é" * 30, "A" * 5000, "..%2F..%2Fhealth", "' OR 1=1 --"])
def test_a_token_this_store_never_made_is_404_json(client, token):
    for path in (f"/shared/{token}", f"/shared/{token}/picture"):
        got = client.get(path)
        assert got.status_code == 404, (path, got.text)
        assert got.json()["code"] in ("unknown-share", "not-found")


def test_only_the_embed_frame_may_be_framed(client):
    assert client.get("/embed/anything").headers["content-security-policy"] == "frame-ancestors *"
    assert "x-frame-options" not in client.get("/embed/anything").headers
    page = client.get("/")
    assert page.headers["x-frame-options"] == "DENY" and page.headers["content-security-policy"] == "frame-ancestors 'none'"


# -- the slip -------------------------------------------------------------------------------------


@pytest.fixture
def ended(client, svc):
    game = new_game(client)
    finish(svc, game.id)
    return game


def check(client, text: str, lang: str = "en") -> dict:
    got = client.post("/slips/check", json={"slip": text}, params={"lang": lang})
    assert got.status_code == 200, got.text
    return got.json()


def test_the_slip_of_an_ended_game_matches_and_its_qr_and_picture_are_served(client, ended):
    slip = client.get(f"/games/{ended.id}/slip").json()
    final = client.get(f"/games/{ended.id}").json()
    assert slip["scores"] == final["outcome"]["scores"] and slip["seq"] == final["last_seq"]
    assert slip["text"].startswith(f"TT1:{ended.id}:{slip['seq']}:") and slip["text"].endswith(slip["seal"])
    said = check(client, slip["text"])
    assert said["matches"] and said["verified"] and said["words"] == "This slip matches the stored, verified log."
    assert [p["part"] for p in said["parts"]] == ["seal", "game", "log", "head", "scores"]
    assert all(p["ok"] for p in said["parts"])
    assert check(client, f"  {slip['text']}\n")["matches"]  # as a file or a scanner gives it
    qr = client.get(f"/games/{ended.id}/slip", params={"format": "svg"})
    assert qr.headers["content-type"] == "image/svg+xml" and b"<svg" in qr.content
    png = client.get(f"/games/{ended.id}/slip", params={"format": "png"})
    assert png.content[:4] == b"\x89PNG"


def test_a_changed_score_or_seal_does_not_match_and_says_which_part(client, ended):
    slip = client.get(f"/games/{ended.id}/slip").json()
    scores = ",".join(str(s) for s in slip["scores"])
    changed = slip["text"].replace(f":{scores}:", ":999,0:")
    said = check(client, changed)
    assert not said["matches"] and said["verified"]
    bad = {p["part"] for p in said["parts"] if p["ok"] is False}
    assert bad == {"seal", "scores"}
    assert said["words"] == "This slip does not match: the seal and the scores."
    resealed = slip["text"][: -len(slip["seal"])] + "A" * 22
    said = check(client, resealed, "ja")
    assert [p["part"] for p in said["parts"] if p["ok"] is False] == ["seal"]
    assert said["words"] == "この結果票は一致しません: 封印。"


def test_another_stores_slip_does_not_carry_this_stores_seal(client, ended, tmp_path):
    slip = client.get(f"/games/{ended.id}/slip").json()
    with TestClient(create_app(Settings(db_path=str(tmp_path / "other.duckdb")))) as other:
        said = check(other, slip["text"], "es")
    assert not said["matches"] and said["verified"] is None
    assert {p["part"]: p["ok"] for p in said["parts"]} == {"seal": False, "game": False, "log": None, "head": None, "scores": None}
    assert said["words"] == "Este comprobante no coincide: el sello y la partida."


def test_a_slip_of_a_game_changed_since_still_matches_and_says_the_log_went_on(client, svc, ended):
    slip = client.get(f"/games/{ended.id}/slip").json()
    last = last_seq(client, ended.id)
    assert client.post(f"/games/{ended.id}/undo", headers=ended.auth, json={"expected_seq": last}).status_code == 201
    said = check(client, slip["text"])
    assert said["matches"] and said["since"] == last + 1
    assert said["since_words"] == f"The log has gone on since, to seq {last + 1}: the game was changed after this slip was made."


@pytest.mark.parametrize("kind", ["hash", "swapped events", "last event deleted", "cut back with its head", "rewritten, later hashes recomputed"])
def test_a_slip_of_a_tampered_log_is_not_verified(tmp_path, kind):
    settings = Settings(db_path=str(tmp_path / "t.duckdb"))
    with TestClient(create_app(settings)) as client:
        game = new_game(client)
        finish(client.app.state.services, game.id)
        slip = client.get(f"/games/{game.id}/slip").json()["text"]
    edit, _ = tampering.KINDS[kind]
    con = duckdb.connect(settings.db_path)
    edit(con, game.id)
    con.close()
    with TestClient(create_app(settings)) as client:
        said = check(client, slip)
    assert not said["matches"] and said["verified"] is False
    assert said["words"] == "This slip cannot be checked: the stored log does not verify."
    log = next(p for p in said["parts"] if p["part"] == "log")
    assert log["ok"] is False and "altered at seq" in log["words"]


def test_a_game_in_progress_has_no_slip_and_no_picture(client):
    game = new_game(client)
    for path in (f"/games/{game.id}/slip", f"/games/{game.id}/picture"):
        for params in ({}, {"format": "png"}):
            got = client.get(path, params=params, headers=game.auth)
            assert got.status_code == 403 and got.json()["code"] in ("slip-before-end", "picture-before-end"), got.text


@pytest.mark.parametrize("body", [
    {"slip": "hello"}, {"slip": ""}, {"slip": "TT1:" + "A" * 2000}, {"slip": "TT1:g:1:1,2:" + "0" * 64 + ":" + "x" * 21},
    {"slip": "TT1:g:1:1,2:" + "G" * 64 + ":" + "x" * 22}, {"slip": "\u0000" * 100},
])
def test_text_that_is_no_slip_is_refused_in_one_sentence(client, body):
    got = client.post("/slips/check", json=body, headers={"Accept-Language": "es"})
    assert got.status_code == 422, got.text
    assert got.json()["code"] == "bad-slip"
    assert got.json()["message"].startswith("esto no es un comprobante de tabletape")


@pytest.mark.parametrize("raw", [b"not json", b'{"slip": 3}', b'{"slip": "x", "more": 1}', b"[]"])
def test_a_malformed_check_body_is_422_json(client, raw):
    got = client.post("/slips/check", content=raw, headers={"Content-Type": "application/json"})
    assert got.status_code == 422 and "code" in got.json()


def test_a_huge_slip_is_refused_at_the_door(client):
    got = client.post("/slips/check", json={"slip": "T" * 100_000})
    assert got.status_code == 413 and got.json()["code"] == "body-too-large"
    longish = client.post("/slips/check", json={"slip": "T" * 5000})
    assert longish.status_code == 422
