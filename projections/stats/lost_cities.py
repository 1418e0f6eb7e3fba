"""Lost Cities statistics: every opened expedition of every finished round, and each round's score."""

from __future__ import annotations

from typing import Any, ClassVar

import pyarrow as pa

from events.rows import columns
from projections.fold import GameState
from projections.stats.base import Finished, TitleStats
from rules.lost_cities.scoring import expedition_breakdown, side_seats
from rules.lost_cities.state import SIDES


class LostCitiesStats(TitleStats):
    title: ClassVar[str] = "lost-cities"
    tables: ClassVar[dict[str, pa.Schema]] = {
        "lost_cities_expeditions": pa.schema(columns(
            "game_id VARCHAR, round INTEGER, side INTEGER, seat INTEGER, player VARCHAR, "
            "colour VARCHAR, cards INTEGER, wagers INTEGER, sum INTEGER, multiplier INTEGER, "
            "bonus BOOLEAN, score INTEGER"
        )),
        "lost_cities_rounds": pa.schema(columns(
            "game_id VARCHAR, round INTEGER, side INTEGER, seat INTEGER, player VARCHAR, "
            "started BOOLEAN, opened INTEGER, bonuses INTEGER, score INTEGER"
        )),
    }
    docs: ClassVar[dict[str, str]] = {
        "lost_cities_expeditions": "one row per opened expedition of a finished round: game_id, round, side "
        "(0/1; a partnership side is seats 0+2 / 1+3), seat and player (the side's first seat), colour, "
        "cards, wagers, sum (card values), multiplier (1 + wagers), bonus (8+ cards), score",
        "lost_cities_rounds": "one row per side and finished round: game_id, round, side, seat, player, "
        "started (the side opened the round), opened (expeditions opened), bonuses (expeditions with the 8-card "
        "bonus), score (the round's score)",
    }

    def rounds(self, game: GameState) -> int:
        return len(game.state.history)

    def first_seat(self, game: GameState) -> int:
        return game.state.first_seat

    def teams(self, game: GameState) -> list[int]:
        return [seat % SIDES for seat in range(len(game.players))]

    def options(self, game: GameState) -> dict[str, Any]:
        state = game.state
        return {"rounds": state.rounds, "expeditions": state.expedition_count, "first_seat": state.first_seat}

    def sources(self, game: GameState) -> list[dict[str, int]]:
        """``expeditions`` (sums less the cost), ``wagers`` (what the multipliers added), ``bonus``."""
        per_side = []
        for side in range(SIDES):
            value = wagered = bonus = 0
            for result in game.state.history:
                for colour, cards in enumerate(result.expeditions[side]):
                    e = expedition_breakdown(colour, cards)
                    value += e["value"]
                    wagered += e["value"] * (e["multiplier"] - 1)
                    bonus += e["bonus"]
            per_side.append({"expeditions": value, "wagers": wagered, "bonus": bonus})
        return [dict(per_side[seat % SIDES]) for seat in range(len(game.players))]

    def facts(self, finished: Finished) -> dict[str, list[dict[str, Any]]]:
        state = finished.state
        players = state.players
        expeditions: list[dict[str, Any]] = []
        rounds: list[dict[str, Any]] = []
        for result in state.history:
            for side in range(SIDES):
                seat = side_seats(len(players), side)[0]
                base = {"game_id": finished.game_id, "round": result.round, "side": side, "seat": seat,
                        "player": players[seat]}
                opened = bonuses = 0
                for colour, cards in enumerate(result.expeditions[side]):
                    if not cards:
                        continue
                    opened += 1
                    e = expedition_breakdown(colour, cards)
                    bonuses += e["bonus"] > 0
                    expeditions.append({**base, "colour": e["colour"], "cards": len(cards), "wagers": e["wagers"],
                                        "sum": e["sum"], "multiplier": e["multiplier"], "bonus": e["bonus"] > 0,
                                        "score": e["score"]})
                rounds.append({**base, "started": result.starting_seat % SIDES == side, "opened": opened,
                               "bonuses": bonuses, "score": result.scores[side]})
        return {"lost_cities_expeditions": expeditions, "lost_cities_rounds": rounds}


MODEL = LostCitiesStats()


def _player(f, alias: str) -> tuple[str, list]:
    return (f" AND lower({alias}.player) = lower(?)", [f.player]) if f.player is not None else ("", [])


def wagers(model: LostCitiesStats, ask, sel, f) -> list[dict[str, Any]]:
    """Does investing pay? Opened expeditions by number of wager cards: average score and sum,
    how often they lose points, how often they earn the 8-card bonus."""
    where, params = _player(f, "x")
    return ask(
        f"""SELECT x.wagers, count(*) AS expeditions, avg(x.score) AS avg_score, avg(x.sum) AS avg_sum,
               avg(x.cards) AS avg_cards, count(*) FILTER (WHERE x.score < 0) / count(*) AS negative_rate,
               count(*) FILTER (WHERE x.bonus) / count(*) AS bonus_rate
        FROM lost_cities_expeditions x WHERE {sel.where("x")}{where}
        GROUP BY x.wagers ORDER BY x.wagers""",
        [*sel.params, *params],
    )


def bonus(model: LostCitiesStats, ask, sel, f) -> dict[str, Any]:
    """How often the 8-card bonus is earned: per opened expedition, per side and round, per match."""
    where, params = _player(f, "r")
    per_round = ask(
        f"""SELECT sum(r.opened) AS expeditions, sum(r.bonuses) AS bonuses,
               sum(r.bonuses) / nullif(sum(r.opened), 0) AS per_expedition,
               count(*) FILTER (WHERE r.bonuses > 0) / nullif(count(*), 0) AS per_side_round
        FROM lost_cities_rounds r WHERE {sel.where("r")}{where}""",
        [*sel.params, *params],
    )[0]
    per_match = ask(
        f"""SELECT count(*) FILTER (WHERE b > 0) / nullif(count(*), 0) AS per_match
        FROM (SELECT r.game_id, sum(r.bonuses) AS b FROM lost_cities_rounds r
              WHERE {sel.where("r")}{where} GROUP BY r.game_id)""",
        [*sel.params, *params],
    )[0]
    return {**per_round, "expeditions": per_round["expeditions"] or 0, "bonuses": per_round["bonuses"] or 0,
            **per_match}


def rounds(model: LostCitiesStats, ask, sel, f) -> list[dict[str, Any]]:
    """Per round number (and all rounds, ``round`` null): expeditions opened and the round score,
    averaged per side, and how the side that opened the round fares."""
    where, params = _player(f, "r")
    rows = ask(
        f"""SELECT r.round, count(*) AS sides, avg(r.opened) AS avg_opened, avg(r.score) AS avg_score,
               avg(r.score) FILTER (WHERE r.started) AS starter_avg_score
        FROM lost_cities_rounds r WHERE {sel.where("r")}{where}
        GROUP BY ROLLUP (r.round) ORDER BY r.round NULLS LAST""",
        [*sel.params, *params],
    )
    return [r for r in rows if r["sides"]]  # no games: no total row either


LostCitiesStats.questions = {"wagers": wagers, "bonus": bonus, "rounds": rounds}  # type: ignore[attr-defined]
