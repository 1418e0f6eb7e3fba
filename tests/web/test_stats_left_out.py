"""The statistics page in a real Chromium over a store holding a game this code cannot read: the
page shows the other games and says which one it leaves out, at which seq."""

from __future__ import annotations

import live_server
import pytest

import tampering
from events.duckdb_log import DuckDBEventLog
from events.log import new_game_id
from replay.simulate import random_game


@pytest.fixture(scope="module")
def left_out_server(tmp_path_factory):
    """A server over two ended Lost Cities games, an event of an unknown type appended to the second."""
    path = str(tmp_path_factory.mktemp("left-out") / "t.duckdb")
    log = DuckDBEventLog(path)
    ids = [new_game_id(), new_game_id()]
    for seed, game_id in enumerate(ids):
        log.append(game_id, random_game("lost-cities", ("Ana", "Bea"), {"rounds": 1}, seed=seed), expected_seq=0)
    log.close()
    seq = tampering.append_to_store(path, ids[1], *tampering.future_event())
    base, proc = live_server.start(path)
    yield base, ids[1], seq
    live_server.stop(proc)


def test_the_dashboard_counts_the_others_and_names_the_game_it_leaves_out(page, left_out_server):
    base, bad, seq = left_out_server
    page.goto(f"{base}/?page=stats")
    page.wait_for_selector(".stats-page[data-ready=true]")
    said = page.locator("#stats-left-out").text_content()
    assert bad in said and f"seq {seq}" in said
    assert page.locator("[data-figures=dashboard] [data-figure=games] .v").text_content() == "1"
