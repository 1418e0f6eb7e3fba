"""A bridge to BG Stats: the finished games in its JSON export format, and its plays read back as
score-only games.

BG Stats (the play-logging app) publishes no schema for its export (``BGStatsExport.json``); the
fields below are those of public code that reads and writes such files:
- theiam79/BGStats.Bot, ``src/BGStats.Bot/Models/{PlayFile,Game,Play,PlayerScore}.cs``: the top
  level ``about``, ``userInfo``, ``players``, ``locations``, ``games``, ``plays``; a game's ``id``,
  ``uuid``, ``name``, ``bggName``, ``bggYear``, ``bggId``, ``cooperative``, ``highestWins``,
  ``noPoints``, ``usesTeams``, ``minPlayerCount`` ...; a play's ``uuid``, ``playDate``,
  ``entryDate``, ``modificationDate``, ``durationMin``, ``ignored``, ``manualWinner``, ``rounds``,
  ``locationRefId``, ``gameRefId``, ``usesTeams``, ``board``, ``scoringSetting``, ``playerScores``;
  a player score's ``score`` (text), ``winner``, ``newPlayer``, ``startPlayer``, ``playerRefId``,
  ``role``, ``rank``, ``seatOrder``, ``team``;
- ctuncan/bga_bgstats, ``bga_bgstats.py`` (writes files that BG Stats imports): ``playDate`` as
  ``YYYY-MM-DD HH:MM:SS``, upper-case uuids, ``seatOrder`` 0 where the seat is not known.

A play imported from such a file becomes a game of three events: ``game.created``,
``game.score-only`` (the play's uuid, date, duration, start player) and ``game.ended`` (its scores
and winners). It counts wherever final results count (leaderboards, head to head, player pages)
and in no move-level statistic; the log stays the truth and a rebuild finds it again.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Callable

from api.formats.jsonl import ImportRefused, import_games
from events import codec, limits
from events.base import Event
from events.errors import MalformedEvent, TabletapeError
from events.history import build
from events.lifecycle import NOTE_MAX_CHARS, GameCreated, Noted, ScoreOnly, check_note, score_only_end
from events.log import new_game_id
from events.names import check_player_names, printable_key
from projections.fold import start
from projections.stats import model as stats_model
from projections.stats.sql import ENDED_GAMES
from rules import get_title

if TYPE_CHECKING:
    from replay.play_record import PlayRecord
    from events.log import EventLog
    from projections.projector import Projector
    from projections.read_models import ReadModels

SOURCE = "bgstats"

#: BoardGameGeek ids, each the number in the title's BoardGameGeek page address (checked against
#: links to those pages in public code, e.g. the games lists of boardgame catalogue projects):
#: Lost Cities (Kosmos, 1999): https://boardgamegeek.com/boardgame/50/lost-cities
#: The Voyages of Marco Polo (2015): https://boardgamegeek.com/boardgame/171623/the-voyages-of-marco-polo
#: Marco Polo II: In the Service of the Khan (2019):
#: https://boardgamegeek.com/boardgame/283948/marco-polo-ii-in-the-service-of-the-khan
BGG = {
    "lost-cities": (50, "Lost Cities", 1999),
    "marco-polo": (171623, "The Voyages of Marco Polo", 2015),
    "marco-polo-2": (283948, "Marco Polo II: In the Service of the Khan", 2019),
}
_BY_BGG_ID = {bgg_id: title for title, (bgg_id, _, _) in BGG.items()}
#: names a hand-made file may use where it has no BoardGameGeek id
_BY_NAME = {
    **{name.casefold(): title for title, (_, name, _) in BGG.items()},
    "marco polo": "marco-polo",
    "marco polo ii": "marco-polo-2",
    "marco polo 2": "marco-polo-2",
}
#: stable uuids for what tabletape has no uuid of (titles, players): uuid5 under this namespace
_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://tabletape.invalid/bgstats")
_CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz"
_DATE = "%Y-%m-%d %H:%M:%S"


# -- export ---------------------------------------------------------------------------------------


def game_uuid(game_id: str) -> str:
    """A tabletape game id (26 Crockford characters, 128 bits) as the uuid of its play."""
    value = 0
    for char in game_id.lower():
        value = value * 32 + _CROCKFORD.index(char)
    return str(uuid.UUID(int=value & (2**128 - 1))).upper()


def _stable_uuid(kind: str, name: str) -> str:
    return str(uuid.uuid5(_NAMESPACE, f"{kind}:{name}")).upper()


def _date(moment: datetime | None) -> str:
    return moment.strftime(_DATE) if moment is not None else ""


def _rows(con: Any, sql: str) -> list[dict[str, Any]]:
    cur = con.execute(sql)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r)) for r in cur.fetchall()]


def export(read_models: "ReadModels", now: datetime | None = None) -> dict[str, Any]:
    """Every finished game that is not a fork, as a BG Stats export document.

    A game in progress is never in it (its log holds what its public view hides); a fork is a
    what-if, not a play. Times are UTC (BG Stats writes local times without a zone).
    """
    read_models.refresh()
    stamp = _date((now or datetime.now(UTC)).replace(tzinfo=None))
    cur = read_models.log.cursor()
    try:
        games = _rows(
            cur,
            f"""SELECT g.game_id, g.title, g.created_at, g.ended_at, g.duration_s, g.score_only,
                   f.first_seat, f.rounds, f.teams
            FROM games g LEFT JOIN game_facts f USING (game_id)
            WHERE g.game_id IN ({ENDED_GAMES}) AND g.parent_id IS NULL
            ORDER BY g.created_at, g.game_id""",
        )
        seats = _rows(
            cur,
            f"SELECT game_id, seat, player, score, rank, won FROM results "
            f"WHERE game_id IN ({ENDED_GAMES}) ORDER BY game_id, seat",
        )
        markers = {
            r["game_id"]: json.loads(r["body_json"])
            for r in _rows(
                cur,
                f"SELECT game_id, body_json FROM events WHERE type = '{codec.tag_of(ScoreOnly)}' "
                f"AND game_id IN ({ENDED_GAMES})",
            )
        }
        roles = _roles(cur)
        noted = [
            r["game_id"]
            for r in _rows(cur, f"SELECT DISTINCT game_id FROM events WHERE type = '{codec.tag_of(Noted)}' AND game_id IN ({ENDED_GAMES})")
        ]
    finally:
        cur.close()
    comments = {game_id: _comments(read_models.log.read_bodies(game_id)) for game_id in noted}
    by_game: dict[str, list[dict[str, Any]]] = {}
    for row in seats:
        by_game.setdefault(row["game_id"], []).append(row)
    titles = sorted({g["title"] for g in games})
    game_ids = {title: number for number, title in enumerate(titles, 1)}
    names = sorted({r["player"] for r in seats})
    player_ids = {name: number for number, name in enumerate(names, 1)}
    places = sorted({m["location"] for m in markers.values() if m.get("location")})
    place_ids = {name: number for number, name in enumerate(places, 1)}
    seen: set[tuple[str, str]] = set()
    plays = []
    for game in games:
        marker = markers.get(game["game_id"])
        scores = by_game.get(game["game_id"], [])
        teams = list(game["teams"] or [])
        shared = len(set(teams)) < len(teams)
        player_scores = []
        for row in scores:
            first_time = (game["title"], row["player"]) not in seen
            seen.add((game["title"], row["player"]))
            entry: dict[str, Any] = {
                "score": "" if row["score"] is None else str(row["score"]),  # a play of winners alone
                "winner": bool(row["won"]),
                "newPlayer": first_time,
                "startPlayer": game["first_seat"] is not None and row["seat"] == game["first_seat"],
                "playerRefId": player_ids[row["player"]],
                "rank": row["rank"],
                "seatOrder": row["seat"] + 1,
            }
            if shared:
                entry["team"] = str(teams[row["seat"]] + 1)
            role = roles.get((game["game_id"], row["seat"]))
            if role:
                entry["role"] = role
            player_scores.append(entry)
        duration = game["duration_s"]
        play: dict[str, Any] = {
            "uuid": marker["ref"] if marker else game_uuid(game["game_id"]),
            "playDate": _date(game["created_at"]),
            "entryDate": _date(game["ended_at"] or game["created_at"]),
            "modificationDate": _date(game["ended_at"] or game["created_at"]),
            "durationMin": round(duration / 60) if duration is not None else 0,
            "ignored": False,
            "manualWinner": False,
            "rounds": game["rounds"] or 0,
            "gameRefId": game_ids[game["title"]],
            "usesTeams": shared,
            "scoringSetting": 0,
            "board": "",
            "playerScores": player_scores,
        }
        if marker and marker.get("location"):
            play["locationRefId"] = place_ids[marker["location"]]
        if comments.get(game["game_id"]):
            play["comments"] = comments[game["game_id"]]
        plays.append(play)
    return {
        "about": "BG Stats export written by tabletape: its finished games (forks and games in progress left out)",
        "games": [_game_entry(title, game_ids[title], stamp) for title in titles],
        "players": [
            {"id": number, "uuid": _stable_uuid("player", name), "name": name, "isAnonymous": False,
             "modificationDate": stamp}
            for name, number in player_ids.items()
        ],
        "locations": [
            {"id": number, "uuid": _stable_uuid("location", name), "name": name, "modificationDate": stamp}
            for name, number in place_ids.items()
        ],
        "plays": plays,
    }


def _comments(bodies: list[Event]) -> str:
    """A game's notes as a play's ``comments``: a note on the last step (the end) as its text, one
    on another step after the step's number, one paragraph each, in step order."""
    history = build(bodies)
    steps = {entry.seq: index for index, entry in enumerate(history.entries())}
    last = len(steps) - 1
    notes = sorted((steps[n.step_seq], n.seq, n.body.text) for n in history.notes_at() if n.step_seq in steps)
    return "\n\n".join(text if step == last else f"Step {step}: {text}" for step, _, text in notes)


def _note_of(comments: Any) -> str | None:
    """A play's ``comments`` as a note's text: control characters as spaces, cut to the longest
    note; None when nothing is left."""
    if not isinstance(comments, str):
        return None
    text = "".join(
        c if c in "\n\t" or (ord(c) >= 32 and not 127 <= ord(c) < 160 and c not in "\u2028\u2029") else " "
        for c in comments
    ).encode("utf-16", "surrogatepass").decode("utf-16", "replace")  # a lone surrogate: the replacement mark
    text = text.strip()[:NOTE_MAX_CHARS].strip()
    return check_note(text) if text else None


def _game_entry(title: str, number: int, stamp: str) -> dict[str, Any]:
    bgg_id, name, year = BGG.get(title, (0, get_title(title).name, 0))
    return {
        "id": number,
        "uuid": _stable_uuid("title", title),
        "name": name,
        "bggName": name,
        "bggId": bgg_id,
        "bggYear": year,
        "cooperative": False,
        "highestWins": True,
        "noPoints": False,
        "usesTeams": False,
        "isBaseGame": True,
        "isExpansion": False,
        "modificationDate": stamp,
    }


def _roles(cur: Any) -> dict[tuple[str, int], str]:
    """Each Marco Polo seat's character: BG Stats keeps a player's faction or character as ``role``."""
    tables = {r[0] for r in cur.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
    out: dict[tuple[str, int], str] = {}
    for table in ("marco_polo_seats", "marco_polo_2_seats"):
        if table in tables:
            for game_id, seat, character in cur.execute(f"SELECT game_id, seat, character FROM {table}").fetchall():
                if character:
                    out[(game_id, seat)] = character
    return out


# -- pushing one play -----------------------------------------------------------------------------

#: BG Stats' documented link for another app to create a play ("Linking and pushing to BG Stats
#: from other apps or websites"): the play as URL-encoded JSON in ``data``; the https address opens
#: the app where it is installed, the ``bgstats:`` one only there
PUSH_URL = "https://app.bgstatsapp.com/createPlay.html"
PUSH_APP_URL = "bgstats://app.bgstatsapp.com/createPlay.html"
#: names the sending app: BG Stats remembers its matches of games and players per source
SOURCE_NAME = "tabletape"


def push_play(record: "PlayRecord") -> dict[str, Any]:
    """The play in the shape BG Stats' create-play link reads (UTC dates, as the export writes)."""
    bgg_id, name, _ = BGG.get(record.title, (0, get_title(record.title).name, 0))
    shared = len(set(record.teams)) < len(record.teams)
    players = []
    for seat, player in enumerate(record.players):
        entry: dict[str, Any] = {
            "name": player,
            "sourcePlayerId": _stable_uuid("player", player),
            "winner": seat in record.winners,
            "startPlayer": record.start_seat == seat,
            "rank": record.ranks[seat],
        }
        if record.scores:
            entry["score"] = record.scores[seat]
        if shared:
            entry["team"] = str(record.teams[seat] + 1)
        players.append(entry)
    game: dict[str, Any] = {"name": name, "sourceGameId": record.title, "highestWins": True, "noPoints": not record.scores}
    if bgg_id:
        game["bggId"] = bgg_id
    play: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": _play_uuid(record.game_id),
        "playDate": _date(record.began),
        "game": game,
        "players": players,
    }
    if record.duration_min is not None:
        play["durationMin"] = record.duration_min
    if record.location:
        play["location"] = record.location
    return play


def _play_uuid(game_id: str) -> str:
    """The play's uuid as the export writes it; a game id that is not a ULID (one a table chose)
    gets a stable uuid of its own."""
    try:
        return game_uuid(game_id)
    except ValueError:
        return _stable_uuid("game", game_id)


def push_links(play: dict[str, Any]) -> tuple[str, str]:
    """The https and the app's ``bgstats:`` link that hand ``play`` to BG Stats."""
    from urllib.parse import quote

    data = quote(json.dumps(play, ensure_ascii=False, separators=(",", ":")), safe="")
    return f"{PUSH_URL}?data={data}", f"{PUSH_APP_URL}?data={data}"


# -- import ---------------------------------------------------------------------------------------


@dataclass
class ImportReport:
    """What an import added and what it left out, with why."""

    imported: list[str] = field(default_factory=list)
    #: (the play's uuid or its place in the file, why it was left out)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    #: plays already in the store (imported before, or recorded here move by move)
    already: list[str] = field(default_factory=list)
    #: plays of games that are not tabletape's titles, by the game's name
    other_games: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "imported": len(self.imported),
            "game_ids": self.imported,
            "already_imported": len(self.already),
            "skipped": [{"play": play, "reason": reason} for play, reason in self.skipped],
            "other_games": sum(self.other_games.values()),
        }


class _Skip(Exception):
    """A play that cannot be imported, and why (said to the user, never raised further)."""


def read_document(text: str | bytes) -> dict[str, Any]:
    """The parsed file; anything but a BG Stats export's top level is refused as a whole."""
    try:
        document = json.loads(text)
    except ValueError as exc:
        raise ImportRefused("not a BG Stats export: the file is not JSON ({exc})", params=dict(exc=exc), code="bgstats-malformed") from None
    except RecursionError:  # deeper than Python's JSON reader goes
        raise _too_deep() from None
    if limits.nesting_depth(document) > limits.MAX_DEPTH:
        raise _too_deep()
    if not isinstance(document, dict) or not isinstance(document.get("plays"), list):
        raise ImportRefused("not a BG Stats export: no list of plays at the top level", code="bgstats-malformed")
    for key in ("games", "players"):
        if not isinstance(document.get(key, []), list):
            raise ImportRefused("not a BG Stats export: {key} is not a list", params=dict(key=key), code="bgstats-malformed")
    return document


def _too_deep() -> ImportRefused:
    return ImportRefused(
        "not a BG Stats export: it nests lists and objects deeper than {max_depth} levels",
        params=dict(max_depth=limits.MAX_DEPTH), code="too-deeply-nested",
    )


def _by_id(entries: list[Any]) -> dict[Any, dict[str, Any]]:
    return {e["id"]: e for e in entries if isinstance(e, dict) and _is_ref(e.get("id"))}


def _is_ref(value: Any) -> bool:
    """An id a file may refer to by (a list or an object is no id, and cannot key a lookup)."""
    return isinstance(value, (str, int, float)) and not isinstance(value, bool)


def _find(table: dict[Any, dict[str, Any]], ref: Any) -> dict[str, Any] | None:
    return table.get(ref) if _is_ref(ref) else None


def _title_of(game: dict[str, Any] | None) -> str:
    if game is None:
        raise _Skip("its gameRefId names no game of the file")
    bgg_id = game.get("bggId")
    if isinstance(bgg_id, int) and not isinstance(bgg_id, bool) and bgg_id in _BY_BGG_ID:
        return _BY_BGG_ID[bgg_id]
    for key in ("bggName", "name"):
        name = game.get(key)
        if isinstance(name, str) and name.strip().casefold() in _BY_NAME:
            return _BY_NAME[name.strip().casefold()]
    label = game.get("name") if isinstance(game.get("name"), str) else "?"
    raise _OtherGame(label[:80])


class _OtherGame(_Skip):
    """A play of a game that is not one of tabletape's titles (counted, not listed)."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


#: the app's score calculator writes a sum such as "2+7+8+9-20+2"; its tokens: whole numbers
#: (a "12.0" as well), + - * and parentheses
_TOKEN = re.compile(r"\s*(?:(\d+)(?:\.0+)?|([-+*()]))")
_LONGEST_SUM = 200


def calculate(text: str) -> int:
    """A score as the app's calculator keeps it: digits, +, -, * and parentheses (never ``eval``).
    Raises ValueError for anything else."""
    if len(text) > _LONGEST_SUM:
        raise ValueError("too long")
    tokens, at = [], 0
    while at < len(text.rstrip()):
        found = _TOKEN.match(text, at)
        if found is None:
            raise ValueError(text)
        tokens.append(int(found[1]) if found[1] is not None else found[2])
        at = found.end()
    value, rest = _sum(tokens, 0)
    if rest != len(tokens):
        raise ValueError(text)
    return value


def _sum(tokens: list[Any], at: int, depth: int = 0) -> tuple[int, int]:
    value, at = _product(tokens, at, depth)
    while at < len(tokens) and tokens[at] in ("+", "-"):
        right, after = _product(tokens, at + 1, depth)
        value, at = (value + right if tokens[at] == "+" else value - right), after
    return value, at


def _product(tokens: list[Any], at: int, depth: int) -> tuple[int, int]:
    value, at = _factor(tokens, at, depth)
    while at < len(tokens) and tokens[at] == "*":
        right, at = _factor(tokens, at + 1, depth)
        value *= right
    return value, at


def _factor(tokens: list[Any], at: int, depth: int) -> tuple[int, int]:
    if at >= len(tokens) or depth > limits.MAX_DEPTH:
        raise ValueError("incomplete")
    token = tokens[at]
    if isinstance(token, int):
        return token, at + 1
    if token in ("+", "-"):
        value, at = _factor(tokens, at + 1, depth + 1)
        return (value if token == "+" else -value), at
    if token == "(":
        value, at = _sum(tokens, at + 1, depth + 1)
        if at >= len(tokens) or tokens[at] != ")":
            raise ValueError("unclosed")
        return value, at + 1
    raise ValueError(token)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "…"


def _score(value: Any, who: str, field: str) -> int | None:
    """A seat's score; None where the play names its winners alone (a blank score)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        raise _Skip(f"{who}'s score {value!r} is not a number")
    if isinstance(value, int):
        points = value
    elif isinstance(value, float) and value.is_integer():
        points = int(value)
    elif isinstance(value, str):
        try:
            points = calculate(value)
        except ValueError:
            raise _Skip(f"{who}'s score {_short(value)} is not a whole number or a sum") from None
    else:
        raise _Skip(f"{who}'s score {_short(value)} is not a whole number")
    limits.check_integer(points, field)
    return points


def _played_at(value: Any, minutes: int) -> datetime:
    if not isinstance(value, str) or not value.strip():
        raise _Skip("it has no playDate")
    try:
        moment = datetime.fromisoformat(value.strip())
    except ValueError:
        raise _Skip(f"its playDate {_short(value)} is not a date and time") from None
    limits.check_date(moment.replace(tzinfo=None), "playDate", minutes + 24 * 60)  # a zone moves it a day at most
    return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment


def _seat_order(scores: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Seats as BG Stats numbers them (``seatOrder`` from 1); the file's order where it has none."""
    orders = [s.get("seatOrder") for s in scores]
    if all(isinstance(o, int) and not isinstance(o, bool) and o > 0 for o in orders) and len(set(orders)) == len(orders):
        return [s for _, s in sorted(zip(orders, scores), key=lambda pair: pair[0])]
    return list(scores)


def _play_ref(play: dict[str, Any]) -> str:
    ref = play.get("uuid")
    if isinstance(ref, str) and ref.strip():
        return printable_key(ref.strip().upper())  # a lone surrogate, escaped: the report and the log can hold it
    # a hand-made file without uuids: the play's own content names it, so a second import finds it
    digest = hashlib.sha256(json.dumps(play, sort_keys=True, default=str).encode()).hexdigest()
    return f"SHA256:{digest[:32].upper()}"


def _play_events(
    play: dict[str, Any], games: dict[Any, dict[str, Any]], players: dict[Any, dict[str, Any]], ref: str
) -> tuple[str, list[Event]]:
    """A play as a score-only game's events; raises _Skip with the reason it cannot be one."""
    if play.get("ignored") is True:
        raise _Skip("BG Stats marks it ignored (left out of its statistics)")
    title = _title_of(_find(games, play.get("gameRefId")))
    scores = play.get("playerScores")
    if not isinstance(scores, list) or not scores or not all(isinstance(s, dict) for s in scores):
        raise _Skip("it has no player scores")
    seated = _seat_order(scores)
    position = {id(entry): index for index, entry in enumerate(scores)}
    names, points, winners, teams, ranks = [], [], [], [], []
    start_seat = None
    guests = 0
    for seat, entry in enumerate(seated):
        player = _find(players, entry.get("playerRefId"))
        name = player.get("name") if player else None
        if not isinstance(name, str) or not name.strip():
            raise _Skip(f"seat {seat + 1}'s playerRefId {_short(entry.get('playerRefId'))} names no player of the file")
        if player.get("isAnonymous") is True:  # the app's one "anonymous" player is another person each time
            guests += 1
            name = guest_name(guests, ref)
        names.append(name.strip())
        points.append(_score(entry.get("score"), name.strip(), f"playerScores.{position[id(entry)]}.score"))
        if entry.get("winner") is True:
            winners.append(seat)
        if entry.get("startPlayer") is True:
            start_seat = seat if start_seat is None else start_seat
        teams.append(entry.get("team"))
        rank = entry.get("rank")
        ranks.append(rank if isinstance(rank, int) and not isinstance(rank, bool) else 0)
    scored = _scored(points, winners)
    try:
        check_player_names(names)
        created = GameCreated(title=title, players=tuple(names))
        game = start(created)
    except TabletapeError as exc:
        raise _Skip(f"{get_title(title).name} cannot be set up so: {exc.message}") from None
    _check_teams(play, game, teams, scored)
    if scored and not winners:  # BG Stats leaves winner unset when it decides by points: the highest score wins
        best = max(scored)
        winners = [seat for seat, p in enumerate(scored) if p == best]
    duration = play.get("durationMin")
    if not (isinstance(duration, int) and not isinstance(duration, bool) and 0 < duration <= 7 * 24 * 60):
        duration = None
    played = _played_at(play.get("playDate"), duration or 0)
    where = play.get("_location")
    marker = ScoreOnly(
        source=SOURCE, ref=ref, played_at=played.isoformat(), duration_min=duration, start_seat=start_seat,
        location=where if isinstance(where, str) and where.strip() else None,
    )
    ended = score_only_end(tuple(scored), tuple(winners), tuple(ranks), seats=len(names))
    game_id = new_game_id(now_ms=_epoch_ms(played))  # time-ordered by when it was played
    note = _note_of(play.get("comments"))
    # the play's comments are the table's words on its result: a note on the end (seq 3)
    return game_id, [created, marker, ended, *([Noted(seq=3, text=note)] if note else [])]


def guest_name(number: int, ref: str) -> str:
    """An anonymous seat's name: its number in the play and the play's whole uuid (unique in the
    store), so that no two plays' guests are ever one person on a leaderboard."""
    return f"Guest {number} (play {ref})"


def _scored(points: list[int | None], winners: list[int]) -> list[int]:
    """Every seat's score, or none where the play names its winners alone."""
    if all(p is None for p in points):
        if not winners:
            raise _Skip("it has neither scores nor a winner")
        return []
    missing = [seat for seat, p in enumerate(points) if p is None]
    if missing:
        raise _Skip(f"seat {missing[0] + 1} has no score while others have one")
    return points  # type: ignore[return-value]


def _check_teams(play: dict[str, Any], game: Any, teams: list[Any], points: list[int]) -> None:
    """Partnerships: the file's teams must sit as the title seats them, partners sharing a score."""
    own_teams = stats_model(game.title.id).teams(game)
    if len(set(own_teams)) == len(own_teams):
        return
    seats = range(len(teams))
    if play.get("usesTeams") is not True or any(t in (None, "") for t in teams):
        raise _Skip(f"{len(teams)} players of {game.title.name} play in partnerships, and the play names no teams")
    if any((teams[a] == teams[b]) != (own_teams[a] == own_teams[b]) for a in seats for b in seats):
        raise _Skip(f"its teams do not sit as {game.title.name}'s partnerships do (partners every other seat)")
    if points and any(points[a] != points[b] for a in seats for b in seats if own_teams[a] == own_teams[b]):
        raise _Skip("partners have different scores; a partnership shares one score")


def _epoch_ms(moment: datetime) -> int:
    return max(0, int(moment.replace(tzinfo=UTC).timestamp() * 1000))


def known_refs(log: "EventLog") -> set[str]:
    """The play uuids already imported into this store."""
    cur = log.cursor()
    try:
        rows = cur.execute(
            f"SELECT json_extract_string(body_json, '$.ref') FROM events WHERE type = '{codec.tag_of(ScoreOnly)}'"
        ).fetchall()
    finally:
        cur.close()
    return {r[0] for r in rows if r[0]}


def _game_id_of(ref: str) -> str | None:
    """The tabletape game id a play uuid stands for, if it is one of ours (``game_uuid``)."""
    try:
        value = uuid.UUID(ref).int
    except ValueError:
        return None
    chars = []
    for _ in range(26):
        chars.append(_CROCKFORD[value & 31])
        value >>= 5
    return "".join(reversed(chars))


def import_document(
    log: "EventLog", projector: "Projector", document: dict[str, Any],
    progress: Callable[[int, int], None] | None = None,
) -> ImportReport:
    """Add the plays of tabletape's titles as score-only games, once each (by the play's uuid);
    say which plays were left out and why. All or nothing: the added games are appended in one
    batch, and a value no store can hold refuses the whole file, naming the play and the field.
    ``progress(done, total)`` hears of each play read."""
    report = ImportReport()
    games = _by_id(document.get("games") or [])
    players = _by_id(document.get("players") or [])
    places = _by_id(document.get("locations") or [])
    seen = known_refs(log)
    stored = set(log.game_ids())  # one query, not one per play (20,000 of them cost 40 s)
    in_file: set[str] = set()
    batch: list[tuple[str, list[Event]]] = []
    total = len(document["plays"])
    for number, play in enumerate(document["plays"], 1):
        if progress is not None and (number % 500 == 0 or number == total):
            progress(number, total)
        if not isinstance(play, dict):
            report.skipped.append((f"play {number}", "it is not an object"))
            continue
        ref = _play_ref(play)
        if ref in in_file:
            report.skipped.append((ref, "the file holds another play with this uuid before it"))
            continue
        in_file.add(ref)
        if ref in seen:
            report.already.append(ref)
            continue
        ours = _game_id_of(ref)
        if ours is not None and ours in stored:
            report.already.append(ref)
            continue
        place = _find(places, play.get("locationRefId"))
        if place is not None and isinstance(place.get("name"), str):
            play = {**play, "_location": place["name"]}
        try:
            game_id, events = _play_events(play, games, players, ref)
            for event in events:
                limits.check_storable(event, codec.tag_of(type(event)))
        except _OtherGame as other:
            report.other_games[other.name] = report.other_games.get(other.name, 0) + 1
            continue
        except _Skip as why:
            report.skipped.append((ref, printable_key(str(why))))  # a name in the reason may hold a lone surrogate
            continue
        except MalformedEvent as exc:
            label = ref if len(ref) <= 40 else f"{number}"
            raise ImportRefused(
                "play {play}: {message_}", params=dict(play=label, message_=exc), code=exc.code,
                field=exc.details.get("field"), play=label,
            ) from None
        batch.append((game_id, events))
        report.imported.append(game_id)
    if batch:
        import_games(log, projector, batch)
    return report
