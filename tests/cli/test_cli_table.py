"""The table as a terminal picture (issue 27 item 5): ``replay`` and ``record`` draw each title's
table from the view the reader may see, on a real DuckDB file, through the real command line
(typer's runner; a pseudo-terminal where colour and width matter)."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from api.cli.main import app, layers

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
NO_LOCALE = {"LC_ALL": "", "LC_MESSAGES": "", "LANG": ""}
CARD = re.compile(r"\b[YBWGRP](?:10|[2-9]|x)\b")


def run(*args: str, input: str | None = None):
    result = runner.invoke(app, [str(a) for a in args], env=NO_LOCALE, input=input)
    assert "Traceback" not in result.output, result.output
    return result


@pytest.fixture
def db(tmp_path) -> str:
    return str(tmp_path / "t.duckdb")


def new(db: str, *options: str, seed: int | None = None) -> str:
    args = ["new", "lost-cities", "Ana", "Bea", "--option", "rounds=1", *options, "--db", db]
    made = run(*args, *(("--seed", str(seed)) if seed is not None else ()))
    assert made.exit_code == 0, made.output
    return re.search(r"game (\w+)", made.output).group(1)


def imported(db: str, title: str, cut: int, options: dict | None = None, seed: int = 3) -> str:
    """The first ``cut`` events of a random digital game of ``title`` between Ana and Bea."""
    import rules  # noqa: F401  (registers every title's events)
    from events.duckdb_log import DuckDBEventLog
    from events.log import new_game_id
    from replay.simulate import random_game

    game_id = new_game_id()
    log = DuckDBEventLog(db)
    log.import_games([(game_id, random_game(title, ("Ana", "Bea"), options or {}, seed=seed)[:cut])])
    log.close()
    return game_id


def in_a_terminal(args: list[str], env: dict[str, str]) -> str:
    """What the program prints on a terminal of 80 columns (a pseudo-terminal: rich sees a tty)."""
    leader, follower = pty.openpty()
    os.set_blocking(leader, True)
    import fcntl
    import struct
    import termios

    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 80, 0, 0))
    environ = {**os.environ, **NO_LOCALE, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color", **env}
    environ.pop("COLUMNS", None)  # the terminal says its width
    proc = subprocess.Popen([sys.executable, "-m", "api", *args], stdout=follower, stderr=follower,
                            stdin=subprocess.DEVNULL, env=environ, cwd=ROOT)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    proc.wait(timeout=60)
    os.close(leader)
    return b"".join(chunks).decode("utf-8").replace("\r\n", "\n")


def mid_round(db: str) -> str:
    """A digital Lost Cities game a few turns into its round, Ana to play."""
    game_id = new(db, seed=11)
    with layers(db) as lay:
        for _ in range(8):
            game = lay.projector.state(game_id)
            lay.recorder.record(game_id, game.title.legal_moves(game.state)[-1])
    return game_id


def test_a_seat_sees_its_own_hand_in_the_picture_and_no_other_hidden_card(db):
    game_id = mid_round(db)
    with layers(db) as lay:
        game = lay.projector.state(game_id)
        full = game.title.full_view(game.state)
        public = game.title.view(game.state, None)
    shown = {c for side in public["expeditions"] for colour in public["expedition_order"] for c in side[colour]}
    shown |= {c for pile in public["discard_piles"].values() for c in pile}
    own = set(full["hands"][0]["cards"])
    hidden = (set(full["hands"][1]["cards"]) | set(full["draw_pile_order"])) - shown - own
    assert hidden and own
    seat = run("replay", game_id, "--seat", "0", "--db", db)
    assert seat.exit_code == 0, seat.output
    hand = next(line for line in seat.output.splitlines() if line.startswith("Hand of Ana: "))
    assert set(CARD.findall(hand)) == own
    assert "Hand of Bea" not in seat.output
    assert not set(CARD.findall(seat.output)) & hidden, seat.output
    everyone = run("replay", game_id, "--db", db)
    assert "Hand of" not in everyone.output
    assert set(CARD.findall(everyone.output)) <= shown, everyone.output


def test_replay_draws_lost_cities_at_a_step(db):
    game_id = new(db)
    run("record", game_id, "--db", db, input="deal\nR7\nd\n-B4\nd\nGx\nquit\n")
    result = run("replay", game_id, "--at", "6", "--db", db)
    assert result.exit_code == 0, result.output
    rows = {line.split()[0]: line.split()[1:] for line in result.output.splitlines() if line.strip()}
    assert rows["red"] == ["R7", "·", "·"]  # Ana's red expedition, the red pile, Bea's
    assert rows["blue"] == ["·", "B4", "·"]
    assert rows["green"] == ["·", "·", "·"]  # Gx came after step 6
    assert "draw pile: 42 cards · in hand: Ana 8 · Bea 8" in result.output
    assert result.output.rstrip().endswith("round 1: Ana to play or discard")
    assert len(result.output.splitlines()) <= 30


def test_replay_json_keeps_the_view_for_programs(db):
    import json

    game_id = new(db)
    run("record", game_id, "--db", db, input="deal\nR7\nquit\n")
    answer = json.loads(run("replay", game_id, "--json", "--db", db).output)
    assert answer["at"] == 3 and answer["perspective"] == "public"
    assert answer["view"]["expeditions"][0]["red"] == ["R7"]


def test_record_shows_the_table_again_and_the_hand_to_move(db):
    game_id = new(db, seed=5)
    with layers(db) as lay:
        game = lay.projector.state(game_id)
        hand = game.title.view(game.state, 0)["hand"]["cards"]
        bea = game.title.full_view(game.state)["hands"][1]["cards"]
    result = run("record", game_id, "--db", db, input="show\nhand\nquit\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("round 1: Ana to play or discard") == 2  # at the start, and show
    assert result.output.count("             Ana   discard   Bea") == 2
    shown = [line for line in result.output.splitlines() if "Hand of" in line]
    assert len(shown) == 1 and shown[0].endswith("Hand of Ana: " + " ".join(hand))  # only when asked
    assert not set(bea) - set(hand) & set(CARD.findall(result.output.split("Hand of Ana")[0]))


def test_a_draw_lists_only_the_real_choices_in_words(db):
    game_id = new(db)
    script = "deal\nB5\nd\n-Y3\nd\n-G4\nmoves all\nquit\n"  # Ana discards G4: the green pile is not hers to take
    result = run("record", game_id, "--db", db, input=script)
    assert result.exit_code == 0, result.output
    last_picture = result.output.rsplit("#7 last: -G4", 1)[1]
    listed = last_picture.split("draw from:\n", 1)[1].split("every legal move: moves all", 1)[0]
    assert [line.split()[0] for line in listed.splitlines()] == ["d", "dY"]
    assert "the draw pile (42 cards)" in listed and "the top of the yellow discard pile: Y3" in listed
    assert "* the green pile's top was discarded this turn" in last_picture
    every = last_picture.split("every legal move: moves all", 1)[1]
    assert "moves: d d=" in every and len(every.split("moves: ")[1].split()) > 30


def test_through_the_service_hand_says_what_it_needs(db):
    from api.cli.recording import Look, TableRecorder, RemoteDesk
    from rich.console import Console

    class Served(RemoteDesk):  # the service's answer, as RemoteDesk reads it (no seat token)
        def __init__(self) -> None:
            self.game_id = "g1"

        def look(self) -> Look:
            return Look("g1", 3, "R7", "round 1: Ana to draw", False, [], {"title": "lost-cities"}, None, None, 0)

    out = Console(width=80, record=True, color_system=None)
    TableRecorder(Served(), out).hand()
    assert "tabletape replay g1 --seat S --token" in " ".join(out.export_text().split())


@pytest.mark.parametrize("lang, words", [
    ("es", ["Ronda 1 de 1", "descarte", "esta ronda", "mazo: 42 cartas · en la mano: Ana 8 · Bea 8", "Mano de Ana"]),
    ("ja", ["ラウンド 1/1", "捨て札", "このラウンド", "山札: 42枚 · 手札: Ana 8 · Bea 8", "Anaの手札"]),
])
def test_the_picture_speaks_the_chosen_language(db, lang, words):
    game_id = new(db)
    run("record", game_id, "--db", db, input="deal\nR7\nd\n-B4\nd\nquit\n")
    result = run("--lang", lang, "replay", game_id, "--seat", "0", "--db", db)
    assert result.exit_code == 0, result.output
    for word in words:
        assert word in result.output, (word, result.output)
    assert "discard" not in result.output and "this round" not in result.output


def test_no_color_on_a_terminal_is_plain_text_within_80_columns(db):
    game_id = mid_round(db)
    coloured = in_a_terminal(["replay", game_id, "--db", db], {})
    assert "\x1b[" in coloured  # a terminal gets colour unless asked not to
    plain = in_a_terminal(["replay", game_id, "--db", db], {"NO_COLOR": "1"})
    assert "\x1b" not in plain and "Lost Cities" in plain and "to play or discard" in plain
    lines = plain.rstrip("\n").splitlines()
    assert len(lines) <= 30 and max(len(line) for line in lines) <= 80


def test_marco_polo_shows_whose_turn_and_each_players_resources(db):
    game_id = imported(db, "marco-polo", 60)
    with layers(db) as lay:
        view = lay.projector.state(game_id).title.view(lay.projector.state(game_id).state, 0)
    mover = view["players"][view["to_move"]]
    result = run("replay", game_id, "--db", db)
    assert result.exit_code == 0, result.output
    assert f"▶ {mover} · " in result.output and result.output.count("▶") == 1
    for seat in view["seats"]:
        assert f"Coins {seat['coins']} · Camels {seat['camels']} · Pepper {seat['pepper']} · Silk {seat['silk']}" in result.output
    assert "Contract display" in result.output and "→" in result.output
    assert "own cards (secret)" not in result.output  # objectives: only their owner's view
    mine = run("replay", game_id, "--seat", "0", "--db", db)
    assert "Ana's own cards (secret): " in mine.output and "Bea's own cards" not in mine.output


def test_marco_polo_2_shows_whose_turn_each_players_resources_and_the_books(db):
    game_id = imported(db, "marco-polo-2", 80, {"content": {"id": "marco-polo-2-synthetic-test-1"}})
    with layers(db) as lay:
        game = lay.projector.state(game_id)
        view = game.title.view(game.state, None)
    mover = view["players"][view["to_move"]]
    result = run("--lang", "es", "replay", game_id, "--db", db)
    assert result.exit_code == 0, result.output
    assert f"▶ {mover} · " in result.output
    for seat in view["seats"]:
        assert f"Jade {seat['jade']} · PV {seat['vp']}" in result.output
    assert "Libro 1: 1 jade: " in result.output
    assert "propias de" not in result.output  # a goal card is its owner's
    assert len(result.output.splitlines()) <= 30
