"""Time to a first recorded game: the README's first section followed to the letter on a fresh
store, as a newcomer would. The service is started by the command `make serve` runs, the page
flow is done in Chromium, the command-line flow in a pseudo-terminal; any step that fails fails
the test, and each flow's time is printed."""

from __future__ import annotations

import os
import pty
import re
import select
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

import examples
import live_server
import ports
from pagehelp import wait_ready

README = examples.ROOT / "README.md"
FIRST_SECTION = "## Record your first game"


def readme_blocks() -> list[examples.Block]:
    return [b for b in examples.blocks() if b.path == "README.md"]


def test_the_first_code_block_is_the_two_commands_and_ci_runs_the_second():
    first = readme_blocks()[0]
    assert first.commands == ("make serve", "make test")
    assert "\nmake test\n" in (examples.ROOT / ".ci" / "run").read_text()


def serve_command(port: int) -> list[str]:
    """What `make serve` runs once its environment is installed (the last line of `make -n`)."""
    planned = subprocess.run(["make", "-n", "-s", "serve", f"PORT={port}"], cwd=examples.ROOT, capture_output=True, text=True)
    assert planned.returncode == 0, planned.stderr
    words = shlex.split(planned.stdout.strip().splitlines()[-1])
    assert words[0] == ".venv/bin/tabletape" and words[1] == "serve", words
    return [sys.executable, "-m", "api", *words[1:]]


@pytest.fixture
def make_serve(tmp_path):
    """The service as `make serve` starts it (127.0.0.1, its default store), in a fresh folder."""
    with ports.reserved() as port:
        command = serve_command(port)
        assert command[-6:] == ["--host", "127.0.0.1", "--port", str(port), "--db", "data/tabletape.duckdb"]
        proc = subprocess.Popen(command, cwd=tmp_path, env=examples.environment(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while not examples.in_subprocess(f"curl -sf {base}/health", tmp_path)[0] == 0:
            assert proc.poll() is None and time.monotonic() < deadline, proc.stdout.read().decode()
            time.sleep(0.1)
    yield base, tmp_path
    live_server.stop(proc)


def in_terminal(script: str, cwd: Path) -> tuple[int, str, str]:
    """Run a bash script on a pseudo-terminal, as typed at a prompt: its exit status and what showed."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(["bash", "-c", script], cwd=cwd, env=examples.environment(), stdin=follower,
                            stdout=follower, stderr=follower, close_fds=True)
    os.close(follower)
    shown = b""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal's other end closed: the script is done
                break
            if not chunk:
                break
            shown += chunk
        elif proc.poll() is not None:
            break
    os.close(leader)
    status = proc.wait(timeout=30)
    return status, re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", shown.decode(errors="replace")).replace("\r\n", "\n"), ""


def test_the_first_game_by_the_command_line_in_a_terminal(make_serve):
    base, folder = make_serve
    started = time.monotonic()
    for block in readme_blocks()[1:]:
        if block.title == "run" and "tabletape new" in " ".join(block.commands):
            done = examples.run(block, base, folder, shell=in_terminal)
            break
    else:
        pytest.fail(f"no tabletape new in {FIRST_SECTION}")
    recorded, replayed = done[1][1], done[2][1]
    assert "R7" in recorded and "refused" not in recorded.lower(), recorded
    # replay draws the table: the red expedition's row holds the card played
    assert re.search(r"^red\b.*R7", replayed, re.M), replayed
    print(f"first game by the command line: {time.monotonic() - started:.1f} s")


def said(phrase: str) -> None:
    """The README's first section tells the reader this, word for word."""
    text = " ".join(README.read_text(encoding="utf-8").split(FIRST_SECTION)[1].split("\n## ")[0].split())
    assert phrase in text, f"the README's first section no longer says: {phrase}"


def test_the_first_game_by_the_page_in_chromium(make_serve, page):
    base, folder = make_serve
    started = time.monotonic()
    examples.run(readme_blocks()[1], base, folder)  # the sample games first, as the section says
    said("Open <http://127.0.0.1:8000/> and press **New game**")
    page.goto(base + "/")
    page.get_by_role("link", name="New game", exact=True).click()
    said("Pick *Lost Cities*, name the two players *Ana* and *Bea*, tick *Digital play*")
    page.get_by_label("Game").select_option("lost-cities")
    page.fill("#n-player-0", "Ana")
    page.fill("#n-player-1", "Bea")
    page.get_by_label(re.compile("^Digital play")).check()
    said("press **Start the game**")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/?game=*")
    wait_ready(page)
    said("tap *Play*, a card, then the card *from the draw pile*")
    play = page.locator("#picker .kind[data-group='lost-cities.card-played']")
    assert play.inner_text().startswith("Play"), play.inner_text()
    play.click()
    page.locator("#picker .move").first.click()
    draw = page.locator("#picker .move", has_text="from the draw pile")
    draw.wait_for()
    draw.click()
    page.wait_for_function("() => document.querySelector('#history').innerText.includes('drew from the draw pile')")
    said("*Undo last move* takes one back")
    page.get_by_role("button", name="Undo last move").click()
    page.wait_for_function("() => !document.querySelector('#history').innerText.includes('drew from the draw pile')")
    said("Open **Statistics** for the dashboard, or **Games** for every game and its replay")
    page.get_by_role("link", name="Statistics").click()
    page.get_by_text("Statistics of the group").first.wait_for()
    page.locator("#main svg").first.wait_for()  # the dashboard's charts, drawn from the sample games
    page.get_by_role("link", name="Games", exact=True).click()
    page.locator("#main a[href*=\"game=\"]", has_text="Marco Polo II").first.wait_for()  # the sample games, listed
    print(f"first game by the page: {time.monotonic() - started:.1f} s (the sample games included)")
