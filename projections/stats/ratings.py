"""Ratings per title and player, folded from every finished game with openskill's Plackett-Luce model.

A projection like the other read models: ``rating_steps`` holds, per seat of every rated game, the
player's rating before and after that game, in the order the games ended. It is derived from the
statistics tables (``seat_results`` and the ``games`` catalogue) alone, so it can always be
rebuilt. ``refresh`` compares the games with events since its last catch-up, as they count now,
with what was rated of them, and re-rates each title from the first game that differs (a game
added before later ones, an amended result, a game whose end was undone): the ratings before it
are read back from the steps kept, so the answer is the one a fresh rebuild gives, bit for bit.

Counted: finished games, score-only ones included. Not counted: forks and games not finished
(in progress, or left unfinished for good). Seats sharing a team (the Lost Cities partnership)
are rated as one team.
"""

from __future__ import annotations

import weakref
from datetime import datetime
from typing import TYPE_CHECKING, Any, Iterable

import pyarrow as pa
from openskill.models import PlackettLuce

from events.errors import StatsQueryRefused
from events.rows import columns
from projections.stats import models

if TYPE_CHECKING:
    from projections.read_models import ReadModels

#: changes whenever the model or the table below changes: the steps are then rated anew
VERSION = "plackett-luce-2"  # 2: a player is their name without case, as in every statistic
_META_KEY = "ratings_version"
#: how many players one "who is favourite" question may name
MOST_AT_TABLE = 8

STEPS_SCHEMA = pa.schema(columns(
    "title VARCHAR, game_id VARCHAR, ended_at TIMESTAMP, seat INTEGER, player VARCHAR, team INTEGER, "
    "rank INTEGER, mu_before DOUBLE, sigma_before DOUBLE, mu DOUBLE, sigma DOUBLE"
))


def counted(where: str = "true", more: str = "") -> str:
    """The games that count now (``where`` on ``r`` / ``g`` narrows them), one row per game;
    ``more``: further columns after the ranks."""
    return f"""
SELECT r.title, r.game_id, coalesce(g.ended_at, g.created_at) AS ended_at,
       list(r.seat ORDER BY r.seat) AS seats, list(r.player ORDER BY r.seat) AS players,
       list(coalesce(r.team, r.seat) ORDER BY r.seat) AS teams, list(r.rank ORDER BY r.seat) AS ranks{more}
FROM seat_results r JOIN games g USING (game_id)
WHERE g.status = 'ended' AND NOT r.forked AND g.parent_id IS NULL AND {where}
GROUP BY ALL
"""


def rated(where: str = "true") -> str:
    """The games rated so far, as ``counted`` has them."""
    return f"""
SELECT title, game_id, ended_at, list(seat ORDER BY seat) AS seats, list(player ORDER BY seat) AS players,
       list(team ORDER BY seat) AS teams, list(rank ORDER BY seat) AS ranks
FROM rating_steps WHERE {where} GROUP BY ALL
"""


#: per read models, the statistics mark the ratings last caught up to (saves a query a question)
_CAUGHT_UP: "weakref.WeakKeyDictionary[ReadModels, Any]" = weakref.WeakKeyDictionary()
_MARK_KEY = "ratings_rowid"


def model() -> PlackettLuce:
    """The rating model, with openskill's defaults (mu 25, sigma 25/3)."""
    return PlackettLuce()


def conservative(mu: float, sigma: float) -> float:
    """The rating a leaderboard sorts by: mu - 3 sigma (openskill's ``ordinal``)."""
    return mu - 3 * sigma


def rate_games(
    games: Iterable[tuple[str, str, datetime, list[int], list[str], list[int], list[int]]],
    known: dict[tuple[str, str], tuple[float, float]],
) -> pa.Table:
    """The steps of ``games`` rated in order, from the ratings in ``known`` (updated in place)."""
    pl = model()
    default = (pl.mu, pl.sigma)
    # each player's latest rating object, handed to the next game as it is: making one costs a
    # uuid (openskill names every rating), a third of the time of a game
    current: dict[tuple[str, str], Any] = {}
    columns: dict[str, list[Any]] = {name: [] for name in STEPS_SCHEMA.names}
    for title, game_id, ended_at, seats, players, teams, ranks in games:
        keys = [(title, p.lower()) for p in players]  # "Ana" and "ana" are one player, as the statistics count them
        held = [current.get(k) for k in keys]
        before = [(h.mu, h.sigma) if h is not None else known.get(k, default) for h, k in zip(held, keys)]
        sides: dict[int, list[int]] = {}
        for index, team in enumerate(teams):
            sides.setdefault(team, []).append(index)
        after = before
        if len(sides) >= 2:  # a game with one side alone changes nobody's rating
            rated = pl.rate(
                [[held[i] if held[i] is not None else pl.rating(*before[i]) for i in side] for side in sides.values()],
                ranks=[min(ranks[i] for i in side) for side in sides.values()],
            )
            after = list(before)
            for side, out in zip(sides.values(), rated):
                for i, r in zip(side, out):
                    current[keys[i]] = r
                    after[i] = (r.mu, r.sigma)
        n = len(players)
        columns["title"] += [title] * n
        columns["game_id"] += [game_id] * n
        columns["ended_at"] += [ended_at] * n
        columns["seat"] += seats
        columns["player"] += players
        columns["team"] += teams
        columns["rank"] += ranks
        columns["mu_before"] += [b[0] for b in before]
        columns["sigma_before"] += [b[1] for b in before]
        columns["mu"] += [a[0] for a in after]
        columns["sigma"] += [a[1] for a in after]
    for key, r in current.items():
        known[key] = (r.mu, r.sigma)
    return pa.table(columns, schema=STEPS_SCHEMA)


class Ratings:
    """The ratings over one database: kept current on demand (``refresh``), rebuilt whole
    (``rebuild``), and asked (``table``, ``history``, ``favourite``)."""

    def __init__(self, read_models: "ReadModels") -> None:
        self.read_models = read_models

    # -- keeping the steps current ---------------------------------------------------------------

    def refresh(self) -> int:
        """Re-rate from the first game that differs from what was rated; returns how many games
        were (re)rated. The statistics tables are brought up to date first; only the games with
        events since the last refresh are compared (a game changes only by an event of its own)."""
        rm = self.read_models
        rm.refresh()
        mark = rm.folded
        if mark is not None and _CAUGHT_UP.get(rm) == mark:
            return 0
        with rm.lock:
            con = rm.con
            self._ensure(con)
            top = -1 if mark is None else mark[1]
            seen = con.execute("SELECT value FROM stats_meta WHERE key = ?", [_MARK_KEY]).fetchall()
            since = int(seen[0][0]) if seen else None
            count = 0
            if since != top:
                count = self._catch_up(con, since, top)
            _CAUGHT_UP[rm] = mark
            return count

    def _catch_up(self, con, since: int | None, top: int) -> int:
        """Re-rate each title from its first game that differs, among the games with events in
        (``since``, ``top``] (every game where ``since`` is None); then mark ``top``."""
        where = "true"
        if since is not None:
            changed = con.sql(
                "SELECT DISTINCT game_id FROM events WHERE rowid > $since AND rowid <= $top", params={"since": since, "top": top}
            ).to_arrow_table()
            con.register("_rt_changed", changed)
            where = "game_id IN (SELECT game_id FROM _rt_changed)"
        try:
            firsts = con.execute(
                f"""WITH now AS ({counted(where.replace("game_id", "r.game_id", 1))}), was AS ({rated(where)})
                SELECT coalesce(n.title, w.title) AS title,
                       min(struct_pack(
                           at := CASE WHEN w.game_id IS NULL OR (n.game_id IS NOT NULL AND n.ended_at < w.ended_at)
                                      THEN n.ended_at ELSE w.ended_at END,
                           id := coalesce(n.game_id, w.game_id))) AS first
                FROM now n FULL JOIN was w ON n.game_id = w.game_id AND n.title = w.title
                WHERE n.game_id IS NULL OR w.game_id IS NULL OR n.ended_at <> w.ended_at OR n.seats <> w.seats
                      OR n.players <> w.players OR n.teams <> w.teams OR n.ranks <> w.ranks
                GROUP BY 1"""
            ).fetchall()
        finally:
            if since is not None:
                con.unregister("_rt_changed")
        count = 0
        con.execute("BEGIN")
        try:
            for title, first in firsts:
                count += self._rerate(con, title, (first["at"], first["id"]))
            self._mark(con, top)
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
        return count

    def rebuild(self) -> int:
        """Rate every counted game anew from the start; returns how many."""
        rm = self.read_models
        rm.refresh()
        with rm.lock:
            con = rm.con
            self._ensure(con)
            mark = rm.folded
            con.execute("BEGIN")
            try:
                con.execute("DELETE FROM rating_steps")
                titles = [r[0] for r in con.execute(f"SELECT DISTINCT title FROM ({counted()}) ORDER BY 1").fetchall()]
                count = sum(self._rerate(con, title, None) for title in titles)
                self._mark(con, -1 if mark is None else mark[1])
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise
            _CAUGHT_UP[rm] = mark
            return count

    @staticmethod
    def _mark(con, top: int) -> None:
        con.execute("DELETE FROM stats_meta WHERE key = ?", [_MARK_KEY])
        con.execute("INSERT INTO stats_meta VALUES (?, ?)", [_MARK_KEY, str(top)])

    def _ensure(self, con) -> None:
        con.execute("CREATE TABLE IF NOT EXISTS stats_meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)")
        version = con.execute("SELECT value FROM stats_meta WHERE key = ?", [_META_KEY]).fetchall()
        if not version or version[0][0] != VERSION:
            con.execute("DROP TABLE IF EXISTS rating_steps")
            con.execute("DELETE FROM stats_meta WHERE key IN (?, ?)", [_META_KEY, _MARK_KEY])
            con.execute("INSERT INTO stats_meta VALUES (?, ?)", [_META_KEY, VERSION])
        con.register("_rt_empty", STEPS_SCHEMA.empty_table())
        try:
            con.execute("CREATE TABLE IF NOT EXISTS rating_steps AS SELECT * FROM _rt_empty")
        finally:
            con.unregister("_rt_empty")

    def _rerate(self, con, title: str, first: tuple[datetime, str] | None) -> int:
        """Re-rate ``title``'s games from ``first`` (ended_at, game_id) on; None: all of them."""
        if first is None:
            known: dict[tuple[str, str], tuple[float, float]] = {}
            since, params = "true", [title]
        else:
            since, params = "(ended_at, game_id) >= (?, ?)", [title, *first]
            # each player's rating as the last game before ``first`` left it
            known = {
                (title, player): (mu, sigma)
                for player, mu, sigma in con.execute(
                    """SELECT lower(player), arg_max(mu, (ended_at, game_id)), arg_max(sigma, (ended_at, game_id))
                    FROM rating_steps WHERE title = ? AND (ended_at, game_id) < (?, ?) GROUP BY lower(player)""",
                    params,
                ).fetchall()
            }
            con.execute(f"DELETE FROM rating_steps WHERE title = ? AND {since}", params)
        narrowed = "r.title = ?" + ("" if first is None else " AND (coalesce(g.ended_at, g.created_at), r.game_id) >= (?, ?)")
        games = con.execute(f"SELECT * FROM ({counted(narrowed)}) ORDER BY ended_at, game_id", params).fetchall()
        rows = rate_games(games, known)
        if rows.num_rows:
            con.register("_rt_rows", rows)
            try:
                con.execute("INSERT INTO rating_steps SELECT * FROM _rt_rows")
            finally:
                con.unregister("_rt_rows")
        return len(games)

    # -- answers ---------------------------------------------------------------------------------

    def _ask(self, sql: str, params: list[Any]) -> list[dict[str, Any]]:
        self.refresh()
        cur = self.read_models.log.cursor()
        try:
            result = cur.execute(sql, params)
            names = [d[0] for d in result.description]
            return [dict(zip(names, r)) for r in result.fetchall()]
        finally:
            cur.close()

    def table(self, title: str | None, limit: int = 100) -> list[dict[str, Any]]:
        """Per player of ``title``: rating (mu), uncertainty (sigma), the conservative rating
        mu - 3 sigma it is ordered by, games rated, wins, and when they last played."""
        title = need_title(title)
        rows = self._ask(
            """SELECT arg_max(player, (ended_at, game_id)) AS player, arg_max(mu, (ended_at, game_id)) AS mu,
                   arg_max(sigma, (ended_at, game_id)) AS sigma, count(*) AS games, count(*) FILTER (WHERE rank = 1) AS wins,
                   max(ended_at) AS last_played
            FROM rating_steps WHERE title = ? GROUP BY lower(player)""",
            [title],
        )
        for row in rows:
            row["conservative"] = conservative(row["mu"], row["sigma"])
            row["last_played"] = row["last_played"].isoformat()
        rows.sort(key=lambda r: (-r["conservative"], r["player"]))
        return [{"position": n, **r} for n, r in enumerate(rows[:limit], start=1)]

    def history(self, title: str | None, player: str) -> list[dict[str, Any]]:
        """One player's rating after each of their rated games of ``title``, oldest first."""
        title = need_title(title)
        rows = self._ask(
            """SELECT game_id, ended_at, player, rank, mu_before, sigma_before, mu, sigma FROM rating_steps
            WHERE title = ? AND lower(player) = lower(?) ORDER BY ended_at, game_id""",
            [title, player],
        )
        for row in rows:
            row["ended_at"] = row["ended_at"].isoformat()
            row["conservative"] = conservative(row["mu"], row["sigma"])
        return rows

    def of_players(self, title: str) -> dict[str, dict[str, Any]]:
        """Each rated player's current rating of ``title``, by lower-case name."""
        return {r["player"].lower(): r for r in self.table(title, limit=10**9)}

    def favourite(self, title: str | None, players: list[str]) -> list[dict[str, Any]]:
        """Each named player's chance of winning at one table of ``title`` (openskill's
        ``predict_win``); a player not rated yet plays with the starting rating."""
        title = need_title(title)
        names = [p.strip() for p in players if p.strip()]
        if (len({n.lower() for n in names}) != len(names) or not 2 <= len(names) <= MOST_AT_TABLE
                or any(len(n) > 64 for n in names)):
            raise StatsQueryRefused(
                "who is favourite needs 2 to {most} different players, got {named}",
                params=dict(most=MOST_AT_TABLE, named=", ".join(names) or "none"),
                code="ratings-players-needed",
                players=names,
            )
        rated = self.of_players(title)
        pl = model()
        seats = []
        for name in names:
            row = rated.get(name.lower())
            seats.append({
                "player": row["player"] if row else name,
                "mu": row["mu"] if row else pl.mu,
                "sigma": row["sigma"] if row else pl.sigma,
                "games": row["games"] if row else 0,
            })
        chances = pl.predict_win([[pl.rating(s["mu"], s["sigma"])] for s in seats])
        return [{**s, "win_probability": float(p)} for s, p in zip(seats, chances)]


def need_title(title: str | None) -> str:
    """Ratings are per title: refused without one, or for one that is not registered."""
    known = list(models())
    if title is None:
        raise StatsQueryRefused(
            "{question} needs a title (one of: {known})", params=dict(question="ratings", known=", ".join(known)),
            code="stats-title-needed", titles=known,
        )
    if title not in known:
        raise StatsQueryRefused(
            "{question} is not answered for {title!r}; titles: {known}",
            params=dict(question="ratings", title=title, known=", ".join(known)),
            code="stats-title-not-covered", titles=known,
        )
    return title



def leaderboard(ratings: Ratings, f: Any, limit: int = 50) -> list[dict[str, Any]]:
    """The leaderboard of ``f`` (one title) with each player's current rating, ordered by it
    (players without one last)."""
    from projections.stats.questions import Questions

    title = need_title(f.title)
    rows = Questions(ratings.read_models).leaderboard(f, limit=10**9)
    rated = ratings.of_players(title)
    for row in rows:
        own = rated.get(row["player"].lower())
        row.update({k: own[k] if own else None for k in ("mu", "sigma", "conservative")})
    rows.sort(key=lambda r: (r["conservative"] is None, -(r["conservative"] or 0.0), r["player"]))
    return rows[:limit]
