"""The public Marco Polo II pack: every fact the seed ``marco-polo-2.ja.txt`` and reference part B
make public, nothing else.

Not public (reference B4..B24), so absent here and described by the event that brings each one to
the table: the map (only Beijing, the start, is known), the 49 contracts, 25 city cards, 14 goal
cards, 18 offer tiles and the books' free options, guild seal costs and bonuses, the three special
cities' rewards, city bonus markers, outpost tiles and caravan route tiles.
"""

from __future__ import annotations

from rules.marco_polo_2.content.common import RULES

PACK: dict = {
    "id": "marco-polo-2-public-1",
    "title": "Marco Polo II: In the Service of the Khan (public facts only)",
    "invented": False,
    "note": "Seed marco-polo-2.ja.txt + reference part B; components that are not public are described at the table.",
    **RULES,
    "books": [{"min_die": 1}, {"min_die": 3}, {"min_die": 5}],
    "map": {"nodes": [{"id": "BEI", "name": "Beijing", "kind": "start"}], "routes": []},
}
