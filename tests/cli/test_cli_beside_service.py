"""Every ``tabletape`` command on a DuckDB file that a real ``tabletape serve`` on 127.0.0.1 holds:
it goes through the service's HTTP API (found from the discovery file beside the database, or
given ``--url``) and prints what it prints on the file itself, or it says in one line what to do.
Never a traceback."""

from __future__ import annotations

import json
import os
import re
import http.server
import signal
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

import live_server
import ports
import rules  # noqa: F401  (registers every title's events)
from api import remote
from api.program import app  # the whole program: serve too
from events.duckdb_log import DuckDBEventLog
from events.log import new_game_id
from replay.simulate import random_game

runner = CliRunner()

#: each question and the options it is asked with, on the file and through the service
QUESTIONS = [
    ("leaderboard",), ("leaderboard", "--player", "ana", "--limit", "2"), ("head-to-head",),
    ("head-to-head", "--player", "Ana"), ("seats", "--title", "lost-cities"),
    ("scores", "--title", "lost-cities", "--bin-width", "20"), ("sources", "--title", "marco-polo"),
    ("wagers",), ("bonus",), ("rounds",), ("characters",), ("beijing",), ("contracts",),
    ("leaderboard", "--title", "lost-cities", "--option", "rounds=2"),
    ("leaderboard", "--from", "2000-01-01", "--to", "2100-01-01"),
]
#: a physical Lost Cities game at the table: moves, a typo, every kind of undo, redo, an error
SCRIPT = "deal\nR7\nd\nB5\nd\nY3\nd\nzz\nundo\nundo 2\nredo\nredo\nundo --to 3\nundo 9\nmoves\nhelp\nR8\nquit\n"


def run(*args: str, input: str | None = None):
    result = runner.invoke(app, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output and not isinstance(result.exception, (AttributeError, TypeError)), result
    return result


def seeded(db: Path) -> list[str]:
    """Finished random games of Lost Cities and Marco Polo."""
    log = DuckDBEventLog(str(db))
    ids = []
    for seed in range(6):
        ids.append(new_game_id())
        log.import_games([(ids[-1], random_game("lost-cities", ("Ana", "Bea"), {"rounds": 1 + seed % 2}, seed=seed))])
    for seed in range(2):
        ids.append(new_game_id())
        log.import_games([(ids[-1], random_game("marco-polo", ("Ana", "Carl", "Dana")[: 2 + seed], {"characters": "chosen"}, seed=seed))])
    log.close()
    return ids


#: refusals, in Spanish and Japanese: the service's words are the file's
REFUSALS = [("--lang", "es", "stats", "seats"), ("--lang", "ja", "replay", "nope"), ("--lang", "es", "pack", "show", "nope")]


def refused(db: str) -> dict[tuple[str, ...], str]:
    out = {}
    for args in REFUSALS:
        result = run(*args, "--db", db)
        assert result.exit_code == 1 and result.output.count("\n") == 1, result.output
        out[args] = result.output
    return out


def asked(db: str) -> dict[tuple[str, ...], str]:
    """Every question's answer as tables and as JSON."""
    out = {}
    for question in QUESTIONS:
        for form in ((), ("--json",)):
            result = run("stats", *question, *form, "--db", db)
            assert result.exit_code == 0, result.output
            out[question + form] = result.output
    return out


def read_only(db: str, game_id: str) -> dict[str, str]:
    """The other reading commands' output."""
    commands = {
        "games": ("games",),
        "games-filtered": ("games", "--title", "marco-polo", "--limit", "1"),
        "replay": ("replay", game_id, "--full"),
        "replay-at": ("replay", game_id, "--at", "3"),
        "sql": ("sql", "SELECT title, count(*) AS n FROM games GROUP BY title ORDER BY title", "--json", "--time-limit", "30"),
        "bgstats": ("export", "--format", "bgstats"),
        "packs": ("pack", "list"),
        "pack-show": ("pack", "show", "marco-polo-2-synthetic-test-1"),
        "pack-download": ("pack", "download", "marco-polo-2-synthetic-test-1"),
        "pack-diff": ("pack", "diff", "marco-polo-2-public-1", "marco-polo-2-synthetic-test-1"),
    }
    out = {}
    for name, args in commands.items():
        result = run(*args, "--db", db)
        assert result.exit_code == 0, (name, result.output)
        out[name] = re.sub(r'"modificationDate": "[^"]*"', "(export time)", result.output)
    return out


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One seeded store: what each command prints on the file, then a server holding it."""
    folder = tmp_path_factory.mktemp("served")
    db = folder / "club.duckdb"
    ids = seeded(db)
    direct = {"ids": ids, "stats": asked(str(db)), "reads": read_only(str(db), ids[0]), "refused": refused(str(db))}
    base, proc = live_server.start(db, output=folder / "server.txt")
    yield {"db": str(db), "base": base, "proc": proc, "direct": direct, "folder": folder}
    live_server.stop(proc)


def test_the_service_announces_itself_beside_its_database(served):
    found = json.loads(remote.discovery_path(served["db"]).read_text())
    assert found == {"url": served["base"], "pid": served["proc"].pid, "db": str(Path(served["db"]).resolve())}
    assert remote.discovered(served["db"]).url == served["base"]


def test_every_question_through_the_service_prints_what_it_prints_on_the_file(served):
    assert asked(served["db"]) == served["direct"]["stats"]


def test_every_reading_command_through_the_service_prints_what_it_prints_on_the_file(served):
    assert read_only(served["db"], served["direct"]["ids"][0]) == served["direct"]["reads"]


def test_a_chart_through_the_service(served, tmp_path):
    result = run("chart", "seats", "--title", "lost-cities", "-o", tmp_path / "seats.svg", "--db", served["db"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "seats.svg").read_text().lstrip().startswith(("<?xml", "<svg"))


def test_record_through_the_service_prints_what_it_prints_on_the_file(served, tmp_path):
    alone = str(tmp_path / "alone.duckdb")
    made = run("new", "lost-cities", "Ana", "Bea", "--option", "rounds=1", "--db", alone)
    game_id = re.search(r"game (\w+)", made.output).group(1)
    on_file = run("record", game_id, "--db", alone, input=SCRIPT)

    made = run("new", "lost-cities", "Ana", "Bea", "--option", "rounds=1", "--db", served["db"])
    assert made.exit_code == 0, made.output
    assert re.sub(r"\S{20,}", "X", made.output) == re.sub(r"\S{20,}", "X", run_new_shape(tmp_path))
    game_id = re.search(r"game (\w+)", made.output).group(1)
    write = re.search(r"write token: (\S+)", made.output).group(1)
    through = run("record", game_id, "--token", write, "--db", served["db"], input=SCRIPT)
    assert through.exit_code == on_file.exit_code == 0, through.output
    assert through.output == on_file.output
    assert "lost-cities.bad-notation" in through.output and "undo-out-of-range" in through.output

    # the tokens command through the service: new tokens; the old write token stops working
    issued = run("tokens", game_id, "--token", write, "--db", served["db"])
    assert issued.exit_code == 0 and "write token:" in issued.output and write not in issued.output
    stale = run("record", game_id, "--token", write, "--db", served["db"], input="quit\n")
    assert stale.exit_code == 1 and "token-wrong" in stale.output and stale.output.count("\n") == 1


def run_new_shape(tmp_path: Path) -> str:
    return run("new", "lost-cities", "Ana", "Bea", "--option", "rounds=1", "--db", str(tmp_path / "shape.duckdb")).output


ONE_LINERS = [
    ("verify",), ("verify", "--rules"), ("log", "{game}"), ("export",), ("export", "-o", "{tmp}/x.jsonl"),
    ("export", "--format", "parquet", "{tmp}/pq"), ("import", "{tmp}/in.jsonl"), ("import", "--format", "bgstats", "{tmp}/bg.json"),
    ("stats", "rebuild"), ("admin-token",), ("pack", "upload", "{tmp}/pack.json"), ("pack", "derive", "marco-polo-2-synthetic-test-1", "--remove", "node:KAS"),
    ("record", "{game}"), ("tokens", "{game}"), ("serve", "--port", "1"),
]


@pytest.mark.parametrize("args", ONE_LINERS, ids=lambda a: " ".join(a[:2]))
def test_a_command_that_cannot_go_through_says_in_one_line_what_to_do(served, tmp_path, args):
    (tmp_path / "in.jsonl").write_text("")
    (tmp_path / "bg.json").write_text("{}")
    (tmp_path / "pack.json").write_text("{}")
    filled = [a.format(game=served["direct"]["ids"][0], tmp=tmp_path) for a in args]
    result = run(*filled, "--db", served["db"])
    assert result.exit_code == 1, result.output
    assert result.output.count("\n") == 1 and served["base"] in result.output, result.output
    if args[0] in ("record", "tokens"):
        assert "--token" in result.output
    elif args[:2] in (("pack", "upload"), ("pack", "derive")):
        assert "admin token" in result.output
    elif args[0] == "admin-token":
        assert "new admin token" in result.output and "stop the service" in result.output
    elif args[0] == "serve":
        assert "already served" in result.output
    else:
        assert "stop the service" in result.output


def test_an_error_of_the_service_is_one_line_in_the_cli_language(served):
    assert refused(served["db"]) == served["direct"]["refused"]
    result = run("--lang", "es", "replay", "nope", "--db", served["db"])
    assert result.exit_code == 1 and result.output.count("\n") == 1 and "unknown-game" in result.output
    seat = run("replay", served["direct"]["ids"][0], "--at", "999", "--db", served["db"])
    assert seat.exit_code == 1 and "seq-out-of-range" in seat.output and seat.output.count("\n") == 1


def test_url_names_the_service_and_a_wrong_one_is_one_line(served, tmp_path):
    elsewhere = str(tmp_path / "elsewhere.duckdb")  # not the served file: --url alone decides
    given = run("--url", served["base"], "stats", "leaderboard", "--db", elsewhere)
    assert given.output == served["direct"]["stats"][("leaderboard",)]
    no_route = run("--url", served["base"], "verify", "--db", elsewhere)
    assert no_route.exit_code == 1 and no_route.output.count("\n") == 1 and "cannot go through" in no_route.output
    assert not Path(elsewhere).exists()
    with ports.reserved() as port:  # held, never listening: nobody answers there
        wrong = run("--url", f"http://127.0.0.1:{port}", "stats", "leaderboard", "--db", elsewhere)
    assert wrong.exit_code == 1 and "did not answer" in wrong.output and wrong.output.count("\n") == 1


def test_a_stale_discovery_file_is_ignored(tmp_path):
    db = tmp_path / "left.duckdb"
    seeded(db)
    on_file = run("stats", "leaderboard", "--db", db).output
    base, proc = live_server.start(db, output=tmp_path / "server.txt")
    assert run("stats", "leaderboard", "--db", db).output == on_file
    os.kill(proc.pid, signal.SIGKILL)  # no shutdown: the file stays behind, naming a dead pid
    proc.wait()
    assert remote.discovery_path(str(db)).exists()
    assert run("stats", "leaderboard", "--db", db).output == on_file
    # a live pid (this one) whose URL does not answer is stale too
    with ports.reserved() as port:
        remote.discovery_path(str(db)).write_text(json.dumps(
            {"url": f"http://127.0.0.1:{port}", "pid": os.getpid(), "db": str(db.resolve())}
        ))
        assert run("stats", "leaderboard", "--db", db).output == on_file


def test_the_discovery_file_goes_when_the_service_stops(tmp_path):
    db = tmp_path / "stops.duckdb"
    base, proc = live_server.start(db, output=tmp_path / "server.txt")
    assert remote.discovery_path(str(db)).exists()
    live_server.stop(proc)
    assert not remote.discovery_path(str(db)).exists()
    assert run("games", "--db", db).exit_code == 0  # the file is the CLI's again


def test_a_store_held_without_a_discovery_file_is_store_busy_in_one_line(tmp_path):
    """A service of an older tabletape (or a file removed by hand): no way through, but no traceback."""
    db = tmp_path / "older.duckdb"
    base, proc = live_server.start(db, output=tmp_path / "server.txt")
    try:
        remote.discovery_path(str(db)).unlink()
        with ports.reserved() as port:
            for args in (("serve", "--port", str(port)), ("stats", "leaderboard"), ("games",)):
                busy = run(*args, "--db", db)
                assert busy.exit_code == 1 and busy.output.startswith("store-busy") and busy.output.count("\n") == 1, busy.output
    finally:
        live_server.stop(proc)


class _WebPage(http.server.BaseHTTPRequestHandler):
    """Any web server that is not tabletape: an HTML page for every path, 404 under /missing."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        status = 404 if self.path.startswith("/missing") else 200
        page = b"<!doctype html>\n<html>\n<head><title>Not here</title></head>\n<body>\n<h1>Hello</h1>\n</body>\n</html>\n"
        self.send_response(status)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(page)))
        self.end_headers()
        self.wfile.write(page)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def web_page():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _WebPage)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("under", ["", "/missing"])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_url_that_answers_a_web_page_is_one_line_saying_it_is_not_tabletape(web_page, tmp_path, under, lang):
    """Before: a 200 HTML page ended in a 56-line traceback (its body is not JSON), a 404 one
    printed the page's HTML."""
    url = web_page + under
    result = run("--lang", lang, "--url", url, "games", "--db", str(tmp_path / "t.duckdb"))
    assert result.exit_code == 1 and result.output.count("\n") == 1, result.output
    assert "<" not in result.output and url in result.output
    said = {"en": "did not answer as a tabletape service", "ja": "tabletape のサービスとして応答しませんでした"}
    assert said[lang] in result.output
