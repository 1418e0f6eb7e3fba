"""Pydantic models of the HTTP edge: what requests may carry and what responses hold.

They exist for validation and for a complete OpenAPI schema; inside, events are msgspec
structs. Moves are either the title's notation or its structured JSON form (``{"type": ...}``).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from events.codec import MAX_NUMBER
from events.lifecycle import NOTE_MAX_CHARS
from events.messages import Templated, render
from events.names import control_character, printable_key

MAX_SEQ = 2**31 - 1  # the log stores seqs as 32-bit integers
MAX_SEED = 2**63 - 1  # msgpack integers
#: how deep, how long and how wordy a JSON value in a body (options, a structured move) may be
MAX_DEPTH, MAX_ITEMS, MAX_TEXT = 16, 1000, 4000


class _Refused(Templated):
    """A validator's complaint as a template and its params (``events.messages``), so that the
    malformed-body answer can write it in the reader's language (``api/errors.py``)."""

    def __init__(self, template: str, **params: Any) -> None:
        super().__init__(template, params)


def _no_surrogates(value: Any) -> Any:
    """JSON may escape lone surrogates (``"\\ud800"``), which no storage can encode."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise _Refused("text must be valid Unicode (no lone surrogates)") from None
    return value


def _plain(value: str) -> str:
    """Text shown to people (a name, who entered a move) may not act on their terminal or page."""
    char = control_character(value)
    if char is not None:
        raise _Refused("text may not hold control characters (U+{code})", code=f"{ord(char):04X}")
    return value


class _Unstorable(_Refused):
    """What is wrong with a JSON value, and (filled in on the way out) where."""

    def __init__(self, template: str, **params: Any) -> None:
        super().__init__(template, **params)
        self.why, self.path = render(template, params), []

    def __str__(self) -> str:
        return ".".join(self.path) + ": " + self.why if self.path else self.why


def _storable(value: Any, depth: int = 0) -> Any:
    """A JSON value the log can store and a game can use: valid text, numbers within
    ±``MAX_NUMBER``, at most ``MAX_DEPTH`` deep, ``MAX_ITEMS`` long and ``MAX_TEXT`` characters."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        if not -MAX_NUMBER <= value <= MAX_NUMBER:  # NaN fails both comparisons
            raise _Unstorable("numbers must be within ±{max}", max=MAX_NUMBER)
    elif isinstance(value, str):
        try:
            _no_surrogates(value)
        except _Refused as exc:
            raise _Unstorable(exc.template, **exc.params) from None
        if len(value) > MAX_TEXT:
            raise _Unstorable("text may hold at most {max} characters", max=MAX_TEXT)
    elif isinstance(value, (dict, list)):
        if depth >= MAX_DEPTH:
            raise _Unstorable("values may nest at most {max} deep", max=MAX_DEPTH)
        if len(value) > MAX_ITEMS:
            raise _Unstorable("a list or an object may hold at most {max} items", max=MAX_ITEMS)
        for key, item in value.items() if isinstance(value, dict) else enumerate(value):
            try:
                if isinstance(key, str):
                    _storable(key)
                _storable(item, depth + 1)
            except _Unstorable as exc:
                exc.path.insert(0, printable_key(str(key)))
                raise
    return value


_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _iso(value: Any) -> Any:
    """Only ISO 8601 text: pydantic would also read ``0.5`` as seconds since 1970."""
    if not (isinstance(value, datetime) or (isinstance(value, str) and _ISO_DATE.match(value))):
        raise _Refused("a date or a time in ISO 8601, e.g. 2026-01-31 or 2026-01-31T20:00:00Z")
    return value


def _digits(value: Any) -> Any:
    """A seq in a query is written in digits: pydantic would also read ``1.0`` as 1."""
    if isinstance(value, str) and not (value.isascii() and value.isdigit()):
        raise _Refused("a whole number written in digits")
    return value


Text = Annotated[str, AfterValidator(_no_surrogates)]
Line = Annotated[Text, AfterValidator(_plain)]
Seq = Annotated[int, BeforeValidator(_digits), Field(ge=0, le=MAX_SEQ)]
#: a player's name; what one may be (not blank, plain, unique) is checked with a plain sentence
#: by ``events.names.check_player_names`` when the game is created
PlayerName = Annotated[Text, Field(description="not blank, at most 64 characters, unlike the others' names")]
Actor = Annotated[Line, Field(max_length=128, description="who entered this (free text, kept in the log)")]
IdempotencyKey = Annotated[
    Line,
    Field(min_length=1, max_length=200, description="a retried request with the same key appends nothing twice"),
]
JsonObject = Annotated[dict[str, Any], AfterValidator(_storable)]
#: a date or time in a query: ISO 8601 only
Moment = Annotated[datetime, BeforeValidator(_iso)]


class Strict(BaseModel):
    """A request body: no field it does not know, no value of another type (``"7"`` for 7)."""

    model_config = ConfigDict(extra="forbid", strict=True)


# -- errors ---------------------------------------------------------------------------------------


class ErrorOut(BaseModel):
    """Every error: a stable machine-readable ``code``, a human ``message``, and details."""

    model_config = ConfigDict(extra="allow")
    code: str = Field(examples=["stale-expected-seq"])
    message: str = Field(description="in the language of Accept-Language (English, Spanish or Japanese)")
    params: dict[str, Any] = Field(
        default={}, description="what fills the message's template (which card, which die, which seq)"
    )
    rulebook: dict[str, str] | None = Field(
        default=None, description="the rulebook's own words the message quotes: {lang, text}, in its language"
    )


class ValidationErrorOut(ErrorOut):
    errors: list[dict[str, Any]] = []


# -- games ----------------------------------------------------------------------------------------


class TitleOut(BaseModel):
    id: str
    name: str


class CreateGame(Strict):
    title: Annotated[Line, Field(min_length=1, max_length=64, examples=["lost-cities"])]
    players: Annotated[list[PlayerName], Field(min_length=1, max_length=16, examples=[["Ana", "Bea"]])]
    options: JsonObject = Field(default_factory=dict, description='the title\'s options, e.g. {"rounds": 3}')
    seed: Annotated[int, Field(ge=0, le=MAX_SEED)] | None = Field(
        None, description="digital play: chance (shuffles, dice) is drawn from this seed by the server"
    )
    actor: Actor = ""
    idempotency_key: IdempotencyKey | None = None


class SeatToken(BaseModel):
    seat: int
    player: str
    token: str


class Tokens(BaseModel):
    """Shown once. The write token records; a seat token opens that seat's view."""

    write_token: str
    seat_tokens: list[SeatToken]


class GameCreatedOut(BaseModel):
    game_id: str
    title: str
    players: list[str]
    last_seq: int
    tokens: Tokens


class Outcome(BaseModel):
    scores: list[int]
    ranks: list[int]
    winners: list[int]


class GameSummary(BaseModel):
    """A game as the catalogue lists it."""

    game_id: str
    title: str
    players: list[str]
    options: dict[str, Any]
    status: Literal["in-progress", "ended"]
    created_at: datetime
    ended_at: datetime | None = None
    duration_s: float | None = None
    parent_id: str | None = None
    forked_at: int | None = None
    score_only: bool = Field(False, description="recorded by its result alone (imported from BG Stats): no moves")


class ResultDiffersOut(BaseModel):
    """What today's rules make of an ended game's final state, when it is not the recorded result."""

    message: str
    today: Outcome | None = Field(None, description="today's result; null when today's rules give none here")


class GameOut(GameSummary):
    """One game now: the catalogue row plus where its log and its play stand."""

    last_seq: int = Field(description="the last raw seq of the log")
    steps: int = Field(description="events in the effective history (creation included)")
    to_move: int | None = None
    to_move_player: str | None = None
    status_line: str = Field(description="the title's one-line status: whose turn, what is expected")
    can_redo: bool
    digital: bool = Field(description="chance is drawn by the server from a seed")
    seed: int | None = Field(None, description="shown once the game has ended (it would reveal every shuffle)")
    outcome: Outcome | None = None
    result_differs: ResultDiffersOut | None = Field(
        None, description="an ended game whose recorded outcome today's rules and pinned packs compute differently"
    )


class GameListOut(BaseModel):
    games: list[GameSummary]
    total: int
    limit: int
    offset: int
    unreadable: list[UnreadableOut] = Field(
        default_factory=list, description="stored games left out of the list: this code cannot read them"
    )


# -- writes ---------------------------------------------------------------------------------------


class MoveFields(Strict):
    notation: Annotated[Text, Field(min_length=1, max_length=4000, examples=["R7"])] | None = Field(
        None, description="the move in the title's notation"
    )
    move: JsonObject | None = Field(
        None,
        description="the move as an event of the title, tagged by `type`",
        examples=[{"type": "lost-cities.card-played", "card": "R7"}],
    )

    @model_validator(mode="after")
    def _one_form(self) -> "MoveFields":
        if (self.notation is None) == (self.move is None):
            raise _Refused("give exactly one of `notation` and `move`")
        return self


class Write(Strict):
    expected_seq: Seq = Field(description="the log's last seq as the writer knows it; a stale one is a 409")
    idempotency_key: IdempotencyKey | None = None
    actor: Actor = ""


class MoveIn(MoveFields, Write):
    """A move: ``{"notation": "R7"}`` or ``{"move": {"type": ..., ...}}``, with ``expected_seq``."""


class UndoIn(Write):
    to_seq: Seq | None = Field(
        None,
        description="back to the state after this raw seq (0: before the first move); omitted: take back the last move",
    )
    moves: Annotated[int, Field(ge=1, le=1000)] | None = Field(
        None, description="without `to_seq`: take back this many moves (default 1)"
    )


class RedoIn(Write):
    pass


class NoteIn(Write):
    """A note on a step: ``{"step": 3, "text": "...", "expected_seq": ...}``."""

    step: Annotated[int, Field(ge=0, le=MAX_SEQ, description="the step as the replay numbers it (0: the game's creation; `?at=` of the page)")]
    text: Annotated[
        Text,
        Field(max_length=4 * NOTE_MAX_CHARS, description=f"the note: 1 to {NOTE_MAX_CHARS} characters, line breaks allowed, no other control characters"),
    ]


class AmendIn(MoveFields, Write):
    seq: Annotated[int, Field(ge=1, le=MAX_SEQ, description="the raw seq of the effective event to replace")]


class ForkIn(Strict):
    at_seq: Seq | None = Field(None, description="the raw seq of the parent to fork after (default: its last)")
    actor: Actor = ""
    idempotency_key: IdempotencyKey | None = None


class AppendedEvent(BaseModel):
    seq: int
    type: str


class AppendOut(BaseModel):
    """What a write appended; ``replayed`` when an idempotency key had already done it."""

    game_id: str
    first_seq: int
    last_seq: int
    replayed: bool
    events: list[AppendedEvent]
    status_line: str
    to_move: int | None = None
    ended: bool


class ForkOut(BaseModel):
    game_id: str
    parent_id: str
    at_seq: int
    last_seq: int
    tokens_inherited: bool = Field(
        description="a fork of a game in progress keeps its parent's tokens; a fork of an ended game gets new ones"
    )
    tokens: Tokens | None = None


# -- reads ----------------------------------------------------------------------------------------

PerspectiveName = Literal["public", "seat", "full"]


class StepNoteOut(BaseModel):
    step: int = Field(description="the step as the replay numbers it")
    step_seq: int = Field(description="the raw seq of the step's event")
    seq: int = Field(description="the raw seq of the note's `game.annotated`")
    text: str
    amended_by: int | None = None


class StateOut(BaseModel):
    game_id: str
    at: int = Field(description="the raw seq this state is after")
    last_seq: int
    steps: int
    perspective: PerspectiveName
    seat: int | None = None
    status_line: str
    to_move: int | None = None
    ended: bool
    outcome: Outcome | None = None
    view: dict[str, Any]
    notes: list[StepNoteOut] = Field([], description="the notes on the steps so far, by step")


class LegalMove(BaseModel):
    notation: str | None
    move: dict[str, Any]


class LegalMovesOut(BaseModel):
    game_id: str
    at: int
    to_move: int | None = None
    status_line: str
    moves: list[LegalMove]
    ended: bool = False
    last: str | None = Field(None, description="the last counted step in words, as `tabletape record` shows it")


class NoteOut(BaseModel):
    seq: int = Field(description="the raw seq of the note's `game.annotated` (what an amendment names)")
    text: str
    amended_by: int | None = None


class FrameOut(BaseModel):
    index: int = Field(description="position in the effective history (0: creation)")
    seq: int = Field(description="the raw log seq of the event")
    type: str
    seat: int | None = None
    player: str | None = None
    move: str | None = Field(
        None, description="the title's notation; hidden facts (a drawn card) left out unless it is your seat's move"
    )
    text: str | None = Field(
        None, description="the step as a plain sentence with names, from what you may know, in the language asked for"
    )
    amended_by: int | None = None
    status: str
    to_move: int | None = None
    ended: bool
    view: dict[str, Any] | None = None
    diff: list[dict[str, Any]] | None = Field(None, description="JSON-patch operations on the previous frame's view")
    edit: dict[str, Any] | None = None
    body: dict[str, Any] | None = None
    notes: list[NoteOut] | None = Field(None, description="the notes the table wrote on this step, oldest first")


class FramesOut(BaseModel):
    game_id: str
    at: int
    perspective: PerspectiveName
    seat: int | None = None
    mode: Literal["view", "diff"]
    frames: list[FrameOut]


class EventOut(BaseModel):
    game_id: str
    seq: int
    recorded_at: datetime
    actor: str
    type: str
    body: dict[str, Any]
    prev_hash: str
    hash: str


class EventsOut(BaseModel):
    game_id: str
    last_seq: int
    events: list[EventOut]


class WorkersOut(BaseModel):
    """The processes serving the port: as many as ``serve --workers`` asked for, and how many serve now."""

    configured: int
    live: int


class UnreadableOut(BaseModel):
    """A stored game this code cannot fold or project: left out of the statistics, refused with
    ``game-unreadable``."""

    game_id: str
    seq: int = Field(description="the first event that cannot be read")
    reason: str
    message: str


class HealthOut(BaseModel):
    status: str = Field(description="ok; degraded while some stored games cannot be read (listed in unreadable)")
    titles: list[str]
    database: str
    workers: WorkersOut = Field(
        description="a worker that died is forked again; ``live`` is below ``configured`` until it serves"
    )
    unreadable: list[UnreadableOut] = Field(default_factory=list, description="the games that cannot be read, by id")
    log: dict[str, int] = Field(
        default_factory=dict,
        description="appends, commits and events written since the service started (appends / commits: group commit size); on DuckDB, write_cpu_us: CPU spent in its insert, head and commit statements",
    )
