"""The command examples of the README and the manual: every ```sh block is either marked
``title="run"`` (run here, command by command, against a fresh store beside a real service),
``title="run without the service"`` (on a fresh store's file), or says why not
(``title="not run: ..."``).

A block's commands run as printed, with three stand-ins: ``127.0.0.1:8000`` is the test's own
service, ``tabletape`` (or ``.venv/bin/tabletape``) is this checkout's, and ``GAME`` / ``WRITE``
are the game id and write token the block's last ``tabletape new`` or ``POST /games`` printed;
``ENDED`` the first finished game ``tabletape demo`` printed, ``SHARE`` the token of the last
share link made (``tabletape share`` or ``POST /games/{id}/shares``), ``SLIP`` the last slip
printed (``tabletape slip`` or ``GET /games/{id}/slip``); ``NIGHT`` / ``NIGHT_TOKEN`` the id and
token of the last night opened (``tabletape night open`` or ``POST /nights``); ``LINK`` the last
pack share link printed (``tabletape pack link`` or ``GET .../packs/{id}/share``), and ``ADMIN``
the admin token the service printed on its first start.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERVICE = "127.0.0.1:8000"
#: a block's title for commands on the file itself, with no service running
WITHOUT_SERVICE = "run without the service"
FENCE = re.compile(r'^```sh(?: title="(?P<title>[^"]*)")?\s*\n(?P<body>.*?)^```\s*$', re.S | re.M)
GAME = re.compile(r'^game (\S+)$|"game_id":\s*"([^"]+)"', re.M)
WRITE = re.compile(r'^write token: (\S+)$|"write_token":\s*"([^"]+)"', re.M)
ENDED = re.compile(r"^finished \S+ game (\S+)$()", re.M)
SHARE = re.compile(r"^The link's token .*: (\S+)$|\"share\":\s*\"([^\"]+)\"", re.M)
SLIP = re.compile(r'^(TT1:\S+)$|"text":\s*"(TT1:[^"]+)"', re.M)
NIGHT = re.compile(r"^night .* opened \((night-\w+)\)$|\"night_id\":\s*\"([^\"]+)\"", re.M)
# a night's own token: a night's answer names it once, after its id (a game's tokens are "write_token" or in "tokens")
NIGHT_TOKEN = re.compile(r"^night token \(shown only now\): (\S+)$|\"night_id\":.*?\"token\":\s*\"([^\"]+)\"", re.M | re.S)
LINK = re.compile(r'^(https?://\S+[?&]import=\S+)$|"link":\s*"(https?://[^"]+[?&]import=[^"]+)"', re.M)
# what a reader's shell has and the test's has not: the checkout's tabletape, curl that fails loudly
PRELUDE = """set -eo pipefail
tabletape() { "$TABLETAPE_PYTHON" -m api "$@"; }
curl() { command curl -sS --fail-with-body "$@"; echo; }
"""


@dataclass(frozen=True)
class Block:
    path: str
    line: int
    title: str
    commands: tuple[str, ...]

    @property
    def id(self) -> str:
        return f"{self.path}:{self.line}"


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md"))]


def commands(body: str) -> tuple[str, ...]:
    """One command per line, a line ending in a backslash continued; comments and blanks dropped."""
    joined = re.sub(r"\\\n\s*", " ", body)
    return tuple(line.strip() for line in joined.splitlines() if line.strip() and not line.strip().startswith("#"))


def blocks() -> list[Block]:
    found = []
    for path in documents():
        text = path.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append(Block(str(path.relative_to(ROOT)), line, match["title"] or "", commands(match["body"])))
    return found


def environment() -> dict[str, str]:
    return {**os.environ, "TABLETAPE_PYTHON": sys.executable, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}


def in_subprocess(script: str, cwd: Path) -> tuple[int, str, str]:
    """Run a bash script with pipes for its output: its exit status, stdout and stderr."""
    done = subprocess.run(["bash", "-c", script], cwd=cwd, env=environment(), capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout, done.stderr


def run(
    block: Block, base: str, cwd: Path, shell: Callable[[str, Path], tuple[int, str, str]] = in_subprocess,
    known: dict[str, str] | None = None,
) -> list[tuple[str, str]]:
    """Run a block's commands in order in ``cwd`` beside the service at ``base`` (each through
    ``shell``; ``known``: stand-ins given beforehand, as ``ADMIN``); each command as run and what it
    printed. A command that fails raises AssertionError naming it."""
    found: dict[str, str] = dict(known or {})
    done = []
    for command in block.commands:
        shown = command.replace(".venv/bin/tabletape", "tabletape").replace(SERVICE, base.removeprefix("http://"))
        for word, value in found.items():
            shown = re.sub(rf"\b{word}\b", value, shown)
        status, out, err = shell(PRELUDE + shown, cwd)
        assert status == 0, f"{block.id}: `{command}` exited {status}:\n{out}{err}"
        assert "Traceback" not in out + err, f"{block.id}: `{command}`:\n{out}{err}"
        for word, pattern in (("GAME", GAME), ("WRITE", WRITE), ("ENDED", ENDED), ("SHARE", SHARE), ("SLIP", SLIP),
                              ("NIGHT", NIGHT), ("NIGHT_TOKEN", NIGHT_TOKEN), ("LINK", LINK)):
            if match := pattern.search(out):
                found[word] = match[1] or match[2]
        done.append((command, out + err))
    return done
