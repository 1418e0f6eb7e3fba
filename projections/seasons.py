"""Seasons as read models: each season folded from its own stream of the log, checked, and its
standings per title computed from the statistics tables.

Standings count the finished games of a season's title that are not forks, ended (a score-only
game: played) on a day of the season, with every seat held by a member. Each member's rating is
a fresh one over those games alone, rated by ``projections.stats.ratings.rate_games``; the table
is ordered by wins, then points, then the title's own tie-break (``TitleStats.tiebreak``), then name.
"""

from __future__ import annotations

import csv
import io
import shutil
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any, Callable, Iterable

import pyarrow as pa
import pyarrow.parquet as pq

from events.errors import SeasonRefused, UnknownSeason
from events.limits import FIRST_YEAR, LAST_YEAR
from events.names import control_character, same_name_key
from events.seasons import SEASON_PREFIX, SeasonAmended, SeasonDefined
from projections.stats import model as stats_model
from projections.streams import Streams
from projections.stats.ratings import conservative, counted, rate_games
from rules import titles as registered_titles

MAX_SEASON_NAME = 80
MAX_MEMBER_NAME = 64
MAX_MEMBERS = 100


@dataclass(frozen=True, slots=True)
class Season:
    """A season as its events leave it."""

    season_id: str
    name: str
    titles: tuple[str, ...]
    starts: str
    ends: str
    members: tuple[str, ...]
    #: how many amendments were folded in
    amendments: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "season_id": self.season_id, "name": self.name, "titles": list(self.titles), "starts": self.starts,
            "ends": self.ends, "members": list(self.members), "amendments": self.amendments,
        }


def fold_season(season_id: str, bodies: Iterable[Any]) -> Season:
    """A season from its stream's bodies: the definition, each amendment over it."""
    season: Season | None = None
    for body in bodies:
        if isinstance(body, SeasonDefined) and season is None:
            season = Season(season_id, body.name, tuple(body.titles), body.starts, body.ends, tuple(body.members))
        elif isinstance(body, SeasonAmended) and season is not None:
            season = amended(season, body)
        else:
            raise UnknownSeason("{season_id} is not a season's stream", params=dict(season_id=season_id), season_id=season_id)
    if season is None:
        raise UnknownSeason("no season {season_id!r}", params=dict(season_id=season_id), season_id=season_id)
    return season


def amended(season: Season, body: SeasonAmended) -> Season:
    def kept(new: Any, old: Any) -> Any:
        return old if new is None else tuple(new) if isinstance(new, (list, tuple)) else new

    return Season(
        season.season_id, kept(body.name, season.name), kept(body.titles, season.titles), kept(body.starts, season.starts),
        kept(body.ends, season.ends), kept(body.members, season.members), season.amendments + 1,
    )


# -- the rules of a season ----------------------------------------------------------------------


def _refuse(code: str, field: str, message: str, **params: Any) -> None:
    raise SeasonRefused(message, params=dict(field=field, **params), code=code, field=field)


def _plain(text: str, field: str, most: int) -> str:
    return plain_text(text, field, most, _refuse, "season")


def plain_text(text: str, field: str, most: int, refuse: Callable[..., None], kind: str) -> str:
    """``text`` trimmed, once it is plain, not blank and at most ``most`` characters; ``refuse``
    is told the code (``<kind>-text-...``), the field and the template when it is not."""
    char = control_character(text)
    if char is not None:
        refuse(f"{kind}-text-control-character", field, "{field} holds the control character U+{ord:04X}; it is plain text", ord=ord(char))
    if not text.strip():
        refuse(f"{kind}-text-blank", field, "{field} is blank")
    if len(text) > most:
        refuse(f"{kind}-text-too-long", field, "{field} is longer than {most} characters", most=most)
    return text.strip()


def _day(text: str, field: str) -> date:
    try:
        day = date.fromisoformat(text)
    except (TypeError, ValueError):
        _refuse("season-date-invalid", field, "{field}: {value!r} is not a date (YYYY-MM-DD)", value=str(text)[:40])
    if not FIRST_YEAR <= day.year <= LAST_YEAR or len(text) != 10:
        _refuse("season-date-invalid", field, "{field}: a date is written YYYY-MM-DD within the years {first}-{last}", first=FIRST_YEAR, last=LAST_YEAR)
    return day


def checked(season: Season, others: Iterable[Season]) -> Season:
    """``season`` with its text trimmed, once it keeps every rule of a season; raises
    SeasonRefused naming the rule (``code``) and the field."""
    name = _plain(season.name, "name", MAX_SEASON_NAME)
    taken = {same_name_key(o.name): o for o in others if o.season_id != season.season_id}
    if same_name_key(name) in taken:
        _refuse("season-name-taken", "name", "{field}: there is a season named {name!r} already", name=taken[same_name_key(name)].name)
    if not season.titles:
        _refuse("season-titles-empty", "titles", "{field}: a season counts at least one title")
    known = registered_titles()
    for index, title in enumerate(season.titles):
        if title not in known:
            _refuse("season-title-unknown", f"titles.{index}", "{field}: {title!r} is not a title; titles: {known}", title=str(title)[:64], known=", ".join(sorted(known)))
    if len(set(season.titles)) != len(season.titles):
        _refuse("season-title-repeated", "titles", "{field}: a title is named twice")
    starts, ends = _day(season.starts, "starts"), _day(season.ends, "ends")
    if ends < starts:
        _refuse("season-dates-reversed", "ends", "{field}: the season ends ({ends}) before it starts ({starts})", ends=season.ends, starts=season.starts)
    if len(season.members) < 2:
        _refuse("season-members-too-few", "members", "{field}: a season needs at least two members")
    if len(season.members) > MAX_MEMBERS:
        _refuse("season-members-too-many", "members", "{field}: a season has at most {most} members", most=MAX_MEMBERS)
    members, seen = [], set()
    for index, member in enumerate(season.members):
        member = _plain(member, f"members.{index}", MAX_MEMBER_NAME)
        if same_name_key(member) in seen:
            _refuse("season-member-repeated", f"members.{index}", "{field}: {member!r} is a member already", member=member)
        seen.add(same_name_key(member))
        members.append(member)
    return Season(season.season_id, name, tuple(season.titles), season.starts, season.ends, tuple(members), season.amendments)


# -- reading seasons from the log -----------------------------------------------------------------


class Seasons(Streams[Season], prefix=SEASON_PREFIX, kind="season", fold=fold_season, unknown=UnknownSeason):
    """Every season of one log, and each one's standings over the read models."""

    def all(self) -> list[Season]:
        """Every season, the latest first day first, then by name; one whose log was altered is
        left out (``get`` and ``tabletape verify`` name it), as an altered game is."""
        return sorted(self.readable(), key=lambda s: (s.starts, s.name), reverse=True)

    def standings(self, season: Season) -> list[dict[str, Any]]:
        """Per title of the season, its table: each member's position, rating, games, wins,
        points and tie-break."""
        rm = self.read_models
        rm.refresh()
        return [{"title": title, "rows": self._table(season, title)} for title in season.titles]

    def _table(self, season: Season, title: str) -> list[dict[str, Any]]:
        first = datetime.combine(date.fromisoformat(season.starts), time())
        after = datetime.combine(date.fromisoformat(season.ends), time()) + timedelta(days=1)
        cur = self.log.cursor()
        try:
            # the games ratings count, of the title and the season's days, with their scores and wins
            within = "r.title = ? AND coalesce(g.ended_at, g.created_at) >= ? AND coalesce(g.ended_at, g.created_at) < ?"
            scored = ", list(coalesce(r.score, 0) ORDER BY r.seat), list(r.won ORDER BY r.seat)"
            games = cur.execute(
                f"SELECT * FROM ({counted(within, scored)}) ORDER BY ended_at, game_id", [title, first, after]
            ).fetchall()
            tiebreaks = self._tiebreaks(cur, title, [g[1] for g in games])
        finally:
            cur.close()
        members = {same_name_key(m): m for m in season.members}
        rows = {m: {"player": m, "games": 0, "wins": 0, "points": 0, "tiebreak": 0} for m in season.members}
        rated = []
        for _, game_id, ended_at, seats, players, teams, ranks, scores, won in games:
            names = [members.get(same_name_key(p)) for p in players]
            if any(n is None for n in names):
                continue  # a game with a seat held by someone outside the season
            rated.append((title, game_id, ended_at, seats, names, teams, ranks))
            for seat, name in enumerate(names):
                row = rows[name]
                row["games"] += 1
                row["wins"] += 1 if won[seat] else 0
                row["points"] += scores[seat]
                row["tiebreak"] += tiebreaks.get((game_id, seats[seat]), 0)
        known: dict[tuple[str, str], tuple[float, float]] = {}
        steps = rate_games(rated, known)
        del steps
        has_tiebreak = stats_model(title).tiebreak is not None
        out = []
        for name, row in rows.items():
            mu_sigma = known.get((title, name.lower())) if row["games"] else None  # rate_games keys a name without case
            out.append({
                **row,
                "tiebreak": row["tiebreak"] if has_tiebreak else None,
                "mu": mu_sigma[0] if mu_sigma else None,
                "sigma": mu_sigma[1] if mu_sigma else None,
                "rating": conservative(*mu_sigma) if mu_sigma else None,
            })
        out.sort(key=lambda r: (-r["wins"], -r["points"], -(r["tiebreak"] or 0), same_name_key(r["player"])))
        return [{"position": n, **r} for n, r in enumerate(out, start=1)]

    @staticmethod
    def _tiebreaks(cur: Any, title: str, game_ids: list[str]) -> dict[tuple[str, int], int]:
        """The title's tie-break of each seat of these games (none for a title without one, or a
        score-only game, which has no end state to read it from)."""
        own = stats_model(title)
        column, table = own.tiebreak, getattr(own, "seats_table", None)
        if column is None or table is None or not game_ids:
            return {}
        rows = cur.execute(
            f"SELECT game_id, seat, {column} FROM {table} WHERE game_id IN (SELECT unnest(?::VARCHAR[]))", [game_ids]
        ).fetchall()
        return {(g, s): v or 0 for g, s, v in rows}


# -- the standings as files -------------------------------------------------------------------------

#: the columns of a season's standings as CSV and Parquet, one row per title and member
COLUMNS = (
    "season_id", "season", "starts", "ends", "title", "position", "player", "rating", "mu", "sigma",
    "games", "wins", "points", "tiebreak",
)

PARQUET_SCHEMA = pa.schema([
    ("season_id", pa.string()), ("season", pa.string()), ("starts", pa.date32()), ("ends", pa.date32()),
    ("title", pa.string()), ("position", pa.int32()), ("player", pa.string()), ("rating", pa.float64()),
    ("mu", pa.float64()), ("sigma", pa.float64()), ("games", pa.int32()), ("wins", pa.int32()),
    ("points", pa.int64()), ("tiebreak", pa.int64()),
])


def flat_rows(season: Season, standings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The standings of every title of a season, one row per title and member (``COLUMNS``)."""
    own = {"season_id": season.season_id, "season": season.name, "starts": season.starts, "ends": season.ends}
    return [
        {**own, "title": table["title"], **{k: row[k] for k in COLUMNS if k in row}}
        for table in standings
        for row in table["rows"]
    ]


def csv_text(season: Season, standings: list[dict[str, Any]]) -> str:
    """The standings as CSV (a header line, ``COLUMNS``), ratings to two decimals."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in flat_rows(season, standings):
        writer.writerow({k: (f"{v:.2f}" if isinstance(v, float) else "" if v is None else _cell(v)) for k, v in row.items()})
    return out.getvalue()


def _cell(value: Any) -> Any:
    # a cell a spreadsheet would run as a formula is read as text
    return "'" + value if isinstance(value, str) and value[:1] in ("=", "+", "-", "@") else value


def export_parquet(seasons: Seasons, folder: str | Path) -> int:
    """Every season's standings to ``DIR/seasons/seasons.parquet``; returns the rows (none: no file)."""
    rows = []
    for season in seasons.all():
        rows += flat_rows(season, seasons.standings(season))
    target = Path(folder) / "seasons"
    if not rows:
        shutil.rmtree(target, ignore_errors=True)
        return 0
    for row in rows:
        row["starts"], row["ends"] = date.fromisoformat(row["starts"]), date.fromisoformat(row["ends"])
    target.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist(rows, schema=PARQUET_SCHEMA), target / "seasons.parquet")
    return len(rows)
