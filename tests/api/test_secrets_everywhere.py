"""Every read without a token shows of a game in progress at most its public view. For each title,
a digital game and a table game in progress: every route the app serves (share links, their
pictures and the slip too), the statistics, the charts, every SQL view and the exports (the command line's, and BG Stats' over HTTP) are scanned for each hidden card,
objective and goal card, and none appears. An ended game shows them; undone back into play, it
hides them again."""

from __future__ import annotations

import json
import random
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import pytest
from apiplay import Game, finish, last_seq, read_stream
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from api.http.app import create_app
from api.formats.bgstats import game_uuid
from api.cli.main import app as cli
from api.errors import NotYetVisible
from api.i18n import phrase_text
from api.formats.jsonl import export_lines
from api.http.settings import Settings
from events import codec
from projections.stats import parquet
from projections.stats.sql import views
from rules import get_title
from rules.lost_cities.sentences import card_words
from rules.marco_polo_2.content import SYNTHETIC

TITLES = ("lost-cities", "marco-polo", "marco-polo-2")
OPTIONS: dict[str, dict[str, Any]] = {"lost-cities": {}, "marco-polo": {}, "marco-polo-2": {"content": SYNTHETIC.ref}}
#: what a game's content route serves to every game of the title alike (not this game's data)
PACKS: dict[str, dict[str, Any]] = {
    "lost-cities": {},
    "marco-polo": get_title("marco-polo").table_content() or {},
    "marco-polo-2": SYNTHETIC.data,
}
#: the table game's first fact, known to the recorder (Lost Cities: both hands; the Marco Polo
#: titles: their setup, objectives and goal cards included, composed by ``POST .../chance``)
LC_DEAL = "deal Y2,Y3,Y4,Y5,Y6,Y7,Y8,Y9;B2,B3,B4,B5,B6,B7,B8,B9"
#: the fewest hidden items a game of the title holds here (so that the scan is not vacuous)
AT_LEAST = {"lost-cities": 8, "marco-polo": 4, "marco-polo-2": 6}
#: routes that serve nothing of any game (the same for every store)
NO_GAME_DATA = {
    ("get", "/health"), ("get", "/titles"), ("get", "/titles/details"), ("get", "/titles/{title_id}/content"),
    ("get", "/i18n/{lang}.json"),  # the message catalogues
    ("post", "/games"),  # creates a game: answers its tokens, nothing hidden
    ("post", "/games/{game_id}/tokens"),  # new tokens for the write token's holder, nothing hidden
    ("delete", "/games/{game_id}/shares"),  # withdraws every share link of a game: answers a count
    # pack library writes answer the pack written; the forms are the same for every store
    ("post", "/titles/{title}/packs"), ("post", "/titles/{title}/packs/{pack_id}/versions"),
    ("delete", "/titles/{title}/packs/{pack_id}"), ("get", "/titles/{title}/pack-forms"),
    ("post", "/titles/{title}/packs/merge"), ("post", "/titles/{title}/packs/import"),
    ("post", "/import/bgstats"),  # answers counts and the new score-only games' ids: nothing hidden
}
#: a season of every title whose members play every game in progress; its reads are scanned
SEASON = {"name": "The season", "titles": list(TITLES), "starts": "2000-01-01", "ends": "2999-12-31", "members": ["Ana", "Bea"]}
TOKEN = re.compile(r"[A-Za-z0-9]+")

runner = CliRunner()


def tokens(text: str) -> set[str]:
    """Card, objective and goal ids are whole words: ``R7``, ``G10``, ``G03`` (not ``CB2``, ``B2a``)."""
    return set(TOKEN.findall(text))


def hidden_words(title_id: str, hidden: set[str]) -> dict[str, str]:
    """Each hidden card as the sentences name it in every language (``red 7``, ``carta roja 7``,
    ``赤の7``), folded, to its id: a leak in words is a leak. (The Marco Polo titles' sentences
    name objective and goal cards by id.)"""
    if title_id != "lost-cities":
        return {}
    return {phrase_text(card_words(card), lang).casefold(): card for card in hidden for lang in ("en", "es", "ja")}


def readable(text: str) -> str:
    """A JSON answer with its escapes undone (Japanese as written), folded; other text folded."""
    try:
        return json.dumps(json.loads(text), ensure_ascii=False).casefold()
    except ValueError:
        return text.casefold()


def seen_in(text: str, hidden: set[str], words: dict[str, str]) -> set[str]:
    """The hidden items a read shows: by id, or in words (``red 1`` is not ``red 10``, nor is
    ``scored 7`` ``red 7``; a Japanese word runs on from the one before it)."""
    folded = readable(text)
    return (tokens(text) & hidden) | {card for word, card in words.items() if re.search(r"(?<![a-z])" + re.escape(word) + r"(?!\d)", folded)}


def hidden_items(svc, game_id: str) -> set[str]:
    """What the full view knows that no public view of this game ever showed."""
    game = svc.projector.state(game_id)
    title, full = game.title, game.title.full_view(game.state)
    if title.id == "lost-cities":
        public: set[str] = set()
        for at in range(1, svc.log.last_seq(game_id) + 1):
            view = title.view(svc.projector.state_at(game_id, at).state, None)
            public |= tokens(json.dumps([view["expeditions"], view["discard_piles"]]))
        secret = set(full["draw_pile_order"] or ()) | {c for hand in full["hands"] for c in hand["cards"]}
        return {c for c in secret - public if not c.endswith("x")}  # wagers come in threes
    if title.id == "marco-polo":
        seats = full["all_objectives"] + full["all_dealt_objectives"]
    else:
        seats = full["all_dealt_goals"] + [[g] for g in full["all_goals"]]
    return {item for seat in seats for item in seat if item}


def new(client, title: str, seed: int | None) -> Game:
    body: dict[str, Any] = {"title": title, "players": ["Ana", "Bea"], "options": OPTIONS[title]}
    if seed is not None:
        body["seed"] = seed
    out = client.post("/games", json=body).json()
    return Game(out["game_id"], out["tokens"]["write_token"],
                tuple(t["token"] for t in out["tokens"]["seat_tokens"]), ("Ana", "Bea"))


def record(client, game: Game, text: str | None, move: dict | None = None) -> None:
    body = {"notation": text} if text is not None else {"move": move}
    response = client.post(f"/games/{game.id}/moves", headers=game.auth,
                           json={**body, "expected_seq": last_seq(client, game.id)})
    assert response.status_code == 201, response.text


def advance(client, game: Game, moves: int, rng: random.Random) -> None:
    """Record legal moves picked at random; where chance decides (a table game), a random outcome
    composed by ``POST /games/{id}/chance``."""
    for _ in range(moves):
        legal = client.get(f"/games/{game.id}/legal-moves", headers=game.auth).json()["moves"]
        if legal:
            pick = rng.choice(legal)
            record(client, game, pick["notation"], pick["move"])
            continue
        chance = client.get(f"/games/{game.id}/chance", headers=game.auth).json()
        if chance["kind"] is None:
            return
        if chance["kind"] == "shuffle":
            outcome = rng.sample(chance["items"], len(chance["items"]))
        else:
            outcome = [rng.randint(1, chance["sides"]) for _ in range(chance["count"])]
        made = client.post(f"/games/{game.id}/chance", headers=game.auth, json={"outcome": outcome})
        assert made.status_code == 200, made.text
        record(client, game, made.json()["notation"], made.json()["move"])


def beyond_pack(content: dict[str, Any], pack: dict[str, Any]) -> dict[str, Any]:
    """The part of a game's content that is not its title's pack."""
    return {k: v for k, v in content.items() if pack.get(k) != v}


@dataclass
class Store:
    path: str
    games: dict[tuple[str, str], Game] = field(default_factory=dict)
    hidden: dict[str, set[str]] = field(default_factory=dict)
    #: (where, text) of every read, by game id; None: reads of the whole store
    reads: dict[str | None, list[tuple[str, str]]] = field(default_factory=dict)
    #: (method, path template) of every route asked
    asked: set[tuple[str, str]] = field(default_factory=set)
    routes: set[tuple[str, str]] = field(default_factory=set)

    def read(self, game_id: str | None, where: str, text: str) -> None:
        self.reads.setdefault(game_id, []).append((where, text))


def _game_reads(client, store: Store, game: Game, title: str) -> None:
    gid = game.id
    last = last_seq(client, gid)
    no_token: list[tuple[str, str, dict]] = [
        ("get", "/games/{game_id}", {}),
        ("get", "/games/{game_id}/state", {}),
        ("get", "/games/{game_id}/state", {"params": {"seat": 0}}),
        ("get", "/games/{game_id}/state", {"params": {"full": True}}),
        ("get", "/games/{game_id}/frames", {}),
        ("get", "/games/{game_id}/frames", {"params": {"mode": "diff"}}),
        ("get", "/games/{game_id}/frames", {"params": {"full": True}}),
        ("get", "/games/{game_id}/events", {}),
        ("get", "/games/{game_id}/legal-moves", {}),
        ("get", "/games/{game_id}/chance", {}),
        ("post", "/games/{game_id}/chance", {"json": {"outcome": [1]}}),
        ("post", "/games/{game_id}/moves", {"json": {"notation": "end", "expected_seq": last}}),
        ("post", "/games/{game_id}/undo", {"json": {"expected_seq": last}}),
        ("post", "/games/{game_id}/redo", {"json": {"expected_seq": last}}),
        ("post", "/games/{game_id}/amend", {"json": {"seq": 2, "notation": "end", "expected_seq": last}}),
        ("post", "/games/{game_id}/fork", {"json": {}}),
        ("post", "/games/{game_id}/notes", {"json": {"step": 1, "text": "a stranger's note", "expected_seq": last}}),
    ]
    no_token += [("get", "/games/{game_id}/state", {"params": {"at": at}}) for at in range(1, last + 1)]
    for method, path, kwargs in no_token:
        response = client.request(method, path.format(game_id=gid), **kwargs)
        store.read(gid, f"{method} {path} {kwargs}", response.text)
        store.asked.add((method, path))
    stream = read_stream(client, gid, last, since=0)
    store.read(gid, "get /games/{game_id}/stream", json.dumps(stream))
    store.asked.add(("get", "/games/{game_id}/stream"))
    for lang in ("es", "ja"):  # the sentences in another language are worded from the same view
        said = read_stream(client, gid, last, since=0, lang=lang)
        store.read(gid, f"get /games/{{game_id}}/stream?lang={lang}", json.dumps(said, ensure_ascii=False))
        frames = client.get(f"/games/{gid}/frames", headers={"Accept-Language": lang})
        store.read(gid, f"get /games/{{game_id}}/frames in {lang}", frames.text)
    # the write token's legal moves list the hand to move (the recorder picks from it); what they
    # say of the step before is only what the table saw
    for at in range(1, last + 1):
        said = client.get(f"/games/{gid}/legal-moves", params={"at": at}, headers=game.auth).json()
        store.read(gid, f"get /games/{{game_id}}/legal-moves?at={at} with the write token (last, status_line)",
                   json.dumps([said["last"], said["status_line"]], ensure_ascii=False))
    # the score race: public until the end for everyone, the write token's asker too
    for lang in ("en", "es", "ja"):
        for headers in ({}, game.auth):
            race = client.get(f"/games/{gid}/race", params={"lang": lang}, headers=headers)
            store.read(gid, f"get /games/{{game_id}}/race?lang={lang} {sorted(headers)}", race.text)
    store.read(gid, "get /games/{game_id}/race?format=svg", client.get(f"/games/{gid}/race", params={"format": "svg"}).text)
    store.asked.add(("get", "/games/{game_id}/race"))
    # think time: public for everyone, a move said as the table saw it; the BG Stats play opens at the end
    for lang in ("en", "es", "ja"):
        for headers in ({}, game.auth):
            think = client.get(f"/games/{gid}/think-time", params={"lang": lang}, headers=headers)
            store.read(gid, f"get /games/{{game_id}}/think-time?lang={lang} {sorted(headers)}", think.text)
    store.asked.add(("get", "/games/{game_id}/think-time"))
    store.read(gid, "get /games/{game_id}/bgstats-play", client.get(f"/games/{gid}/bgstats-play", headers=game.auth).text)
    store.asked.add(("get", "/games/{game_id}/bgstats-play"))
    _share_reads(client, store, game, last)
    content = client.get(f"/games/{gid}/content").json()
    store.read(gid, "get /games/{game_id}/content", json.dumps(beyond_pack(content, PACKS[title])))
    store.asked.add(("get", "/games/{game_id}/content"))
    exact = f"SELECT seq, kind, detail FROM moves WHERE game_id = '{gid}'"
    store.read(gid, exact, client.post("/sql", json={"query": exact}).text)


def _share_reads(client, store: Store, game: Game, last: int) -> None:
    """A share link made while the game goes on, its replay, picture and embed frame in every
    language; the game's own picture and slip; a slip check naming the game (a forged slip)."""
    gid = game.id
    made = client.post(f"/games/{gid}/shares", headers=game.auth, json={"at": 2})
    assert made.status_code == 201, made.text
    store.read(gid, "post /games/{game_id}/shares", made.text)
    token = made.json()["share"]
    for lang in ("en", "es", "ja"):
        for path in (f"/shared/{token}", f"/shared/{token}/picture", f"/games/{gid}/picture", f"/games/{gid}/slip"):
            for params in ({"lang": lang}, {"lang": lang, "format": "png"}):
                got = client.get(path, params=params, headers=game.auth)
                assert got.status_code == 403, (path, got.text)
                store.read(gid, f"get {path} {params}", got.text)
        forged = f"TT1:{gid}:{last}:0,0:{'0' * 64}:{'A' * 22}"
        store.read(gid, f"post /slips/check in {lang}", client.post("/slips/check", json={"slip": forged}, params={"lang": lang}).text)
    store.read(gid, "get /embed/{share}", client.get(f"/embed/{token}").text)
    other = client.post(f"/games/{gid}/shares", headers=game.auth, json={}).json()["share"]
    store.read(gid, "delete /games/{game_id}/shares/{share}", client.delete(f"/games/{gid}/shares/{other}", headers=game.auth).text)
    store.read(gid, "get /shared/{share} withdrawn", client.get(f"/shared/{other}").text)
    store.asked |= {("post", "/games/{game_id}/shares"), ("delete", "/games/{game_id}/shares/{share}"),
                    ("get", "/shared/{share}"), ("get", "/shared/{share}/picture"), ("get", "/games/{game_id}/picture"),
                    ("get", "/games/{game_id}/slip"), ("post", "/slips/check")}


def _pack_reads(client, store: Store) -> None:
    """The pack library: the lists, and every pack the store added (grown ones would hold what
    games described; the built-in ones are the title's content, like ``/titles/{title_id}/content``)."""
    admin = {"Authorization": f"Bearer {client.app.state.services.admin_token_issued}"}
    node = {"kind": "node", "id": "KAS", "spec": {"kind": "city", "shield": "bow"}}
    base = "/titles/marco-polo-2/packs"
    assert client.post(f"{base}/marco-polo-2-public-1/versions", json={"add": [node]}, headers=admin).status_code == 201
    client.post("/games", json={"title": "marco-polo-2", "players": ["Ana", "Bea"], "options": {}})  # may grow a pack
    for title in ("marco-polo", "marco-polo-2"):
        listed = client.get(f"/titles/{title}/packs")
        store.read(None, f"get /titles/{title}/packs", listed.text)
        own = [p["id"] for p in listed.json()["packs"] if p["source"] != "builtin"]
        for pid in own:
            for params in ({}, {"download": 1}):
                store.read(None, f"get {title} pack {pid} {params}", client.get(f"/titles/{title}/packs/{pid}", params=params).text)
            store.read(None, f"diff {title} {pid}", client.get(f"/titles/{title}/packs/{pid}/diff/{own[0]}").text)
            store.read(None, f"merge {title} {pid}", client.get(f"/titles/{title}/packs/{pid}/merge/{own[0]}").text)
            store.read(None, f"share {title} {pid}", client.get(f"/titles/{title}/packs/{pid}/share").text)
            # the QR code carries the share link alone (the link's words are read just above)
            assert client.get(f"/titles/{title}/packs/{pid}/qr").headers["content-type"] == "image/svg+xml"
    store.asked |= {("get", "/titles/{title}/packs"), ("get", "/titles/{title}/packs/{pack_id}"),
                    ("get", "/titles/{title}/packs/{a}/diff/{b}"), ("get", "/titles/{title}/packs/{a}/merge/{b}"),
                    ("get", "/titles/{title}/packs/{pack_id}/share"), ("get", "/titles/{title}/packs/{pack_id}/qr")}


def _store_reads(client, store: Store) -> None:
    asks: list[tuple[str, str, dict]] = [
        ("get", "/games", {}),
        ("get", "/games", {"params": {"status": "in-progress"}}),
        ("get", "/stats/leaderboard", {}),
        ("get", "/stats/head-to-head", {}),
        ("get", "/sql/views", {}),
        ("get", "/stats", {}),
        ("get", "/stats/dashboard", {}),
    ]
    asks += [("get", "/stats/player", {"params": {"name": name}}) for name in ("Ana", "Bea")]
    for title in TITLES:
        keep = {"params": {"title": title}}
        asks += [("get", "/games", keep), ("get", "/stats/leaderboard", keep), ("get", "/stats/head-to-head", keep)]
        asks += [(("get", f"/stats/{q}", keep)) for q in ("seats", "scores", "sources")]
        asks += [("get", f"/stats/charts/{c}", keep) for c in ("scores", "seats", "characters")]
        asks += [("get", "/stats/{title}/" + q, {"title": title}) for q in ("characters", "beijing", "contracts")]
        asks += [("get", "/stats/titles/{title}", {"title": title}), ("get", "/stats/dashboard", keep)]
        asks += [("get", "/stats/think-time", {"params": {"title": title, "lang": lang}}) for lang in ("en", "es", "ja")]
        asks += [("get", "/stats/ratings", keep), ("get", "/stats/leaderboard", {"params": {"title": title, "order": "rating"}}),
                 ("get", "/stats/ratings/history", {"params": {"title": title, "name": "Ana"}}),
                 ("get", "/stats/ratings/favourite", {"params": {"title": title, "player": ["Ana", "Bea"]}})]
    asks += [("get", f"/stats/lost-cities/{q}", {}) for q in ("wagers", "bonus", "rounds")]
    asks.append(("get", "/export/bgstats", {}))
    admin = {"Authorization": f"Bearer {client.app.state.services.admin_token_issued}"}
    made = client.post("/seasons", json=SEASON, headers=admin)
    assert made.status_code == 201, made.text
    store.read(None, "post /seasons", made.text)
    amended = client.post(f"/seasons/{made.json()['season_id']}/amend", json={"name": "The long season"}, headers=admin)
    store.read(None, "post /seasons/{season_id}/amend", amended.text)
    store.asked |= {("post", "/seasons"), ("post", "/seasons/{season_id}/amend")}
    asks += [("get", "/seasons", {})]
    for path in ("/seasons/{season_id}", "/seasons/{season_id}.csv"):
        for lang in ("en", "ja"):
            said = client.get(path.format(season_id=made.json()["season_id"]), headers={"Accept-Language": lang})
            assert said.status_code == 200, said.text
            store.read(None, f"get {path} in {lang}", said.text)
        store.asked.add(("get", path))
    for method, path, kwargs in asks:
        url = path.format(title=kwargs.pop("title")) if "{title}" in path else path
        response = client.request(method, url, **kwargs)
        assert response.status_code in (200, 422), (path, response.text)
        store.read(None, f"{method} {url} {kwargs}", response.text)
        store.asked.add((method, path))
    _pack_reads(client, store)
    for name in views():
        answer = client.post("/sql", json={"query": f"SELECT * FROM {name}", "row_limit": 10_000})
        assert answer.status_code == 200, answer.text
        store.read(None, f"sql {name}", answer.text)
    store.asked.add(("post", "/sql"))


def _parquet_text(folder: Path) -> list[tuple[str, str]]:
    """Every exported row as text; event bodies decoded, hashes left out (random bytes, not data)."""
    out = []
    con = duckdb.connect()
    for table in sorted(p for p in folder.iterdir() if p.is_dir()):
        result = con.execute(f"SELECT * FROM read_parquet('{table}/**/*.parquet', hive_partitioning = true)")
        names = [d[0] for d in result.description]
        for row in result.fetchall():
            cells = {n: v for n, v in zip(names, row) if n not in ("hash", "prev_hash")}
            if "body" in cells and isinstance(cells["body"], bytes):
                cells["body"] = codec.to_builtins(codec.decode(cells["body"]))
            out.append((f"parquet {table.name}", json.dumps(cells, default=str)))
    return out


def _cli_reads(store: Store, tmp: Path) -> None:
    def run(*args: Any) -> str:
        result = runner.invoke(cli, [str(a) for a in (*args, "--db", store.path)])
        return result.output

    jsonl = tmp / "games.jsonl"
    store.read(None, "tabletape export -o FILE", run("export", "-o", jsonl))
    store.read(None, "tabletape export (the file)", jsonl.read_text() if jsonl.exists() else "")
    store.read(None, "tabletape export (stdout)", run("export"))
    for game in store.games.values():
        store.read(game.id, "tabletape export GAME", run("export", game.id))
        exact = f"SELECT seq, kind, detail FROM moves WHERE game_id = '{game.id}'"
        store.read(game.id, "tabletape sql (the exact query)", run("sql", exact, "--json"))
        store.read(game.id, "tabletape replay GAME (the table's picture)", run("replay", game.id))
        store.read(game.id, "tabletape replay GAME --at 3", run("replay", game.id, "--at", 3))
        store.read(game.id, "tabletape replay GAME --json", run("replay", game.id, "--json"))
        store.read(game.id, "tabletape replay GAME --race", run("replay", game.id, "--race"))
        store.read(game.id, "tabletape replay GAME --race --json", run("replay", game.id, "--race", "--json"))
        store.read(game.id, "tabletape replay GAME --think-time", run("replay", game.id, "--think-time"))
        store.read(game.id, "tabletape replay GAME --think-time --json", run("replay", game.id, "--think-time", "--json"))
        store.read(game.id, "tabletape replay GAME --bgstats", run("replay", game.id, "--bgstats"))
        forged = f"TT1:{game.id}:3:0,0:{'0' * 64}:{'A' * 22}"
        store.read(game.id, "tabletape check-slip (a forged slip)", run("check-slip", forged, "--json"))
        store.read(game.id, "tabletape share GAME", run("share", game.id))
    folder = tmp / "parquet"
    store.read(None, "tabletape export --format parquet", run("export", "--format", "parquet", folder))
    for where, text in _parquet_text(folder) if folder.exists() else []:
        store.read(None, where, text)
    for name in views():
        store.read(None, f"tabletape sql {name}", run("sql", f"SELECT * FROM {name}", "--json", "--row-limit", 10_000))
    store.read(None, "tabletape stats leaderboard", run("stats", "leaderboard", "--json"))
    for title in TITLES:
        store.read(None, f"tabletape ratings --title {title}", run("ratings", "--title", title, "--json"))
        store.read(None, f"tabletape ratings --player Ana ({title})", run("ratings", "--title", title, "--player", "Ana", "--json"))
    store.read(None, "tabletape season list", run("season", "list", "--json"))
    store.read(None, "tabletape season show", run("season", "show", "The long season", "--json"))
    store.read(None, "tabletape season csv", run("season", "csv", "The long season"))
    bgstats = tmp / "BGStatsExport.json"
    store.read(None, "tabletape export --format bgstats -o FILE", run("export", "--format", "bgstats", "-o", bgstats))
    store.read(None, "tabletape export --format bgstats (the file)", bgstats.read_text() if bgstats.exists() else "")
    store.read(None, "tabletape export --format bgstats (stdout)", run("export", "--format", "bgstats"))


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Store:
    tmp = tmp_path_factory.mktemp("secrets")
    store = Store(str(tmp / "store.duckdb"))
    with TestClient(create_app(Settings(db_path=store.path, stream_ping_s=0.2))) as client:
        svc = client.app.state.services
        for title in TITLES:
            rng = random.Random(title)
            digital = store.games[title, "digital"] = new(client, title, seed=42)
            advance(client, digital, 8, rng)
            table = store.games[title, "table"] = new(client, title, seed=None)
            if title == "lost-cities":
                record(client, table, LC_DEAL)
            advance(client, table, 10, rng)
        for (title, _), game in store.games.items():  # a note on a step: every read path shows it
            written = client.post(f"/games/{game.id}/notes", headers=game.auth,
                                  json={"step": 2, "text": "the table paused here", "expected_seq": last_seq(client, game.id)})
            assert written.status_code == 201, written.text
            store.read(game.id, "post /games/{game_id}/notes (the table writes a note)", written.text)
        for (title, _), game in store.games.items():
            assert svc.projector.state(game.id).ended is None
            store.hidden[game.id] = hidden_items(svc, game.id)
            _game_reads(client, store, game, title)
        _store_reads(client, store)
        spec = client.get("/openapi.json").json()
        store.routes = {(m, p) for p, ops in spec["paths"].items() for m in ops}
    _cli_reads(store, tmp)  # the command line opens the database file once the service has closed it
    return store


@pytest.mark.parametrize("title", TITLES)
def test_nothing_hidden_of_a_game_in_progress_is_read_anywhere(store, title):
    for kind in ("digital", "table"):
        game = store.games[title, kind]
        hidden = store.hidden[game.id]
        assert len(hidden) >= AT_LEAST[title], (kind, hidden)
        words = hidden_words(title, hidden)
        for where, text in store.reads[game.id] + store.reads[None]:
            seen = seen_in(text, hidden, words)
            assert not seen, f"{title} {kind} game: {where} shows {sorted(seen)}"


def test_every_route_that_serves_game_data_is_scanned(store):
    assert store.routes - NO_GAME_DATA <= store.asked, sorted(store.routes - NO_GAME_DATA - store.asked)


def test_a_seat_token_shows_that_seats_hidden_items_so_the_scan_would_find_them(store):
    with TestClient(create_app(Settings(db_path=store.path))) as client:
        for (title, kind), game in store.games.items():
            state = client.get(f"/games/{game.id}/state", params={"seat": 0}, headers=game.seat_auth(0)).text
            assert tokens(state) & store.hidden[game.id], (title, kind)
            if title == "lost-cities" and kind == "digital":  # and the words: its own draws, said in Spanish and Japanese
                words = hidden_words(title, store.hidden[game.id])
                for lang in ("es", "ja"):
                    said = client.get(f"/games/{game.id}/frames", params={"seat": 0},
                                      headers={**game.seat_auth(0), "Accept-Language": lang}).text
                    assert seen_in(said, store.hidden[game.id] - tokens(said), words), (lang, said)


def test_an_ended_game_shows_everything_and_undone_back_into_play_hides_again(client, svc, tmp_path):
    game = new(client, "lost-cities", seed=42)
    finish(svc, game.id)
    exact = {"query": f"SELECT seq, kind, detail FROM moves WHERE game_id = '{game.id}'"}
    kinds = [row[1] for row in client.post("/sql", json=exact).json()["rows"]]
    assert "lost-cities.deck-shuffled" in kinds
    folder = tmp_path / "parquet"
    assert parquet.export(svc.projector.read_models, folder).games == 1
    assert any(game.id in text for _, text in _parquet_text(folder))
    assert len(list(export_lines(svc.log, svc.projector, [game.id]))) == svc.log.last_seq(game.id)
    assert client.get("/stats/leaderboard").json()["rows"]
    assert [p["uuid"] for p in client.get("/export/bgstats").json()["plays"]] == [game_uuid(game.id)]

    last = last_seq(client, game.id)
    undone = client.post(f"/games/{game.id}/undo", headers=game.auth, json={"to_seq": last - 2, "expected_seq": last})
    assert undone.status_code == 201, undone.text
    assert client.get(f"/games/{game.id}").json()["status"] == "in-progress"
    assert client.post("/sql", json=exact).json()["rows"] == []
    for name in views():
        answer = client.post("/sql", json={"query": f"SELECT * FROM {name}"}).json()
        assert name == "games" or answer["rows"] == [], name
    assert client.get("/stats/leaderboard").json()["rows"] == []
    assert client.get("/export/bgstats").json()["plays"] == []
    report = parquet.export(svc.projector.read_models, folder)  # over the earlier export
    assert (report.games, report.in_progress) == (0, 1)
    assert not any(game.id in text for _, text in _parquet_text(folder))
    with pytest.raises(NotYetVisible):
        export_lines(svc.log, svc.projector, [game.id])


def test_a_stream_opened_after_the_end_hides_again_once_undone_back_into_play(client, svc):
    game = new(client, "lost-cities", seed=42)
    finish(svc, game.id)
    last = last_seq(client, game.id)
    seen: dict[str, list[dict]] = {}

    def watch(name: str, **eyes: Any) -> threading.Thread:
        def read() -> None:
            seen[name] = read_stream(client, game.id, last + 1, since=last, **eyes)
        thread = threading.Thread(target=read)
        thread.start()
        return thread

    # after the end a seat's view needs no token and the full view is open to all
    watchers = [watch("seat", seat=1), watch("full", full=True), watch("public")]
    time.sleep(0.5)  # the streams are open
    undone = client.post(f"/games/{game.id}/undo", headers=game.auth, json={"to_seq": last - 2, "expected_seq": last})
    assert undone.status_code == 201, undone.text
    for thread in watchers:
        thread.join(10)
    hidden = hidden_items(svc, game.id)
    for name, messages in seen.items():
        frame = json.loads(messages[-1]["data"]) if isinstance(messages[-1]["data"], str) else messages[-1]["data"]
        assert frame["seq"] == last + 1 and "hand" not in frame["view"] and "hands" not in frame["view"], name
        assert not tokens(json.dumps(frame)) & hidden, name


def test_the_write_tokens_last_step_keeps_a_digital_games_seed_and_shuffle(store):
    """A digital game's seed deals every card and its shuffle lists the draw pile: neither is in
    what the legal moves say of the step before, to the write token either, until the end."""
    for title in TITLES:
        game = store.games[title, "digital"]
        said = [text for where, text in store.reads[game.id] if "with the write token" in where]
        assert said and not any("seed" in text for text in said), said[:2]
        if title == "lost-cities":
            first = json.loads(said[1])[0]  # seq 2: the server's shuffle
            assert first.startswith("shuffle") and "," not in first, first
