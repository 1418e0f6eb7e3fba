"""The rules registry keyed by hash, and the pure pack-library functions: a pack's components, a
derived version, a diff, growth from what games described (goal cards only after their game's end)."""

from __future__ import annotations

import copy

import pytest

from events.errors import InvalidOptions
from mp2_helpers import NAMES, T
from rules.marco_polo_2.content import PACKS, PUBLIC, SYNTHETIC, Pack, register
from rules.marco_polo_2.content import library


def two_packs_with_one_id() -> tuple[Pack, Pack]:
    a, b = copy.deepcopy(SYNTHETIC.data), copy.deepcopy(SYNTHETIC.data)
    a["id"] = b["id"] = "ours-v2-registry"
    b["rounds"] = 4
    return register(Pack(a)), register(Pack(b))


def test_two_packs_may_share_an_id_and_a_game_names_one_by_hash():
    a, b = two_packs_with_one_id()
    assert PACKS[a.hash] is a and PACKS[b.hash] is b and a.hash != b.hash
    assert T.setup(NAMES[:2], {"content": b.ref}).pack == b.hash
    assert T.pack_of(T.setup(NAMES[:2], {"content": {"hash": a.hash}})).rounds == 5
    with pytest.raises(InvalidOptions, match="2 packs have the id") as info:
        T.setup(NAMES[:2], {"content": {"id": a.id}})
    assert info.value.code == "marco-polo-2.content-mismatch"
    with pytest.raises(InvalidOptions, match="is pack"):
        T.setup(NAMES[:2], {"content": {"id": PUBLIC.id, "hash": a.hash}})
    assert T.setup(NAMES[:2], {"content": {"id": PUBLIC.id}}).pack == PUBLIC.hash


def test_load_pack_names_the_bad_field():
    bad = copy.deepcopy(SYNTHETIC.data)
    bad["guilds"]["tailor"]["min_die"] = 9
    with pytest.raises(InvalidOptions) as info:
        T.load_pack(bad)
    assert info.value.code == "marco-polo-2.bad-content-pack" and info.value.details == {"field": "pack.guilds.tailor.min_die"}


def test_derive_and_diff_round_trip_every_kind_of_component():
    comps = library.components(SYNTHETIC.data)
    assert {k for k, _, _ in comps} == set(library.KINDS)
    assert library.counts(SYNTHETIC.data) == {k: len(v) for k, v in SYNTHETIC.components.items()}
    grown = library.derive(PUBLIC.data, "all", add=[{"kind": k, "id": i, "spec": s} for k, i, s in comps if k != "node" or i != "BEI"])
    assert Pack(grown).complete
    diff = library.diff(PUBLIC.data, grown)
    assert len(diff["added"]) == len(comps) - 1 and not diff["removed"]
    back = library.derive(grown, PUBLIC.id, remove=[{"kind": c["kind"], "id": c["id"]} for c in diff["added"]])
    assert library.diff(back, PUBLIC.data) == {"added": [], "removed": [], "changed": []}


def test_growth_leaves_out_contradictions_and_unplaceable_routes():
    t1 = ("contract", "T1", {"cost": {"silk": 1}, "reward": {"vp": 2}})
    other = ("contract", "T1", {"cost": {"silk": 1}, "reward": {"vp": 5}})
    lost = ("route", "BEI-NOWHERE", {"ends": ["BEI", "NOWHERE"], "coins": 1})
    data, added, conflicts = library.grow(PUBLIC.data, "ours-v1", [t1, other, lost])
    assert [(a["kind"], a["id"]) for a in added] == [("contract", "T1")]
    assert [(c["id"], c["why"][:17]) for c in conflicts] == [("T1", "the pack says oth"), ("BEI-NOWHERE", "pack.map.routes[0")]
    assert library.grow(data, "ours-v2", [t1]) == (None, [], [])


def test_a_games_goal_cards_are_left_out_before_its_end():
    class Played:
        described = (("goal", "G9", '{"guilds":{"farmer":3}}'), ("node", "KAS", '{"kind":"city","shield":"bow"}'))

    assert [c[0] for c in library.described(Played, ended=False)] == ["node"]
    assert [c[0] for c in library.described(Played, ended=True)] == ["goal", "node"]
