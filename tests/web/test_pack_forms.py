"""The pack editor's modules on their own, in a real Chromium at 375x812: ``componentForm`` (a
form generated from the Marco Polo II form schema, drawn like the card it describes) for a
contract, a city card of kind ``choice`` and a goal card, entered by taps and checked against the
validator; ``mapEditor`` with places put down and moved by dragging and routes drawn between them."""

from __future__ import annotations

from pagehelp import axe_violations, shot, small_targets

from rules.marco_polo_2.content.forms import pack_forms
from rules.marco_polo_2.content.schema import validate_component

HARNESS = """async (forms) => {
  const { componentForm } = await import('/static/packforms.js');
  const { mapEditor } = await import('/static/mapedit.js');
  const main = document.querySelector('main');
  main.replaceChildren();
  const box = document.createElement('section'); box.id = 'harness';
  const heading = document.createElement('h1'); heading.textContent = 'Pack forms';
  main.append(heading, box);
  window.submitted = [];
  window.mountForm = (kind, id, initial, context) => componentForm(box, {
    kind, id, forms, initial, context, onSubmit: (spec, cid) => window.submitted.push({ spec, id: cid }), onCancel: () => {} });
  window.map = { nodes: [], routes: [], log: [] };
  window.mountMap = () => mapEditor(box, {
    nodes: window.map.nodes, routes: window.map.routes, editable: true,
    onAddNode: ({ x, y, kind }) => { const id = `P${window.map.nodes.length + 1}`; window.map.nodes.push({ id, name: id, kind, x, y }); window.map.log.push(['add', id]); window.mountMap(); },
    onMoveNode: (id, xy) => { Object.assign(window.map.nodes.find((n) => n.id === id), xy); window.map.log.push(['move', id]); window.mountMap(); },
    onPickNodes: (ids) => { window.map.log.push(['pick', ...ids]); if (ids.length === 2) { window.map.routes.push({ ends: ids, coins: 1 }); window.mountMap(); } },
  });
}"""


def open_harness(phone, server):
    phone.goto(f"{server}/")
    phone.wait_for_load_state("networkidle")
    phone.evaluate(HARNESS, pack_forms())


def submitted(phone) -> list[dict]:
    return phone.evaluate("() => window.submitted")


def test_a_contract_a_choice_card_and_a_goal_entered_by_taps(tall_phone, server):
    phone = tall_phone
    open_harness(phone, server)

    # a contract: nothing filled in is refused in words, naming the field
    phone.evaluate("() => window.mountForm('contract', null, null, {taken: ['K01']})")
    form = phone.locator("#harness form[data-kind=contract]")
    form.locator("input[type=text]").fill("K01")
    form.get_by_role("button", name="Save").click()
    assert "already in the pack" in form.locator(".pf-problem").inner_text()
    form.locator("input[type=text]").fill("K50")
    form.get_by_role("button", name="Save").click()
    assert form.locator(".pf-problem").inner_text().startswith("You deliver")
    assert submitted(phone) == []
    cost, reward = form.locator("[data-field=cost]"), form.locator("[data-field=reward]")
    for _ in range(2):
        cost.locator("[data-add=pepper]").click()
    cost.locator("[data-add=camels]").click()
    cost.locator("[data-add=silk]").click()
    cost.locator("[data-sub=silk]").click()
    for _ in range(3):
        reward.locator("[data-add=vp]").click()
    reward.locator("[data-add=black_die]").click()
    assert reward.locator("[data-add=black_die]").is_disabled()  # at most one black die
    form.get_by_text("Starting contract").click()
    preview = form.locator(".pf-preview [data-face=contract]")
    assert preview.locator("[data-part=cost] [data-res=pepper]").get_attribute("data-n") == "2"
    assert preview.locator("[data-part=cost] [data-res=silk]").count() == 0
    assert preview.locator("[data-part=reward] [data-res=black_die]").get_attribute("data-n") == "1"
    assert preview.locator(".pf-starting").count() == 1
    assert small_targets(phone, "#harness") == []
    assert axe_violations(phone) == []
    shot(phone, "packforms-01-contract")
    form.get_by_role("button", name="Save").click()
    (got,) = submitted(phone)
    assert got == {"id": "K50", "spec": {"cost": {"pepper": 2, "camels": 1}, "reward": {"vp": 3, "black_die": 1}, "starting": True}}
    validate_component("contract", got["spec"])

    # a city card of kind "choice": the fields follow the kind; two options, each pay -> gain
    phone.evaluate("() => { window.submitted = []; window.mountForm('city_card', 'CC30', null, {}); }")
    form = phone.locator("#harness form[data-kind=city_card]")
    assert form.locator(":scope > .pf-fields > [data-field=gain]").is_visible()
    form.get_by_role("radio", name="One of two exchanges").click()
    assert not form.locator(":scope > .pf-fields > [data-field=gain]").is_visible()
    options = form.locator("[data-field=options] .pf-item")
    assert options.count() == 2
    options.nth(0).locator("[data-field=pay] [data-add=camels]").click()
    for _ in range(3):
        options.nth(0).locator("[data-field=gain] [data-add=coins]").click()
    options.nth(1).locator("[data-field=pay] [data-add=coins]").click()
    options.nth(1).locator("[data-field=gain] [data-add=camels]").click()
    form.locator("[data-field=text] input").fill("1 camel for 3 coins, or 1 coin for 1 camel")
    preview = form.locator(".pf-preview [data-face=city_card]")
    assert preview.locator(".pf-option").count() == 2
    assert preview.locator(".pf-option[data-option='1'] [data-res=coins]").get_attribute("data-n") == "3"
    assert preview.locator(".pf-or").count() == 1
    assert small_targets(phone, "#harness") == []
    shot(phone, "packforms-02-choice-card")
    form.get_by_role("button", name="Save").click()
    (got,) = submitted(phone)
    assert got["id"] == "CC30"
    assert got["spec"] == {
        "kind": "choice",
        "options": [{"pay": {"camels": 1}, "gain": {"coins": 3}}, {"pay": {"coins": 1}, "gain": {"camels": 1}}],
        "text": "1 camel for 3 coins, or 1 coin for 1 camel",
    }
    validate_component("city_card", got["spec"])

    # a goal card: VP per guild by steppers, shields tapped from those the map knows or typed
    phone.evaluate("() => { window.submitted = []; window.mountForm('goal', null, null, {shields: ['lion', 'sun']}); }")
    form = phone.locator("#harness form[data-kind=goal]")
    form.locator("[data-field=id] input").fill("G20")
    for _ in range(3):
        form.locator("[data-field=guilds] [data-add=farmer]").click()
    form.locator("[data-field=guilds] [data-add=tailor]").click()
    form.locator("[data-more=shields]").click()
    form.locator("[data-field=shields] .pf-item").nth(0).locator("[data-suggest=lion]").click()
    form.locator("[data-more=shields]").click()
    form.locator("[data-field=shields] .pf-item").nth(1).locator("input").fill("ship")
    preview = form.locator(".pf-preview [data-face=goal]")
    assert preview.locator("[data-guild=farmer] + [data-res=vp]").get_attribute("data-n") == "3"
    assert preview.locator("[data-shield]").evaluate_all("els => els.map(e => e.dataset.shield)") == ["lion", "ship"]
    assert axe_violations(phone) == []
    shot(phone, "packforms-03-goal")
    form.get_by_role("button", name="Save").click()
    (got,) = submitted(phone)
    assert got == {"id": "G20", "spec": {"guilds": {"farmer": 3, "tailor": 1}, "shields": ["lion", "ship"]}}
    validate_component("goal", got["spec"])


def centre(locator) -> tuple[float, float]:
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def drag(page, frm: tuple[float, float], to: tuple[float, float]) -> None:
    page.mouse.move(*frm)
    page.mouse.down()
    for i in range(1, 9):
        page.mouse.move(frm[0] + (to[0] - frm[0]) * i / 8, frm[1] + (to[1] - frm[1]) * i / 8)
    page.mouse.up()


def test_places_dragged_onto_the_map_moved_and_joined_by_routes(tall_phone, server):
    phone = tall_phone
    open_harness(phone, server)
    phone.evaluate("() => window.mountMap()")
    svg = phone.locator("#harness svg.me-map")
    box = svg.bounding_box()
    at = lambda fx, fy: (box["x"] + box["width"] * fx, box["y"] + box["height"] * fy)  # noqa: E731

    drag(phone, centre(phone.locator("[data-tool=city]")), at(0.2, 0.3))  # dragged from its button
    phone.wait_for_function("() => window.map.nodes.length === 1")
    phone.locator("[data-tool=oasis]").click()
    phone.mouse.click(*at(0.5, 0.7))  # tapped onto the map
    phone.locator("[data-tool=city]").click()
    phone.mouse.click(*at(0.8, 0.3))
    nodes = phone.evaluate("() => window.map.nodes")
    assert [(n["id"], n["kind"]) for n in nodes] == [("P1", "city"), ("P2", "oasis"), ("P3", "city")]
    assert abs(nodes[0]["x"] - 200) < 15 and abs(nodes[0]["y"] - 300) < 15, nodes[0]

    phone.locator("[data-tool=move]").click()
    drag(phone, centre(phone.locator("[data-node=P3] .me-hit")), at(0.8, 0.5))
    p3 = phone.evaluate("() => window.map.nodes[2]")
    assert abs(p3["y"] - 500) < 15 and abs(p3["x"] - 800) < 15, p3
    assert phone.locator("[data-node=P3]").get_attribute("data-y") == str(p3["y"])

    # from the keyboard: a place focused and moved with the arrows (it keeps the focus as it is redrawn)
    x0 = phone.evaluate("() => window.map.nodes[0].x")
    phone.locator("[data-node=P1]").focus()
    for _ in range(3):
        phone.keyboard.press("ArrowRight")
    assert phone.evaluate("() => window.map.nodes[0].x") == x0 + 30
    assert phone.evaluate("() => document.activeElement.dataset.node") == "P1"

    phone.locator("[data-tool=route]").click()
    drag(phone, centre(phone.locator("[data-node=P1] .me-hit")), centre(phone.locator("[data-node=P2] .me-hit")))
    phone.locator("[data-node=P2]").click()  # or a tap on each end
    phone.locator("[data-node=P3]").click()
    assert phone.evaluate("() => window.map.routes.map(r => r.ends)") == [["P1", "P2"], ["P2", "P3"]]
    assert phone.locator("#harness [data-route]").count() == 2
    hit = phone.locator("[data-node=P1] .me-hit").bounding_box()
    assert hit["width"] >= 44 and hit["height"] >= 44
    assert small_targets(phone, "#harness .me-tools") == []
    assert axe_violations(phone) == []
    shot(phone, "packforms-04-map")


def test_every_kind_opened_and_saved_unchanged_keeps_its_data(tall_phone, server):
    """Each kind of component of the (invented) synthetic pack, and each city-card kind, opened in
    its form and saved untouched: the same spec comes back (so an edit that changes nothing
    changes no hash), and the preview is the kind's face."""
    from rules.marco_polo_2.content import SYNTHETIC

    picks = []
    for kind, items in SYNTHETIC.components.items():
        chosen = list(items.values())
        if kind == "city_card":
            chosen = list({c["kind"]: c for c in chosen}.values())
        elif kind in ("city_bonus", "outpost"):
            chosen = [chosen[0], next(c for c in chosen if c.get("any_bonus"))]
        else:
            chosen = chosen[:2]
        picks += [(kind, c["id"], {k: v for k, v in c.items() if k != "id"}) for c in chosen]
    assert {k for k, _, _ in picks} == set(SYNTHETIC.components)
    phone = tall_phone
    open_harness(phone, server)
    nodes = [{"id": n["id"], "name": n["name"]} for n in SYNTHETIC.data["map"]["nodes"]]
    back = phone.evaluate(
        """async ([picks, nodes]) => {
          const out = [];
          for (const [kind, id, spec] of picks) {
            window.submitted = [];
            window.mountForm(kind, id, spec, { nodes, shields: ['lion', 'sun'] });
            const face = document.querySelector('#harness .pf-preview [data-face]').dataset.face;
            document.querySelector('#harness form button[type=submit]').click();
            out.push([kind, id, face, window.submitted.length ? window.submitted[0].spec : document.querySelector('#harness .pf-problem').textContent]);
          }
          return out;
        }""",
        [picks, nodes],
    )
    for (kind, cid, spec), (_kind, _cid, face, got) in zip(picks, back, strict=True):
        assert face == kind
        assert got == spec, (kind, cid)


def touch_drag(page, frm: tuple[float, float], to: tuple[float, float]) -> None:
    """A finger's drag (touch events through the DevTools protocol: pointerType "touch")."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": frm[0], "y": frm[1]}]})
    for i in range(1, 11):
        x, y = frm[0] + (to[0] - frm[0]) * i / 10, frm[1] + (to[1] - frm[1]) * i / 10
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_a_finger_puts_down_moves_and_joins_places(tall_phone, server):
    phone = tall_phone
    open_harness(phone, server)
    phone.evaluate("() => window.mountMap()")
    box = phone.locator("#harness svg.me-map").bounding_box()
    at = lambda fx, fy: (box["x"] + box["width"] * fx, box["y"] + box["height"] * fy)  # noqa: E731

    touch_drag(phone, centre(phone.locator("[data-tool=city]")), at(0.25, 0.25))
    phone.wait_for_function("() => window.map.nodes.length === 1")
    touch_drag(phone, centre(phone.locator("[data-tool=oasis]")), at(0.7, 0.7))
    phone.wait_for_function("() => window.map.nodes.length === 2")
    nodes = phone.evaluate("() => window.map.nodes")
    assert [n["kind"] for n in nodes] == ["city", "oasis"]
    assert abs(nodes[0]["x"] - 250) < 20 and abs(nodes[0]["y"] - 250) < 20, nodes[0]
    phone.locator("[data-tool=move]").tap()
    touch_drag(phone, centre(phone.locator("[data-node=P2] .me-hit")), at(0.7, 0.4))
    phone.wait_for_function("() => Math.abs(window.map.nodes[1].y - 400) < 20")  # moved once the finger is up
    p2 = phone.evaluate("() => window.map.nodes[1]")
    assert abs(p2["y"] - 400) < 20 and abs(p2["x"] - 700) < 20, p2
    phone.locator("[data-tool=route]").tap()
    touch_drag(phone, centre(phone.locator("[data-node=P1] .me-hit")), centre(phone.locator("[data-node=P2] .me-hit")))
    phone.wait_for_function("() => window.map.routes.length > 0")
    assert phone.evaluate("() => window.map.routes.map(r => r.ends)") == [["P1", "P2"]]
    assert phone.evaluate("() => window.scrollY") == 0  # the finger moved the places, not the page
