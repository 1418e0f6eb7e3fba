"""Marco Polo II statistics: one row per seat of every finished game, caravans included.

The game starts in Beijing, so there is no race to it: ``beijing_slot`` stays NULL and the
Beijing question is not asked of this title.
"""

from __future__ import annotations

from typing import Any, ClassVar

import pyarrow as pa

from projections.fold import GameState
from projections.stats.base import Finished
from projections.stats.marco_polo import SEAT_COLUMNS, MarcoPoloStats, characters, contracts
from rules.marco_polo_2.scoring import breakdown

SOURCES = ("in_game", "goal_seals", "shields", "goods", "coins", "most_contracts", "caravans")


class MarcoPolo2Stats(MarcoPoloStats):
    title: ClassVar[str] = "marco-polo-2"
    seats_table: ClassVar[str] = "marco_polo_2_seats"
    tables: ClassVar[dict[str, pa.Schema]] = {
        "marco_polo_2_seats": pa.schema([*SEAT_COLUMNS, ("caravans", pa.int32()), ("jade", pa.int32())])
    }
    docs: ClassVar[dict[str, str]] = {
        "marco_polo_2_seats": "one row per seat of a finished Marco Polo II game: game_id, seat, player, "
        "character, contracts (completed), posts, beijing_slot (always NULL: the game starts in Beijing), "
        "travel_steps, camels, coins, score, rank, won, caravans (caravans started), jade"
    }
    sources_order: ClassVar[tuple[str, ...]] = SOURCES
    questions: ClassVar[dict[str, Any]] = {"characters": characters, "contracts": contracts}

    def sources(self, game: GameState) -> list[dict[str, int]]:
        return [{k: row[k] for k in self.sources_order} for row in breakdown(game.state)]

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
            "beijing_slot": None,
            "travel_steps": steps[seat],
            "camels": p.camels,
            "coins": p.coins,
            "score": ended.scores[seat],
            "rank": ended.ranks[seat],
            "won": seat in ended.winners,
            "caravans": sum(1 for _, location, _ in p.caravans if location),
            "jade": p.jade,
        }


MODEL = MarcoPolo2Stats()
