"""Marco Polo at a table on a phone, by what the cards show: the layout tapped on the map and on the
pictures of the cards and tiles (no id typed or chosen from a list, no random fill), the round's
contracts and a drawn contract tapped by their faces, the faces checked against the content pack."""

from __future__ import annotations


from pagehelp import (
    ARTIFACTS,
    axe_violations,
    last_seq,
    marco_polo_setup_by_taps,
    report_fact,
    small_targets,
    start_game,
    state,
    tap_drawn,
    wait_ready,
)

PLAYERS = ["Ana", "Bea", "Cleo"]
SHOTS = ARTIFACTS / "faces"



def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def printed(page, scope: str) -> dict[str, dict]:
    """What each face in ``scope`` shows: {id: {part: [[kind, n], ...]}} read from its tokens."""
    return page.evaluate(
        """scope => {
        const out = {};
        for (const f of document.querySelectorAll(`${scope} .mpf-face`)) {
          const parts = {};
          for (const row of f.querySelectorAll('[data-part]')) {
            parts[row.dataset.part] = [...row.querySelectorAll('.mpf-tok')].map(t => [t.dataset.kind, Number(t.dataset.n)]);
          }
          parts.all = [...f.querySelectorAll('.mpf-tok')].map(t => [t.dataset.kind, Number(t.dataset.n)]);
          parts.cities = [...f.querySelectorAll('[data-city]')].map(c => c.dataset.city);
          out[f.dataset.id] = parts;
        }
        return out;
    }""",
        scope,
    )


def no_blockers(page, scope: str) -> None:
    assert axe_violations(page) == []
    assert small_targets(page, scope) == []


def test_a_table_lays_out_marco_polo_by_tapping_the_map_and_the_pictures(tall_phone, server, http):
    page = tall_phone
    game_id = start_game(page, server, "marco-polo", PLAYERS, {"characters": "first-game"})
    content = http.get(f"/games/{game_id}/content").json()
    form = page.locator("#facts [data-fact=setup]")
    form.wait_for()
    # no id to type or pick from a list, no invented facts at a table
    assert form.locator("select, input[type=text]").count() == 0
    assert page.locator("[data-action=random-layout], [data-action=draw-at-random]").count() == 0
    assert page.get_by_role("button", name="Fill in at random").count() == 0
    shot(page, "01-setup-map")

    form.locator(".mpf-city-btn[data-city=MOS]").click()
    panel = form.locator("#mpf-slot-panel")
    # the city cards on offer show what they do: compare each with the pack
    cards = printed(page, "#mpf-slot-panel [data-slot='cards:MOS']")
    assert len(cards) == len(content["city_cards"])
    for c in content["city_cards"]:
        drawn = cards[c["id"]]["all"]
        if c["kind"] == "exchange":
            assert drawn == [[k, n] for k, n in c["pay"].items()] + [list(x) for x in c["gain"]], c["id"]
    outposts = printed(page, "#mpf-slot-panel [data-slot='outposts:MOS']")
    assert {k: v["all"] for k, v in outposts.items()} == {o["id"]: [list(x) for x in o["effect"]] for o in content["outpost_bonuses"]}
    no_blockers(page, "#facts")
    shot(page, "02-moscow-open")

    # a person finds Moscow's card by what it shows: the chip "silk" keeps only cards with silk
    chip = panel.locator("[data-slot='cards:MOS'] [data-filter='goods:silk']")
    chip.click()
    shown = panel.locator("[data-slot='cards:MOS'] .mpf-pick:not([hidden])")
    with_silk = {c["id"] for c in content["city_cards"] if "silk" in str(c)}
    assert {shown.nth(i).get_attribute("data-id") for i in range(shown.count())} <= with_silk
    shot(page, "03-filtered-by-silk")
    panel.locator("[data-slot='cards:MOS'] .mpf-pick[data-id=CC06]").click()  # "x d: 2 silk -> 3 VP"
    taps = {"cards:MOS": "CC06"}
    # the panel went on to Moscow's outpost tile; the rest by taps on the first picture that fits
    assert panel.locator("[data-slot='outposts:MOS'][data-chosen='']").count() == 1
    rest = marco_polo_setup_by_taps(page)
    taps.update(rest)
    # one tap per card or tile (16) and per starting contract (3), plus Moscow, the chip, a city
    # tap inside the helper and the submit: no scrolling through lists, nothing typed
    tap_count = 3 + 1 + len(rest) + 1
    assert tap_count == 23
    # the starting contracts show their printed cost and reward
    starting = printed(page, "#facts [data-start-seat='2']")
    for c in content["contracts"]:
        if c["starting"] and c["id"] in starting:
            assert starting[c["id"]]["cost"] == [[k, n] for k, n in c["cost"].items()]
            assert starting[c["id"]]["reward"] == [list(x) for x in c["reward"]]
    assert form.locator(".mpf-city-btn:not(.done)").count() == 0
    no_blockers(page, "#facts")
    shot(page, "04-layout-tapped")
    before = last_seq(page)
    form.locator("button[type=submit]").click()
    wait_ready(page, after=before)

    # what the table tapped is what was recorded
    view = state(http, game_id)["view"]
    spaces = content["city_card_spaces"]
    assert {sp: view["city_cards"][sp] for sp in spaces} == {sp: taps[f"cards:{sp}"] for sp in spaces}
    large = [loc["id"] for loc in content["locations"] if loc["kind"] == "large"]
    assert {c: view["outposts"][c] for c in large} == {c: taps[f"outposts:{c}"] for c in large}
    assert [p["contracts"] for p in view["seats"]] == [[taps[f"start:{i}"]] for i in range(3)]
    assert view["city_cards"]["MOS"] == "CC06"
    # the map says what lies on Moscow, not an id
    tag = page.locator("#drawing [data-tag-of=MOS] .mp-tag-faces")
    assert [f.get_attribute("data-id") for f in tag.locator(".mpf-face").all()] == ["CC06", taps["outposts:MOS"]]
    assert tag.inner_text().replace("\n", " ").startswith("× die 2 silk → 3 VP") and "CC06" not in tag.inner_text()

    # the round's six contracts, tapped by their faces in column order
    deal = page.locator("#facts [data-fact=shuffle]")
    deal.wait_for()
    assert page.locator("[data-action=draw-at-random]").count() == 0
    faces = printed(page, "#facts [data-fact=shuffle] .mpf-grid")
    pack = {c["id"]: c for c in content["contracts"]}
    for cid, drawn in faces.items():
        assert drawn["cost"] == [[k, n] for k, n in pack[cid]["cost"].items()], cid
        assert drawn["reward"] == [list(x) for x in pack[cid]["reward"]], cid
    no_blockers(page, "#facts")
    shot(page, "05-deal-by-faces")
    before = last_seq(page)
    dealt = tap_drawn(page, ["K05", "K11", "K18", "K23", "K30", "K38"])
    wait_ready(page, after=before)
    assert state(http, game_id)["view"]["display"] == dealt
    # the board shows the display as the cards' faces
    shown = printed(page, "#drawing .mp-contracts")
    assert list(shown) == dealt
    assert shown["K05"]["cost"] == [["camels", 1], ["gold", 4]] and shown["K05"]["reward"] == [["camels", 3], ["vp", 7]]
    # the timeline's sentence for a starting contract's deal names no card; the board's seats do
    seat0 = printed(page, "#drawing [data-seat-contracts='0']")
    assert list(seat0) == [taps["start:0"]]
    shot(page, "06-board-with-faces")

    # the roll (the dice form is the dice pad's); then Matteo Polo (Bea) draws the special pile's top
    before = last_seq(page)
    assert report_fact(page)
    wait_ready(page, after=before)
    draw = page.locator("#facts [data-fact=shuffle]")
    draw.wait_for()
    assert "special pile" in draw.locator("h3").inner_text()
    # the drawn contract is laid face up: the page offers no unseen draw the rules would refuse
    assert draw.get_by_role("button", name="Drawn face down (not seen)").count() == 0
    assert page.locator("#facts button", has_text="not seen").count() == 0
    token = page.evaluate(f"() => JSON.parse(localStorage.getItem('tabletape.tokens.{game_id}')).write")
    seq = http.get(f"/games/{game_id}").json()["last_seq"]
    refused = http.post(f"/games/{game_id}/moves", json={"notation": "draw", "expected_seq": seq},
                        headers={"Authorization": f"Bearer {token}"})
    assert refused.status_code == 422 and refused.json()["code"] == "marco-polo.contract-must-be-named"
    offered = {draw.locator(".mpf-pick").nth(i).get_attribute("data-id") for i in range(draw.locator(".mpf-pick").count())}
    seen = set(dealt) | {taps[f"start:{i}"] for i in range(3)}
    assert offered and not offered & seen  # only cards that can still be in the pile
    no_blockers(page, "#facts")
    shot(page, "07-matteo-draws")
    before = last_seq(page)
    draw.locator(".mpf-pick[data-id=K02]").click()  # one tap: the card seen
    wait_ready(page, after=before)
    view = state(http, game_id)["view"]
    assert view["seats"][1]["contracts"] == [taps["start:1"], "K02"]
    # the timeline's sentence shows the card drawn
    entry = page.locator("#history li").last
    assert entry.locator(".mpf-face[data-id=K02]").count() == 1
    shot(page, "08-timeline-with-face")

    # the first turns: a contract taken by tapping its picture in the picker, taps counted
    for _ in range(4):  # round-start choices (income) first, each one tap
        wait_ready(page)
        if page.locator("#picker .kind[data-group='marco-polo.contracts-taken']").count():
            break
        before = last_seq(page)
        taps_used = 0
        if page.locator("#picker .options-area .move").count() == 0:
            page.locator("#picker .kind").first.click()
            taps_used += 1
        page.locator("#picker .options-area .move").first.click()
        wait_ready(page, after=before)
    # Ana takes the contract in column 1 (K05) by its picture: the kind, her die, the card
    before = last_seq(page)
    page.locator("#picker .kind[data-group='marco-polo.contracts-taken']").click()
    sub = page.locator("#picker .kinds.sub .kind")
    sub.last.click()  # her highest die reaches every column
    moves = page.locator("#picker .options-area .move")
    assert moves.count() > 4 and moves.locator(".mpf-face[data-face=contract]").count() >= moves.count()
    # chips narrow the choice by what the cards show: "gold" keeps the moves whose cards need gold
    page.locator("#picker [data-filter='goods:gold']").click()
    visible = page.locator("#picker .options-area .move:visible")
    gold = {c["id"] for c in content["contracts"] if "gold" in c["cost"]}
    for i in range(visible.count()):
        ids = visible.nth(i).locator(".mpf-face:not(.mpf-returned)").evaluate_all("fs => fs.map(f => f.dataset.id)")
        assert set(ids) & gold, ids
    shot(page, "09-picker-contracts-by-face")
    page.locator("#picker [data-filter='goods:gold']").click()  # chip off again
    only_k05 = page.locator("#picker .options-area .move").filter(has=page.locator(".mpf-face[data-id=K05]"))
    only_k05 = [b for b in only_k05.all() if b.locator(".mpf-face:not(.mpf-returned)").count() == 1][0]
    only_k05.click()
    wait_ready(page, after=before)
    assert "K05" in state(http, game_id)["view"]["seats"][0]["contracts"]
    assert page.locator("#history li").last.locator(".mpf-face[data-id=K05]").count() == 1
    no_blockers(page, "#recorder")
    shot(page, "10-contract-taken")


def test_expert_layout_by_pictures_characters_bonuses_and_seen_objectives(tall_phone, server, http):
    """The expert options by pictures: characters chosen, small-city bonus tiles placed on the map,
    four objective cards the recorder saw, found by a city."""
    page = tall_phone
    options = {"characters": "chosen", "random_city_bonuses": True, "objectives_keep": True}
    game_id = start_game(page, server, "marco-polo", ["Ana", "Bea"], options)
    form = page.locator("#facts [data-fact=setup]")
    form.wait_for()
    assert form.locator("select").count() == 0
    form.locator("[data-char-slot='0'] .mpf-pick[data-id=carpini]").click()
    form.locator("[data-char-slot='1'] .mpf-pick[data-id=wilhelm]").click()
    assert form.locator(".mpf-city-btn[data-city=ANX]").count() == 1  # small cities take a tile too
    taps = marco_polo_setup_by_taps(page)
    assert {k for k in taps if k.startswith("bonuses:")} == {f"bonuses:{c}" for c in ("ANX", "KAS", "XIA", "ORM", "ADA", "KOC")}
    seen = form.locator("[data-objectives-seat='0']")
    seen.locator("summary").click()
    seen.locator("[data-filter='cities:MOS']").click()
    shown = seen.locator(".mpf-pick:visible")
    assert shown.count() == 3  # Moscow is on three objective cards
    picked = [shown.nth(i).get_attribute("data-id") for i in range(3)]
    for cid in picked:
        seen.locator(f".mpf-pick[data-id={cid}]").click()
    assert seen.locator("[data-filter='cities:MOS']").get_attribute("aria-pressed") == "true"
    seen.locator("[data-filter='cities:MOS']").click()  # chip off: find the fourth among all
    seen.locator(".mpf-pick[data-id=G18]").click()
    no_blockers(page, "#facts")
    shot(page, "11-expert-layout")
    before = last_seq(page)
    form.locator("button[type=submit]").click()
    wait_ready(page, after=before)
    view = state(http, game_id)["view"]
    assert [p["character"] for p in view["seats"]] == ["carpini", "wilhelm"]
    assert view["city_bonuses"] == {c: taps[f"bonuses:{c}"] for c in ("ANX", "KAS", "XIA", "ORM", "ADA", "KOC")}
    token = page.evaluate(f"() => JSON.parse(localStorage.getItem('tabletape.tokens.{game_id}')).seats[0]")
    mine = http.get(f"/games/{game_id}/state", params={"seat": 0}, headers={"Authorization": f"Bearer {token}"}).json()
    assert sorted(mine["view"]["dealt_objectives"]) == sorted([*picked, "G18"])  # four dealt, two to keep
