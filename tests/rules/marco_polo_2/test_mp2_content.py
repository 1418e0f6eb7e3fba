"""The content-pack format: the shipped packs validate, a bad field is named, packs are pinned by id
and hash, and the synthetic pack is complete (and marked as invented)."""

from __future__ import annotations

import copy

import pytest

from events.errors import InvalidOptions
from mp2_helpers import NAMES, T
from rules.marco_polo_2.content import PACKS, PUBLIC, SYNTHETIC, Pack, PackError, load
from rules.marco_polo_2.content.schema import validate_component

P = "marco-polo-2."


def test_shipped_packs_validate_and_are_pinned():
    assert PUBLIC.id == "marco-polo-2-public-1" and not PUBLIC.invented and not PUBLIC.complete
    assert SYNTHETIC.invented and SYNTHETIC.complete and "INVENTED" in SYNTHETIC.data["title"]
    assert len(PUBLIC.hash) == 64 and PUBLIC.hash != SYNTHETIC.hash
    assert {PUBLIC.hash, SYNTHETIC.hash} <= set(PACKS) and PACKS[PUBLIC.hash] is PUBLIC
    assert T.content == PUBLIC.ref


def test_public_pack_holds_the_seed_facts():
    """The seed's public facts: the shield table, guild thresholds and jade, the Khan's favor, the
    books' dice, the travel rows, 4 coins for the contracts action, the 11 posts, the characters."""
    assert PUBLIC.shield_vp == (0, 1, 2, 4, 6, 8, 10, 13, 17, 22, 28, 35, 43)
    assert {g: (v["min_die"], v["jade"]) for g, v in PUBLIC.guilds.items()} == {
        "farmer": (1, 0), "spicer": (2, 1), "tailor": (3, 2), "jeweler": (4, 3)}
    assert PUBLIC.khan == {"slots": 4, "reward": {"coins": 4, "camels": 2}}
    assert PUBLIC.book_min == (1, 3, 5) and PUBLIC.jade_prices == (1, 2)
    assert PUBLIC.travel == {1: {"dice": 1, "max": 1, "coins": 2}, 2: {"dice": 2, "max": 3}, 3: {"dice": 3}}
    assert PUBLIC.contracts_action == {"coins": 4, "take": 2, "hold": 2}
    assert PUBLIC.post_vp == {9: 5, 10: 5, 11: 10}
    assert len(PUBLIC.characters) == 7 and len(PUBLIC.caravan_characters) == 4
    assert PUBLIC.components["contract"] == {} and PUBLIC.components["node"].keys() == {"BEI"}


@pytest.mark.parametrize("path,value,named", [
    (("map", "routes", 2, "coins"), -1, "pack.map.routes[2].coins"),
    (("map", "routes", 0, "ends"), ["BEI", "XXX"], "pack.map.routes[0].ends[1]"),
    (("contracts", 3, "cost", "rubies"), 1, "pack.contracts[3].cost.rubies"),
    (("city_cards", 0, "kind"), "teleport", "pack.city_cards[0].kind"),
    (("shield_vp",), [], "pack.shield_vp"),
    (("guilds", "tailor", "min_die"), 9, "pack.guilds.tailor.min_die"),
    (("offers", 1, "book"), 4, "pack.offers[1].book"),
    (("goals", 0, "guilds", "smith"), 3, "pack.goals[0].guilds.smith"),
])
def test_a_bad_field_is_named(path, value, named):
    data = copy.deepcopy(SYNTHETIC.data)
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(PackError) as info:
        load(data)
    assert info.value.path == named, str(info.value)


def test_duplicate_ids_and_unknown_fields_are_refused():
    data = copy.deepcopy(SYNTHETIC.data)
    data["contracts"].append(dict(data["contracts"][0]))
    with pytest.raises(PackError, match=rf"pack.contracts\[{len(data['contracts']) - 1}\].id"):
        load(data)
    data = copy.deepcopy(SYNTHETIC.data)
    data["colour"] = "red"
    with pytest.raises(PackError, match="pack.colour: unknown field"):
        load(data)


def test_a_completed_pack_is_a_new_pack_with_its_own_hash():
    data = copy.deepcopy(SYNTHETIC.data)
    data["id"] = "someones-own-pack"
    pack = Pack(data)
    assert pack.complete and pack.hash != SYNTHETIC.hash


def test_component_specs_validate_alone():
    validate_component("route", {"ends": ["A", "B"], "coins": 2})
    with pytest.raises(PackError, match="route.guild"):
        validate_component("route", {"ends": ["A", "B"], "guild": "smith"})
    with pytest.raises(PackError, match="unknown component kind"):
        validate_component("dragon", {})


def test_a_map_node_may_say_where_the_page_draws_it():
    """``x`` and ``y`` (0..1000) place a node on the drawn map; the rules never read them."""
    data = copy.deepcopy(SYNTHETIC.data)
    for i, n in enumerate(data["map"]["nodes"]):
        n["x"], n["y"] = 40 * i, 1000 - 37.5 * i
    drawn = load(data)
    assert drawn.components["node"]["C1"]["x"] == 40 and drawn.hash != SYNTHETIC.hash
    for value, named in ((-1, "x"), (1000.5, "y"), (True, "x"), ("500", "y"), (None, "x")):
        spec = {"kind": "oasis", named: value}
        with pytest.raises(PackError) as info:
            validate_component("node", spec, "map.nodes[3]")
        assert info.value.path == f"map.nodes[3].{named}" and "0..1000" in str(info.value)


def test_a_described_node_differing_only_in_where_it_is_drawn_agrees():
    """A description's ``x``/``y`` are not rules facts: a second description placing the node elsewhere
    on the page is no contradiction, a different kind still is."""
    from events.errors import ContradictsKnownFacts
    from mp2_helpers import do, refused
    from test_mp2_recording import opening

    state = opening()
    oasis = '[{"kind":"node","id":"OZ","spec":{"kind":"oasis","x":100,"y":200}}]'
    state = do(state, f"@0 bag 3 coins describe={oasis}")
    again = do(state, "@0 bag 3 coins describe=" + oasis.replace("100", "900"))
    assert again.described == state.described
    refused(state, "@0 bag 3 coins describe=" + oasis.replace('"oasis"', '"start"'), P + "description-mismatch", ContradictsKnownFacts)


def test_options_are_checked():
    with pytest.raises(InvalidOptions) as info:
        T.setup(NAMES[:2], {"characters": "draft"})
    assert info.value.code == P + "bad-options"
    with pytest.raises(InvalidOptions) as info:
        T.setup(NAMES[:1], {})
    assert info.value.code == P + "player-count"
    with pytest.raises(InvalidOptions) as info:
        T.setup(NAMES[:2], {"content": {"id": "nope"}})
    assert info.value.code == P + "content-mismatch"
