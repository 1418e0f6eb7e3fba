"""One test per clause of the Marco Polo II seed (``../shared/seeds/marco-polo-2.ja.txt``): the flow
of play, setup, round start, main actions, bonus actions and final scoring (characters, variants
and caravans are in ``test_mp2_characters.py``). Each docstring quotes the seed phrase it checks
(``marco-polo-2.ja.txt: "..."``); ``test_every_clause_is_cited`` holds the files to that.

Positions use the INVENTED synthetic pack (``rules/marco_polo_2/content/synthetic.py``; map in
``mp2_helpers``): BEI-C1 2 coins, BEI-O1 1 camel, C1-C2 1 coin + 1 camel, C1-O2 free, O2-C5
free, C2-C4 farmer seal, C5-BAL spicer seal, C6-HOR 1 jade ...
"""

from __future__ import annotations

import ast
from pathlib import Path

import msgspec
import pytest
import seed_docs

from events.errors import ContradictsKnownFacts
from mp2_helpers import SEED, LAYOUT, NAMES, SYN, T, apply, do, laid_out, plain, refused, revealed, rolled, seat, seed_text
from rules.marco_polo_2.events import CharacterPicked, GoalKept, RoundRevealed, SetupDealt

P = "marco-polo-2."
HERE = Path(__file__).parent
HEADINGS = ("◎", "●", "○", "《", "・モンケ", "・デ・ウー", "・アブハ", "・メイ", "・フィリップ", "・イザベラ", "・ガントゥルガ",
            "・テバルド", "・ピエドロ", "・ビダル", "・ドナータ")


def quoted(phrase: str) -> None:
    """The phrase the test rests on is really in the seed."""
    seed_docs.quoted(SEED, phrase)


def test_seed_is_here():
    """The seed is found, so every test here also checks the phrase it quotes."""
    seed_text()


def clauses() -> list[str]:
    """Every clause of the seed: its non-empty lines but the headings."""
    out = []
    for line in seed_text().splitlines():
        line = line.strip()
        if len(line) < 8 or line.startswith(HEADINGS) and len(line) < 30:
            continue
        if line in ("Gamehelpmarcopolotwo", "ラウンドのスタート手順", "ゲームの終了と最終得点計算", "以下のことにも注意してください：", "キャラバン(拡張)"):
            continue
        if line[0] in "１２３４" and line[1] == "．":  # the round-start step headings
            continue
        out.append(line)
    return out


def docstrings() -> list[str]:
    out = []
    for path in HERE.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                out.append(ast.get_docstring(node) or "")
    return out


def test_every_clause_is_cited():
    """Each clause of the seed is quoted (at least 10 characters of it, or all of a shorter one) by
    a test's docstring in this folder."""
    docs = docstrings()
    missing = []
    for clause in clauses():
        k = min(10, len(clause))
        windows = {clause[i : i + k] for i in range(len(clause) - k + 1)}
        if not any(w in d for d in docs for w in windows):
            missing.append(clause)
    assert not missing, "\n".join(missing)


def spend_round(state):
    """Every seat spends its dice on the money bag (coins), ending turns, until the round ends."""
    start = state.round
    while state.round == start and state.phase == "play":
        if state.pending:
            kind, s, arg = state.pending[0]
            if kind == "income":
                state = do(state, f"@{s} income coins={state.seats[s].compensation}" + (" double=" + _first_source(state, s) if state.seats[s].character == "mailin" and _first_source(state, s) else ""))
            elif kind == "refill":
                from rules.marco_polo_2 import unseen_contracts

                state = do(state, f"refill {arg} {unseen_contracts(state)[0]}")
            else:
                state = do(state, "=3")
            continue
        p = state.seats[state.turn]
        for d in [str(v) for v in p.dice] + [f"b{v}" for v in p.black]:
            state = do(state, f"bag {d} coins")
        state = do(state, "end")
    return state


def _first_source(state, s):
    from rules.marco_polo_2.engine import Work, round_sources

    src = round_sources(Work(state, False), s)
    return src[0][0] if src else ""


def finish(state):
    """Plays the remaining rounds out on the money bag (all dice 3)."""
    while state.phase not in ("over", "reveal"):
        if state.phase == "round":
            state = rolled(state, *[(3, 3, 3, 3, 3)] * state.n)
        state = spend_round(state)
    return state


# --- ゲームの流れ ----------------------------------------------------------------------------------


def test_a_turn_places_at_least_one_die_on_one_action_space():
    """marco-polo-2.ja.txt: "手番を行う際は、少なくともダイスを１つ自分のボードから取り、アクションマスを１つ選択して置き実行します。" """
    quoted("少なくともダイスを１つ自分のボードから取り")
    state = plain()
    refused(state, "@0 guild farmer dice=", P + "dice-count")
    after = do(state, "@0 khan 3")
    assert after.main_done and len(after.seats[0].dice) == 4


def test_dice_go_on_free_or_occupied_spaces_and_act_at_once():
    """marco-polo-2.ja.txt: "ダイスは、空いている若しくは既に埋まっているアクションマスにも置く事ができます。"
    "そして直ちに対応する本アクションを実行します。" """
    quoted("既に埋まっているアクションマスにも置く事ができます")
    state = do(plain(), "@0 book 1 die=3 option=2", "@0 end")
    before = state.seats[1].coins
    state = do(state, "@1 book 1 die=3 option=2")
    assert state.seats[1].coins == before - 3 + 4  # the fee (lowest die 3), then the book's 4 coins at once


def test_bonus_actions_before_and_after_the_main_action():
    """marco-polo-2.ja.txt: "本アクションの前、若しくは後に追加アクションを何回でも行うことができます。"
    "手番である限り、自分のアクションの前または後で追加アクションを何度でも行うことができます。" """
    state = do(plain(), "@0 bag 3 coins", "@0 bag 3 camels", "@0 khan 3", "@0 bag 3 jade", "@0 end")
    assert state.turn == 1


def test_a_player_with_dice_must_take_a_main_action():
    """marco-polo-2.ja.txt: "手番プレイヤーは、ダイスがある限り、必ず本アクションを行わなければなりません。" """
    refused(plain(), "@0 end", P + "main-action-required")


def test_a_player_without_dice_is_skipped_for_the_rest_of_the_round():
    """marco-polo-2.ja.txt: "ダイスが無い場合には、手番は自動的に飛ばされます。"
    "そのラウンドの間、もう手番が回ってくることはありません。そして時計回りで次のプレイヤーの手番になります。" """
    state = plain(chars=("abha", "dewu", "mongke"))
    state = do(state, "@0 bag 3 coins", "@0 bag 3 coins", "@0 bag 3 coins", "@0 bag 3 coins", "@0 bag 3 coins", "@0 end")
    assert state.turn == 1
    state = do(state, "@1 khan 3", "@1 end", "@2 khan 3", "@2 end")
    assert state.turn == 1  # seat 0 holds no die: skipped
    refused(state, "@0 end", P + "not-your-turn")


def test_the_round_ends_when_every_die_is_placed():
    """marco-polo-2.ja.txt: "これを全てのプレイヤーがすべてのダイスを置くまで続けます。" "そうして、ラウンド終了になります。" """
    state = spend_round(plain())
    assert state.phase == "round" and state.round == 1
    assert all(not p.dice for p in state.seats)


def test_five_rounds_then_the_most_vp_wins():
    """marco-polo-2.ja.txt: "全５ラウンドでゲーム終了で最終得点計算後最も勝利点を稼いでいたプレイヤーの勝利となります。"
    "５ラウンド終了したら、ゲーム終了になります。最終ラウンドの後で、最終得点計算を行います。"
    "合計ポイントの最も高いプレイヤーが勝者になります。" """
    state = plain()
    state = seat(state, 1, vp=30)
    state = finish(state)
    assert state.phase == "over" and state.round == 5 and len(state.round_vp) == 5
    assert T.outcome(state).winners == (1,)
    refused(state, "@0 end", P + "game-over")


# --- セットアップ ----------------------------------------------------------------------------------


def test_setup_gives_a_starting_contract_three_camels_and_eight_coins():
    """marco-polo-2.ja.txt: "スタート依頼タイルを１枚受け取ります。" "ラクダ３頭と８コインを受け取ります。" """
    state = laid_out(chars=("dewu", "mongke"))
    assert [p.contracts for p in state.seats] == [("S1",), ("S2",)]
    assert all((p.coins, p.camels) == (8, 3) for p in state.seats)


def test_characters_are_picked_openly_and_the_rest_passed_on():
    """marco-polo-2.ja.txt: "キャラクターを１枚選択し、自分の前に公開して置きます。その後次のプレイヤーに残ったカードを回します。"
    (ruling MP2-3: players + 1 revealed, seat 0 picks first, then clockwise)"""
    state = T.setup(NAMES[:2], SYN)
    state = apply(state, SetupDealt(offered=("dewu", "abha", "mongke"), starting_contracts=("S1", "S2"), goals=(("G01", "G02", "G03"), ("G04", "G05", "G06")), **LAYOUT))
    assert T.to_move(state) == 0
    refused(state, CharacterPicked(character="vidal"), P + "not-offered")
    state = apply(state, CharacterPicked(character="abha"))
    assert T.to_move(state) == 1 and state.offered == ("dewu", "mongke")
    state = apply(state, CharacterPicked(character="mongke"))
    assert T.view(state, None)["seats"][0]["character"] == "abha"


def test_three_goal_cards_are_dealt_one_kept_in_secret():
    """marco-polo-2.ja.txt: "任務カードを３枚引きその中から１枚選択し、自分の前に非公開で置きます。" """
    state = T.setup(NAMES[:2], {**SYN, "characters": "chosen"})
    state = apply(state, SetupDealt(characters=("abha", "dewu"), starting_contracts=("S1", "S2"), goals=(("G01", "G02", "G03"), ("G04", "G05", "G06")), **LAYOUT))
    refused(state, GoalKept(goal="G04", seat=0), P + "goal-mismatch", ContradictsKnownFacts)
    state = apply(state, GoalKept(goal="G02", seat=0))
    state = apply(state, GoalKept(goal="G05", seat=1))
    public = msgspec.json.encode(T.view(state, 1)).decode()
    assert '"G02"' not in public and T.view(state, 0)["goal"] == "G02"


# --- ラウンドのスタート手順 ------------------------------------------------------------------------------


def test_start_player_is_the_last_on_the_highest_travel_row():
    """marco-polo-2.ja.txt: "前のラウンドで「移動」のアクションをより上段で最後に行ったプレイヤーがスタートプレイヤーになりスタートプレイヤーマーカーを取ります。"
    "補足：使用したダイスは重ねて置くので、最後に移動したプレイヤーはダイスが一番上に置かれている。"
    "現ラウンドで「移動」のアクションをより上段で最後に行ったプレイヤーが次ラウンドのスタートプレイヤーになりスタートプレイヤーマーカーを取ります。" """
    state = plain(chars=("abha", "dewu", "mongke"))
    state = do(state, "@0 travel 2 dice=3,3 path=C1", "@0 end")
    state = do(state, "@1 travel 1 dice=3 path=C1", "@1 end")  # a lower row later does not take it
    state = do(state, "@2 travel 2 dice=3,3 path=O1", "@2 end")  # the same row, later: seat 2 on top
    assert state.start_claim == (2, 2)
    state = spend_round(state)
    assert state.start_seat == 2
    state = rolled(state, *[(3, 3, 3, 3, 3)] * 3)
    assert state.turn == 2


def test_start_player_stays_when_nobody_travelled():
    """marco-polo-2.ja.txt: "例外：前のラウンド、どのプレイヤーも移動を選択していない場合はスタートプレイヤーは変わりません。" """
    state = spend_round(plain())
    assert state.start_seat == 0


def test_start_player_by_black_die_is_the_seat_that_placed_it():
    """marco-polo-2.ja.txt: "例外：移動の最後に使われたダイスが黒の場合、どのプレイヤーが置いたのか覚えておかなければなりません。" """
    state = plain()
    state = do(state, "@0 khan 3", "@0 black", "=4", "@0 end", "@1 khan 3", "@1 end")
    state = do(state, "@0 travel 1 dice=b4 path=C1")
    assert state.start_claim == (1, 0)


def test_city_bonuses_are_paid_at_round_start_to_posts():
    """marco-polo-2.ja.txt: "「！」マークの書かれている都市全てからボーナスが分配されます。小市に交易所を置いているプレイヤーはマークで示されたボーナスを獲得します。"
    "「！」タイルがある場合、直ちにそのボーナスを受け取ります。また、各ラウンド開始時にも受け取ることになります。" """
    state = plain(chars=("dewu", "mongke"))
    state = do(state, "@0 travel 2 dice=3,3 path=C1")
    assert state.seats[0].coins == 8 - 2 + 3  # route 2 coins, then C1's «!» 3 coins at once
    state = spend_round(do(state, "@0 end"))
    coins = state.seats[0].coins
    state = revealed(state)
    assert state.seats[0].coins == coins + 3


def test_characters_and_improved_seals_pay_their_bonus_at_round_start():
    """marco-polo-2.ja.txt: "「！」マークを持つ全てのキャラクター・ギルドもボーナスを与えます。" """
    state = spend_round(plain(chars=("abha", "dewu")))
    state = seat(state, 1, seals=("farmer",), improved=("farmer",))
    coins, camels = state.seats[0].coins, state.seats[1].camels
    state = revealed(state)
    assert state.seats[0].coins == coins + 2  # Abha Basu: "ラウンド開始時２コイン獲得"
    assert state.seats[1].camels == camels + 1  # the invented farmer seal's «!» 1 camel


def test_dice_come_back_and_black_dice_return_to_the_board():
    """marco-polo-2.ja.txt: "各プレイヤーはゲームボード上に置かれている自分のダイスを全て回収し、自分のボードに置きます。"
    "黒ダイスはゲームボード上の元の位置に戻します。" """
    state = do(plain(), "@0 black", "=2", "@0 khan b2")
    assert state.black_supply == 3
    state = spend_round(do(state, "@0 end"))
    state = revealed(state)
    assert state.black_supply == 4 and all(x[3] == "n" for x in state.board)


def test_the_roll_and_compensation_up_to_fifteen():
    """marco-polo-2.ja.txt: "最後に、全てのプレイヤーは自分のダイスを振ります。もし出目の合計が１５以下の場合は補償として、１５との差分だけラクダかコインを好きな組み合わせで受け取りす。" """
    state = laid_out(chars=("dewu", "mongke"))
    state = rolled(state, (1, 1, 2, 2, 3), (3, 3, 3, 3, 3))
    assert state.seats[0].compensation == 6 and state.pending == (("income", 0, ""),)
    refused(state, "@0 income coins=5", P + "compensation")
    state = do(state, "@0 income coins=2 camels=4")
    assert (state.seats[0].coins, state.seats[0].camels) == (10, 7) and not state.pending


# --- メインアクション ----------------------------------------------------------------------------------


def test_main_actions_take_only_your_own_dice_and_the_printed_count():
    """marco-polo-2.ja.txt: "メインアクション（移動・市場・皇帝の恩寵・契約獲得・ギルド・特殊都市・都市）を行う際に注意しなければならない事を以下に記載します。"
    "・プレイヤーの置くダイスは自分のものだけです。他プレイヤーのダイスを置いてはいけません。"
    "・ボードに描かれているマスの数のダイスを置かなければいけません。" """
    state = plain()
    refused(state, "@0 khan 5", P + "die-not-held")
    refused(state, "@0 travel 2 dice=3 path=C1", P + "dice-count")
    refused(state, "@0 travel 3 dice=3,3 path=C1", P + "dice-count")


def test_an_occupied_space_costs_the_lowest_die_placed():
    """marco-polo-2.ja.txt: "・空いているアクションマスにも、埋まっているアクションマスにも、ダイスを置くことができます（都市のマスは除く）。"
    "・埋まっているアクションマスを使う場合には、お金を支払わなければいけません（重要）。"
    "・支払うお金は置いたダイスの最も小さい目と同額となります。" """
    state = plain(chars=("mongke", "gantulga"), dice=[(3, 3, 3, 3, 3), (2, 5, 3, 3, 2)])
    state = do(state, "@0 contracts 3", "@0 end")
    before = state.seats[1].coins
    state = do(state, "@1 contracts 2")
    assert state.seats[1].coins == before - 2 + 4
    state = do(state, "@1 end", "@0 guild farmer dice=3,3", "@0 end")
    refused(seat(state, 1, coins=2, jade=0), "@1 guild spicer dice=3,5", P + "occupied-fee")
    state = do(state, "@1 guild spicer dice=2,3")
    assert state.seats[1].coins == before - 2 + 4 - 2


def test_a_colour_uses_each_action_space_once_per_round():
    """marco-polo-2.ja.txt: "・プレイヤー色のダイスがすでに置かれているエリアには、その色のダイスを配置できません。"
    "・各アクションマスは、プレイヤーの色について各１回しか使用出来ません。" """
    state = do(plain(), "@0 contracts 3", "@0 end", "@1 contracts 3", "@1 end")
    refused(state, "@0 contracts 3", P + "colour-once-per-space")


def test_the_lowest_die_placed_counts():
    """marco-polo-2.ja.txt: "・参照されるのは、常に置いた中で一番小さいダイス目になります。"
    "・アクションマスにダイスを置いたら、直ちに対応するアクションの処理を行います。都市のマスの複数回行う場合もあります。" """
    state = plain(dice=[(1, 6, 6, 6, 6), (3, 3, 3, 3, 3)])
    refused(state, "@0 travel 2 dice=1,6 path=C1,C2", P + "travel-steps")
    refused(state, "@0 guild spicer dice=1,6", P + "guild-die")


def test_black_dice_are_not_a_colour_and_combine_with_it():
    """marco-polo-2.ja.txt: "・黒ダイスはプレイヤーカラー（青赤黄緑）とは別の物として扱います。従って、これらのダイスを使って、既に自分が使用していて自分の色のダイスが置かれているアクションマスを、もう一度使うことができます。"
    "・黒ダイスを自分の色のダイスと組み合わせて使うこともできます。ただし、この時各ラウンド、同じ色のダイスは１つのアクションマスには１回しか置けないことを思い出してください。" """
    state = do(seat(plain(), 0, camels=6), "@0 guild farmer dice=3,3", "@0 black", "=5", "@0 end", "@1 khan 3", "@1 end")
    state = do(state, "@0 black", "=4")
    refused(state, "@0 guild spicer dice=3,b4", P + "colour-once-per-space")
    state = do(state, "@0 guild spicer dice=b4,b5")
    assert state.seats[0].seals == ("farmer", "spicer")


# --- 移動 ---------------------------------------------------------------------------------------


def test_upper_row_three_dice_up_to_the_lowest():
    """marco-polo-2.ja.txt: "上段：アクションマスにダイスを３つ置きます。ダイス目の最も小さい数字の値の歩数移動できます。" """
    state = plain(chars=("dewu", "mongke"), dice=[(4, 4, 4, 4, 4), (3, 3, 3, 3, 3)])
    state = seat(state, 0, coins=20)
    state = do(state, "@0 travel 3 dice=4,4,4 path=C1,C2,O3,C6")
    assert state.seats[0].figures == ("C6",)


def test_middle_row_two_dice_at_most_three_steps():
    """marco-polo-2.ja.txt: "中段：アクションマスにダイスを２つ置きます。ダイス目の最も小さい数字の値の歩数（最大３）移動できます。" """
    state = plain(chars=("dewu", "mongke"), dice=[(4, 4, 4, 4, 4), (3, 3, 3, 3, 3)])
    state = seat(state, 0, coins=20)
    refused(state, "@0 travel 2 dice=4,4 path=C1,C2,O3,C6", P + "travel-steps")
    state = do(state, "@0 travel 2 dice=4,4 path=C1,C2,O3")
    assert state.seats[0].figures == ("O3",)


def test_lower_row_one_die_two_coins_one_step():
    """marco-polo-2.ja.txt: "下段：アクションマスにダイスを１つ置き２コインを払います。１歩移動できます。" """
    state = plain(chars=("dewu", "mongke"), dice=[(6, 6, 6, 6, 6), (3, 3, 3, 3, 3)])
    refused(state, "@0 travel 1 dice=6 path=O1,C3", P + "travel-steps")
    state = do(state, "@0 travel 1 dice=6 path=O1")
    assert (state.seats[0].coins, state.seats[0].camels) == (6, 2)


def test_routes_cost_coins_camels_jade_and_may_need_a_guild_seal():
    """marco-polo-2.ja.txt: "移動する道に示されているコイン・ラクダ・翡翠を支払う必要がある。またギルドマークがある場合そのギルドマーカーを所持していないと通行不可。（未アップグレードのままでもよい）" """
    state = plain(chars=("dewu", "mongke"), dice=[(3, 3, 3, 3, 3), (3, 3, 3, 3, 3)])
    state = seat(state, 0, figures=("C2",), posts=("C2",), posts_left=10, coins=5, camels=0, jade=1)
    refused(state, "@0 travel 2 dice=3,3 path=C4", P + "guild-route")
    state2 = do(seat(state, 0, seals=("farmer",)), "@0 travel 2 dice=3,3 path=C4")  # a basic seal suffices
    assert state2.seats[0].figures == ("C4",)
    state = seat(state, 0, figures=("O1",), coins=0)
    state = do(state, "@0 travel 2 dice=3,3 path=O2")  # O1-O2 costs 1 jade
    assert state.seats[0].jade == 0


def test_a_post_must_be_placed_where_the_move_ends():
    """marco-polo-2.ja.txt: "移動を終えた場合、自分のボードから交易所コマを１つ取り、そこに置かなければなりません。" """
    state = do(plain(chars=("dewu", "mongke")), "@0 travel 2 dice=3,3 path=C1")
    assert state.seats[0].posts == ("C1",) and state.seats[0].posts_left == 10


def test_the_upper_row_places_an_extra_post_in_a_city_passed():
    """marco-polo-2.ja.txt: "上段を選んだ場合、追加で通過した都市１つに交易所コマ１つを置くことができます。" """
    state = seat(plain(chars=("dewu", "mongke")), 0, coins=20)
    refused(state, "@0 travel 2 dice=3,3 path=C1,C2 extra=C1", P + "extra-post")
    state = do(state, "@0 travel 3 dice=3,3,3 path=C1,C2 extra=C1")
    assert set(state.seats[0].posts) == {"C1", "C2"}


def test_the_first_post_takes_the_outpost_bonus():
    """marco-polo-2.ja.txt: "商館ボーナス（その都市にはじめて交易所を置いたプレイヤーボーナス）がある場合、直ちにそのボーナスを受け取ります。" """
    state = seat(plain(chars=("dewu", "mongke")), 0, figures=("C1",))
    state = seat(state, 1, figures=("C1",))
    state = do(state, "@0 travel 2 dice=3,3 path=C2")
    assert state.seats[0].coins == 8 - 1 + 5  # route 1 coin, outpost tile OT1: 5 coins
    state = do(state, "@0 end", "@1 travel 2 dice=3,3 path=C2")
    assert state.seats[1].coins == 8 - 1 - 3  # route, occupied travel row (3): the tile left with the first post


def test_a_contract_city_gives_one_contract_and_the_limit_is_two():
    """marco-polo-2.ja.txt: "依頼タイルがある場合、そこから１枚獲得できます。依頼タイルは２枚まで保持でき、過剰取得した場合いずれかを破棄します。" """
    state = seat(plain(chars=("dewu", "mongke")), 0, figures=("C1",), contracts=("S1", "K07"))
    refused(state, "@0 travel 2 dice=3,3 path=C2 take=K01,K02 discard=S1,K07", P + "contract-not-available")
    refused(state, "@0 travel 2 dice=3,3 path=C2 take=K01", P + "contract-limit")
    state = do(state, "@0 travel 2 dice=3,3 path=C2 take=K01 discard=S1")
    assert state.seats[0].contracts == ("K07", "K01") and state.pending == (("refill", 0, "C2"),)
    state = do(state, "refill C2 K08")
    assert ("C2", "K08") in state.city_contracts


def test_a_city_card_is_usable_from_the_next_turn():
    """marco-polo-2.ja.txt: "都市アクションがある場合、次の手番からは、その都市に置かれているカードにダイスを置くことができるようになります。その後補充されます。" """
    state = do(plain(chars=("dewu", "mongke")), "@0 travel 2 dice=3,3 path=C1", "@0 black", "=3")
    refused(state, "@0 card C1 b3", P + "one-main-action")
    state = do(state, "@0 end", "@1 khan 3", "@1 end")
    state = do(state, "@0 card C1 3 times=2")
    assert state.seats[0].coins == 8 - 2 + 3 + 4  # route, C1's «!», then the card's 2 coins twice


def test_posts_nine_and_ten_score_five_the_eleventh_ten():
    """marco-polo-2.ja.txt: "９・１０個目の交易所を置いた時、それぞれ直ちに５ポイントの得点を獲得し、更に１１個目の交易所を置いた時には、直ちに１０ポイントを獲得します。" """
    state = plain(chars=("dewu", "mongke"), dice=[(3, 3, 3, 3, 3)] * 2)
    eight = ("C3", "C4", "C5", "C6", "BAG", "BAL", "HOR", "X8")
    state = seat(state, 0, posts=eight, posts_left=3, figures=("BEI",))
    vp = state.seats[0].vp
    state = do(state, "@0 travel 2 dice=3,3 path=C1")
    assert state.seats[0].vp == vp + 5
    state = seat(state, 0, posts=eight + ("C1", "Y10"), posts_left=1, figures=("C1",))
    vp = state.seats[0].vp
    state = do(seat(state, 0, used=()), "@0 end", "@1 khan 3", "@1 end", "@0 travel 2 dice=3,3 path=C2")
    assert state.seats[0].vp == vp + 10


# --- 市場 ---------------------------------------------------------------------------------------


def test_books_need_one_three_or_five():
    """marco-polo-2.ja.txt: "1.ダイスを１つ置く。左：ダイス目１以上・中央：ダイス目３以上・右：ダイス目５以上。" """
    state = plain(dice=[(2, 4, 5, 3, 3), (3, 3, 3, 3, 3)])
    refused(state, "@0 book 2 die=2 option=1", P + "book-die")
    refused(state, "@0 book 3 die=4 option=1", P + "book-die")
    state = do(state, "@0 book 3 die=5 option=2")
    assert state.seats[0].silk == 2


def test_book_options_two_free_two_for_jade():
    """marco-polo-2.ja.txt: "2.４つの選択肢からいずれかを実行。上２つ：示されたリソースを獲得。左下：翡翠１つを支払い示されたリソースを獲得。右下：翡翠２つを支払い示されたリソースを獲得。" """
    state = plain()
    refused(state, "@0 book 1 die=3 option=3", P + "cannot-afford")
    state = do(seat(state, 0, jade=3), "@0 book 1 die=3 option=4")
    assert (state.seats[0].jade, state.seats[0].silk) == (1, 2)  # offer tile B1a: 2 jade for 2 silk


def test_offer_tiles_change_each_round_and_the_next_is_visible():
    """marco-polo-2.ja.txt: "市場アクションのヒスイ変換は毎回変わります。次ラウンドの変換は公開されています。" """
    state = plain()
    assert state.offers == ("B1a", "B2a", "B3a") and state.upcoming == ("B1b", "B2b", "B3b")
    state = spend_round(state)
    refused(state, RoundRevealed(round=2, offers=("B1c", "B2c", "B3c"), upcoming=("B1d", "B2d", "B3d"), area_cards=("CC06", "CC07")), P + "description-mismatch", ContradictsKnownFacts)
    state = revealed(state)
    assert state.offers == ("B1b", "B2b", "B3b")


# --- 皇帝の恩寵 ---------------------------------------------------------------------------------------


def test_khans_favor_one_die_two_camels_four_coins():
    """marco-polo-2.ja.txt: "これは「皇帝の恩寵」アクションマスにダイスを１つ置きます。" "２ラクダと４コインを獲得。" """
    state = do(plain(), "@0 khan 3")
    assert (state.seats[0].coins, state.seats[0].camels) == (10 + 4, 5)


def test_khans_favor_slots_fill_left_to_right_ascending_without_stacking():
    """marco-polo-2.ja.txt: "最初にこのアクションをするプレイヤーはダイスを１つ選んで一番左側のマスに置きます。"
    "次にこのアクションを行うプレイヤーは、その次のマスに置かねばなりません。さらに、ダイス目が同じかそれ以上でなければならず、そうでなければ置けません。以降のプレイヤーも同様のルールが適用されます。"
    "このアクションはダイスを重ねて置くことはできません。" (4 slots; 2 players: 2 neutral 1s, ruling MP2-9)"""
    state = plain(dice=[(4, 4, 4, 4, 4), (3, 3, 3, 3, 3)])
    assert [x for x in state.board if x[0] == "khan"] == [("khan", 1, -1, "n"), ("khan", 1, -1, "n")]
    state = do(state, "@0 khan 4", "@0 end")
    refused(state, "@1 khan 3", P + "khans-favor-ascending")
    state = do(state, "@1 black", "=5", "@1 khan b5", "@1 end")
    state = do(state, "@0 black", "=6")
    refused(state, "@0 khan b6", P + "khans-favor-full")


# --- 依頼獲得 ----------------------------------------------------------------------------------------


def test_contracts_action_four_coins_then_two_from_your_cities():
    """marco-polo-2.ja.txt: "依頼タイルを得るには、「依頼獲得」アクションマスにダイスを１つ置かなければなりません。"
    "まず４コインを獲得します。"
    "その後、自分の交易所が置かれている都市から最大２枚依頼タイルを獲得。依頼タイルは２枚まで保持でき、過剰取得した場合いずれかを破棄します。その後補充されます。"
    (the reference's 3 coins yields to the seed: ruling MP2-1)"""
    state = seat(plain(), 0, posts=("C2", "C5"), posts_left=9, contracts=())
    refused(state, "@0 contracts 3 take=K05", P + "contract-not-available")
    refused(state, "@0 contracts 3 take=K01,K02,K03", P + "contract-limit")
    state = do(state, "@0 contracts 3 take=K01,K03")
    assert state.seats[0].coins == 14 and state.seats[0].contracts == ("K01", "K03")
    assert [p[2] for p in state.pending] == ["C2", "C5"]


# --- ギルド -------------------------------------------------------------------------------------------


def test_guild_action_two_dice_thresholds_jade_one_seal_per_type():
    """marco-polo-2.ja.txt: "ギルドを得るには、「ギルド」アクションマスにダイスを２つ置かなければなりません。"
    "４つの選択肢から１つ選ぶのですが、それぞれ必要な最小のダイス目の値が示されているので、それより小さい場合は選択できません。"
    "選んだ選択肢にあるギルドマーカーを受け取り自分の前に置き、更に示されたヒスイも０～３つ獲得します。"
    "プレイヤーは４つのギルドマーカーは各１つしか所持できません。" "その後補充されます。" """
    state = plain(chars=("abha", "mongke"), dice=[(3, 3, 4, 4, 4), (3, 3, 3, 3, 3)])
    refused(state, "@0 guild jeweler dice=3,4", P + "guild-die")
    state = do(state, "@0 guild jeweler dice=4,4")
    assert state.seats[0].seals == ("jeweler",) and state.seats[0].jade == 3
    state = do(seat(state, 0, used=()), "@0 end", "@1 khan 3", "@1 end")
    refused(state, "@0 guild jeweler dice=3,3", P + "guild-die")
    refused(seat(state, 0, dice=(4, 4), used=()), "@0 guild jeweler dice=4,4", P + "one-seal-per-guild")
    other = do(plain(chars=("dewu", "mongke"), dice=[(4, 4, 4, 4, 4), (3, 3, 3, 3, 3)]), "@0 guild jeweler dice=4")
    assert other.seats[0].seals == ("jeweler",)  # another seat may take the same guild


# --- 特殊都市 -------------------------------------------------------------------------------------


def test_special_city_needs_a_post_pays_its_reward_and_the_seal_bonus_by_die():
    """marco-polo-2.ja.txt: "特殊都市カードアクションを行うためには、その特殊都市（バグダッド・バルフ・ホルムズ）に自分の交易所が置かれていなければなりません。"
    "ダイス１つをカードの空きアクションマスに置き、左側の報酬をダイス目に関係なく１回受け取ります。"
    "また、示されたアップグレードれたギルドマーカーを持っていた場合、ダイス目の値に従い１回か２回その報酬を獲得します。"
    "このアクションはダイスを重ねて置くことはできません。" (2 players: a neutral die on one of the two spaces)"""
    state = plain(dice=[(2, 5, 3, 3, 3), (3, 3, 3, 3, 3)])
    refused(state, "@0 special baghdad 2", P + "needs-post")
    state = seat(state, 0, posts=("BAG",), posts_left=10, seals=("farmer",), improved=("farmer",))
    once = do(state, "@0 special baghdad 2")
    assert once.seats[0].coins == 10 + 3 and once.seats[0].camels == 3 + 1  # reward 3 coins; farmer bonus once
    twice = do(state, "@0 special baghdad 5")
    assert twice.seats[0].camels == 3 + 2  # die >= 4 (invented threshold): twice
    state = do(twice, "@0 end", "@1 khan 3", "@1 end")
    state = seat(state, 1, posts=("BAG",))
    refused(do(state, "@0 black", "=3"), "@0 special baghdad b3", P + "special-city-full")


# --- 都市 ---------------------------------------------------------------------------------------


def test_city_card_needs_a_post_no_stacking_and_repeats_up_to_the_die():
    """marco-polo-2.ja.txt: "都市カードアクションを行うためには、その都市に自分の交易所が置かれていなければなりません。"
    "ダイス１つをカードのアクションマスに置き、カードに書かれた効果を適用します。"
    "このアクションはダイスを重ねて置くことはできません。"
    "都市アクションではアクションマスに置かれたダイス目と最大同数まで繰り返しアクション効果を受け取ることができます。" """
    state = plain(chars=("dewu", "mongke"))
    refused(state, "@0 card C3 3", P + "needs-post")
    state = seat(state, 0, posts=("C3",), posts_left=10)
    state = seat(state, 1, posts=("C3",), posts_left=10)
    refused(state, "@0 card C3 3 times=4", P + "city-card-times")
    state = do(state, "@0 card C3 3 times=3")
    assert (state.seats[0].camels, state.seats[0].coins) == (0, 8 + 9)
    state = do(state, "@0 end")
    refused(state, "@1 card C3 3", P + "no-stacking")


def test_action_area_cards_need_no_post_and_change_each_round():
    """marco-polo-2.ja.txt: "また、アクションエリアの都市アクションも誰でも利用でき、交易所が必要ないのをのぞいて上記と同じ処理になります。"
    "アクションエリアの都市は毎ラウンド変わります。" """
    state = seat(plain(chars=("dewu", "mongke")), 0, pepper=2)
    state = do(state, "@0 card area1 3 times=2")
    assert (state.seats[0].pepper, state.seats[0].silk) == (0, 2)
    state = spend_round(do(state, "@0 end"))
    state = revealed(state)
    assert state.area_cards == ("CC06", "CC07")


# --- 追加アクション --------------------------------------------------------------------------------------


def test_bonus_actions_not_in_the_middle_of_a_main_action():
    """marco-polo-2.ja.txt: "ただし、アクションの途中で行うことはできません。" (a main action is one event: a
    contract's reward cannot pay for the action it is completed in; complete it first)"""
    state = seat(plain(chars=("dewu", "mongke")), 0, coins=0, jade=0, camels=1, pepper=1, contracts=("S1",))
    refused(state, "@0 travel 2 dice=3,3 path=C1", P + "cannot-afford")
    state = do(state, "@0 complete S1", "@0 travel 2 dice=3,3 path=C1")
    assert state.seats[0].figures == ("C1",)


def test_jade_stands_in_for_a_coin_or_a_camel():
    """marco-polo-2.ja.txt: "重要：フリーアクションではありませんが、翡翠をいつでもラクダかコインとして代用できます。" (ruling MP2-6)"""
    state = seat(plain(chars=("dewu", "mongke")), 0, coins=1, camels=0, jade=2)
    state = do(state, "@0 travel 2 dice=3,3 path=C1")  # 2 coins: 1 coin + 1 jade
    assert (state.seats[0].coins, state.seats[0].jade) == (3, 1)  # then C1's «!» 3 coins
    state = do(state, "@0 reroll 3", "=6")  # 1 camel: paid in jade
    assert state.seats[0].jade == 0


def test_completing_a_contract_pays_the_left_and_takes_the_right():
    """marco-polo-2.ja.txt: "依頼タイルの左側には、必要なラクダ及び商品が描かれています。右側には依頼の報酬が描かれています。"
    "左側の商品を支払い、右側のボーナスを受け取ります。"
    "その後達成した依頼タイルを裏返し、個人ボードの引き出しの所に置きます。" """
    state = plain(chars=("dewu", "mongke"))
    refused(state, "@0 complete S1", P + "cannot-afford")
    state = do(seat(state, 0, pepper=1), "@0 complete S1")
    p = state.seats[0]
    assert (p.camels, p.pepper, p.vp, p.coins, p.contracts, p.completed) == (2, 0, 3, 10, (), ("S1",))
    refused(state, "@0 complete S1", P + "contract-not-active")


def test_improving_a_seal_pays_its_cost_and_takes_its_bonus():
    """marco-polo-2.ja.txt: "ギルドマーカーには、アップグレードに必要なリソースが描かれています。下側には報酬が描かれています。"
    "リソースを支払い、下側の「！」ボーナスを受け取ります。「＋１」はゲーム終了時に効果を発揮します。"
    "その後完成したギルドマーカーを裏返し、個人ボードに置きます。" """
    state = plain(chars=("abha", "mongke"))
    refused(state, "@0 improve farmer", P + "seal-not-owned")
    state = seat(state, 0, seals=("farmer", "spicer"), pepper=1, silk=1)
    state = do(state, "@0 improve farmer")
    assert (state.seats[0].coins, state.seats[0].camels, state.seats[0].improved) == (8, 4, ("farmer",))
    refused(state, "@0 improve farmer", P + "seal-already-improved")
    state = do(state, "@0 improve spicer")  # "+1" shield (invented spicer seal) at the end
    assert T.score(state)["seats"][0]["shields_count"] == 1


def test_money_bag_any_die_no_fee_three_coins_two_camels_or_one_jade():
    """marco-polo-2.ja.txt: "●３コイン／２ラクダ／１翡翠獲得 プレイヤーはダイスを１つをゲームボードのコインバッグの所に置きます。そして３コイン／２ラクダ／１翡翠のいずれかを得ます。"
    "・この場所に他のダイスが置かれていても追加のコストは掛かりません。"
    "・この追加アクションはダイス目は関係ありません。どの目のダイスを置いても同じなのです。"
    "・ここに同じ色のダイスが複数置かれても構いません。" """
    state = plain(chars=("dewu", "mongke"), dice=[(1, 6, 3, 3, 3), (3, 3, 3, 3, 3)])
    state = do(state, "@0 bag 1 coins", "@0 bag 6 camels", "@0 bag 3 jade")
    p = state.seats[0]
    assert (p.coins, p.camels, p.jade) == (11, 5, 1)
    refused(state, "@0 bag 3 gold", P + "bad-choice")


def test_reroll_for_one_camel():
    """marco-polo-2.ja.txt: "ラクダを１頭支払うことによりダイスを１つ振り直すことができます。" """
    state = do(plain(), "@0 reroll 3")
    assert T.chance(state).kind == "dice" and state.seats[0].camels == 2
    state = do(state, "=6")
    assert state.seats[0].dice == (3, 3, 3, 3, 6)


def test_turn_a_die_for_two_camels_never_six_to_one():
    """marco-polo-2.ja.txt: "ラクダを２頭支払うことにより、自分のダイスの目を１つ増やすか１つ減らすかできます。"
    "注意：１の目を６にしたり、またその逆をすることはできません。" """
    state = plain(dice=[(1, 6, 3, 3, 3), (3, 3, 3, 3, 3)])
    refused(state, "@0 adjust 1 -1", P + "no-wrap-6-1")
    refused(state, "@0 adjust 6 +1", P + "no-wrap-6-1")
    state = do(state, "@0 adjust 3 +1")
    assert state.seats[0].dice == (1, 3, 3, 4, 6) and state.seats[0].camels == 1


def test_black_die_for_three_camels_rolled_at_once_one_per_turn():
    """marco-polo-2.ja.txt: "ラクダを３頭支払うことにより黒ダイス置き場から黒ダイスを１つ取ります。"
    "取った黒ダイスは直ちに振り、自分のボード上の残りのダイスと一緒に置きます。"
    "各プレイヤーは１回の手番には１つだけしか黒ダイスを取れません。" """
    state = seat(plain(), 0, camels=6)
    state = do(state, "@0 black")
    assert T.chance(state).count == 1
    state = do(state, "=2")
    assert state.seats[0].black == (2,) and state.seats[0].camels == 3
    refused(state, "@0 black", P + "one-black-die-per-turn")


# --- 最終得点計算 ----------------------------------------------------------------------------------------


def _final(state, **fields):
    from rules.marco_polo_2.state import OVER

    state = seat(state, 0, **fields)
    return msgspec.structs.replace(state, phase=OVER)


def test_goal_card_scores_its_improved_seals():
    """marco-polo-2.ja.txt: "・任務カード：示されたアップグレードされたギルドマーカーごとに示されたポイント" """
    state = _final(plain(), seals=("farmer", "spicer"), improved=("farmer",))  # G01: farmer 3, spicer 4
    assert T.score(state)["seats"][0]["goal_seals"] == 3


def test_shields_with_plus_one_icons_on_the_table():
    """marco-polo-2.ja.txt: "・任務カード：示された紋章アイコン都市に１つでも交易所があれば「＋１」獲得。またアップグレードした「＋１」ギルドマーカー・キャラクターの効果も適応。それに加え、交易所を置いた都市の示された紋章の種類分だけ「＋１」獲得（置いた交易所数ではなく紋章の種類数）。"
    "上記の合計：１（０ポイント）／２（１ポイント）／３（２ポイント）／４（４ポイント）／５（６ポイント）／６（８ポイント）／７（１０ポイント）／８（１３ポイント）／９（１７ポイント）／１０（２２ポイント）／１１（２８ポイント）／１２（３５ポイント）／１３以上（４３ポイント）" """
    # C1 and C3 share the lion: 1 kind; C4 sun; G01 shows lion and sun: +2; improved spicer "+1"
    state = _final(plain(chars=("abha", "mongke")), posts=("C1", "C3", "C4"), seals=("spicer",), improved=("spicer",))
    row = T.score(state)["seats"][0]
    assert row["shields_count"] == 2 + 2 + 1 and row["shields"] == 6
    from rules.marco_polo_2.content import PUBLIC

    assert PUBLIC.shield_vp == (0, 1, 2, 4, 6, 8, 10, 13, 17, 22, 28, 35, 43)


def test_goods_two_for_one_camels_not_coins_ten_for_one():
    """marco-polo-2.ja.txt: "・余った金・絹・胡椒・翡翠２つで１ポイント（ラクダは含みません）" "・１０コインにつき１ポイント" """
    row = T.score(_final(plain(), gold=1, silk=1, pepper=2, jade=1, camels=9, coins=29))["seats"][0]
    assert (row["goods"], row["coins"]) == (2, 2)


def test_most_contracts_eight_second_four_none_second_with_two():
    """marco-polo-2.ja.txt: "・最も多くの依頼を達成したプレイヤー全員に８ポイント、２位のプレイヤー全員に４ポイント（２人プレイヤーでは２位ポイントは獲得できません。その他の例：７・７・５・３枚の場合、７のプレイヤー２人が１位、５のプレイヤーが２位という判定になる）" """
    from rules.marco_polo_2.scoring import most_contracts

    state = plain(chars=("abha", "dewu", "mongke", "gantulga"))
    for s, k in enumerate((7, 7, 5, 3)):
        state = seat(state, s, completed=tuple(f"X{i}" for i in range(k)))
    assert most_contracts(state, 8, 4) == [8, 8, 4, 0]
    two = seat(seat(plain(), 0, completed=("A",) * 2), 1, completed=("B",))
    assert most_contracts(two, 8, 4) == [8, 0]


def test_tie_break_most_camels_else_shared():
    """marco-polo-2.ja.txt: "同点の場合、それらのプレイヤーの中で残っているラクダの数の最も多いプレイヤーが勝者になります。それも同数の場合は引き分けとなります。" """
    from rules.marco_polo_2.state import OVER

    state = msgspec.structs.replace(plain(chars=("dewu", "mongke")), phase=OVER)
    assert T.outcome(state).winners == (0, 1)
    assert T.outcome(seat(state, 1, camels=4)).winners == (1,)


# --- content pack --------------------------------------------------------------------------------


def test_public_pack_is_pinned_and_a_mismatch_is_refused():
    """The public pack (MP2-1..) is pinned by id and hash like MP-1; an unknown pack or hash is refused."""
    from events.errors import InvalidOptions
    from rules.marco_polo_2.content import PUBLIC

    assert T.setup(NAMES[:2], {"content": PUBLIC.ref}).pack == PUBLIC.hash
    with pytest.raises(InvalidOptions) as info:
        T.setup(NAMES[:2], {"content": {"id": PUBLIC.id, "hash": "0" * 64}})
    assert info.value.code == P + "content-mismatch"
