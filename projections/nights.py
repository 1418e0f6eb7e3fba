"""Tournament nights as read models: each night folded from its own stream of the log, and its
standings computed from the results of its tables' games.

Night points: each finished game gives a player the share of their table's other players they
finished ahead of, a tie counting half (1 for a win at a table of two, 1 / 0.5 / 0 at a table
of three, 1 / 0.67 / 0.33 / 0 at a table of four); a bye counts 1. The standings are ordered by
night points, then the points scored in the night's games, then the title's own tie-break
(``TitleStats.tiebreak``, as seasons use), then name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from events.errors import NightRefused, UnknownNight
from events.names import same_name_key
from events.nights import NIGHT_PREFIX, NightOpened, NightPlayerDropped, NightPlayerJoined, NightRoundDrawn
from projections import night_draw
from projections.seasons import Seasons, plain_text
from projections.streams import Streams
from projections.stats.ratings import Ratings, conservative, model

MAX_NIGHT_NAME = 80
MAX_PLAYER_NAME = 64
MAX_PLAYERS = 100
MAX_ROUNDS = 20
#: the titles a night knows how to seat: pairs, or tables of three and four
MODES = {"lost-cities": night_draw.PAIRS, "marco-polo": night_draw.TABLES, "marco-polo-2": night_draw.TABLES}


#: a round as drawn: its event, which holds tuples already
Round = NightRoundDrawn


@dataclass(frozen=True, slots=True)
class Night:
    """A night as its events leave it."""

    night_id: str
    name: str
    title: str
    rounds: int
    seed: str
    #: everyone who has played or joined, in the order they came
    players: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    dropped: frozenset[str] = field(default_factory=frozenset)
    drawn: tuple[Round, ...] = ()

    @property
    def present(self) -> tuple[str, ...]:
        """Who the next draw seats: every player not dropped."""
        return tuple(p for p in self.players if p not in self.dropped)

    def as_dict(self) -> dict[str, Any]:
        return {
            "night_id": self.night_id, "name": self.name, "title": self.title, "rounds": self.rounds, "seed": self.seed,
            "players": list(self.players), "options": dict(self.options), "dropped": sorted(self.dropped), "rounds_drawn": len(self.drawn),
        }


def fold_night(night_id: str, bodies: Iterable[Any]) -> Night:
    """A night from its stream's bodies."""
    night: Night | None = None
    for body in bodies:
        if isinstance(body, NightOpened) and night is None:
            night = Night(night_id, body.name, body.title, body.rounds, body.seed, tuple(body.players), dict(body.options))
        elif isinstance(body, NightRoundDrawn) and night is not None:
            night = _replace(night, drawn=night.drawn + (body,))
        elif isinstance(body, NightPlayerJoined) and night is not None:
            players = night.players if body.player in night.players else night.players + (body.player,)
            night = _replace(night, players=players, dropped=night.dropped - {body.player})
        elif isinstance(body, NightPlayerDropped) and night is not None:
            night = _replace(night, dropped=night.dropped | {body.player})
        else:
            raise UnknownNight("{night_id} is not a night's stream", params=dict(night_id=night_id), night_id=night_id)
    if night is None:
        raise UnknownNight("no night {night_id!r}", params=dict(night_id=night_id), night_id=night_id)
    return night


def _replace(night: Night, **changes: Any) -> Night:
    fields = {k: getattr(night, k) for k in ("night_id", "name", "title", "rounds", "seed", "players", "options", "dropped", "drawn")}
    return Night(**{**fields, **changes})


# -- the rules of a night -------------------------------------------------------------------------


def refuse(code: str, field: str, message: str, **params: Any) -> None:
    raise NightRefused(message, params=dict(field=field, **params), code=code, field=field)


def plain(text: str, field: str, most: int) -> str:
    """``text`` trimmed, once it is plain, not blank and at most ``most`` characters."""
    return plain_text(text, field, most, refuse, "night")


def checked_players(players: Iterable[str]) -> tuple[str, ...]:
    out, seen = [], set()
    for index, player in enumerate(players):
        player = plain(player, f"players.{index}", MAX_PLAYER_NAME)
        if same_name_key(player) in seen:
            refuse("night-player-repeated", f"players.{index}", "{field}: {player!r} is named twice", player=player)
        seen.add(same_name_key(player))
        out.append(player)
    if len(out) < 2:
        refuse("night-players-too-few", "players", "{field}: a night needs at least two players")
    if len(out) > MAX_PLAYERS:
        refuse("night-players-too-many", "players", "{field}: a night has at most {most} players", most=MAX_PLAYERS)
    return tuple(out)


def checked_opening(name: str, title: str, rounds: int, players: Iterable[str]) -> tuple[str, str, int, tuple[str, ...]]:
    """The opening's fields trimmed, once they keep every rule of a night (raises NightRefused)."""
    name = plain(name, "name", MAX_NIGHT_NAME)
    if title not in MODES:
        refuse("night-title-unknown", "title", "{field}: {title!r} is not a title a night seats; titles: {known}",
               title=str(title)[:64], known=", ".join(sorted(MODES)))
    if not 1 <= rounds <= MAX_ROUNDS:
        refuse("night-rounds-out-of-range", "rounds", "{field}: a night has 1 to {most} rounds", most=MAX_ROUNDS)
    return name, title, rounds, checked_players(players)


def find_player(night: Night, name: str) -> str | None:
    """The night's spelling of ``name`` (any case), or None."""
    key = same_name_key(name)
    return next((p for p in night.players if same_name_key(p) == key), None)


# -- results and standings --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatResult:
    score: int
    rank: int
    tiebreak: int = 0


def night_points(ranks: list[int], seat: int) -> float:
    """The share of the table's other players ``seat`` finished ahead of, a tie counting half."""
    others = [r for n, r in enumerate(ranks) if n != seat]
    if not others:
        return 1.0
    mine = ranks[seat]
    return (sum(1 for r in others if r > mine) + 0.5 * sum(1 for r in others if r == mine)) / len(others)


def standings(night: Night, results: dict[str, list[SeatResult]]) -> list[dict[str, Any]]:
    """Every player of the night: position, night points, games finished, wins, points scored,
    the title's tie-break, byes and whether they dropped; ``results`` holds each finished game's
    seats (a game not in it is still being played)."""
    rows = {p: {"player": p, "night_points": 0.0, "games": 0, "wins": 0, "points": 0, "tiebreak": 0, "byes": 0,
                "dropped": p in night.dropped} for p in night.players}
    for drawn in night.drawn:
        for bye in drawn.byes:
            rows[bye]["night_points"] += 1.0
            rows[bye]["byes"] += 1
        for table, game_id in zip(drawn.tables, drawn.games):
            seats = results.get(game_id)
            if seats is None or len(seats) != len(table):
                continue
            ranks = [s.rank for s in seats]
            for seat, player in enumerate(table):
                row = rows[player]
                row["night_points"] += night_points(ranks, seat)
                row["games"] += 1
                row["wins"] += 1 if ranks[seat] == 1 else 0
                row["points"] += seats[seat].score
                row["tiebreak"] += seats[seat].tiebreak
    out = sorted(rows.values(), key=lambda r: (-r["night_points"], -r["points"], -r["tiebreak"], same_name_key(r["player"])))
    return [{"position": n, **r, "night_points": round(r["night_points"], 2)} for n, r in enumerate(out, start=1)]


def draw_next(night: Night, results: dict[str, list[SeatResult]], ratings: dict[str, float]) -> tuple[int, night_draw.Draw, tuple[float, ...], tuple[float, ...]]:
    """The next round's number, its draw, and the night points and ratings of the players present
    it was drawn from; refused while a table of the last round plays on or when every round is drawn."""
    if len(night.drawn) >= night.rounds:
        raise_conflict("night-rounds-done", "every round of this night ({rounds}) has been drawn", rounds=night.rounds)
    if night.drawn:
        playing = [g for g in night.drawn[-1].games if g not in results]
        if playing:
            raise_conflict("night-round-playing", "{count} table(s) of round {round} have not finished yet",
                           count=len(playing), round=night.drawn[-1].round)
    present = night.present
    if len(present) < 2:
        refuse("night-players-too-few", "players", "{field}: a night needs at least two players")
    points = {r["player"]: float(r["night_points"]) for r in standings(night, results)}
    number = len(night.drawn) + 1
    made = draw_again(night, number, present, points, ratings)
    return number, made, tuple(points[p] for p in present), tuple(ratings.get(p, 0.0) for p in present)


def draw_again(night: Night, number: int, present: tuple[str, ...], points: dict[str, float], ratings: dict[str, float]) -> night_draw.Draw:
    """The draw of round ``number`` from these inputs (the same every time)."""
    earlier = night.drawn[: number - 1]
    history = [t for r in earlier for t in r.tables]
    byes = [b for r in earlier for b in r.byes]
    return night_draw.draw(MODES[night.title], present, points=points, ratings=ratings, history=history, had_bye=byes,
                           seed=f"{night.seed}:{number}")


def replays(night: Night) -> bool:
    """Whether every recorded round is the draw its recorded inputs make again."""
    for drawn in night.drawn:
        made = draw_again(night, drawn.round, drawn.present, dict(zip(drawn.present, drawn.points)),
                          dict(zip(drawn.present, drawn.ratings)))
        if made.tables != drawn.tables or made.byes != drawn.byes:
            return False
    return True


def raise_conflict(code: str, message: str, **params: Any) -> None:
    from events.errors import NightConflict

    raise NightConflict(message, params=params, code=code)


# -- reading nights from the log ------------------------------------------------------------------


class Nights(Streams[Night], prefix=NIGHT_PREFIX, kind="night", fold=fold_night, unknown=UnknownNight):
    """Every night of one log, and each one's standings over the read models."""

    def all(self) -> list[Night]:
        """Every night, the newest first; one whose log was altered is left out."""
        return self.readable()[::-1]

    def results(self, night: Night) -> dict[str, list[SeatResult]]:
        """Each finished game of the night's tables: its seats' scores, ranks and tie-breaks."""
        games = [g for r in night.drawn for g in r.games]
        if not games:
            return {}
        self.read_models.refresh()
        cur = self.log.cursor()
        try:
            rows = cur.execute(
                """SELECT r.game_id, r.seat, coalesce(r.score, 0), r.rank FROM results r JOIN games g USING (game_id)
                WHERE g.status = 'ended' AND r.game_id IN (SELECT unnest(?::VARCHAR[])) ORDER BY r.game_id, r.seat""",
                [games],
            ).fetchall()
            tiebreaks = Seasons._tiebreaks(cur, night.title, games)
        finally:
            cur.close()
        out: dict[str, list[SeatResult]] = {}
        for game_id, seat, score, rank in rows:
            out.setdefault(game_id, []).append(SeatResult(int(score), int(rank), int(tiebreaks.get((game_id, seat), 0))))
        return out

    def ratings(self, night: Night, players: Iterable[str]) -> dict[str, float]:
        """Each player's rating in the night's title (mu - 3 sigma; a starting one for the unrated)."""
        rated = Ratings(self.read_models).of_players(night.title)
        pl = model()
        start = conservative(pl.mu, pl.sigma)
        return {p: round(float(rated[p.lower()]["conservative"]), 4) if p.lower() in rated else round(start, 4) for p in players}
