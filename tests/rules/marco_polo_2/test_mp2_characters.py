"""The seed's characters, variants and caravan expansion (``marco-polo-2.ja.txt``: "キャラクター",
"バリアント", "キャラバン(拡張)"), one test per clause, each docstring quoting it. Positions use the
INVENTED synthetic pack (see ``mp2_helpers``)."""

from __future__ import annotations

import msgspec

from mp2_helpers import LAYOUT, NAMES, SYN, T, apply, do, laid_out, plain, refused, revealed, rolled, seat
from rules.marco_polo_2.content import SYNTHETIC
from rules.marco_polo_2.events import SetupDealt

P = "marco-polo-2."
TILES = ("RT1", "RT2", "RT3", "RT4", "RT5", "RT6")


def caravans(chars=("tebaldo", "piedro"), dice=None):
    return plain(chars=chars, dice=dice, options={"caravans": True}, tiles=TILES)


# --- キャラクター ------------------------------------------------------------------------------


def test_mongke_khan_skips_oases_and_is_paid_for_each():
    """marco-polo-2.ja.txt: "移動時、オアシスをないものとして飛ばして移動できる。通行コストは通常通り支払う。この効果で飛ばしたオアシス１つにつき、３ポイントと２コインか１ラクダ獲得する。" """
    state = plain(chars=("mongke", "dewu"), dice=[(1, 3, 3, 4, 4), (3, 3, 3, 3, 3)])
    refused(state, "@0 travel 2 dice=1,3 path=O1,C3", P + "missing-choice")
    state = do(state, "@0 travel 2 dice=1,3 path=O1,C3 choices=coins")  # two nodes, one step
    p = state.seats[0]
    assert (p.figures, p.vp, p.coins, p.camels) == (("C3",), 3, 8 - 3 + 2, 3 - 1 + 3)  # + outpost OT2: 3 camels
    other = plain(chars=("dewu", "mongke"), dice=[(1, 3, 3, 4, 4), (3, 3, 3, 3, 3)])
    refused(other, "@0 travel 2 dice=1,3 path=O1,C3", P + "travel-steps")


def test_mongke_khan_is_paid_once_per_different_oasis_however_often_he_passes_it():
    """marco-polo-2.ja.txt: "この効果で飛ばしたオアシス１つにつき、３ポイントと２コインか１ラクダ獲得する。" (ruling MP2-5: each
    different oasis skipped pays once per movement, every pass is no step; issue 14 found +24 VP for
    going back and forth when each pass paid)"""
    from rules.marco_polo_2.events import Travelled

    state = seat(plain(chars=("mongke", "dewu"), dice=[(1, 3, 3, 4, 4), (3, 3, 3, 3, 3)]), 0, figures=("C2",))
    back_and_forth = "@0 travel 1 dice=1 path=O3,O4,O3,O4,O3,O4,O3,C6 choices="
    error = refused(state, back_and_forth + ",".join(["coins"] * 7), P + "extra-choice")
    assert "coins" in error.message
    refused(state, back_and_forth + "coins", P + "missing-choice")
    long = do(state, back_and_forth + "coins,camels")  # two oases, one step: the lower row
    p = long.seats[0]
    assert (p.figures, p.vp, p.coins, p.camels) == (("C6",), 3 + 3 + 3, 8 - 2 - 2 - 1 + 2, 3 + 1)  # + outpost OT4: 3 VP
    assert do(state, "@0 travel 1 dice=1 path=O3,O4,O3,C6 choices=coins,camels") == long  # the same move, shorter
    ends_on_one = do(state, "@0 travel 1 dice=1 path=O3,O4,O3 choices=coins,coins").seats[0]  # O3 passed, then the end
    assert (ends_on_one.figures, ends_on_one.vp, ends_on_one.coins) == (("O3",), 6, 8 - 2 - 2 + 4)
    offered = {T.format_move(m) for m in T.legal_moves(state) if isinstance(m, Travelled) and m.row == 1 and m.dice == ("1",)}
    assert "@0 travel 1 dice=1 path=O3,O4,O3,C6 choices=coins,camels" not in offered  # all coins or all camels
    assert "@0 travel 1 dice=1 path=O3,O4,O3,C6 choices=coins,coins" in offered
    assert not any(t.startswith(back_and_forth) for t in offered)  # the same as the shorter walk


def test_a_path_may_pass_or_end_on_a_node_again_a_travel_a_card_move_a_split_or_a_caravan():
    """marco-polo-2.ja.txt: "ダイス目の最も小さい数字の値の歩数移動できます。" "上段を選んだ場合、追加で通過した都市１つに交易所コマ１つを置くことができます。"
    "キャラバンの移動は通過コストのコイン・ラクダ・翡翠は関係ない。" (ruling MP2-5: the rulebook lets a movement go back and
    forth; the seed is silent) -- a table going to C2 and back for the upper row's extra post."""
    from test_mp2_choices import table

    state = plain(chars=("dewu", "mongke"), dice=[(3, 3, 3, 5, 5), (3, 3, 3, 3, 3)])
    there_and_back = do(state, "@0 travel 3 dice=3,3,3 path=C1,C2,C1 extra=C2")
    p = there_and_back.seats[0]
    assert (p.figures, p.posts, p.posts_left, p.camels) == (("C1",), ("C2", "C1"), 9, 3 - 2)  # C1-C2 twice: 1 camel each
    home = do(state, "@0 travel 3 dice=3,3,3 path=C1,BEI extra=C1").seats[0]  # back to its start
    assert (home.figures, home.posts) == (("BEI",), ("C1",))
    card = seat(table(), 0, posts=("C3",), posts_left=10, figures=("C3",), dice=(3, 3, 3, 3, 3))  # CC19 at C3: a move
    assert do(card, "@0 card C3 3 path=O4,C3,O1").seats[0].figures == ("O1",)
    mailin = plain(chars=("mailin", "dewu"))
    assert do(mailin, "@0 travel 2 dice=3,3 path=C1 path2=O1,BEI").seats[0].figures == ("C1", "BEI")
    cars = caravans(chars=("dewu", "mongke"), dice=[(3, 5, 5, 5, 5), (3, 3, 3, 3, 3)])
    cars = seat(do(seat(cars, 0, figures=("C1",), pepper=1), "@0 caravan pepper RT1 C2"), 0, coins=0, camels=0)
    assert do(cars, "@0 book 3 die=5 option=1 caravans=O3,C2,C1").seats[0].caravans[0][1] == "C1"


def test_posts_stay_one_per_colour_per_location_a_second_post_is_refused():
    """marco-polo-2.ja.txt: "移動を終えた場合、自分のボードから交易所コマを１つ取り、そこに置かなければなりません。"
    "上段を選んだ場合、追加で通過した都市１つに交易所コマ１つを置くことができます。" (ruling MP2-5: never two posts of a colour on a
    location, however often a path passes it)"""
    state = plain(chars=("dewu", "mongke"), dice=[(3, 3, 3, 5, 5), (3, 3, 3, 3, 3)])
    error = refused(state, "@0 travel 3 dice=3,3,3 path=C1,C2,C1 extra=C1", P + "extra-post")  # passed, then the end
    assert "one post of a colour per location" in error.message
    twice = do(state, "@0 travel 3 dice=3,3,3 path=C1,BEI,C1").seats[0]  # C1 reached twice: one post
    assert (twice.posts, twice.posts_left) == (("C1",), 10)
    held = seat(state, 0, posts=("C2",), posts_left=10)
    refused(held, "@0 travel 3 dice=3,3,3 path=C1,C2,C1 extra=C2", P + "extra-post")  # C2 holds the seat's post
    mailin = plain(chars=("mailin", "dewu"), dice=[(3, 3, 3, 5, 5), (3, 3, 3, 3, 3)])
    refused(mailin, "@0 travel 3 dice=3,3,3 path=C1,C2 path2=C1 extra=C1", P + "extra-post")  # the other figure's end
    both = do(mailin, "@0 travel 2 dice=3,3 path=C1 path2=C1").seats[0]  # both figures end in C1: one post
    assert (both.posts, both.posts_left) == (("C1",), 10)


def route_costs(state, seat_, start, path) -> tuple[int, int, int]:
    routes = {frozenset(r["ends"]): r for r in SYNTHETIC.components["route"].values()}
    coins = camels = jade = 0
    for here, there in zip((start, *path), path):
        r = routes[frozenset((here, there))]
        coins, camels, jade = coins + r.get("coins", 0), camels + r.get("camels", 0), jade + r.get("jade", 0)
    return (0, 0, jade) if state.seats[seat_].character == "gantulga" else (coins, camels, jade)


def test_legal_moves_offer_each_different_travel_once_back_and_forth_included():
    """marco-polo-2.ja.txt: "ダイス目の最も小さい数字の値の歩数移動できます。" (ruling MP2-5: ``legal_moves`` offers, per row, dice
    and figure, each walk within the step budget that differs in its end, extra post, number of oases
    skipped or route costs, once; Möngke Khan's stepless oasis loops end)."""
    from rules.marco_polo_2.events import Travelled

    states = [
        plain(chars=("dewu", "mongke"), dice=[(3, 3, 3, 5, 5), (3, 3, 3, 3, 3)]),
        seat(plain(chars=("mongke", "dewu"), dice=[(6, 6, 6, 4, 1), (3, 3, 3, 3, 3)]), 0, figures=("C2",)),
        plain(chars=("mailin", "dewu"), dice=[(4, 4, 4, 5, 5), (3, 3, 3, 3, 3)]),
        plain(chars=("gantulga", "dewu"), dice=[(2, 3, 3, 5, 5), (3, 3, 3, 3, 3)]),
    ]
    for state in states:
        travels = [m for m in T.legal_moves(state) if isinstance(m, Travelled)]
        assert travels
        seen = {}
        for m in travels:
            assert T.decide(state, m) == (m,), m
            figures = state.seats[0].figures
            other = figures[1 - m.figure] if m.path2 else None
            cost = route_costs(state, 0, figures[m.figure], m.path), route_costs(state, 0, other, m.path2) if m.path2 else None
            oases = len({x for x in m.path[:-1] if x.startswith("O")}) if state.seats[0].character == "mongke" else 0
            key = (m.row, m.dice, m.figure, m.path[-1], m.path2[-1:], m.extra, oases, cost, m.take, m.discard, m.choices)
            assert key not in seen, (T.format_move(m), T.format_move(seen[key]))
            seen[key] = m
    offered = {T.format_move(m) for m in T.legal_moves(states[0])}
    assert {"@0 travel 3 dice=3,3,3 path=C1,C2,C1 extra=C2", "@0 travel 3 dice=3,3,3 path=C1,BEI extra=C1"} <= offered
    assert "@0 travel 3 dice=3,3,3 path=C1,C2,C1 extra=C1" not in offered


def test_de_wu_guild_with_one_die_jade_on_improving_and_a_shield():
    """marco-polo-2.ja.txt: "ギルドアクションをダイス１個で実行できる。ギルドマーカーアップグレード時１翡翠獲得する。ゲーム終了時、「＋１」紋章を得る。" """
    state = plain(chars=("dewu", "mongke"))
    refused(state, "@0 guild farmer dice=3,3", P + "dice-count")
    state = do(seat(state, 0, pepper=1), "@0 guild farmer dice=3", "@0 improve farmer")
    assert state.seats[0].jade == 1 and T.score(state)["seats"][0]["shields_count"] == 1


def test_abha_basu_coins_each_round_jade_per_contract_vp_per_jade():
    """marco-polo-2.ja.txt: "ラウンド開始時２コイン獲得。依頼達成時１翡翠獲得。いかなる方法でも１翡翠獲得するごとに１ポイント獲得。" """
    state = plain(chars=("abha", "dewu"))
    assert state.seats[0].coins == 10
    state = do(seat(state, 0, pepper=1), "@0 complete S1", "@0 bag 3 jade")
    p = state.seats[0]
    assert (p.jade, p.vp) == (2, 3 + 1 + 1)


def test_mailin_and_tian_chin_two_figures_three_coins_one_bonus_twice():
    """marco-polo-2.ja.txt: "コマを２個使用できる。ゲーム開始時３コイン獲得。ラウンド開始時「！」ボーナスを受け取る際、１つを選び２回受け取る。キャラバンを使用時、キャラバンを自分のコマのある都市からスタートさせてはいけない。" """
    state = plain(chars=("mailin", "dewu"), options={"caravans": True}, tiles=TILES)
    assert state.seats[0].figures == ("BEI", "BEI") and state.seats[0].coins == 11
    state = do(state, "@0 travel 2 dice=3,3 path=C1", "@0 end", "@1 khan 3", "@1 end")
    state = do(state, "@0 travel 1 dice=3 path=C1 figure=1")
    assert state.seats[0].figures == ("C1", "C1")
    # RT5 shows lion and sun: from C1 (lion) the caravan would start in C4 (sun), no figure there: fine
    state = seat(state, 0, figures=("C1", "C4"), pepper=1)
    refused(state, "@0 caravan pepper RT5 C4", P + "caravan-city")
    state = seat(spend(state), 0, figures=("C1", "C1"))
    coins = state.seats[0].coins
    state = revealed(state)
    state = apply(state, msgspec.structs.replace(T.chance_event(state, (3,) * 10)))
    state = do(state, "@0 income double=city:C1")
    assert state.seats[0].coins == coins + 3 + 3


def spend(state):
    from test_mp2_seed import spend_round

    return spend_round(state)


def test_filippo_vitello_keeps_outpost_tiles_and_cashes_them_later():
    """marco-polo-2.ja.txt: "他のプレイヤーが商館ボーナスを得た場合、その効果適応後、その商館ボーナスタイルを廃棄せずあなたの手元に置く。また、あなたが商館ボーナスを獲得した場合も、すぐに効果を適応せずタイルをあなたの手元に置く。あなたはフリーアクションとしてこれらのタイルを使用でき、使用後は廃棄する。" """
    state = plain(chars=("dewu", "filippo"))
    state = seat(seat(state, 0, figures=("C1",)), 1, figures=("O1",))
    state = do(state, "@0 travel 2 dice=3,3 path=C2", "@0 end")
    assert state.seats[0].coins == 8 - 1 + 5 and state.seats[1].tiles == ("OT1",)
    state = do(state, "@1 travel 1 dice=3 path=C3")
    assert state.seats[1].camels == 3 and state.seats[1].tiles == ("OT1", "OT2")  # his own: kept, not applied
    state = do(state, "@1 tile OT2")
    assert state.seats[1].camels == 6 and state.seats[1].tiles == ("OT1",)
    refused(state, "@1 tile OT2", P + "not-your-character")


def test_isabella_donati_paid_per_die_rolled_or_a_pair():
    """marco-polo-2.ja.txt: "ラウンド開始時と黒ダイス獲得時のロールで各ダイスの目につき以下のものを受け取る。"
    "１・６の目：２コイン" "２・５の目：１ポイント" "３・４の目：１ラクダ"
    "またゾロ目の２つのダイスを選択し上記のものではなく下記のものを選択することもできる。"
    "１・６の目のゾロ目：１翡翠" "２・５の目のゾロ目：１絹" "３・４の目のゾロ目：１金" """
    state = rolled(laid_out(chars=("isabella", "dewu")), (1, 2, 3, 4, 6), (3, 3, 3, 3, 3))
    p = state.seats[0]
    assert (p.coins, p.vp, p.camels) == (8 + 2 + 2, 1, 3 + 2)  # total 16: no compensation
    state = rolled(laid_out(chars=("isabella", "dewu")), (5, 5, 3, 3, 6), (3, 3, 3, 3, 3))
    refused(state, "@0 income pair=4", P + "bad-choice")
    state = do(state, "@0 income pair=5")
    p = state.seats[0]
    assert (p.silk, p.vp, p.camels, p.coins) == (1, 0, 3 + 2, 8 + 2)
    state = do(state, "@0 black", "=6")
    assert state.seats[0].coins == 12  # the black die's roll pays too


def test_isabella_donati_is_paid_for_a_black_die_taken_not_for_a_reroll():
    """marco-polo-2.ja.txt: "ラウンド開始時と黒ダイス獲得時のロールで各ダイスの目につき以下のものを受け取る。" "ラクダを１頭支払うことによりダイスを１つ振り直すことができます。"
    (ruling MP2-14: a reroll is neither the round-start roll nor a black die's roll when taken)"""
    state = do(revealed(laid_out(chars=("isabella", "dewu"))), "roll 1 1,2,3,4,6;3,3,3,3,3")
    p = state.seats[0]
    assert (p.coins, p.vp, p.camels) == (8 + 2 + 2, 1, 3 + 2)
    state = do(state, "@0 black", "@0 =5")  # 3 camels; the 5 pays 1 VP
    assert (state.seats[0].coins, state.seats[0].vp, state.seats[0].camels) == (12, 2, 2)
    state = do(state, "@0 reroll b5")
    assert state.pending == (("roll", 0, "rb"),) and "rerolled (black)" in T.status(state)
    state = do(state, "@0 =6")  # issue 14: this paid 2 coins
    p = state.seats[0]
    assert (p.coins, p.vp, p.camels, p.black) == (12, 2, 1, (6,))
    state = do(state, "@0 reroll 1", "@0 =6")  # a colour die rerolled pays nothing either
    p = state.seats[0]
    assert (p.coins, p.vp, p.camels, p.dice) == (12, 2, 0, (2, 3, 4, 6, 6))


def test_isabella_pairs_pay_jade_silk_gold():
    """marco-polo-2.ja.txt: "１・６の目のゾロ目：１翡翠" "３・４の目のゾロ目：１金" """
    for dice, good in (((6, 6, 1, 2, 3), "jade"), ((4, 4, 1, 2, 6), "gold")):
        state = rolled(laid_out(chars=("isabella", "dewu")), dice, (3, 3, 3, 3, 3))
        state = do(state, f"@0 income coins={state.seats[0].compensation} pair={dice[0]}")
        assert getattr(state.seats[0], good) == 1


def test_gantulga_od_lower_row_only_no_coin_or_camel_route_costs():
    """marco-polo-2.ja.txt: "移動アクションの下段しか選択できなくなるが、通行コストのラクダとコインを支払わなくてもよい。" (ruling MP2-11:
    the lower row's 2 coins and jade costs are still paid)"""
    state = plain(chars=("gantulga", "dewu"))
    refused(state, "@0 travel 2 dice=3,3 path=C1", P + "gantulga-lower-row")
    state = do(state, "@0 travel 1 dice=3 path=O1")
    assert (state.seats[0].coins, state.seats[0].camels) == (6, 3)


# --- バリアント ---------------------------------------------------------------------------------


def test_black_dice_variant_rolls_them_at_round_start():
    """marco-polo-2.ja.txt: "黒ダイスバリアント：黒ダイス獲得時に振るのではなく、ラウンド開始時にすべて振って獲得時にその中から任意のものを獲得する。" """
    state = laid_out(chars=("dewu", "mongke"), options={"black_dice_variant": True})
    state = revealed(state)
    assert T.chance(state).count == 2 * 5 + 4
    state = rolled(state, (3, 3, 3, 3, 3), (3, 3, 3, 3, 3), black=(1, 6, 6, 2))
    refused(state, "@0 black value=5", P + "bad-die")
    state = do(state, "@0 black value=6")
    assert state.seats[0].black == (6,) and state.black_pool == (1, 2, 6) and not state.pending


def test_caravan_variant_adds_caravans_and_four_characters():
    """marco-polo-2.ja.txt: "キャラバン(拡張)：キャラバンを使用する。また、新たなキャラクターが４人登場する。" """
    from rules.marco_polo_2.decide import characters_available

    base = T.setup(NAMES[:2], SYN)
    with_caravans = T.setup(NAMES[:2], {**SYN, "caravans": True})
    assert len(characters_available(base)) == 7 and len(characters_available(with_caravans)) == 11
    refused(base, SetupDealt(offered=("vidal", "dewu", "abha"), **LAYOUT), P + "unknown-id")


def test_all_characters_variant_offers_every_character():
    """marco-polo-2.ja.txt: "すべてのキャラクターバリアント：すべてのキャラクターから選択する。" """
    state = T.setup(NAMES[:3], {**SYN, "characters": "all", "caravans": True})
    state = apply(state, SetupDealt(starting_contracts=("S1", "S2", "S3"), **LAYOUT))
    assert len(state.offered) == 11
    state = do(state, "@0 pick donata", "@1 pick vidal")
    assert "donata" not in state.offered and len(state.offered) == 9


# --- キャラバン ----------------------------------------------------------------------------------


def test_each_player_gets_a_caravan_and_route_tiles_lie_face_up():
    """marco-polo-2.ja.txt: "ゲームの開始時、各プレイヤーは自分の色のキャラバンを１つ受け取る。" "ルートタイルを場に表側で並べる。" """
    state = caravans(chars=("dewu", "mongke"))
    assert [len(p.caravans) for p in state.seats] == [1, 1] and state.tiles_up == TILES


def test_starting_a_route_loads_goods_on_a_matching_tile():
    """marco-polo-2.ja.txt: "ルートを開始するには、利用可能なキャラバンに手元の資源（金・絹・胡椒）を１つか２つ載せ、コマのいる都市の紋章アイコンが片方のアイコンと合致しているルートタイルを選択し手元に取って置く。載せた資源は降ろすまで利用できない。"
    "コマのいる方ではないアイコンの都市にキャラバンを置く。（選択肢がある場合は選択する）" """
    state = seat(caravans(chars=("dewu", "mongke")), 0, figures=("C1",), pepper=2, silk=1)
    refused(state, "@0 caravan pepper,silk,pepper RT1 C2", P + "caravan-goods")
    refused(state, "@0 caravan pepper RT2 C5", P + "caravan-route-tile")  # sun/moon: not C1's lion
    refused(state, "@0 caravan pepper RT1 C3", P + "caravan-city")  # C3 is a lion city too
    state = do(state, "@0 caravan pepper,silk RT1 C2")
    p = state.seats[0]
    assert p.caravans == (("RT1", "C2", ("pepper", "silk")),) and (p.pepper, p.silk) == (1, 0)
    assert "RT1" not in state.tiles_up
    refused(state, "@0 caravan pepper RT5 C4", P + "caravan-none-free")


def test_conquering_needs_caravan_and_figure_together_then_rewards_each_good():
    """marco-polo-2.ja.txt: "ルートを制覇するには、キャラバンとコマが同じ位置（オアシスでもいい）にいる必要がある。"
    "ルートを制覇した場合即座に積載していた資源をすべて全体のストックに戻しそれぞれについて以下の方法のいずれかで報酬を獲得する。"
    "・売却して勝利点を得る（金６点・絹４点・胡椒２点）" "・１段階アップグレードした資源を受け取る（胡椒なら絹、絹なら金、金はアップグレードできない）"
    "・その資源を２つ獲得" "その後、キャラバンを手元に戻し、これはその瞬間からまた利用可能になる。" """
    state = seat(caravans(chars=("dewu", "mongke")), 0, figures=("C1",), pepper=1, silk=1, gold=1)
    state = do(state, "@0 caravan pepper,silk RT1 C2")
    refused(state, "@0 conquer 0 sell,sell", P + "caravan-not-met")
    state = seat(state, 0, figures=("C2",))
    refused(state, "@0 conquer 0 sell", P + "bad-choice")
    after = do(state, "@0 conquer 0 upgrade,sell")
    p = after.seats[0]
    assert (p.silk, p.vp, p.caravans) == (1, 4, (("", "", ()),))
    after = do(state, "@0 conquer 0 double,upgrade")
    assert (after.seats[0].pepper, after.seats[0].gold) == (2, 2)


def test_gold_cannot_be_upgraded():
    """marco-polo-2.ja.txt: "金はアップグレードできない" """
    state = seat(caravans(chars=("dewu", "mongke")), 0, figures=("C1",), gold=1)
    state = seat(do(state, "@0 caravan gold RT1 C2"), 0, figures=("C2",))
    refused(state, "@0 conquer 0 upgrade", P + "bad-choice")
    assert do(state, "@0 conquer 0 sell").seats[0].vp == 6


def test_route_tile_returns_face_down_and_turns_up_next_round():
    """marco-polo-2.ja.txt: "ルートタイルは場に裏返しで戻す。裏返しのルートタイルは各ラウンドの始めに表側にしてまた利用可能なものになる。" """
    state = seat(caravans(chars=("dewu", "mongke")), 0, figures=("C1",), pepper=1)
    state = seat(do(state, "@0 caravan pepper RT1 C2"), 0, figures=("C2",))
    state = do(state, "@0 conquer 0 double")
    assert state.tiles_down == ("RT1",) and "RT1" not in state.tiles_up
    state = revealed(spend(state))
    assert "RT1" in state.tiles_up and state.tiles_down == ()


def test_caravans_move_after_a_market_one_two_three_steps_free_but_with_seals():
    """marco-polo-2.ja.txt: "通常の市場アクション実行直後、選んだ市場アクションに従って以下の歩数移動可能。左：１歩・中央：最大２歩・右：最大３歩。"
    "キャラバンの移動は通過コストのコイン・ラクダ・翡翠は関係ない。ただしギルドマーカーは必要。" """
    state = caravans(chars=("dewu", "mongke"), dice=[(3, 5, 5, 5, 5), (3, 3, 3, 3, 3)])
    state = seat(do(seat(state, 0, figures=("C1",), pepper=1), "@0 caravan pepper RT1 C2"), 0, coins=0, camels=0)
    refused(state, "@0 book 1 die=3 option=1 caravans=C1,O2", P + "caravan-steps")
    refused(state, "@0 book 1 die=3 option=1 caravans=C4", P + "guild-route")
    state1 = do(state, "@0 book 1 die=3 option=1 caravans=C1")  # C2-C1 costs 1 coin + 1 camel: not paid
    assert state1.seats[0].caravans[0][1] == "C1"
    state3 = do(state, "@0 book 3 die=5 option=1 caravans=O3,C6,HOR")  # 3 steps; jade route free too
    assert state3.seats[0].caravans[0][1] == "HOR"


def test_loaded_caravans_score_at_the_end():
    """marco-polo-2.ja.txt: "ゲーム終了時ルート制覇していないキャラバンに載った各資源について、金３点・絹２点・胡椒１点を獲得する。" """
    state = seat(caravans(chars=("dewu", "mongke")), 0, caravans=(("RT1", "C2", ("gold", "pepper")),))
    assert T.score(state)["seats"][0]["caravans"] == 4


def test_tebaldo_two_more_caravan_steps_no_coins_to_improve_and_a_shield():
    """marco-polo-2.ja.txt: "キャラバンを移動させる時、最大２歩追加移動できる。ギルドマーカーをアップグレードさせる際、コインを支払わなくてもよい。ゲーム終了時、「＋１」紋章を得る。" """
    state = caravans(chars=("tebaldo", "dewu"))
    state = seat(state, 0, caravans=(("RT1", "C2", ("pepper",)),), seals=("farmer",), pepper=1, coins=0, jade=0)
    state = do(state, "@0 improve farmer")  # 2 coins + 1 pepper: the coins waived
    assert state.seats[0].improved == ("farmer",)
    state = do(state, "@0 book 1 die=3 option=1 caravans=C1,O2,C5")
    assert state.seats[0].caravans[0][1] == "C5" and T.score(state)["seats"][0]["shields_count"] == 1


def test_piedro_two_caravans_both_move_picks_the_tile_and_scores_conquests():
    """marco-polo-2.ja.txt: "キャラバンを２個使用できる。キャラバンを移動する時は、両方のキャラバンに関してそれぞれ規定の歩数(１～３歩)移動させることができる。２つのキャラバンをスタートさせていて、ルートを制覇した際、報酬獲得後好きな方のルートタイルを選んで場に戻すことができる。ルートを制覇した時、３勝利点と１翡翠を獲得する。" """
    state = caravans(chars=("piedro", "dewu"))
    assert len(state.seats[0].caravans) == 2
    state = seat(state, 0, caravans=(("RT1", "C2", ("pepper",)), ("RT2", "C5", ("silk",))), figures=("C1",))
    state = do(state, "@0 book 1 die=3 option=1 caravans=C1;O2")
    assert [c[1] for c in state.seats[0].caravans] == ["C1", "O2"]
    state = do(state, "@0 conquer 0 sell tile=RT2")
    p = state.seats[0]
    assert (p.vp, p.jade) == (2 + 3, 1) and state.tiles_down == ("RT2",) and p.caravans[1][0] == "RT1"
    other = seat(caravans(chars=("dewu", "piedro")), 0, caravans=(("RT1", "C2", ("pepper",)),), figures=("C2",))
    refused(other, "@0 conquer 0 sell tile=RT2", P + "caravan-route-tile")


def test_vidal_badoer_free_contracts_without_vp_one_per_action_counts_four_trades():
    """marco-polo-2.ja.txt: "依頼書を達成させる際、ラクダ及び資源の支払いが必要なくなるが、達成報酬の勝利点が獲得できなくなる。その他の報酬は通常通り受け取る。依頼獲得のアクション実行の際、獲得できる依頼書は２枚でなく１枚になる。ゲーム終了時の達成依頼書数の得点計算の際、何枚の依頼書を達成していようと常に４枚として計算される。フリーアクションとして１ターンに１回、１金・１絹・１胡椒を払い５勝利点を獲得できる。" """
    from rules.marco_polo_2.scoring import contract_count

    state = caravans(chars=("vidal", "dewu"))
    state = do(state, "@0 complete S1")
    p = state.seats[0]
    assert (p.vp, p.coins, p.camels, p.completed) == (0, 10, 3, ("S1",))
    assert contract_count(p) == 4
    state = seat(state, 0, posts=("C2",), gold=2, silk=2, pepper=2)
    refused(state, "@0 contracts 3 take=K01,K02", P + "contract-limit")
    state = do(state, "@0 trade")
    assert state.seats[0].vp == 5
    refused(state, "@0 trade", P + "once-per-turn")


def test_donata_badoer_three_pieces_used_like_a_six_on_free_spaces_only():
    """marco-polo-2.ja.txt: "①ゲーム開始時に違った色のコマを３つ受け取る。これらのコマは以下のルールを適応して６の目の黒ダイスのように利用できる:"
    "フリーアクションスペース(他のダイスが置かれていないマス)にのみ配置可能。" "ダイス及び他のコマと組み合わせての配置も可能。"
    "コマを用いたアクション終了後、使用したコマは即座にゲームから取り除かれる。" (ruling MP2-12: the other three colours)"""
    state = caravans(chars=("donata", "dewu"))
    assert state.seats[0].pieces == ("red", "yellow", "green")
    state = do(state, "@0 book 3 die=pR option=2")
    assert state.seats[0].silk == 2 and state.seats[0].pieces == ("yellow", "green")
    state = do(state, "@0 end", "@1 guild farmer dice=3", "@1 end")
    refused(state, "@0 guild spicer dice=pY,3", P + "donata-piece")
    state = do(state, "@0 travel 3 dice=3,pY,pG path=C1,C2,O3 extra=C1")
    assert state.seats[0].pieces == ()


def test_donata_piece_takes_a_free_slot_of_the_khan_or_a_free_special_city_space():
    """marco-polo-2.ja.txt: "フリーアクションスペース(他のダイスが置かれていないマス)にのみ配置可能。" (ruling MP2-12: each slot of the
    Khan's favor and each space of a special city is a マス of its own, so with 2 players the neutral
    dice leave the other slots and space free)"""
    state = seat(caravans(chars=("donata", "dewu")), 0, posts=("BAG",))
    assert ("special:baghdad", 1, -1, "n") in state.board and state.board.count(("khan", 1, -1, "n")) == 2
    special = do(state, "@0 special baghdad pR")
    assert ("special:baghdad", 6, 0, "p") in special.board and special.seats[0].pieces == ("yellow", "green")
    again = msgspec.structs.replace(special, main_done=False)
    refused(again, "@0 special baghdad pY", P + "special-city-full")  # both spaces taken
    khan = do(state, "@0 khan pY")  # the third slot, after the neutral 1s; a piece counts as a 6
    assert ("khan", 6, 0, "p") in khan.board and (khan.seats[0].coins, khan.seats[0].camels) == (8 + 4, 3 + 2)
    legal = {(type(m).__name__, m.die) for m in T.legal_moves(state) if getattr(m, "die", "").startswith("p")}
    assert ("MarcoPolo2SpecialCityUsed", "pR") in legal and ("MarcoPolo2KhansFavorTaken", "pG") in legal
    shared = do(state, "@0 book 1 die=3 option=2", "@0 end", "@1 book 1 die=3 option=2", "@1 end")
    refused(shared, "@0 book 1 die=pR option=2", P + "donata-piece")  # one マス holding dice


def test_donata_pieces_on_city_cards_by_post_colour():
    """marco-polo-2.ja.txt: "コマと同一色の交易所が置かれている都市の都市カードに配置可能。"
    "どのプレイヤーカラーにも一致しない色のコマは、交易所の置かれていない都市の都市カードに配置可能。" """
    state = caravans(chars=("donata", "dewu"))
    state = seat(state, 1, posts=("C3",))  # seat 1 is red
    refused(state, "@0 card C3 pY", P + "needs-post")
    state2 = do(state, "@0 card C3 pR times=3")
    assert state2.seats[0].coins == 8 + 9
    state3 = do(state, "@0 card C4 pY times=2")  # yellow: no player's colour with 2 players; C4 has no post
    assert state3.seats[0].camels == 3 + 2


def test_donata_turn_ends_when_her_dice_are_gone_and_camels_for_occupied_spaces():
    """marco-polo-2.ja.txt: "注意:もしすべてのダイスを使っていた場合ターン終了になる。(その時点でのコマアクションはできない)"
    "②自分のダイスを用いて既にダイスが置かれているスペースのアクションを行った場合、２ラクダを獲得する。" """
    state = caravans(chars=("dewu", "donata"))
    state = do(state, "@0 book 1 die=3 option=2", "@0 end")
    state = do(state, "@1 book 1 die=3 option=2")
    assert state.seats[1].camels == 3 + 2 and state.seats[1].coins == 8 - 3 + 4
    state = seat(state, 1, dice=())
    state = msgspec.structs.replace(state, main_done=False)
    refused(state, "@1 khan pB", P + "donata-piece")


def test_legal_moves_keep_a_dearer_route_the_seat_can_pay_when_the_cheaper_one_needs_coins():
    """Ruling MP2-5: ``legal_moves`` offers per end each route cost no other undercuts. A seat with
    no coins, a camel and a jade reaches O2 by O1 (camel and jade), not by C1 (coins): the walk it
    can pay is offered though a walk cheaper in sum reaches the same place (found in review)."""
    from rules.marco_polo_2.events import Travelled

    state = seat(plain(chars=("dewu", "abha"), dice=[(2, 2, 3, 4, 4), (3, 3, 3, 3, 3)]), 0, figures=("BEI",), coins=0, camels=1, jade=1)
    move = T.parse_move(state, "@0 travel 2 dice=2,2 path=O1,O2")
    assert T.decide(state, move)
    offered = [T.format_move(m) for m in T.legal_moves(state) if isinstance(m, Travelled)]
    assert "@0 travel 2 dice=2,2 path=O1,O2" in offered
    for listed in offered:  # and every travel offered is one the rules accept
        assert T.decide(state, T.parse_move(state, listed))
