"""The rules facts every Marco Polo II pack shares (seed ``marco-polo-2.ja.txt`` first, reference
part B where the seed is silent). Packs spread these and add their components."""

from __future__ import annotations

RULES: dict = {
    # "全５ラウンドでゲーム終了"
    "rounds": 5,
    "dice_per_player": 5,
    # "ラクダ３頭と８コインを受け取ります"
    "start": {"coins": 8, "camels": 3},
    # reference B2: 11 trading posts per colour; "９・１０個目 ... ５ポイント ... １１個目 ... １０ポイント"
    "posts": 11,
    "post_vp": {"9": 5, "10": 5, "11": 10},
    # "出目の合計が１５以下の場合は補償として、１５との差分だけ"
    "compensation_total": 15,
    # "１（０ポイント）／２（１ポイント）／ ... ／１３以上（４３ポイント）"
    "shield_vp": [0, 1, 2, 4, 6, 8, 10, 13, 17, 22, 28, 35, 43],
    # rows by number: 1 lower, 2 middle, 3 upper ("上段 ... ３つ", "中段 ... ２つ ... 最大３", "下段 ... １つ置き２コイン ... １歩")
    "travel": {"1": {"dice": 1, "max": 1, "coins": 2}, "2": {"dice": 2, "max": 3}, "3": {"dice": 3}},
    # "左：ダイス目１以上・中央：ダイス目３以上・右：ダイス目５以上"; "左下：翡翠１つ ... 右下：翡翠２つ"
    "jade_prices": [1, 2],
    # "２ラクダと４コインを獲得" (4 slots: reference B7)
    "khan": {"slots": 4, "reward": {"coins": 4, "camels": 2}},
    # "まず４コインを獲得します。 ... 最大２枚 ... 依頼タイルは２枚まで保持でき"
    "contracts_action": {"coins": 4, "take": 2, "hold": 2},
    # reference B8 (thresholds and jade); the seed: "それぞれ必要な最小のダイス目 ... ヒスイも０～３つ"
    "guilds": {
        "farmer": {"min_die": 1, "jade": 0},
        "spicer": {"min_die": 2, "jade": 1},
        "tailor": {"min_die": 3, "jade": 2},
        "jeweler": {"min_die": 4, "jade": 3},
    },
    # "３コイン／２ラクダ／１翡翠のいずれかを得ます"
    "money_bag": [{"coins": 3}, {"camels": 2}, {"jade": 1}],
    # "ラクダを１頭支払う ... 振り直す", "ラクダを２頭 ... ±１", "ラクダを３頭 ... 黒ダイス"
    "bonus_costs": {"reroll": 1, "adjust": 2, "black": 3},
    # reference B2/B20: 6 black dice with 4 players, 5 with 3, 4 with 2
    "black_dice": {"2": 4, "3": 5, "4": 6},
    # reference B20: neutral dice (Khan's favor slots; one slot of each special city with 2 players)
    "neutral": {"2": {"khan": [1, 1], "special": 1}, "3": {"khan": [1]}, "4": {}},
    # "最も多くの依頼を達成したプレイヤー全員に８ポイント、２位のプレイヤー全員に４ポイント"
    "most_contracts_vp": [8, 4],
    # "余った金・絹・胡椒・翡翠２つで１ポイント", "１０コインにつき１ポイント"
    "goods_per_vp": 2,
    "coins_per_vp": 10,
    # "売却して勝利点を得る（金６点・絹４点・胡椒２点）", "金３点・絹２点・胡椒１点", "左：１歩・中央：最大２歩・右：最大３歩"
    "caravan": {"sell_vp": {"gold": 6, "silk": 4, "pepper": 2}, "end_vp": {"gold": 3, "silk": 2, "pepper": 1}, "steps": [1, 2, 3]},
    "characters": ["mongke", "dewu", "abha", "mailin", "filippo", "isabella", "gantulga"],
    "caravan_characters": ["tebaldo", "piedro", "vidal", "donata"],
    "start_city": "BEI",
    # reference B2: 49 contracts = 7 blue starting + 42 red (the pile that refills contract spaces)
    "contract_pile": 42,
}
