"""The answers the statistics page is built from: its index, the group dashboard, a player's page
and a title's page, each one answer per screen.

Leaderboards and player figures count every finished game of the catalogue (``games`` and
``results``), score-only records included where the catalogue marks them (``games.score_only``);
move-level figures (characters, expeditions, sources, seats) come from the statistics tables, which
hold played games only. Forks are left out unless asked for, as everywhere.
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

from events.errors import StatsQueryRefused
from projections.stats import model, models
from projections.stats.questions import Filters, Questions, Selection, narrowed, selection
from rules import titles

if TYPE_CHECKING:
    from projections.read_models import ReadModels

#: a rate on fewer games than this is marked as such
FEW = 10
#: the normal quantile of a 95 % interval
Z = 1.959963984540054
#: how many games "the latest games" lists
LATEST = 10


def wilson(wins: int, n: int, z: float = Z) -> tuple[float | None, float | None]:
    """The Wilson score interval of a win rate (95 % by default); (None, None) without games."""
    if n <= 0:
        return None, None
    p = wins / n
    centre = p + z * z / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    scale = 1 + z * z / n
    return _round(max(0.0, (centre - margin) / scale)), _round(min(1.0, (centre + margin) / scale))


def with_interval(row: dict[str, Any], wins: str = "wins", n: str = "seats") -> dict[str, Any]:
    """A row with a rate, given its Wilson interval and whether it rests on few games."""
    low, high = wilson(row[wins], row[n])
    return {**row, "low": low, "high": high, "few": row[n] < FEW}


def _round(value: float | None) -> float | None:
    return None if value is None else float(f"{value:.12g}")


def h_index(counts: list[int]) -> int:
    """The largest h such that h titles were each played at least h times."""
    ranked = sorted(counts, reverse=True)
    return sum(1 for i, c in enumerate(ranked, start=1) if c >= i)


def game_selection(f: Filters) -> Selection:
    """Which catalogue rows (``games`` as ``{a}``) a page counts: finished games under the filters."""
    sel = Selection(["{a}.status = 'ended'"])
    if not f.include_forks:
        sel.clauses.append("{a}.parent_id IS NULL")
    return narrowed(sel, f, "results")


def _with(f: Filters, **changes: Any) -> Filters:
    fields = {k: getattr(f, k) for k in ("title", "player", "date_from", "date_to", "options", "include_forks")}
    return Filters(**{**fields, **changes})


def title_name(title_id: str) -> str:
    known = titles()
    return known[title_id].name if title_id in known else title_id


class Pages:
    """The page's answers over one database (each refreshes the statistics tables first)."""

    def __init__(self, read_models: "ReadModels") -> None:
        self.questions = Questions(read_models)
        self.read_models = read_models

    def _ask(self, sql: str, params: list[Any]) -> list[dict[str, Any]]:
        return self.questions._ask(sql, params)

    def _score_only(self) -> str:
        """``g.score_only`` where the catalogue has that column (score-only records), else false."""
        found = self._ask(
            "SELECT count(*) AS n FROM information_schema.columns WHERE table_name = 'games' AND column_name = 'score_only'",
            [],
        )
        return "coalesce(g.score_only, false)" if found[0]["n"] else "false"

    # -- the index -----------------------------------------------------------------------------

    def index(self) -> dict[str, Any]:
        """Where the page finds its answers, the titles that have finished games, and the players."""
        sel = game_selection(Filters())
        by_title = self._ask(
            f"""SELECT g.title, count(*) AS games, min(g.created_at) AS first_played, max(g.created_at) AS last_played
            FROM games g WHERE {sel.where("g")} GROUP BY g.title ORDER BY games DESC, g.title""",
            sel.params,
        )
        options = self._ask(
            f"""SELECT g.title, f.options, count(*) AS games FROM games g JOIN game_facts f USING (game_id)
            WHERE {sel.where("g")} GROUP BY ALL""",
            sel.params,
        )
        seen: dict[str, dict[str, set[str]]] = {}
        for row in options:
            for key, value in json.loads(row["options"]).items():
                if isinstance(value, (str, int, float, bool)):
                    seen.setdefault(row["title"], {}).setdefault(key, set()).add(json.dumps(value))
        players = self._ask(
            f"""SELECT r.player AS name, count(*) AS games FROM results r JOIN games g USING (game_id)
            WHERE {sel.where("g")} GROUP BY r.player ORDER BY games DESC, r.player""",
            sel.params,
        )
        return {
            "endpoints": {
                "dashboard": "/stats/dashboard",
                "player": "/stats/player?name={name}",
                "title": "/stats/titles/{title}",
                "bgstats": "/export/bgstats",
            },
            "games": sum(r["games"] for r in by_title),
            "titles": [
                {
                    **r,
                    "name": title_name(r["title"]),
                    "first_played": r["first_played"].isoformat() + "Z",
                    "last_played": r["last_played"].isoformat() + "Z",
                    "options": {
                        k: sorted((json.loads(v) for v in vs), key=lambda x: (str(type(x)), x))
                        for k, vs in sorted(seen.get(r["title"], {}).items())
                        if len(vs) > 1
                    },
                }
                for r in by_title
            ],
            "players": players,
        }

    # -- the group dashboard -------------------------------------------------------------------

    def leaderboard(self, f: Filters, limit: int = 50) -> list[dict[str, Any]]:
        """Per player: games, wins, win rate, average and best score (``player``: over the games
        that player took part in, so the rivals show too)."""
        sel = game_selection(f)
        return self._ask(
            f"""SELECT r.player, count(*) AS games, count(*) FILTER (WHERE r.won) AS wins,
                   count(*) FILTER (WHERE r.won) / count(*) AS win_rate,
                   avg(r.score) AS avg_score, max(r.score) AS best_score
            FROM results r JOIN games g USING (game_id) WHERE {sel.where("g")}
            GROUP BY r.player ORDER BY wins DESC, win_rate DESC, games DESC, r.player LIMIT ?""",
            [*sel.params, limit],
        )

    def latest(self, f: Filters, limit: int = LATEST) -> list[dict[str, Any]]:
        """The latest finished games with their seats' scores and the winners."""
        sel = game_selection(f)
        games = self._ask(
            f"""SELECT g.game_id, g.title, g.created_at, g.ended_at, {self._score_only()} AS score_only
            FROM games g WHERE {sel.where("g")}
            ORDER BY g.created_at DESC, g.game_id DESC LIMIT ?""",
            [*sel.params, limit],
        )
        if not games:
            return []
        ids = [g["game_id"] for g in games]
        seats: dict[str, list[dict[str, Any]]] = {}
        for r in self._ask(
            f"SELECT game_id, seat, player, score, rank, won FROM results WHERE game_id IN ({', '.join('?' * len(ids))}) "
            "ORDER BY game_id, seat",
            ids,
        ):
            seats.setdefault(r.pop("game_id"), []).append(r)
        return [
            {
                **g,
                "name": title_name(g["title"]),
                "created_at": g["created_at"].isoformat() + "Z",
                "ended_at": g["ended_at"].isoformat() + "Z" if g["ended_at"] else None,
                "seats": seats.get(g["game_id"], []),
            }
            for g in games
        ]

    def months(self, f: Filters) -> list[dict[str, Any]]:
        """Finished games per calendar month (UTC) of their start."""
        sel = game_selection(f)
        return self._ask(
            f"""SELECT strftime(g.created_at, '%Y-%m') AS month, count(*) AS games
            FROM games g WHERE {sel.where("g")} GROUP BY 1 ORDER BY 1""",
            sel.params,
        )

    def title_summaries(self, f: Filters) -> list[dict[str, Any]]:
        """A section per title with finished games: its games, players, and leaderboard."""
        sel = game_selection(f)
        per_title = self._ask(
            f"""SELECT g.title, count(*) AS games, max(g.created_at) AS last_played, avg(g.duration_s) AS avg_duration_s
            FROM games g WHERE {sel.where("g")} GROUP BY g.title ORDER BY games DESC, g.title""",
            sel.params,
        )
        board = self._ask(
            f"""SELECT g.title, r.player, count(*) AS games, count(*) FILTER (WHERE r.won) AS wins,
                   count(*) FILTER (WHERE r.won) / count(*) AS win_rate,
                   avg(r.score) AS avg_score, max(r.score) AS best_score
            FROM results r JOIN games g USING (game_id) WHERE {sel.where("g")}
            GROUP BY g.title, r.player ORDER BY g.title, wins DESC, win_rate DESC, games DESC, r.player""",
            sel.params,
        )
        scores = self._ask(
            f"""SELECT g.title, avg(r.score) AS avg_score, max(r.score) AS best_score,
                   arg_max(r.player, r.score) AS best_player
            FROM results r JOIN games g USING (game_id) WHERE {sel.where("g")} GROUP BY g.title""",
            sel.params,
        )
        by = {s["title"]: s for s in scores}
        out = []
        for t in per_title:
            rows = [{k: v for k, v in r.items() if k != "title"} for r in board if r["title"] == t["title"]]
            out.append(
                {
                    **t,
                    "name": title_name(t["title"]),
                    "last_played": t["last_played"].isoformat() + "Z",
                    "players": len(rows),
                    "avg_score": by[t["title"]]["avg_score"],
                    "best_score": by[t["title"]]["best_score"],
                    "best_player": by[t["title"]]["best_player"],
                    "leaderboard": rows[:8],
                }
            )
        return out

    def dashboard(self, f: Filters) -> dict[str, Any]:
        board = self.leaderboard(f)
        months = self.months(f)
        return {
            "games": sum(m["games"] for m in months),
            "players": len(board),
            "leaderboard": board,
            "latest": self.latest(f),
            "months": months,
            "titles": self.title_summaries(f),
        }

    # -- a player's page -----------------------------------------------------------------------

    def player(self, name: str, f: Filters) -> dict[str, Any]:
        """One player's figures over the finished games they took part in."""
        f = _with(f, player=name)
        sel = game_selection(_with(f, player=None))
        me = "lower(r.player) = lower(?)"
        mine = f"FROM results r JOIN games g USING (game_id) WHERE {sel.where('g')} AND {me}"
        params = [*sel.params, name]
        spelt = self._ask(f"SELECT r.player, count(*) AS n {mine} GROUP BY 1 ORDER BY n DESC, 1 LIMIT 1", params)
        by_title = self._ask(
            f"""SELECT g.title, count(*) AS games, count(*) FILTER (WHERE r.won) AS wins,
                   count(*) FILTER (WHERE r.won) / count(*) AS win_rate,
                   avg(r.score) AS avg_score, max(r.score) AS best_score, min(r.score) AS worst_score
            {mine} GROUP BY g.title ORDER BY games DESC, g.title""",
            params,
        )
        for row in by_title:
            row["name"] = title_name(row["title"])
        by_month = self._ask(
            f"""SELECT strftime(g.created_at, '%Y-%m') AS month, count(*) AS games,
                   count(*) FILTER (WHERE r.won) AS wins {mine} GROUP BY 1 ORDER BY 1""",
            params,
        )
        streaks = self._ask(
            f"""WITH m AS (SELECT r.won, row_number() OVER (ORDER BY g.created_at, g.game_id) AS n,
                       row_number() OVER (PARTITION BY r.won ORDER BY g.created_at, g.game_id) AS k {mine}),
                 s AS (SELECT won, count(*) AS length, max(n) AS last FROM m GROUP BY won, n - k)
            SELECT coalesce(max(length) FILTER (WHERE won), 0) AS longest_wins,
                   coalesce(max(length) FILTER (WHERE NOT won), 0) AS longest_losses,
                   arg_max(length, last) AS current_length, arg_max(won, last) AS current_won FROM s""",
            params,
        )[0]
        rivals = self._ask(  # the player's seats first: the join then only reads their games
            f"""WITH m AS (SELECT r.game_id, r.seat, r.rank {mine}),
                 t AS (SELECT m.*, f.teams FROM m LEFT JOIN game_facts f USING (game_id))
            SELECT b.player AS opponent, count(DISTINCT t.game_id) AS games,
                   count(*) FILTER (WHERE t.rank < b.rank) AS wins, count(*) FILTER (WHERE t.rank > b.rank) AS losses,
                   count(*) FILTER (WHERE t.rank = b.rank) AS ties
            FROM t JOIN results b ON b.game_id = t.game_id AND b.seat <> t.seat
            WHERE NOT lower(b.player) = lower(?)
                  AND coalesce(t.teams[t.seat + 1], t.seat) <> coalesce(t.teams[b.seat + 1], b.seat)
            GROUP BY b.player ORDER BY games DESC, b.player LIMIT 20""",
            [*params, name],
        )
        games = sum(t["games"] for t in by_title)
        wins = sum(t["wins"] for t in by_title)
        return {
            "player": spelt[0]["player"] if spelt else name,
            "games": games,
            "wins": wins,
            "win_rate": wins / games if games else None,
            "titles_played": len(by_title),
            "h_index": h_index([t["games"] for t in by_title]),
            "by_title": by_title,
            "by_month": by_month,
            "streaks": {
                "longest_wins": streaks["longest_wins"],
                "longest_losses": streaks["longest_losses"],
                "current": None
                if streaks["current_length"] is None
                else {"won": streaks["current_won"], "length": streaks["current_length"]},
            },
            "rivals": rivals,
            "characters": self._characters_of(f),
            "expeditions": self._expeditions_of(f),
            "sources": self._sources_of(f),
            "latest": self.latest(f),
        }

    def _characters_of(self, f: Filters) -> list[dict[str, Any]]:
        """The characters a player chose, per title that has them, most played first."""
        out: list[dict[str, Any]] = []
        for title_id, m in models().items():
            if f.title not in (None, title_id) or "characters" not in getattr(m, "questions", {}):
                continue
            sel = selection(_with(f, player=None, title=title_id), games_with_player=False)
            rows = self._ask(
                f"""SELECT x.character, count(*) AS seats, count(*) FILTER (WHERE x.won) AS wins,
                       count(*) FILTER (WHERE x.won) / count(*) AS win_rate, avg(x.score) AS avg_score
                FROM {m.seats_table} x WHERE {sel.where("x")} AND lower(x.player) = lower(?)
                GROUP BY x.character ORDER BY seats DESC, wins DESC, x.character""",
                [*sel.params, f.player],
            )
            out += [{"title": title_id, "name": title_name(title_id), **r} for r in rows]
        return out

    def _expeditions_of(self, f: Filters) -> list[dict[str, Any]]:
        """Lost Cities: the player's expeditions per colour, most opened first."""
        if f.title not in (None, "lost-cities") or "lost-cities" not in models():
            return []
        sel = selection(_with(f, player=None, title="lost-cities"), games_with_player=False)
        return self._ask(
            f"""SELECT x.colour, count(*) AS expeditions, avg(x.score) AS avg_score,
                   count(*) FILTER (WHERE x.bonus) / count(*) AS bonus_rate
            FROM lost_cities_expeditions x WHERE {sel.where("x")} AND lower(x.player) = lower(?)
            GROUP BY x.colour ORDER BY expeditions DESC, x.colour""",
            [*sel.params, f.player],
        )

    def _sources_of(self, f: Filters) -> list[dict[str, Any]]:
        """Per title and source, the player's average points against the whole group's."""
        sel = selection(_with(f, player=None), games_with_player=False)
        rows = self._ask(
            f"""SELECT p.title, p.source, avg(p.points) FILTER (WHERE lower(p.player) = lower(?)) AS avg_points,
                   avg(p.points) AS group_avg_points
            FROM score_sources p WHERE {sel.where("p")} GROUP BY p.title, p.source
            HAVING count(*) FILTER (WHERE lower(p.player) = lower(?)) > 0 ORDER BY p.title, group_avg_points DESC, p.source""",
            [f.player, *sel.params, f.player],
        )
        return [{**r, "name": title_name(r["title"])} for r in rows]

    # -- a title's page ------------------------------------------------------------------------

    def title(self, title_id: str, f: Filters) -> dict[str, Any]:
        """What a title's page shows: its summary, seats, scores and its own questions."""
        if title_id not in models():
            known = sorted(models())
            raise StatsQueryRefused(
                "no statistics for {title_id!r}; titles: {known}", params=dict(title_id=title_id, known=', '.join(known)),
                code="stats-title-not-covered",
                titles=known,
            )
        f = _with(f, title=title_id)
        q = self.questions
        gsel = game_selection(f)
        who, params = ("AND lower(r.player) = lower(?)", [f.player]) if f.player is not None else ("", [])
        summary = self._ask(  # with a player: that player's seats, as every per-seat figure below
            f"""SELECT count(DISTINCT g.game_id) AS games, count(DISTINCT r.player) AS players,
                   avg(r.score) AS avg_score, max(r.score) AS best_score
            FROM games g JOIN results r USING (game_id) WHERE {gsel.where("g")} {who}""",
            [*gsel.params, *params],
        )[0]
        seats = q.seats(f)
        out: dict[str, Any] = {
            "title": title_id,
            "name": title_name(title_id),
            **summary,
            "seats": [with_interval(r, n="games") for r in seats["by_seat"]],
            "first_player": seats["first_player"],
            "scores": q.scores(f),
            "sources": q.sources(f),
        }
        asked = getattr(model(title_id), "questions", {})

        def ask(name: str) -> Any:
            return q.title_question(f, name)

        if title_id == "lost-cities":
            out["wagers"] = ask("wagers")
            out["bonus"] = ask("bonus")
            out["rounds"] = ask("rounds")
            out["colours"] = self._colours(f)
        if "characters" in asked:
            out["characters"] = [with_interval(r) for r in ask("characters")]
            out["character_sources"] = self._character_sources(title_id, f)
        if "beijing" in asked:
            beijing = ask("beijing")
            out["beijing"] = {**beijing, "by_slot": [with_interval(r) for r in beijing["by_slot"]]}
        if "contracts" in asked:
            out["contracts"] = ask("contracts")
        return out

    def _colours(self, f: Filters) -> list[dict[str, Any]]:
        """Lost Cities per colour: expeditions opened, average score, losses and bonuses."""
        sel = selection(f, games_with_player=False)
        who, params = ("AND lower(x.player) = lower(?)", [f.player]) if f.player is not None else ("", [])
        return self._ask(
            f"""SELECT x.colour, count(*) AS expeditions, avg(x.score) AS avg_score, avg(x.wagers) AS avg_wagers,
                   count(*) FILTER (WHERE x.score < 0) / count(*) AS negative_rate,
                   count(*) FILTER (WHERE x.bonus) / count(*) AS bonus_rate
            FROM lost_cities_expeditions x WHERE {sel.where("x")} {who}
            GROUP BY x.colour ORDER BY avg_score DESC, x.colour""",
            [*sel.params, *params],
        )

    def _character_sources(self, title_id: str, f: Filters) -> list[dict[str, Any]]:
        """Average points by source per character (the stacked bars of a title with characters)."""
        m = model(title_id)
        sel = selection(f, games_with_player=False)
        who, params = ("AND lower(p.player) = lower(?)", [f.player]) if f.player is not None else ("", [])
        return self._ask(
            f"""SELECT x.character, p.source, avg(p.points) AS avg_points
            FROM score_sources p JOIN {m.seats_table} x ON x.game_id = p.game_id AND x.seat = p.seat
            WHERE {sel.where("p")} {who} GROUP BY ALL ORDER BY x.character, p.source""",
            [*sel.params, *params],
        )
