"""A Marco Polo move in words, for both titles: who did what, and what it gained and paid
("Ana took 2 silk at the bazaar, paying 2 coins"), as a ``Phrase`` the API says in the reader's
language. Resources are public, so the gains and costs read from the seat records reveal nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from events.messages import Phrase, listed, phrase

RESOURCES = ("coins", "camels", "pepper", "silk", "gold", "jade", "vp")
_AMOUNT = {
    "coins": "{n} {one:?coin|coins}",
    "camels": "{n} {one:?camel|camels}",
    "vp": "{n} VP",
}
#: phrases that say where or how rather than what: "took 2 silk at the bazaar"
_PLACES = ("at ", "from ", "using ", "as ", "completing ", "for ", "with ")


def amount(n: int, resource: str) -> Phrase:
    """``2, "coins"`` -> "2 coins"."""
    return phrase(f"mp.amount.{resource}", _AMOUNT.get(resource, "{n} " + resource), n=n, one=n == 1)


def resource_sentence(who: str, where: Phrase, before: Any, after: Any) -> Phrase:
    """What a seat did, gained and paid in one step (``before``/``after``: its seat record);
    ``where`` either says where ("at the bazaar") or what ("travelled to Kashgar": then "Ana
    travelled to Kashgar, paying 3 coins")."""
    gains, pays = [], []
    for r in RESOURCES:
        if not hasattr(before, r):
            continue
        delta = getattr(after, r) - getattr(before, r)
        if delta > 0:
            gains.append(amount(delta, r))
        elif delta < 0:
            pays.append(amount(-delta, r))
    if where.template.startswith(_PLACES):
        if gains:
            text = phrase("mp.took", "{who} took {gains} {where}", who=who, gains=listed(gains), where=where)
        else:
            text = phrase("mp.took-action", "{who} took an action {where}", who=who, where=where)
    elif gains:
        text = phrase("mp.did-gaining", "{who} {what}, gaining {gains}", who=who, what=where, gains=listed(gains))
    else:
        text = phrase("mp.did", "{who} {what}", who=who, what=where)
    return phrase("mp.paying", "{text}, paying {pays}", text=text, pays=listed(pays)) if pays else text


def describe_step(state: Any, after: Any, event: Any, where: Phrase) -> Phrase:
    """A seat's move in words, with what it gained and paid (``state``/``after``: the states
    before and after it); ``where``: what it did ("at the bazaar")."""
    seat = getattr(event, "seat", None)
    if seat is None or not 0 <= seat < len(state.players):
        return Phrase(where.key, where.template, where.params, capital=True)
    who = state.players[seat]
    return resource_sentence(who, where, state.seats[seat], after.seats[seat])


def game_over(state: Any, result: Any) -> Phrase:
    """"game over: Ana wins (Ana 61, Bea 48)"."""
    scores = ", ".join(f"{state.players[s]} {result.scores[s]}" for s in range(state.n))
    names = listed([state.players[s] for s in result.winners])
    many = len(result.winners) > 1
    return phrase("mp.status.over", "game over: {names} {many:?win|wins} ({scores})", names=names, many=many, scores=scores)


def turn_status(state: Any) -> Phrase:
    """Whose turn it is and what they may do now.

    Both seeds put bonus actions on either side of the one main action: "Si quieres, haz acciones
    adicionales antes de tu acción principal" / "本アクションの前、若しくは後に追加アクションを何回でも
    行うことができます"."""
    who = state.players[state.turn]
    if state.main_done:
        template = "round {round}: {who} may take bonus actions, then ends the turn"
        return phrase("mp.status.bonus", template, round=state.round, who=who)
    template = "round {round}: {who} to take a main action (bonus actions before or after)"
    return phrase("mp.status.main", template, round=state.round, who=who)


def status_words(
    state: Any, outcome: Callable[[Any], Any], describe_pending: Callable[[Any], Phrase],
    waiting: dict[str, Callable[[Any], Phrase]],
) -> Phrase:
    """The one-line status as a phrase the API says in the reader's language (in English, the
    views' ``status``): the layout awaited, the result, the decision pending, what the table
    reports next (``waiting``: by phase, ``"setup"`` among them), else whose turn it is."""
    if state.phase == "setup":
        return waiting["setup"](state)
    if state.phase == "over":
        return game_over(state, outcome(state))
    if state.pending:
        if state.round == 0:  # the decisions of the setup (characters, goals) come before round 1
            return phrase("mp.status.pending-before", "before round 1: {pending}", pending=describe_pending(state))
        return phrase("mp.status.pending", "round {round}: {pending}", round=state.round, pending=describe_pending(state))
    if state.phase == "roll":
        return phrase("mp.status.roll", "round {round}: waiting for the dice roll", round=state.round)
    said = waiting.get(state.phase)
    return said(state) if said is not None else turn_status(state)
