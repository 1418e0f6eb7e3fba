"""The Voyages of Marco Polo statistics: one row per seat of every finished game."""

from __future__ import annotations

import math
from typing import Any, ClassVar

import msgspec
import pyarrow as pa

from events.rows import columns
from projections.fold import GameState
from projections.stats.base import Finished, TitleStats
from rules.marco_polo.scoring import breakdown

#: the sources of ``rules.marco_polo.scoring.breakdown`` that add up to the total
SOURCES = (
    "contracts", "city_cards", "post_bonuses", "city_bonuses", "objectives", "objective_cities",
    "coins", "beijing", "goods", "most_contracts",
)

SEAT_COLUMNS = columns(
    "game_id VARCHAR, seat INTEGER, player VARCHAR, character VARCHAR, contracts INTEGER, "
    "posts INTEGER, beijing_slot INTEGER, travel_steps INTEGER, camels INTEGER, coins INTEGER, "
    "score INTEGER, rank INTEGER, won BOOLEAN"
)

SEAT_DOC = (
    "one row per seat of a finished game: game_id, seat, player, character, contracts (completed), "
    "posts (trading posts placed), beijing_slot (1 = first to reach Beijing; NULL = never), travel_steps "
    "(spaces moved), camels, coins, score, rank, won"
)


class MarcoPoloStats(TitleStats):
    title: ClassVar[str] = "marco-polo"
    #: the per-seat table; Marco Polo II shares the questions under its own table
    seats_table: ClassVar[str] = "marco_polo_seats"
    tables: ClassVar[dict[str, pa.Schema]] = {"marco_polo_seats": pa.schema(SEAT_COLUMNS)}
    docs: ClassVar[dict[str, str]] = {"marco_polo_seats": SEAT_DOC}
    sources_order: ClassVar[tuple[str, ...]] = SOURCES
    #: "most camels" breaks a tie on points (rules.marco_polo.scoring)
    tiebreak: ClassVar[str | None] = "camels"
    #: the title's score sheet, one row of sources per seat
    breakdown = staticmethod(breakdown)

    def rounds(self, game: GameState) -> int:
        return game.state.round

    def first_seat(self, game: GameState) -> int:
        return game.state.start_seat

    def options(self, game: GameState) -> dict[str, Any]:
        options = msgspec.to_builtins(game.state.options)
        options.pop("content", None)  # pinned content is not a playing option
        return options

    def sources(self, game: GameState) -> list[dict[str, int]]:
        return [{k: row[k] for k in self.sources_order} for row in self.breakdown(game.state)]

    def travel_steps(self, finished: Finished) -> list[int]:
        steps = [0] * len(finished.game.players)
        for body in finished.bodies:
            path = getattr(body, "path", None)
            if path is not None and body.seat is not None:
                steps[body.seat] += len(path) + len(getattr(body, "path2", ()))
        return steps

    def seat_row(self, finished: Finished, seat: int, steps: list[int]) -> dict[str, Any]:
        state, ended = finished.state, finished.game.ended
        p = state.seats[seat]
        return {
            "game_id": finished.game_id,
            "seat": seat,
            "player": state.players[seat],
            "character": p.character,
            "contracts": len(p.completed),
            "posts": len(p.posts),
            "beijing_slot": self.beijing_slot(state, seat),
            "travel_steps": steps[seat],
            "camels": p.camels,
            "coins": p.coins,
            "score": ended.scores[seat],
            "rank": ended.ranks[seat],
            "won": seat in ended.winners,
        }

    def beijing_slot(self, state: Any, seat: int) -> int | None:
        return state.beijing.index(seat) + 1 if seat in state.beijing else None

    def facts(self, finished: Finished) -> dict[str, list[dict[str, Any]]]:
        steps = self.travel_steps(finished)
        rows = [self.seat_row(finished, seat, steps) for seat in range(len(finished.game.players))]
        return {self.seats_table: rows}


def _player(f, alias: str) -> tuple[str, list]:
    return (f" AND lower({alias}.player) = lower(?)", [f.player]) if f.player is not None else ("", [])


def characters(model: MarcoPoloStats, ask, sel, f) -> list[dict[str, Any]]:
    """Per character: seats played, wins, win rate, average score and rank."""
    where, params = _player(f, "x")
    return ask(
        f"""SELECT x.character, count(*) AS seats, count(*) FILTER (WHERE x.won) AS wins,
               count(*) FILTER (WHERE x.won) / count(*) AS win_rate, avg(x.score) AS avg_score, avg(x.rank) AS avg_rank
        FROM {model.seats_table} x WHERE {sel.where("x")}{where}
        GROUP BY x.character ORDER BY win_rate DESC, x.character""",
        [*sel.params, *params],
    )


def beijing(model: MarcoPoloStats, ask, sel, f) -> dict[str, Any]:
    """Does reaching Beijing first win? Win rate and average score by arrival slot (null: never
    arrived), against the win rate of every seat."""
    where, params = _player(f, "x")
    by_slot = ask(
        f"""SELECT x.beijing_slot AS slot, count(*) AS seats, count(*) FILTER (WHERE x.won) AS wins,
               count(*) FILTER (WHERE x.won) / count(*) AS win_rate, avg(x.score) AS avg_score
        FROM {model.seats_table} x WHERE {sel.where("x")}{where}
        GROUP BY x.beijing_slot ORDER BY x.beijing_slot NULLS LAST""",
        [*sel.params, *params],
    )
    seats = sum(r["seats"] for r in by_slot)
    wins = sum(r["wins"] for r in by_slot)
    first = next((r for r in by_slot if r["slot"] == 1), None)
    return {
        "by_slot": by_slot,
        "first_win_rate": first["win_rate"] if first else None,
        "all_seats_win_rate": wins / seats if seats else None,
    }


def contracts(model: MarcoPoloStats, ask, sel, f) -> dict[str, Any]:
    """Contracts completed against the final rank: per count, seats, average rank and win rate;
    and the correlation of the two (negative: more contracts, better rank)."""
    where, params = _player(f, "x")
    query = f"WITH x AS (SELECT x.* FROM {model.seats_table} x WHERE {sel.where('x')}{where})"
    by_count = ask(
        f"""{query} SELECT contracts, count(*) AS seats, avg(rank) AS avg_rank,
               count(*) FILTER (WHERE won) / count(*) AS win_rate, avg(score) AS avg_score
        FROM x GROUP BY contracts ORDER BY contracts""",
        [*sel.params, *params],
    )
    corr = ask(f"{query} SELECT corr(contracts, rank) AS c FROM x", [*sel.params, *params])[0]["c"]
    if corr is not None and math.isnan(corr):  # no spread in one of the two: no correlation to report
        corr = None
    return {"by_count": by_count, "correlation": corr}


MarcoPoloStats.questions = {"characters": characters, "beijing": beijing, "contracts": contracts}  # type: ignore[attr-defined]

MODEL = MarcoPoloStats()
