"""``tabletape demo``: sample games for a newcomer, so replays, the dashboard and the charts show
at once. Random legal games (``replay.simulate``) of every title, recorded move by move in
notation as a table would, on the file or through the service that holds it."""

from __future__ import annotations

import random
from typing import Any, Optional

import typer

from api.cli.common import Db, cli, console, created, reported

#: per title: the players, the options, and how many finished games
GAMES: tuple[tuple[str, tuple[str, ...], dict[str, Any], int], ...] = (
    ("lost-cities", ("Ana", "Bea"), {"rounds": 3}, 3),
    ("marco-polo", ("Ana", "Bea", "Carl"), {"characters": "chosen"}, 2),
    ("marco-polo-2", ("Ana", "Carl", "Dana"), {"characters": "all"}, 2),
)
#: the game left in progress: Lost Cities, this many moves in
IN_PROGRESS_MOVES = 20


def planned(title: str, players: tuple[str, ...], options: dict[str, Any], seed: int) -> list[Any]:
    """The moves, in order, of one random legal digital game (its chance is the seed's)."""
    from replay.simulate import random_game

    chosen: list[Any] = []

    def pick(moves: list[Any], rng: random.Random) -> Any:
        chosen.append(moves[rng.randrange(len(moves))])
        return chosen[-1]

    random_game(title, players, options, seed=seed, policy=pick)
    return chosen


def game_options(title: str, options: dict[str, Any]) -> dict[str, Any]:
    if title != "marco-polo-2":
        return dict(options)
    from rules.marco_polo_2.content import SYNTHETIC

    # the public pack holds Beijing alone: random play needs a whole (invented) map
    return {**options, "content": SYNTHETIC.ref}


def play(db: str, title: str, players: tuple[str, ...], options: dict[str, Any], seed: int, moves: Optional[int]) -> tuple[str, str]:
    """Create one digital game and record its first ``moves`` moves (all: to its end); its id and write token."""
    from rules import get_title

    options = game_options(title, options)
    plan = planned(title, players, options, seed)[:moves]
    notation = get_title(title).format_move
    with created(db, title, list(players), options, seed, "demo") as (game_id, _, write, _, desk):
        last_seq = desk.look().last_seq
        for move in plan:
            last_seq = desk.move(notation(move), last_seq)
    return game_id, write


def demo(
    seed: int = typer.Option(1, help="the same seed makes the same games"),
    db: str = Db,
) -> None:
    """Fill the store with a few finished games of every title and one in progress."""
    out = console()
    with reported():
        for title, players, options, count in GAMES:
            for n in range(count):
                game_id, _ = play(db, title, players, options, seed * 100 + n, None)
                out.print(cli("demo-finished", title=title, game_id=game_id))
        game_id, write = play(db, *GAMES[0][:3], seed * 100 + 99, IN_PROGRESS_MOVES)
    out.print(cli("demo-in-progress", game_id=game_id, token=write))


def register(app: typer.Typer) -> None:
    app.command("demo")(demo)
