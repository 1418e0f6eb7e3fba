"""Think time as the API and the CLI answer it: the replay's think time with its words said in a
language, durations in words, and the CLI's lines."""

from __future__ import annotations

from typing import Any

from api import i18n
from replay import think_time as replay_think


def _words(lang: str) -> dict[str, Any]:
    return i18n.catalogue(lang)["page"]["think"]


def duration(seconds: float | None, lang: str) -> str:
    """A duration in words (whole seconds; minutes from a minute, hours from an hour)."""
    if seconds is None:
        return "—"
    words = _words(lang)
    whole = int(round(seconds))
    if whole < 60:
        return words["secs"].format(s=whole)
    if whole < 3600:
        return words["mins"].format(m=whole // 60, s=f"{whole % 60:02d}")
    return words["hours"].format(h=whole // 3600, m=f"{whole // 60 % 60:02d}")


def _decision(d: replay_think.Decision, players: tuple[str, ...], lang: str) -> dict[str, Any]:
    return {
        "step": d.step, "seat": d.seat, "player": players[d.seat], "turn": d.turn + 1, "seconds": d.seconds,
        "words": i18n.sentence(d.words, lang), "took": duration(d.seconds, lang),
    }


def think_out(svc: Any, game_id: str, lang: str) -> dict[str, Any]:
    """The think time as the route answers it, its words said in ``lang``."""
    got = replay_think.think_time(svc.projector, svc.log, game_id)
    words = _words(lang)
    seats = []
    for seat in got.seats:
        seats.append({
            "seat": seat.seat, "player": got.players[seat.seat], "decisions": seat.decisions, "turns": seat.turns,
            "total_s": seat.total_s, "median_decision_s": seat.median_decision_s, "median_turn_s": seat.median_turn_s,
            "said": {
                "total": duration(seat.total_s if seat.decisions else None, lang),
                "median_decision": duration(seat.median_decision_s, lang),
                "median_turn": duration(seat.median_turn_s, lang),
            },
            "slowest": _decision(seat.slowest, got.players, lang) if seat.slowest is not None else None,
        })
    return {
        "game_id": game_id,
        "public_only": got.public_only,
        "players": list(got.players),
        "timed": got.untimed is None,
        "untimed": got.untimed,
        "untimed_words": words["untimed"][got.untimed] if got.untimed else None,
        "seats": seats,
        "decisions": [_decision(d, got.players, lang) for d in got.decisions],
    }


def think_lines(answer: dict[str, Any], lang: str) -> list[str]:
    """The think time as lines of text: per player the medians, the total, the slowest decision."""
    words = _words(lang)
    out = [words["heading"]]
    if answer["untimed"]:
        return out + [answer["untimed_words"]]
    width = max(len(p) for p in answer["players"])
    for seat in answer["seats"]:
        said = seat["said"]
        out.append(f"{seat['player'].ljust(width)}  " + words["line"].format(
            decisions=seat["decisions"], median_decision=said["median_decision"],
            median_turn=said["median_turn"], total=said["total"],
        ))
        if seat["slowest"]:
            slow = seat["slowest"]
            out.append(" " * (width + 2) + f"{words['slowest-label']}: " + words["slowest"].format(
                took=slow["took"], words=slow["words"], step=slow["step"], turn=slow["turn"]
            ))
    return out


def title_think_out(svc: Any, title: str, lang: str) -> dict[str, Any]:
    """Per player the think time over a title's finished games, as the statistics route answers it."""
    from rules import get_title

    get_title(title)  # an unknown title is refused here, with its code
    finished, timed, players = replay_think.title_think_time(svc.projector, svc.log, title)
    out = []
    for one in players:
        slow = one.slowest
        out.append({
            "player": one.player, "games": one.games, "decisions": one.decisions, "turns": one.turns,
            "median_decision_s": one.median_decision_s, "median_turn_s": one.median_turn_s,
            "said": {"median_decision": duration(one.median_decision_s, lang), "median_turn": duration(one.median_turn_s, lang)},
            "slowest": None if slow is None else {
                "game_id": one.slowest_game, "step": slow.step, "seconds": slow.seconds, "took": duration(slow.seconds, lang),
                "words": i18n.sentence(slow.words, lang),
                "on": one.slowest_on.date().isoformat() if one.slowest_on else None,
            },
        })
    return {"title": title, "games": finished, "timed_games": timed, "players": out}
