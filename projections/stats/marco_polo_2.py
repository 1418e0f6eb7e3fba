"""Marco Polo II statistics: one row per seat of every finished game, caravans included.

The game starts in Beijing, so there is no race to it: ``beijing_slot`` stays NULL and the
Beijing question is not asked of this title.
"""

from __future__ import annotations

from typing import Any, ClassVar

import pyarrow as pa

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
    #: the title's score sheet, one row of sources per seat
    breakdown = staticmethod(breakdown)
    questions: ClassVar[dict[str, Any]] = {"characters": characters, "contracts": contracts}

    def beijing_slot(self, state: Any, seat: int) -> None:
        return None  # the game starts in Beijing: no race to it

    def seat_row(self, finished: Finished, seat: int, steps: list[int]) -> dict[str, Any]:
        p = finished.state.seats[seat]
        return {
            **super().seat_row(finished, seat, steps),
            "caravans": sum(1 for _, location, _ in p.caravans if location),
            "jade": p.jade,
        }


MODEL = MarcoPolo2Stats()
