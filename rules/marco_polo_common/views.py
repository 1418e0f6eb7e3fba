"""What both Marco Polo titles show the same way: the status line of a turn and of the end, the
public part of a view, and a seat's secret cards with their share of the score.

The titles pass what differs: their outcome, their own fields, which score fields are secret.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NamedTuple


def seat_to_move(state: Any, choosing: tuple[str, ...], chance: tuple[str, ...]) -> int | None:
    """Whose decision it is: in the phases before play (``choosing``) the seat of the first pending
    pick; in play, the seat of the first pending item unless it is chance the table reports
    (``chance``: nobody's), else the seat whose turn it is.

    The turns go round the table in both seeds: "Por orden, cada persona juega turnos hasta que
    nadie conserve dados disponibles" / "時計回りで次のプレイヤーの手番になります"."""
    if state.phase in choosing:
        return state.pending[0][1] if state.pending else None
    if state.phase != "play":
        return None
    if state.pending:
        kind, seat, _ = state.pending[0]
        return None if kind in chance else seat
    return state.turn


def game_over_line(state: Any, result: Any) -> str:
    """"game over: Ana wins (Ana 52, Bea 47)": the winners, ties shared, and every score."""
    scores = ", ".join(f"{state.players[s]} {result.scores[s]}" for s in range(state.n))
    names = " and ".join(state.players[s] for s in result.winners)
    return f"game over: {names} {'win' if len(result.winners) > 1 else 'wins'} ({scores})"


def status_line(state: Any, outcome: Callable[[Any], Any], describe_pending: Callable[[Any], str], waiting: dict[str, str]) -> str:
    """The one-line status: the layout awaited, the result, the decision pending, what the table
    reports next (``waiting``: a text per phase, ``{round}`` / ``{next_round}`` filled in), else
    whose turn it is."""
    if state.phase == "setup":
        return waiting["setup"]
    if state.phase == "over":
        return game_over_line(state, outcome(state))
    where = f"round {state.round}"
    if state.pending:
        # the decisions of the setup (characters, goals) come before round 1
        return f"{where if state.round else 'before round 1'}: {describe_pending(state)}"
    text = waiting.get(state.phase)
    return text.format(round=state.round, next_round=state.round + 1) if text is not None else turn_line(state, where)


def turn_line(state: Any, where: str) -> str:
    """The seat to move, before or after its main action.

    Both seeds put bonus actions on either side of the one main action: "Si quieres, haz acciones
    adicionales antes de tu acción principal" / "本アクションの前、若しくは後に追加アクションを何回でも
    行うことができます"."""
    who = state.players[state.turn]
    if state.main_done:
        return f"{where}: {who} may take bonus actions, then ends the turn"
    return f"{where}: {who} to take a main action (bonus actions before or after)"


def hide_secret_scores(out: dict[str, Any], seat: int | None, secret: tuple[str, ...], blank: Iterable[str] = ()) -> dict[str, Any]:
    """A score sheet without the other seats' secret-card points (``secret``: the fields, summed
    out of their totals; ``blank``: fields hidden but not counted), until the end.

    Both seeds keep the cards a seat draws for the end hidden from the others: "Cada persona roba
    2 cartas de objetivo y las mantiene ocultas" / "任務カードを３枚引きその中から１枚選択し、自分の前に
    非公開で置きます". What is secret differs: the objectives' VP in Marco Polo, the goal card's
    seals and shields in Marco Polo II."""
    blank = tuple(blank)
    for row in out["seats"]:
        if row["seat"] != seat:
            hidden = sum(row[k] for k in secret)
            for k in (*secret, *blank):
                row[k] = None
            row["final"] -= hidden
            row["total"] -= hidden
    out["totals"] = [row["total"] for row in out["seats"]]
    return out


def seat_head(state: Any, seat: int) -> dict[str, Any]:
    """The first keys of a seat's public record: who, which character, and the resources both
    titles share (Marco Polo II adds jade after them)."""
    p = state.seats[seat]
    return {
        "seat": seat, "player": state.players[seat], "character": p.character, "coins": p.coins, "camels": p.camels,
        "pepper": p.pepper, "silk": p.silk, "gold": p.gold,
    }


def public_head(
    state: Any, title: str, to_move: int | None, status: str, seat_public: Callable[[Any, int], dict], **after_title: Any
) -> dict[str, Any]:
    """The first keys of both titles' public view: who plays, where the game stands, each seat."""
    return {
        "title": title,
        **after_title,
        "players": list(state.players),
        "round": state.round,
        "phase": state.phase,
        "to_move": to_move,
        "status": status,
        "start_seat": state.start_seat,
        "turn": state.turn,
        "main_done": state.main_done,
        "pending": [list(p) for p in state.pending],
        "seats": [seat_public(state, s) for s in range(state.n)],
    }


class SecretCards(NamedTuple):
    """How a title names a seat's secret cards in its views: its kept card(s) (``card`` reads them
    from a seat record), the ones it was dealt, and everyone's of both."""

    kept: str
    dealt: str
    all_kept: str
    all_dealt: str
    card: Callable[[Any], Any]


def seat_view(state: Any, seat: int | None, codes: Any, public: Callable, secret: SecretCards) -> dict[str, Any]:
    """A seat's view (``None``: the public's): the public one, the seat's own secret cards, and
    everyone's once the game is over. A seat the game does not have is refused with the title's
    ``codes.UNKNOWN_SEAT``."""
    if seat is not None and (not isinstance(seat, int) or not 0 <= seat < state.n):
        codes.illegal(codes.UNKNOWN_SEAT, "seat {seat!r} is not a seat of this game (0..{state_n_minus})", seat=seat, state_n_minus=state.n - 1)
    out = public(state, seat)
    out["seat"] = seat
    if seat is not None:
        p = state.seats[seat]
        out[secret.kept] = secret.card(p)
        out[secret.dealt] = list(p.dealt)
    if state.phase == "over":
        out[secret.all_kept] = [secret.card(p) for p in state.seats]
    return out


def whole_view(state: Any, public: Callable, secret: SecretCards) -> dict[str, Any]:
    """Everything, every seat's secret cards and those it was dealt included (a finished game)."""
    out = public(state, None, secret=False)
    out["seat"] = None
    out[secret.all_kept] = [secret.card(p) for p in state.seats]
    out[secret.all_dealt] = [list(p.dealt) for p in state.seats]
    return out
