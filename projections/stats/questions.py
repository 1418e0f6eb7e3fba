"""The questions people ask of their play history, answered from the read models.

Every question takes ``Filters`` (title, player, creation date range, options, forks) and counts
finished games only; forks are left out unless asked for. A question first brings the
statistics tables up to date (``ReadModels.refresh``), so it never answers from stale rows.

``player`` narrows differently by question: the leaderboard keeps the games the player took part
in (so it shows the rivals too), head-to-head is that player's record, and every per-seat
question keeps that player's own seats.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

import duckdb

from events.errors import StatsQueryRefused
from events.log import naive_utc
from projections.stats import model, models

if TYPE_CHECKING:
    from projections.read_models import ReadModels


@dataclass(frozen=True, slots=True)
class Filters:
    """Which finished games a question counts. ``date_to`` is exclusive; ``options`` match exactly
    (defaults included: ``rounds=3`` finds games created without options too)."""

    title: str | None = None
    player: str | None = None
    date_from: datetime | None = None
    date_to: datetime | None = None
    options: tuple[tuple[str, Any], ...] = ()
    include_forks: bool = False


@dataclass(slots=True)
class Selection:
    """Which rows of a per-seat statistics table a question counts: a WHERE clause on the table's
    own game columns (title, created_at, forked), with semi-joins only for options and players."""

    clauses: list[str] = field(default_factory=list)
    params: list[Any] = field(default_factory=list)

    def where(self, alias: str) -> str:
        return " AND ".join(c.replace("{a}", alias) for c in self.clauses) or "true"


def option_text(value: Any) -> str:
    """How an option value reads in the stored JSON (``json_extract_string``)."""
    return value if isinstance(value, str) else json.dumps(value)


def selection(f: Filters, games_with_player: bool = True) -> Selection:
    sel = Selection()
    if not f.include_forks:
        sel.clauses.append("NOT {a}.forked")
    return narrowed(sel, f, "seat_results" if games_with_player else None)


def narrowed(sel: Selection, f: Filters, players: str | None) -> Selection:
    """``sel`` narrowed by the filters' title, player (looked up in the table ``players``; None:
    not by player), dates and options."""
    if f.title is not None:
        sel.clauses.append("{a}.title = ?")
        sel.params.append(f.title)
    if f.player is not None and players is not None:
        sel.clauses.append(f"{{a}}.game_id IN (SELECT game_id FROM {players} WHERE lower(player) = lower(?))")
        sel.params.append(f.player)
    if f.date_from is not None:
        sel.clauses.append("{a}.created_at >= ?")
        sel.params.append(naive_utc(f.date_from))
    if f.date_to is not None:
        sel.clauses.append("{a}.created_at < ?")
        sel.params.append(naive_utc(f.date_to))
    if f.options:
        matches = []
        for key, value in f.options:
            matches.append("json_extract_string(options, ?) = ?")
            sel.params.extend(["$." + json.dumps(key), option_text(value)])
        sel.clauses.append("{a}.game_id IN (SELECT game_id FROM game_facts WHERE " + " AND ".join(matches) + ")")
    return sel


def _seat_filter(f: Filters, alias: str) -> tuple[str, list[Any]]:
    if f.player is None:
        return "", []
    return f" AND lower({alias}.player) = lower(?)", [f.player]


def _rows(con: duckdb.DuckDBPyConnection, sql: str, params: list[Any]) -> list[dict[str, Any]]:
    cur = con.execute(sql, params)
    names = [d[0] for d in cur.description]
    return [{name: _steady(value) for name, value in zip(names, r)} for r in cur.fetchall()]


def _steady(value: Any) -> Any:
    """Floats to 12 significant digits: DuckDB's parallel aggregates (stddev) may differ in the
    last bits from run to run, and an answer must not change when the data has not."""
    return float(f"{value:.12g}") if isinstance(value, float) else value


def _need_title(f: Filters, question: str, having: str | None = None) -> str:
    """The title a per-title question is about; refused when missing or not covered."""
    known = [t for t, m in models().items() if having is None or hasattr(m, having)]
    if f.title is None:
        raise StatsQueryRefused(
            "{question} needs a title (one of: {known})", params=dict(question=question, known=', '.join(known)), code="stats-title-needed", titles=known
        )
    if f.title not in known:
        raise StatsQueryRefused(
            "{question} is not answered for {title!r}; titles: {known}", params=dict(question=question, title=f.title, known=', '.join(known)),
            code="stats-title-not-covered",
            titles=known,
        )
    return f.title


class Questions:
    """Canned statistics over one database; every answer is computed after a refresh."""

    def __init__(self, read_models: "ReadModels") -> None:
        self.read_models = read_models

    def _ask(self, sql: str, params: list[Any]) -> list[dict[str, Any]]:
        self.read_models.refresh()
        cur = self.read_models.log.cursor()  # a cursor per question: safe from any thread
        try:
            return _rows(cur, sql, params)
        finally:
            cur.close()

    # -- every title ---------------------------------------------------------------------------

    def leaderboard(self, f: Filters, limit: int = 50) -> list[dict[str, Any]]:
        """Per player: games, wins, win rate, average / best / worst score."""
        sel = selection(f)
        return self._ask(
            f"""SELECT r.player, count(*) AS games, count(*) FILTER (WHERE r.won) AS wins,
                   count(*) FILTER (WHERE r.won) / count(*) AS win_rate,
                   avg(r.score) AS avg_score, max(r.score) AS best_score, min(r.score) AS worst_score
            FROM seat_results r WHERE {sel.where("r")}
            GROUP BY r.player ORDER BY win_rate DESC, games DESC, r.player LIMIT ?""",
            [*sel.params, limit],
        )

    def head_to_head(self, f: Filters, opponent: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """Records between players on opposing sides of the same game: wins, losses, ties by rank.

        With ``player`` (and ``opponent``), that player's record against each rival (that one);
        without, every pair once."""
        sel = selection(f, games_with_player=False)
        where, params = "", []
        if f.player is not None:
            where += " AND lower(a.player) = lower(?)"
            params.append(f.player)
            if opponent is not None:
                where += " AND lower(b.player) = lower(?)"
                params.append(opponent)
        else:
            where += " AND a.player < b.player"
        return self._ask(
            f"""SELECT a.player, b.player AS opponent, count(DISTINCT a.game_id) AS games,
                   count(*) FILTER (WHERE a.rank < b.rank) AS wins,
                   count(*) FILTER (WHERE a.rank > b.rank) AS losses,
                   count(*) FILTER (WHERE a.rank = b.rank) AS ties
            FROM seat_results a JOIN seat_results b ON a.game_id = b.game_id AND a.team <> b.team
            WHERE {sel.where("a")}{where}
            GROUP BY a.player, b.player ORDER BY games DESC, a.player, b.player LIMIT ?""",
            [*sel.params, *params, limit],
        )

    def seats(self, f: Filters) -> dict[str, Any]:
        """Win rate by seat (per player count) and of the first player against the others.

        Score-only games are left out: their seats and start player are another app's word, which
        no recorded move vouches for (often only the order players were typed in)."""
        _need_title(f, "win rate by seat")
        sel = selection(f, games_with_player=False)
        seat_where, seat_params = _seat_filter(f, "r")
        seat_where += " AND NOT coalesce(r.score_only, false)"
        by_seat = self._ask(
            f"""SELECT r.players, r.seat, count(*) AS games, count(*) FILTER (WHERE r.won) AS wins,
                   count(*) FILTER (WHERE r.won) / count(*) AS win_rate, avg(r.score) AS avg_score
            FROM seat_results r WHERE {sel.where("r")}{seat_where}
            GROUP BY ALL ORDER BY r.players, r.seat""",
            [*sel.params, *seat_params],
        )
        first = self._ask(
            f"""SELECT r.players,
                   count(*) FILTER (WHERE r.first) AS games,
                   count(*) FILTER (WHERE r.first AND r.won) AS wins,
                   count(*) FILTER (WHERE r.first AND r.won) / nullif(count(*) FILTER (WHERE r.first), 0) AS win_rate,
                   count(*) FILTER (WHERE NOT r.first AND r.won)
                       / nullif(count(*) FILTER (WHERE NOT r.first), 0) AS others_win_rate
            FROM seat_results r WHERE {sel.where("r")}{seat_where}
            GROUP BY ALL ORDER BY r.players""",
            [*sel.params, *seat_params],
        )
        return {"title": f.title, "by_seat": by_seat, "first_player": first}

    def scores(self, f: Filters, bin_width: int | None = None) -> dict[str, Any]:
        """The distribution of final scores (per seat): summary figures and a histogram, and how
        many games it leaves out for having no scores (plays recorded by their winners alone)."""
        _need_title(f, "score distribution")
        sel = selection(f, games_with_player=False)
        seat_where, seat_params = _seat_filter(f, "r")
        unscored = self._ask(
            f"SELECT count(DISTINCT r.game_id) AS n FROM seat_results r WHERE {sel.where('r')}{seat_where} AND r.score IS NULL",
            [*sel.params, *seat_params],
        )[0]["n"]
        base = f"WITH s AS (SELECT r.score FROM seat_results r WHERE {sel.where('r')}{seat_where} AND r.score IS NOT NULL)"
        summary = self._ask(
            f"""{base} SELECT count(*) AS count, avg(score) AS mean, stddev_samp(score) AS stddev,
                   min(score) AS min, quantile_cont(score, 0.1) AS p10, median(score) AS median,
                   quantile_cont(score, 0.9) AS p90, max(score) AS max FROM s""",
            [*sel.params, *seat_params],
        )[0]
        if bin_width is None:
            bin_width = nice_width(summary["min"], summary["max"])
        histogram = self._ask(
            f"""{base} SELECT (floor(score / ?) * ?)::INTEGER AS low, count(*) AS count
            FROM s GROUP BY 1 ORDER BY 1""",
            [*sel.params, *seat_params, bin_width, bin_width],
        )
        # low, high, count: the order the API's answer has, so both print the same table
        histogram = [{"low": r["low"], "high": r["low"] + bin_width, "count": r["count"]} for r in histogram]
        return {"title": f.title, "summary": summary, "bin_width": bin_width, "histogram": histogram,
                "games_without_scores": unscored}

    def sources(self, f: Filters) -> list[dict[str, Any]]:
        """Points by source: the average per seat, its share of all points, and the winners' average."""
        _need_title(f, "points by source")
        sel = selection(f, games_with_player=False)
        seat_where, seat_params = _seat_filter(f, "p")
        return self._ask(
            f"""SELECT p.source, avg(p.points) AS avg_points,
                   sum(p.points) / nullif(sum(sum(p.points)) OVER (), 0) AS share,
                   avg(p.points) FILTER (WHERE p.won) AS winners_avg_points
            FROM score_sources p WHERE {sel.where("p")}{seat_where}
            GROUP BY p.source ORDER BY avg_points DESC, p.source""",
            [*sel.params, *seat_params],
        )

    # -- a title's own questions ---------------------------------------------------------------

    def title_question(self, f: Filters, name: str) -> Any:
        """A title's own question (``MODEL.questions``), e.g. Lost Cities' ``wagers``."""
        covered = [t for t, m in models().items() if name in getattr(m, "questions", {})]
        if f.title is None or f.title not in covered:
            raise StatsQueryRefused(
                "{name!r} is answered for {covered}; pick one as the title", params=dict(name=name, covered=', '.join(covered) or 'no title'),
                code="stats-title-not-covered",
                titles=covered,
            )
        title_model = model(f.title)
        sel = selection(f, games_with_player=False)
        ask = title_model.questions[name]
        return ask(title_model, lambda sql, params: self._ask(sql, params), sel, f)


def nice_width(low: float | None, high: float | None, bins: int = 20) -> int:
    """A round bin width (1, 2, 5, 10, 20, 25, 50 ...) giving about ``bins`` bins over the range."""
    if low is None or high is None or high <= low:
        return 1
    raw = (high - low) / bins
    scale = 10 ** math.floor(math.log10(raw)) if raw >= 1 else 1
    for step in (1, 2, 2.5, 5, 10):
        width = step * scale
        if width >= raw and float(width).is_integer():
            return int(width)
    return int(10 * scale)
