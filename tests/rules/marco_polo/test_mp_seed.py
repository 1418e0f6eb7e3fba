"""One test per clause of the Marco Polo seed (``../shared/seeds/marco-polo.es.txt``): setup, turn,
main and bonus actions, between rounds, final scoring, "Lo que siempre se olvida" and "Dudas
frecuentes". Each docstring quotes the seed phrase it checks."""

from __future__ import annotations

import msgspec
import pytest
import seed_docs

from events.errors import ContradictsKnownFacts, InvalidOptions
from mp_helpers import (
    BASIC_BONUSES,
    CARDS,
    OUTPOSTS,
    T,
    apply,
    do,
    laid_out,
    plain,
    refused,
    rolled,
    seat,
    SEED,
    seed_text,
)
from rules.marco_polo import CODES
from rules.marco_polo.content import PACK_HASH, PACK_ID
from rules.marco_polo.events import (
    ContractDrawn,
    ContractsDealt,
    SetupDealt,
    TurnEnded,
)

P = "marco-polo."


def quoted(phrase: str) -> None:
    """The phrase the test rests on is really in the seed."""
    seed_docs.quoted(SEED, phrase)


def test_seed_is_here():
    """The seed is found, so every test here also checks the phrase it quotes."""
    seed_text()


def run_round_out(state):
    """Every seat spends its dice on the money bag (no fee), ending turns, until the round ends."""
    start = state.round
    while state.round == start and state.phase == "play":
        if state.pending:
            kind, s, _ = state.pending[0]
            if kind == "income":
                state = do(state, f"income {state.seats[s].compensation}/0")
            elif kind == "draw":
                state = apply(state, ContractDrawn(contract=_unseen(state)))
            elif kind == "discard":
                state = do(state, f"return {state.seats[s].contracts[0]}")
            else:
                state = do(state, "=3")
            continue
        p = state.seats[state.turn]
        dice = [str(v) for v in p.dice] + [f"b{v}" for v in p.black] + [f"w{v}" for v in p.white]
        if p.character == "raschid":
            dice = ["1" for _ in p.dice]
        for d in dice:
            state = do(state, f"bag {d}")
        state = do(state, "end")
    return state


def _unseen(state):
    from rules.marco_polo.decide import unseen_contracts

    return unseen_contracts(state)[0]


# --- Preparación ---------------------------------------------------------------------------------


def test_content_pack_is_complete_and_pinned():
    """Reference part A: 25 locations, 30 routes, 44 contracts (6 starting), 31 city cards, 6 + 10
    bonuses, 18 objectives, 8 characters; the pack is pinned by id and hash."""
    from rules.marco_polo import content as c

    assert (len(c.LOCATIONS), len(c.ROUTES), len(c.CONTRACTS), len(c.STARTING_CONTRACTS)) == (25, 30, 44, 6)
    assert (len(c.CITY_CARDS), len(c.CITY_BONUSES), len(c.OUTPOST_BONUSES), len(c.OBJECTIVES)) == (31, 6, 10, 18)
    assert len(c.CHARACTERS) == 8 and len(c.OASES) == 10 and len(c.LARGE_CITIES) == 7 and len(c.SMALL_CITIES) == 6
    T.setup(("A", "B"), {"content": {"id": PACK_ID, "hash": PACK_HASH}})
    with pytest.raises(InvalidOptions) as info:
        T.setup(("A", "B"), {"content": {"id": PACK_ID, "hash": "0" * 64}})
    assert info.value.code == P + "content-mismatch"


def test_player_count():
    """"Jugadores: 2-4"."""
    quoted("Jugadores: 2-4")
    for n in (1, 5):
        with pytest.raises(InvalidOptions):
            T.setup(("A", "B", "C", "D", "E")[:n], {})


def test_objectives_two_each_secret():
    """"Cada persona roba 2 cartas de objetivo y las mantiene ocultas." The view of another seat
    hides them; unknown cards may stay None."""
    quoted("Cada persona roba 2 cartas de objetivo y las mantiene ocultas.")
    s = laid_out(2)
    assert s.seats[0].objectives == ("G01", "G02")
    v = T.view(s, 1)
    assert v["objectives"] == ["G03", "G04"]
    assert "G01" not in msgspec.json.encode(v).decode()
    assert "G01" not in msgspec.json.encode(T.view(s, None)).decode()
    s2 = laid_out(2, objectives=((None, None), ("G03", None)))
    assert s2.seats[0].objectives == (None, None)


def test_small_city_bonuses_by_letter():
    """"Distribuye las 6 losetas de bonificación de ciudad pequeña según sus letras." (basic layout;
    random only in the expert variant)."""
    quoted("Distribuye las 6 losetas de bonificación de ciudad pequeña según sus letras.")
    s = T.setup(("A", "B"), {"characters": "chosen"})
    bad = SetupDealt(
        characters=("berke", "kubilai"), city_cards=CARDS, outposts=OUTPOSTS,
        city_bonuses=tuple(reversed(BASIC_BONUSES)), starting_contracts=("S1", "S2"),
    )
    refused(s, bad, P + "basic-city-bonuses")
    s2 = T.setup(("A", "B"), {"characters": "chosen", "random_city_bonuses": True})
    s2 = apply(s2, bad)
    assert s2.city_bonuses == tuple(reversed(BASIC_BONUSES))


def test_outposts_seven_of_ten():
    """"coloca una en cada una de las siete ciudades grandes y devuelve tres a la caja"."""
    quoted("coloca una en cada una de las siete ciudades grandes y devuelve tres a la caja")
    s = T.setup(("A", "B"), {"characters": "chosen"})
    bad = SetupDealt(characters=("berke", "kubilai"), city_cards=CARDS, outposts=OUTPOSTS[:6], starting_contracts=("S1", "S2"))
    refused(s, bad, P + "setup-shape")
    dup = SetupDealt(characters=("berke", "kubilai"), city_cards=CARDS, outposts=OUTPOSTS[:6] + ("OB01",), starting_contracts=("S1", "S2"))
    refused(s, dup, P + "duplicate-component", ContradictsKnownFacts)


def test_city_cards_nine():
    """"coloca una boca arriba en cada espacio correspondiente del tablero, nueve en total"."""
    quoted("nueve en total")
    s = T.setup(("A", "B"), {"characters": "chosen"})
    refused(s, SetupDealt(characters=("berke", "kubilai"), city_cards=CARDS[:8], outposts=OUTPOSTS, starting_contracts=("S1", "S2")), P + "setup-shape")


def test_contract_piles_and_special_pile():
    """"forma cinco pilas de seis y una pila especial con los ocho restantes. Usa una pila de seis
    para llenar los espacios de contratos del tablero"."""
    quoted("forma cinco pilas de seis y una pila especial con los ocho restantes")
    s = laid_out(2)
    assert len(s.special) == 8 and s.phase == "contracts"
    refused(s, ContractsDealt(round=1, contracts=("K01", "K02")), P + "setup-shape")
    refused(s, ContractsDealt(round=1, contracts=("S5", "K02", "K03", "K04", "K05", "K06")), P + "contract-already-seen", ContradictsKnownFacts)
    s = apply(s, ContractsDealt(round=1, contracts=("K01", "K02", "K03", "K04", "K05", "K06")))
    assert s.display == ("K01", "K02", "K03", "K04", "K05", "K06") and s.phase == "roll"


@pytest.mark.parametrize("n,black,khan,coins5", [(4, 5, [], False), (3, 4, [1], False), (2, 3, [1, 1], True)])
def test_black_dice_and_blocks_by_player_count(n, black, khan, coins5):
    """"| 4 | Coloca 5 dados negros", "| 3 | Coloca 4 dados negros. Deja un dado [...] con valor 1, en
    la primera casilla de El favor de Khan", "| 2 | Coloca 3 dados negros. Deja dos dados [...] en las
    dos primeras casillas de El favor de Khan; pon otro dado de ese color en Coger 5 monedas"."""
    quoted("Coloca 3 dados negros. Deja dos dados de un color sin jugador")
    s = T.setup(("A", "B", "C", "D")[:n], {})
    assert s.black_supply == black
    assert [x[1] for x in s.board if x[0] == "khan"] == khan
    assert any(x[0] == "coins5" for x in s.board) == coins5


def test_starting_resources():
    """"Cada persona [...] recibe [...] 5 dados, 9 puestos comerciales, 2 camellos [...] y 1 contrato
    inicial [...] Pon una de sus figuras en Venecia" and "Recibe 7 monedas; [...] 8, 9 y 10"."""
    quoted("Recibe 7 monedas; en sentido horario, las siguientes personas reciben 8, 9 y 10")
    s = laid_out(4, chars=("berke", "matteo", "mercator", "raschid"))
    assert [p.coins for p in s.seats] == [7, 8, 9, 10]
    assert all(p.camels == 2 and p.posts_left == 9 and p.figures == ("VEN",) for p in s.seats)
    assert [p.contracts for p in s.seats] == [("S1",), ("S2",), ("S3",), ("S4",)]


def test_first_game_characters_by_seat():
    """"Para la primera partida, asignad los personajes en ese mismo orden" (ruling MP-2: Raschid,
    Matteo Polo, Berke Khan, Mercator ex Tabriz)."""
    quoted("Para la primera partida, asignad los personajes en ese mismo orden")
    s = laid_out(3, options={"characters": "first-game"})
    assert [p.character for p in s.seats] == ["raschid", "matteo", "berke"]
    s0 = T.setup(("A", "B"), {})
    refused(s0, SetupDealt(characters=("berke", "matteo"), city_cards=CARDS, outposts=OUTPOSTS, starting_contracts=("S1", "S2")), P + "first-game-characters")


# --- Turno de juego ------------------------------------------------------------------------------


def test_compensation_under_15_any_mix():
    """"Si la suma de tus cinco dados de color es inferior a 15, recibe una moneda o un camello por
    cada punto que falte; puedes combinarlos.\""""
    quoted("recibe una moneda o un camello por cada punto que falte; puedes combinarlos")
    s = plain(2, dice=[(1, 1, 2, 2, 3), (6, 6, 6, 6, 6)])
    assert s.seats[0].compensation == 6 and s.pending == (("income", 0, ""),)
    refused(s, "income 3/2", P + "compensation")
    refused(s, "coins5 1", P + "pending-first")
    before = s.seats[0]
    s = do(s, "income 2/4")
    assert (s.seats[0].coins - before.coins, s.seats[0].camels - before.camels) == (2, 4)
    assert not s.pending and T.to_move(s) == 0


def test_exactly_one_main_action_then_bonus_then_end():
    """"Haz una acción principal" — bonus actions before ("Si quieres, haz acciones adicionales antes
    de tu acción principal") and after; never a second main action, never ending without one."""
    quoted("Si quieres, haz acciones adicionales antes de tu acción principal.")
    s = plain(2)
    refused(s, TurnEnded(), P + "main-action-required")
    s = do(s, "bag 3")  # a bonus action before
    s = do(s, "coins5 3")
    refused(s, "khan 3 silk", P + "one-main-action")
    s = do(s, "bag 3")  # a bonus action after
    s = do(s, "end")
    assert s.turn == 1


def test_lowest_die_decides_and_lower_column_allowed():
    """"Cuando una acción usa varios dados, cuenta el valor más bajo" and "El menor valor determina la
    columna de recompensas; puedes escoger una columna inferior.\""""
    quoted("El menor valor determina la columna de recompensas; puedes escoger una columna inferior.")
    s = plain(2, dice=[(2, 5, 6, 6, 6), (3, 3, 3, 3, 3)])
    refused(s, "bazaar silk 2,5 3", P + "bazaar-column")
    s2 = do(s, "bazaar silk 2,5 2")
    assert s2.seats[0].silk == 2
    s3 = do(s, "bazaar silk 5,6 4")
    assert s3.seats[0].silk == 3
    s4 = do(s, "bazaar silk 5,6 1")
    assert s4.seats[0].silk == 1


def test_take_five_coins_any_value():
    """"Coger 5 monedas: coloca 1 dado y recibe 5 monedas, independientemente de su valor.\""""
    quoted("recibe 5 monedas, independientemente de su valor")
    s = plain(3, dice=[(1, 6, 6, 6, 6)] * 3)
    c = s.seats[0].coins
    assert do(s, "coins5 1").seats[0].coins == c + 5
    assert do(s, "coins5 6").seats[0].coins == c + 5


def test_bazaar_rows_by_dice_count():
    """"Mercado —oro, seda o pimienta—: coloca los dados indicados en la fila elegida" (pepper 1, silk
    2, gold 3 dice)."""
    quoted("coloca los dados indicados en la fila elegida")
    s = plain(2, dice=[(4, 4, 4, 5, 6), (3, 3, 3, 3, 3)])
    refused(s, "bazaar gold 4,4 4", P + "dice-count")
    refused(s, "bazaar pepper 4,4 4", P + "dice-count")
    g = do(s, "bazaar gold 4,4,5 4")
    assert g.seats[0].gold == 3 and len(g.seats[0].dice) == 2
    p = do(s, "bazaar pepper 6 6")
    assert p.seats[0].pepper == 4


def test_bazaar_camels_by_value():
    """"Mercado —camellos—: coloca 1 dado y recibe tantos camellos como indique su valor.\""""
    quoted("recibe tantos camellos como indique su valor")
    s = plain(2, dice=[(5, 3, 3, 3, 3), (3, 3, 3, 3, 3)])
    assert do(s, "bazaar camels 5 5").seats[0].camels == 2 + 5


def test_khans_favor_good_and_two_camels_ascending_four_slots():
    """"El favor de Khan: coloca 1 dado y recibe 1 mercancía a elegir y 2 camellos. Hay cuatro
    casillas; cada nuevo dado debe mostrar un valor igual o superior al de la casilla anterior.\""""
    quoted("Hay cuatro casillas; cada nuevo dado debe mostrar un valor igual o superior al de la casilla anterior.")
    s = plain(4, dice=[(4, 4, 4, 4, 4), (3, 5, 5, 5, 5), (5, 5, 5, 5, 5), (6, 6, 6, 6, 6)])
    s = do(s, "khan 4 gold")
    assert (s.seats[0].gold, s.seats[0].camels) == (1, 4)
    s = do(s, "end")
    refused(s, "khan 3 silk", P + "khans-favor-ascending")
    s = do(s, "khan 5 silk", "end", "khan 5 pepper", "end", "khan 6 pepper", "end")
    refused(s, "khan 4 pepper", P + "khans-favor-full")


def test_contracts_columns_up_to_die_one_or_two():
    """"Obtener contratos: coloca 1 dado y coge uno o dos contratos de columnas cuyo número no supere
    su valor.\""""
    quoted("coge uno o dos contratos de columnas cuyo número no supere su valor")
    s = plain(2, dice=[(3, 3, 3, 3, 3), (3, 3, 3, 3, 3)])
    refused(s, "contracts 3 4", P + "contract-column")
    refused(s, "contracts 3 1,2,3 -S1", P + "take-one-or-two")
    s2 = do(s, "contracts 3 1,3 -S1")
    assert s2.seats[0].contracts == ("K01", "K03")
    assert s2.display == ("K02", "K04", "K05", "K06"), "the rest shift left"
    assert s2.special[-1] == "S1"


def test_contract_columns_five_and_six_pay():
    """"Si eliges uno de la columna 5, recibe además 1 moneda o 1 camello; si es de la 6, 2 monedas o
    2 camellos.\""""
    quoted("si es de la 6, 2 monedas o 2 camellos")
    s = plain(2, dice=[(6, 6, 6, 6, 6), (3, 3, 3, 3, 3)])
    refused(s, "contracts 6 5,6 -S1", P + "missing-choice")
    refused(s, "contracts 6 6 : gold", P + "bad-choice")
    a = s.seats[0]
    s2 = do(s, "contracts 6 5,6 -S1 : coins,camels")
    b = s2.seats[0]
    assert (b.coins - a.coins, b.camels - a.camels) == (1, 2)


def test_only_two_active_contracts():
    """"Solo tienes dos espacios de contratos activos." and "Si necesitas hacer sitio entre tus dos
    contratos activos, devuelve uno bajo la pila especial; no cobras su recompensa.\""""
    quoted("devuelve uno bajo la pila especial; no cobras su recompensa")
    s = plain(2, dice=[(6, 6, 6, 6, 6), (3, 3, 3, 3, 3)])
    refused(s, "contracts 6 1,2", P + "two-active-contracts")
    refused(s, "contracts 6 1 -S1", P + "two-active-contracts")
    refused(s, "contracts 6 1,2 -S3", P + "contract-not-active")
    s2 = do(s, "contracts 6 1,2 -S1")
    assert s2.seats[0].contracts == ("K01", "K02") and s2.seats[0].vp == 0
    assert s2.special[-1] == "S1"


def test_travel_steps_costs_and_post():
    """"Viajar: coloca 2 dados. Puedes avanzar hasta tantos pasos como marque el menor dado, pero al
    menos uno. Paga el coste del número de pasos que realmente avances y los posibles costes
    adicionales de las rutas. Si acabas en una ciudad, coloca allí un puesto comercial; en un oasis,
    no.\""""
    quoted("Si acabas en una ciudad, coloca allí un puesto comercial; en un oasis, no.")
    s = plain(2, dice=[(2, 4, 4, 4, 4), (3, 3, 3, 3, 3)])
    s = seat(s, 0, coins=30, camels=10)
    refused(s, "travel 2,4 O1-MOS-ANX", P + "travel-steps")
    refused(s, "travel 4 O1", P + "dice-count")
    refused(s, "travel 4,4 MOS", P + "not-adjacent")
    a = do(s, "travel 2,4 O1")
    assert a.seats[0].figures == ("O1",) and a.seats[0].posts == () and a.seats[0].coins == 30 - 3
    b = do(s, "travel 4,4 O1-MOS-ANX")
    p = b.seats[0]
    assert p.figures == ("ANX",) and p.posts == ("ANX",), "a post only where the move ends"
    # 12 coins for 3 steps + 5 coins Anxi bonus; 3 camels for Moscow-Anxi
    assert (p.coins, p.camels) == (30 - 12 + 5, 10 - 3)


def test_a_travel_no_holding_could_make_is_refused_for_its_rule_not_its_cost():
    """"Puedes avanzar hasta tantos pasos como marque el menor dado, pero al menos uno." -- a path along
    no route, or longer than the lowest die, is refused as such even when the traveller could not pay
    (ruling MP-9)."""
    quoted("Puedes avanzar hasta tantos pasos como marque el menor dado, pero al menos uno.")
    s = seat(plain(2, dice=[(5, 5, 5, 5, 5), (3, 3, 3, 3, 3)]), 0, coins=0, camels=0)
    refused(s, "travel 5,5 MOS", P + "not-adjacent")
    refused(s, "travel 5,5 ALE-MOS", P + "not-adjacent")
    refused(s, "travel 5,5 ALE", P + "cannot-afford")
    taken = msgspec.structs.replace(s, board=s.board + (("travel", 5, 1, "c"), ("travel", 5, 1, "c")))
    refused(taken, "travel 5,5 MOS", P + "not-adjacent")
    refused(taken, "travel 5,5 ALE-VEN-ALE-VEN-ALE-VEN", P + "travel-steps")
    refused(taken, "travel 5,5 ALE", P + "occupied-fee")


def test_travel_cost_table():
    """Reference A6 (the seed names no figures): 3 / 7 / 12 / 12 / 18 / 18 coins for 1..6 steps."""
    from rules.marco_polo.content import TRAVEL_COST

    assert TRAVEL_COST == {1: 3, 2: 7, 3: 12, 4: 12, 5: 18, 6: 18}
    s = plain(2, dice=[(6, 6, 6, 6, 6), (3, 3, 3, 3, 3)])
    s = seat(s, 0, coins=18)
    assert do(s, "travel 6,6 ALE-VEN-ALE-VEN-ALE-VEN").seats[0].coins == 0
    refused(seat(s, 0, coins=17), "travel 6,6 ALE-VEN-ALE-VEN-ALE-VEN", P + "cannot-afford")


def test_small_city_bonus_on_arrival_and_outpost_bonus_to_first():
    """"Las ciudades pequeñas dan su bonificación al llegar; las grandes pueden dar una bonificación de
    oficina al primer puesto.\""""
    quoted("Las ciudades pequeñas dan su bonificación al llegar")
    s = plain(3, dice=[(3, 3, 3, 3, 3)] * 3, chars=("carpini", "berke", "wilhelm"))
    s = seat(seat(s, 0, coins=30), 1, coins=30)
    s = do(s, "travel 3,3 O1-MOS")  # Moscow's outpost bonus OB01: 3 coins
    assert s.seats[0].coins == 30 - 7 + 3 and s.outposts[0] is None
    s = do(s, "end", "travel 3,3 O1-MOS", "end")
    assert s.seats[1].coins == 30 - 7 - 0, "the second post gets no outpost bonus (Berke pays no fee)"


def test_beijing_slots_in_arrival_order():
    """"Pekín | 10/7/4/1 puntos según el espacio ocupado por tu puesto.\""""
    quoted("10/7/4/1 puntos según el espacio ocupado por tu puesto")
    s = plain(2, dice=[(3, 3, 3, 3, 3)] * 2)
    assert s.beijing == (1,), "Kubilai starts on the 10 slot"
    s = seat(s, 0, figures=("XIA",), coins=20)
    s = do(s, "travel 3,3 BEI")
    assert s.beijing == (1, 0) and "BEI" in s.seats[0].posts


def test_city_card_needs_post_and_one_use_per_round():
    """"si tienes un puesto en esa ciudad, coloca en su carta y resuelve el efecto indicado" and "cada
    carta admite un único uso por ronda\""""
    quoted("cada carta admite un único uso por ronda")
    s = plain(2, dice=[(4, 4, 4, 4, 4), (5, 5, 5, 5, 5)])
    refused(s, "card MOS 4 x4", P + "city-card-needs-post")
    s = seat(seat(s, 0, posts=("MOS",)), 1, posts=("BEI", "MOS"))
    c = s.seats[0].coins
    s = do(s, "card MOS 4 x4")  # CC01: 2 coins x d
    assert s.seats[0].coins == c + 8
    s = do(s, "end")
    refused(s, "card MOS 5 x5", P + "city-card-used")


# --- Acciones adicionales -----------------------------------------------------------------------


def test_complete_contract_pay_and_reward():
    """"completar un contrato pagando sus requisitos y cobrando su recompensa\""""
    quoted("completar un contrato pagando sus requisitos y cobrando su recompensa")
    s = plain(2)
    refused(s, "complete S1", P + "cannot-afford")
    refused(s, "complete K01", P + "contract-not-active")
    s = seat(s, 0, contracts=("S6",), silk=2, camels=1)  # 1 camel + 2 silk -> 5 coins + 3 VP
    c = s.seats[0].coins
    s = do(s, "complete S6")
    p = s.seats[0]
    assert (p.coins, p.silk, p.camels, p.vp_contracts, p.completed, p.contracts) == (c + 5, 0, 0, 3, ("S6",), ())


def test_money_bag_three_coins_no_fee_repeatable():
    """"colocar 1 dado para coger 3 monedas" and "La acción adicional Coger 3 monedas no tiene coste
    por ocupación y puede repetirse si dispones de dados.\""""
    quoted("no tiene coste por ocupación y puede repetirse si dispones de dados")
    s = plain(2, dice=[(6, 6, 6, 6, 6)] * 2)
    c = s.seats[0].coins
    s = do(s, "bag 6", "bag 6", "bag 6")
    assert s.seats[0].coins == c + 9 and len(s.seats[0].dice) == 2


def test_reroll_for_a_camel():
    """"pagar 1 camello para volver a tirar un dado\""""
    quoted("pagar 1 camello para volver a tirar un dado")
    s = plain(2, dice=[(1, 3, 3, 4, 4), (3, 3, 3, 3, 3)])
    s = do(s, "reroll 1")
    assert s.seats[0].camels == 1 and T.chance(s).kind == "dice" and T.to_move(s) is None
    refused(s, "coins5 3", P + "pending-first")
    s = do(s, "=6")
    assert s.seats[0].dice == (3, 3, 4, 4, 6)


def test_adjust_for_two_camels_no_wrap():
    """"pagar 2 camellos para subir o bajar en uno el valor de un dado —sin pasar de 1 a 6 ni
    viceversa—\""""
    quoted("sin pasar de 1 a 6 ni viceversa")
    s = plain(2, dice=[(1, 3, 3, 3, 6), (3, 3, 3, 3, 3)])
    refused(s, "adjust 1 -1", P + "no-wrap-6-1")
    refused(s, "adjust 6 +1", P + "no-wrap-6-1")
    refused(s, "adjust 3 +2", P + "bad-choice")
    s = do(s, "adjust 1 +1")
    assert s.seats[0].dice == (2, 3, 3, 3, 6) and s.seats[0].camels == 0
    refused(s, "adjust 2 +1", P + "cannot-afford")


def test_black_die_three_camels_once_per_turn():
    """"pagar 3 camellos para coger y tirar 1 dado negro. Puedes hacer varias, pero solo coger un dado
    negro por turno.\""""
    quoted("solo coger un dado negro por turno")
    s = plain(2)
    refused(s, "black", P + "cannot-afford")
    s = seat(s, 0, camels=9)
    s = do(s, "black", "=4")
    assert s.seats[0].black == (4,) and s.seats[0].camels == 6 and s.black_supply == 2
    refused(s, "black", P + "one-black-die-per-turn")


# --- Entre rondas ---------------------------------------------------------------------------------


def test_start_player_last_traveller():
    """"Para la nueva ronda, será jugador inicial quien viajó en último lugar en la anterior. Si nadie
    viajó, se mantiene el mismo.\""""
    quoted("será jugador inicial quien viajó en último lugar en la anterior")
    s = plain(3, dice=[(3, 3, 3, 3, 3)] * 3, chars=("carpini", "berke", "wilhelm"))
    s = seat(seat(s, 1, coins=30), 2, coins=30)
    s = do(s, "coins5 3", "end", "travel 3,3 ALE", "end", "travel 3,3 ALE", "end", "khan 3 silk", "end")
    s = run_round_out(s)
    assert s.round == 2 and s.start_seat == 2
    s = rolled(s, *[(3, 3, 3, 3, 3)] * 3)
    s = run_round_out(s)
    assert s.round == 3 and s.start_seat == 2, "nobody travelled: unchanged"


def test_round_bonuses_and_dice_back():
    """"Cobra las bonificaciones de ciudades pequeñas y personajes marcadas con «!»." and "Recupera
    tus dados del tablero; los dados negros vuelven a su reserva.\""""
    quoted("Recupera tus dados del tablero; los dados negros vuelven a su reserva.")
    s = plain(2)
    s = seat(s, 0, posts=("ANX", "ORM"), camels=5)
    s = do(s, "black", "=2")
    c = s.seats[0].coins
    s = run_round_out(s)
    p = s.seats[0]
    assert s.round == 2 and s.black_supply == 3 and p.black == () and p.dice == ()
    # Anxi 5 coins, Ormuz 3 camels, Carpini 3 coins; the round's money bags: 6 dice x 3
    assert p.coins == c + 6 * 3 + 5 + 3 and p.camels == 2 + 3
    assert all(x[3] == "n" for x in s.board)


def test_new_contracts_each_round_none_after_five():
    """"Retira los contratos que queden en el tablero y coloca seis nuevos de la siguiente pila. Tras
    la quinta ronda no se reponen: se pasa al recuento final.\""""
    quoted("Tras la quinta ronda no se reponen")
    s = plain(2)
    s = run_round_out(s)
    assert s.phase == "contracts" and s.display == ()
    assert s.special[-6:] == ("K01", "K02", "K03", "K04", "K05", "K06")
    for r in range(2, 6):
        s = rolled(s, (3, 3, 3, 3, 3), (3, 3, 3, 3, 3))
        s = run_round_out(s)
    assert s.phase == "over" and s.round == 5 and T.outcome(s) is not None


# --- Final de la partida --------------------------------------------------------------------------


def final(state):
    """Play out the remaining rounds with money bags only."""
    while state.phase not in ("over", "reveal"):
        if state.phase in ("contracts", "roll"):
            state = rolled(state, *[() if p.character == "raschid" else (3,) * (6 if p.character == "matteo" else 5) for p in state.seats])
        state = run_round_out(state)
    return state


def test_game_ends_after_round_five_not_at_beijing():
    """"La partida termina al acabar la quinta ronda, no al completar un contrato ni al llegar a Pekín.\""""
    quoted("La partida termina al acabar la quinta ronda")
    s = plain(2)
    s = seat(s, 0, figures=("XIA",), coins=20)
    s = do(s, "travel 3,3 BEI")
    assert s.phase == "play" and T.outcome(s) is None


def test_objective_scoring():
    """"Los puntos de cada carta si tienes puestos en sus dos destinos; además, 1/3/6/10 puntos por
    ocupar 1/2/3/4 destinos distintos de tus dos cartas. Un destino repetido solo cuenta una vez para
    esta tabla.\""""
    quoted("Un destino repetido solo cuenta una vez para esta tabla.")
    from rules.marco_polo.scoring import objectives_score

    s = laid_out(2, objectives=(("G01", "G02"), ("G03", "G04")))  # MOS+XIA 4, MOS+ORM 5
    p = s.seats[0]
    assert objectives_score(msgspec.structs.replace(p, posts=("MOS",))) == (0, 1)
    assert objectives_score(msgspec.structs.replace(p, posts=("MOS", "XIA"))) == (4, 3)
    assert objectives_score(msgspec.structs.replace(p, posts=("MOS", "XIA", "ORM"))) == (9, 6), "Moscow once"
    q = msgspec.structs.replace(p, objectives=("G01", "G17"), posts=("MOS", "XIA", "KCH", "KAS"))
    assert objectives_score(q) == (4 + 5, 10)


def test_coins_beijing_goods_most_contracts():
    """"1 punto por cada 10 monedas." / "Si tienes puesto allí, también 1 punto por cada 2 mercancías
    que te queden. Los camellos no son mercancías." / "7 puntos para quien haya completado más
    contratos; si hay empate en el máximo, los recibe cada persona empatada.\""""
    quoted("Los camellos no son mercancías.")
    quoted("si hay empate en el máximo, los recibe cada persona empatada")
    s = final(plain(3, chars=("carpini", "kubilai", "berke")))
    s = seat(s, 0, coins=29, pepper=3, silk=0, gold=0, camels=40, completed=("S1",))
    s = seat(s, 1, coins=9, pepper=1, silk=1, gold=1, camels=0, completed=("S2",))
    s = seat(s, 2, coins=0, completed=())
    sc = T.score(s)["seats"]
    assert sc[0]["coins"] == 2 and sc[0]["goods"] == 0 and sc[0]["beijing"] == 0, "no post in Beijing"
    assert sc[1]["coins"] == 0 and sc[1]["beijing"] == 10 and sc[1]["goods"] == 1
    assert [r["most_contracts"] for r in sc] == [7, 7, 0]


def test_tie_break_camels_then_shared():
    """"En caso de empate, gana quien conserve más camellos; si persiste, comparte la victoria.\""""
    quoted("En caso de empate, gana quien conserve más camellos; si persiste, comparte la victoria.")
    s = final(plain(2, chars=("carpini", "berke")))
    s = seat(seat(s, 0, coins=0, camels=3), 1, coins=0, camels=2)
    o = T.outcome(s)
    assert o.scores[0] == o.scores[1] and o.winners == (0,) and o.ranks == (1, 2)
    s = seat(s, 1, camels=3)
    assert T.outcome(s).winners == (0, 1)


# --- Lo que siempre se olvida / Dudas frecuentes ---------------------------------------------------


def test_colour_once_per_space_black_white_exempt():
    """"¿Puedo poner dados de mi color en una acción que ya usé con dados de mi color esta ronda? No."
    / "¿Y si uso un dado negro o blanco en esa misma acción? Sí.\""""
    quoted("Los dados negros y blancos no cuentan como dados de tu color para esa restricción")
    s = plain(2, dice=[(3, 3, 3, 3, 3)] * 2)
    s = seat(s, 0, camels=9)
    s = do(s, "coins5 3", "end", "coins5 3", "end")
    refused(s, "coins5 3", P + "colour-once-per-space")
    s = do(s, "black", "=5")
    s2 = do(s, "coins5 b5")
    assert s2.seats[0].black == ()
    s3 = do(s, "bazaar silk 3,b5 3")  # combined with a colour die on a fresh space
    assert s3.seats[0].silk == 2


def test_occupied_fee_is_own_lowest_die():
    """"¿Cuánto pago por entrar en un espacio ocupado? El valor de tu dado más bajo entre los que acabas
    de colocar, no el de un dado que estuviera antes.\""""
    quoted("El valor de tu dado más bajo entre los que acabas de colocar")
    s = plain(2, dice=[(1, 1, 1, 1, 6), (2, 5, 5, 5, 5)], chars=("kubilai", "carpini"))
    s = do(s, "income 0/5", "bazaar silk 1,6 1", "end")
    c = s.seats[1].coins
    s2 = do(s, "bazaar silk 2,5 2")
    assert s2.seats[1].coins == c - 2
    refused(seat(s, 1, coins=1), "bazaar silk 2,5 2", P + "occupied-fee")


def test_fee_with_placed_dice_first():
    """"Los dados se colocan antes de pagar el coste de ocupación y resolver la acción. Si hacen falta
    varios, se colocan juntos." (The 5-coins reward cannot pay the fee of the same action: the fee is
    checked against the coins held when the dice are placed.)"""
    quoted("Los dados se colocan antes de pagar el coste de ocupación y resolver la acción.")
    s = plain(2, dice=[(3, 3, 3, 3, 3)] * 2)  # two players: a neutral die sits on take 5 coins
    s = seat(s, 0, coins=2)
    refused(s, "coins5 3", P + "occupied-fee")
    assert do(seat(s, 0, coins=3), "coins5 3").seats[0].coins == 5


def test_khan_repeat_only_with_free_slot_and_progression():
    """"¿Puedo repetir El favor de Khan pagando por la ocupación? Solo si queda una de sus cuatro
    casillas libre y tu dado cumple la progresión de valores.\""""
    quoted("Solo si queda una de sus cuatro casillas libre y tu dado cumple la progresión de valores.")
    s = plain(2, dice=[(3, 3, 3, 3, 3)] * 2)  # two neutral 1s on slots 1-2
    s = seat(s, 0, camels=9)
    c = s.seats[0].coins
    s = do(s, "khan 3 silk", "black", "=2")
    s = do(s, "end", "coins5 3", "end")
    refused(s, "khan b2 silk", P + "khans-favor-ascending")
    s = do(s, "adjust b2 +1", "khan b3 gold")
    assert s.seats[0].coins == c, "Khan's favor has no occupation fee"
    assert len([x for x in s.board if x[0] == "khan"]) == 4


def test_city_card_closed_after_another_player_used_it():
    """"¿Puedo usar una carta de ciudad grande que ya utilizó otra persona? No hasta la ronda
    siguiente\""""
    quoted("No hasta la ronda siguiente")
    s = plain(2, dice=[(3, 3, 3, 3, 3)] * 2)
    s = seat(seat(s, 0, posts=("KAR",)), 1, posts=("BEI", "KAR"))
    s = do(s, "card KAR 3", "end")  # CC02: d 1-5 one gold
    assert s.seats[0].gold == 1
    refused(s, "card KAR 3", P + "city-card-used")


def test_contract_not_in_the_middle_of_a_main_action():
    """"¿Puedo completar un contrato en mitad de una acción principal? No." — a main action is one
    event; a contract's reward draw (pending) must be resolved before any other action."""
    quoted("¿Puedo completar un contrato en mitad de una acción principal? No.")
    s = plain(2)
    s = seat(s, 0, contracts=("S1",), camels=2, silk=1, pepper=1)
    s = do(s, "complete S1")
    assert s.pending == (("draw", 0, ""),)
    refused(s, "coins5 3", P + "pending-first")


def test_travel_fewer_steps_at_least_one():
    """"¿Puedo viajar menos pasos de los permitidos por mis dados? Sí, pero debes avanzar al menos uno y
    pagar el coste de los pasos que hayas decidido dar, además de los costes de ruta.\""""
    quoted("debes avanzar al menos uno")
    s = plain(2, dice=[(5, 5, 5, 5, 5), (3, 3, 3, 3, 3)])
    from rules.marco_polo.events import Travelled

    refused(s, Travelled(dice=("5", "5"), path=()), P + "travel-steps")
    s = seat(s, 0, coins=10, camels=3)
    s2 = do(s, "travel 5,5 O5")
    assert s2.seats[0].coins == 7 and s2.seats[0].camels == 0 and s2.seats[0].figures == ("O5",)


def test_post_once_per_city():
    """"Cada persona puede tener como máximo un puesto en cada ciudad.\""""
    quoted("Cada persona puede tener como máximo un puesto en cada ciudad.")
    s = plain(2, dice=[(3, 3, 3, 3, 3)] * 2)
    s = seat(s, 0, coins=30, posts=("ALE",), posts_left=8)
    s = do(s, "travel 3,3 ALE")
    assert s.seats[0].posts == ("ALE",) and s.seats[0].posts_left == 8


def test_small_city_bonus_again_each_round_outpost_once():
    """"La bonificación de una ciudad pequeña se cobra al colocar allí el puesto y, si lleva «!»,
    también al inicio de las rondas siguientes. La bonificación de oficina de ciudad grande es solo
    para el primer puesto colocado allí.\""""
    quoted("también al inicio de las rondas siguientes")
    s = plain(2, dice=[(3, 3, 3, 3, 3)] * 2)
    s = seat(s, 0, coins=30, figures=("O9",), camels=2)
    s = do(s, "travel 3,3 ADA")  # Adana: 1 camel + 3 coins; route 2 camels
    p = s.seats[0]
    assert (p.coins, p.camels) == (30 - 3 + 3, 2 - 2 + 1)
    s = run_round_out(s)
    assert s.seats[0].camels == 1 + 1, "again at the start of round 2"


def test_goods_and_camels_unlimited():
    """"Los camellos y las mercancías de la reserva general no están limitados por las piezas físicas
    disponibles\""""
    quoted("no están limitados por las piezas físicas")
    s = plain(2, dice=[(6, 6, 6, 6, 6)] * 2)
    s = seat(s, 0, camels=500, gold=300)
    s = do(s, "bazaar camels 6 6")
    assert s.seats[0].camels == 506


def test_codes_are_namespaced_and_unique():
    assert len(CODES) == len(set(CODES)) and all(c.startswith(P) for c in CODES)


def test_score_breakdown_by_source_and_round():
    """The score by source (contracts, city cards, post bonuses, city bonuses, objectives, coins,
    Beijing, goods, most contracts) and the score track at the end of each round."""
    s = final(plain(2))
    sc = T.score(s)
    assert len(sc["rounds"]) == 5 and sc["final"]
    row = sc["seats"][0]
    parts = ("contracts", "city_cards", "post_bonuses", "city_bonuses", "objectives", "objective_cities", "coins", "beijing", "goods", "most_contracts")
    assert row["total"] == sum(row[k] for k in parts)
