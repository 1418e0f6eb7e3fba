"""The table as a terminal picture (rich), one per title, drawn from the view a read may see (the
title's ``view`` for the asking eyes, as the HTTP read path gives it) and the game's content
pack; what the page draws (``api/web/static/draw``), in the CLI's language. Nothing here reads
a store: a hidden card that is not in the view cannot be in the picture."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from api import i18n

#: a Lost Cities colour as the terminal shows its cards
COLOUR_STYLE = {"yellow": "yellow", "blue": "blue", "white": "bright_white", "green": "green", "red": "red", "purple": "magenta"}
LETTER_COLOUR = {"Y": "yellow", "B": "blue", "W": "white", "G": "green", "R": "red", "P": "purple"}
GOODS = ("coins", "camels", "pepper", "silk", "gold")


# -- words ----------------------------------------------------------------------------------------


def page(key: str, **params: Any) -> str:
    """One of the page's strings (``page`` section, dotted key), the same words the page uses."""
    for lang in (i18n.cli_lang, i18n.DEFAULT):
        found: Any = i18n.catalogue(lang).get("page", {})
        for part in key.split("."):
            found = found.get(part) if isinstance(found, dict) else None
        if isinstance(found, str):
            try:
                return i18n.render(found, params)
            except (KeyError, IndexError, ValueError):
                continue
    return key


def term(title: str, kind: str, value: str) -> str:
    """A game's word (``terms``): a colour, a good, a character, a city."""
    for lang in (i18n.cli_lang, i18n.DEFAULT):
        found = i18n.catalogue(lang).get("terms", {}).get(title, {}).get(kind, {}).get(value)
        if found:
            return found
    return value


def said(key: str, **params: Any) -> str:
    return i18n.cli(f"table/{key}", **params)


def title_name(title: str) -> str:
    return i18n.catalogue(i18n.cli_lang).get("phrases", {}).get(f"title/{title}", title)


# -- one picture ---------------------------------------------------------------------------------


def picture(view: dict[str, Any], content: dict[str, Any] | None, label: str, status: str) -> RenderableType:
    """The table: a heading (the title, ``label``), the title's own drawing, the status line."""
    draw = DRAWINGS.get(view.get("title", ""), generic)
    heading = Text(" · ".join(w for w in (title_name(view.get("title", "")), label) if w), style="bold")
    return Group(heading, *draw(view, content or {}), Text(status, style="bold"))


def generic(view: dict[str, Any], content: dict[str, Any]) -> list[RenderableType]:
    return [Text(escape(view.get("status", "")))]


# -- Lost Cities ---------------------------------------------------------------------------------


def card(text: str) -> Text:
    return Text(text, style=COLOUR_STYLE.get(LETTER_COLOUR.get(text[:1], ""), ""))


def cards(listed: list[str], empty: str = "·") -> Text:
    if not listed:
        return Text(empty, style="dim")
    return Text(" ").join(card(c) for c in listed)


def lost_cities(view: dict[str, Any], content: dict[str, Any]) -> list[RenderableType]:
    players = view["players"]
    sides = [" & ".join(players[s] for s in seats) for seats in view["sides"]]
    scores = view["scores"]
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, expand=False)
    table.add_column("")
    table.add_column(sides[0], ratio=3)
    table.add_column(said("lc/discard"), justify="center", ratio=1)
    table.add_column(sides[1], ratio=3)
    just = view.get("discarded_onto") if view.get("phase") == "draw" else None
    for colour in view["expedition_order"]:
        pile = view["discard_piles"].get(colour, [])
        top = cards(pile[-1:])
        if len(pile) > 1:
            top.append(f" ({len(pile)})", style="dim")
        if colour == just:
            top.append(" *")
        row = [Text(term("lost-cities", "colour", colour), style=COLOUR_STYLE[colour])]
        table.add_row(row[0], cards(view["expeditions"][0][colour]), top, cards(view["expeditions"][1][colour]))
    in_round = scores.get("round_in_progress")
    if in_round is not None:
        table.add_row(said("lc/this-round"), str(in_round[0]), "", str(in_round[1]), end_section=False)
    table.add_row(said("lc/total"), str(scores["totals"][0]), "", str(scores["totals"][1]))
    sizes = " · ".join(f"{players[s]} {n}" for s, n in enumerate(view["hand_sizes"]))
    out: list[RenderableType] = [
        Text(page("lc.round-of", round=view["round"] or 1, rounds=view["rounds"])
             + (f" · {page('lc.partnership')}" if view.get("partnership") else "")),
        table,
        Text(said("lc/piles", n=view["draw_pile"], sizes=sizes)),
    ]
    if just:
        out.append(Text(said("lc/just-discarded", colour=term("lost-cities", "colour", just))))
    if view.get("seat") is not None and view.get("hand") is not None:  # a seat's own view
        out.append(hand_line(players[view["seat"]], view["hand"]))
    for other in view.get("hands") or []:  # the full view, once the game has ended
        out.append(hand_line(players[other["seat"]], other))
    return out


def hand_line(name: str, hand: dict[str, Any]) -> Text:
    line = Text(page("lc.hand-of", name=name) + ": ", style="bold")
    line.append_text(cards(hand.get("cards") or [], said("lc/no-cards")))
    if hand.get("unknown"):
        line.append(" + " + page("lc.unseen", n=hand["unknown"]), style="dim")
    return line


def lost_cities_draws(view: dict[str, Any], moves: list[dict[str, Any]]) -> list[tuple[str, str]] | None:
    """A draw step's real choices, in words: the draw pile (once, whatever card it may hold at a
    physical table), and each discard pile the rules let be drawn; None when it is not a draw."""
    drawn = [m for m in moves if m["move"].get("type") == "lost-cities.card-drawn"]
    if not drawn:
        return None
    unseen = any(m["move"].get("source") == "deck" and not m["move"].get("card") for m in drawn)
    out: list[tuple[str, str]] = []
    for m in drawn:
        move = m["move"]
        if move.get("source") == "deck":
            if unseen and move.get("card"):
                continue  # the card a physical draw might be: not a choice the table makes
            out.append(("d", said("lc/draw-deck", n=view["draw_pile"])))  # d: whatever card it is
        else:
            out.append((m["notation"], said("lc/draw-pile", colour=term("lost-cities", "colour", move["source"]), card=move.get("card") or "?")))
    return out


# -- The Voyages of Marco Polo, Marco Polo II ------------------------------------------------------


def amounts(what: Any) -> str:
    """``{"camels": 2, "silk": 1}`` or ``[["vp", 5]]`` as the page says it: "2 camels + 1 silk"."""
    pairs = what.items() if isinstance(what, dict) else [tuple(p) for p in what or []]
    words = []
    for name, n in pairs:
        long = page(f"mpfaces.long.{name}", one=n == 1)
        words.append(page("mp2.amount", n=n, what=long) if long != f"mpfaces.long.{name}" else f"{n} {name}")
    return " + ".join(words) or "—"


def component(content: dict[str, Any], section: str, cid: str) -> dict[str, Any] | None:
    return next((c for c in content.get(section) or [] if c.get("id") == cid), None)


def contract(title: str, content: dict[str, Any], cid: str) -> str:
    found = component(content, "contracts", cid)
    if found is None:
        return cid
    return f"{amounts(found.get('cost'))} → {amounts(found.get('reward'))}"


def place(title: str, content: dict[str, Any], pid: str) -> str:
    if title == "marco-polo":
        named = term(title, "city", pid)
        if named != pid:
            return named
    nodes = content.get("locations") or (content.get("map") or {}).get("nodes") or []
    found = next((n for n in nodes if n.get("id") == pid), None)
    if found is not None and found.get("kind") == "oasis":
        return page("mp2.place.oasis")
    return found.get("name", pid) if found else pid


def space(title: str, content: dict[str, Any], sid: str) -> str:
    """An action-board space as the board names it."""
    what, _, rest = str(sid).partition(":")
    if title == "marco-polo":
        if what in ("bazaar-camels", "bazaar-pepper", "bazaar-silk", "bazaar-gold", "khan", "coins5", "contracts", "travel", "bag"):
            return page(f"mp.space.{what}")
        city, _, n = what.partition("-")
        return page("mp.city-card", city=place(title, content, city) + (f" {n}" if n else ""))
    if what.startswith("travel-") and what[7:].isdigit():
        return page("mp2.space.travel", row=page(f"mp2.row.{('lower', 'middle', 'upper')[min(int(what[7:]), 3) - 1]}"))
    if what.startswith("book-") and what[5:].isdigit():
        return page("mp2.book-n", n=int(what[5:]))
    if what in ("khan", "contracts", "guild", "bag"):
        return page(f"mp2.space.{what}")
    if what == "special" and rest:
        return term(title, "special", rest)
    if what == "card" and rest:
        return page("mp2.space.card", city=place(title, content, rest))
    return sid.replace(":", " ")


def character(title: str, content: dict[str, Any], cid: str | None) -> str:
    if not cid:
        return ""
    named = term(title, "character", cid)
    if named != cid:
        return named
    found = component(content, "characters", cid)
    return (found or {}).get("name", cid)


def marco_polo(view: dict[str, Any], content: dict[str, Any]) -> list[RenderableType]:
    title = view["title"]
    goods = GOODS + (("jade",) if title == "marco-polo-2" else ())
    out: list[RenderableType] = [Text(round_line(view))]
    for seat in view["seats"]:  # three lines a player: who and where, what they hold, what is left
        moving = view.get("to_move") == seat["seat"]
        who = Text(("▶ " if moving else "  ") + seat["player"], style="bold" if moving else "")
        named = character(title, content, seat.get("character"))
        where = ", ".join(place(title, content, f) for f in seat.get("figures") or [])
        who.append("".join(f" · {w}" for w in (named, said("mp/at", places=where) if where else "") if w), style="")
        held = " · ".join(f"{page(f'mp2.res-name.{g}')} {seat.get(g, 0)}" for g in goods)
        dice = " ".join(str(d) for d in seat.get("dice") or []) + "".join(f" b{d}" for d in seat.get("black") or [])
        left = said("mp/left", posts=seat.get("posts_left", 0), held=len(seat.get("contracts") or []),
                    done=len(seat.get("completed") or []), dice=dice.strip() or "—")
        out += [who, Text(f"    {held} · {page('mp2.res-short.vp')} {seat.get('vp', 0)}"), Text(f"    {left}")]
    placed: dict[str, list[str]] = {}
    for sid, value, seat, kind in view.get("board") or []:
        who = view["players"][seat] if isinstance(seat, int) and 0 <= seat < len(view["players"]) else said("mp/blocked")
        placed.setdefault(sid, []).append(f"{'b' if kind == 'b' else ''}{value} {who}")
    if placed:
        spaces = " · ".join(f"{space(title, content, sid)}: {', '.join(dice)}" for sid, dice in placed.items())
        out.append(Text(f"{page('mp.action-board')}: {spaces}"))
    if view.get("display"):
        out.append(Text(page("mp.display")))
        out.extend(Text(f"  {i}. {contract(title, content, c)}") for i, c in enumerate(view["display"], 1))
    for oid in view.get("offers") or []:  # Marco Polo II: what a book's jade buys this round
        found = component(content, "offers", oid)
        if found is not None:
            one, two = amounts(found.get("jade1") or {}), amounts(found.get("jade2") or {})
            out.append(Text(f"{page('mp2.book-n', n=found.get('book', '?'))}: {page('mp2.face.offer', one=one, two=two)}"))
    shared = [said("mp/black-left", n=view.get("black_dice_left", 0))]
    if view.get("beijing"):
        shared.append(page("mp.beijing", names=", ".join(view["players"][s] for s in view["beijing"])))
    out.append(Text(" · ".join(shared)))
    out.extend(secrets(view, content))
    return out


def round_line(view: dict[str, Any]) -> str:
    if not view.get("round"):
        return page("mp.setup")
    return page("mp.round-of-5", round=view["round"]) if view["title"] == "marco-polo" else page("mp2.round-n", round=view["round"])


def secrets(view: dict[str, Any], content: dict[str, Any]) -> list[RenderableType]:
    """The seat's own hidden cards, when the view is that seat's (the rules put them in it)."""
    seat = view.get("seat")
    if seat is None:
        return []
    name = view["players"][seat]
    title = view["title"]
    lines = []
    for cid in view.get("objectives") or []:
        found = component(content, "objectives", cid) or {}
        cities = " + ".join(place(title, content, c) for c in found.get("cities", []))
        lines.append(f"{cities}: {found.get('vp', '?')} {page('mp2.res.vp')}" if found else cid)
    if view.get("goal"):
        found = component(content, "goals", view["goal"]) or {}
        guilds = ", ".join(f"{page('mp2.guild.' + g)} {n}" for g, n in (found.get("guilds") or {}).items())
        lines.append(guilds or view["goal"])
    if not lines:
        return []
    return [Text(said("mp/secret", player=name, cards="; ".join(lines)))]


DRAWINGS: dict[str, Callable[..., list[RenderableType]]] = {
    "lost-cities": lost_cities,
    "marco-polo": marco_polo,
    "marco-polo-2": marco_polo,
}

#: a step's real choices by title (``[(notation, words)]``), or None: the title lists its moves
CHOICES: dict[str, Callable[[dict[str, Any], list[dict[str, Any]]], list[tuple[str, str]] | None]] = {
    "lost-cities": lost_cities_draws,
}
