"""A Marco Polo II pack passed between two real services (two ``tabletape serve`` on two ports,
two fresh stores): the first grows its pack by recording a group's game, the second imports it by
its share link and records a game on it that describes nothing: no move refused for a component
the pack lacks, and nothing left for the pack to learn."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from packgroups import GROUP_A, NEW_GAME, OverHttp, admin_token, grown_over_http

import live_server

MP2 = "/titles/marco-polo-2/packs"
UNDESCRIBED = "marco-polo-2.undescribed-component"


def plain(line: str) -> str:
    """The line as a table that knows every component enters it: without its descriptions."""
    return re.sub(r" describe=\[.*\]$", "", line)


@pytest.fixture
def services(tmp_path):
    """Two services over two fresh stores: each (client, admin token)."""
    procs, out = [], []
    try:
        for name in ("first", "second"):
            printed = tmp_path / f"{name}.txt"
            base, proc = live_server.start(tmp_path / f"{name}.duckdb", output=printed, timeout=90)
            procs.append(proc)
            out.append((httpx.Client(base_url=base, timeout=30), admin_token(printed)))
        yield out
    finally:
        for client, _ in out:
            client.close()
        for proc in procs:
            live_server.stop(proc)


def test_a_pack_imported_by_its_link_records_a_game_with_nothing_described(services):
    (first, _), (second, token) = services
    assert urlsplit(str(first.base_url)).port != urlsplit(str(second.base_url)).port
    grown = grown_over_http(first, GROUP_A)
    assert grown["id"] == "ours-v1"
    lines = [plain(line) for line in GROUP_A]
    assert any("describe=" in line for line in GROUP_A) and not any("describe=" in line for line in lines)

    # without the pack, the second store asks for what the table saw: refused, nothing written
    games = OverHttp(second)
    before = games.new_game()
    refused = games.record(before, lines[0])
    assert refused.status_code == 422 and refused.json()["code"] == UNDESCRIBED, refused.text
    assert second.get(f"/games/{before}").json()["last_seq"] == 1

    # the share link, as the other group receives it: the file it names, imported with its hash
    link = first.get(f"{MP2}/{grown['id']}/share").json()["link"]
    query = parse_qs(urlsplit(link).query)
    (file,), (digest,) = query["import"], query["hash"]
    assert digest == grown["hash"] and urlsplit(file).netloc == urlsplit(str(first.base_url)).netloc
    data = httpx.get(file, timeout=30)
    assert data.status_code == 200 and data.headers["access-control-allow-origin"] == "*"
    imported = second.post(f"{MP2}/import", content=data.content, params={"hash": digest, "working": "true"},
                           headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    assert imported.status_code == 201, imported.text
    assert (imported.json()["hash"], imported.json()["source"], imported.json()["working"]) == (grown["hash"], "import", True)

    # a game on it: every line recorded as the table says it, no description asked for
    game = games.new_game()
    assert second.get(f"/games/{game}").json()["options"]["content"] == {"id": grown["id"], "hash": grown["hash"]}
    for line in lines:
        got = games.record(game, line)
        assert got.status_code == 201, (line, got.text)
    assert second.get(f"/games/{game}").json()["last_seq"] >= len(lines) + 1
    # nothing was described, so nothing grows: a new game finds the same working pack
    games.new_game()
    listing = second.get(MP2).json()
    assert listing["working"] == {"id": grown["id"], "hash": grown["hash"]}
    assert [p["source"] for p in listing["packs"]].count("grown") == 0
