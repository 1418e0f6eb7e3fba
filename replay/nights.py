"""Opening a night, drawing its rounds, late players and drops: each checked against the night
as its stream leaves it, then appended to the night's own stream.

A round's games are made by the door that asks (``make_game``: it pins content packs and issues
the game's tokens) before the draw is appended; a draw whose append then fails leaves those
games behind as ordinary games that no night names.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Sequence

from events.nights import NightOpened, NightPlayerDropped, NightPlayerJoined, NightRoundDrawn, new_night_id
from projections.nights import Night, Nights, checked_opening, draw_next, find_player, fold_night, plain, refuse, MAX_PLAYER_NAME, MAX_PLAYERS

#: one write to a night at a time in this process (the expected seq refuses another process's)
_writing = threading.Lock()

#: makes one table's game: (title, players in seat order) -> its game id
MakeGame = Callable[[str, Sequence[str], dict[str, Any]], str]


def open_night(
    nights: Nights, name: str, title: str, rounds: int, players: Sequence[str], seed: str, options: dict[str, Any] | None = None,
    actor: str = "", check_options: Callable[[str, Sequence[str], dict[str, Any]], None] | None = None,
) -> Night:
    """A new night in the log; raises NightRefused naming the rule (and ``check_options``'s
    refusal of the tables' options, tried on the first players)."""
    name, title, rounds, named = checked_opening(name, title, rounds, players)
    seed = plain(seed, "seed", 64)
    options = dict(options or {})
    if check_options is not None:
        check_options(title, named[:2], options)
    night_id = new_night_id()
    body = NightOpened(name=name, title=title, rounds=rounds, seed=seed, players=named, options=options)
    with _writing:
        nights.log.append(night_id, [body], 0, actor=actor)
    return fold_night(night_id, [body])


def draw_round(nights: Nights, night_id: str, make_game: MakeGame, actor: str = "") -> Night:
    """Draw the next round, make each table's game and append the draw; raises NightConflict
    while a table of the last round plays on or once every round is drawn."""
    with _writing:
        night = nights.get(night_id)
        seq = nights.last_seq(night_id)
        results = nights.results(night)
        ratings = nights.ratings(night, night.present)
        number, made, points, rated = draw_next(night, results, ratings)
        games = tuple(make_game(night.title, table, dict(night.options)) for table in made.tables)
        body = NightRoundDrawn(round=number, tables=made.tables, games=games, byes=made.byes, present=night.present,
                               points=points, ratings=rated)
        nights.log.append(night_id, [body], seq, actor=actor)
        return nights.get(night_id)


def join(nights: Nights, night_id: str, player: str, actor: str = "") -> Night:
    """A late player (or one coming back after a drop), seated from the next draw on."""
    with _writing:
        night = nights.get(night_id)
        player = plain(player, "player", MAX_PLAYER_NAME)
        known = find_player(night, player)
        if known is not None and known not in night.dropped:
            refuse("night-player-present", "player", "{field}: {player!r} is playing tonight already", player=known)
        if known is None and len(night.players) >= MAX_PLAYERS:
            refuse("night-players-too-many", "players", "{field}: a night has at most {most} players", most=MAX_PLAYERS)
        nights.log.append(night_id, [NightPlayerJoined(player=known or player)], nights.last_seq(night_id), actor=actor)
        return nights.get(night_id)


def drop(nights: Nights, night_id: str, player: str, actor: str = "") -> Night:
    """A player who leaves: in no draw from the next round on."""
    with _writing:
        night = nights.get(night_id)
        known = find_player(night, player)
        if known is None or known in night.dropped:
            refuse("night-player-absent", "player", "{field}: {player!r} is not playing tonight", player=str(player)[:64])
        nights.log.append(night_id, [NightPlayerDropped(player=known)], nights.last_seq(night_id), actor=actor)
        return nights.get(night_id)
