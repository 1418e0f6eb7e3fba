"""Recording games: moves, history edits and forks, each checked by the rules before it is appended.

Commands return events (decided by the title's rules core); the log appends them atomically
with the writer's ``expected_seq``; the projector folds them. A command reads the game from the
projector once (``Projector.live``: its effective history and state), plans on a copy of that
history, appends, and hands the appended events back to the projector once. Nothing is written
when a check fails. Digital games draw chance (shuffles, dice) here, outside the rules core, from a
generator seeded by the game's seed and the seq, and record the outcome as an event.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any, Callable, NamedTuple, Sequence, Union

import msgspec

from events import codec
from events.base import Event
from events.errors import (
    ConcurrencyConflict,
    HistoryEditRefused,
    IdempotencyKeyReused,
    IllegalMove,
    InvalidOptions,
    MoveTakenBack,
    TabletapeError,
)
from events.history import History
from events.lifecycle import Amended, Forked, GameCreated, GameEnded, Noted, Redone, Undone, check_note
from events.log import AppendResult, EventLog, new_game_id
from events.names import check_player_names
from projections.fold import GameState, fold, start
from projections.locks import AsyncKeyedLocks, KeyedLocks, acquire_from_loop
from projections.projector import Live, Projector
from rules import title_words


def draw_chance(game: GameState, seq: int) -> Event | None:
    """The chance event a digital game needs now, drawn from its seed; None if none is pending."""
    seed = game.created.seed
    if seed is None:
        return None
    chance = game.title.chance(game.state)
    if chance is None:
        return None
    rng = random.Random(f"{seed}:{seq}")
    if chance.kind == "shuffle":
        outcome: tuple[Any, ...] = tuple(rng.sample(chance.items, len(chance.items)))
    else:
        outcome = tuple(rng.randint(1, chance.sides) for _ in range(chance.count))
    return game.title.chance_event(game.state, outcome)


def refuse_score_only(game: GameState) -> None:
    """A game recorded by its result alone has no moves to undo, amend or fork from."""
    if game.score_only is not None:
        raise HistoryEditRefused(
            "this game was recorded by its result alone ({source}): it has no moves to edit or fork", params=dict(source=game.score_only.source),
            code="score-only-game",
        )


class Recorder:
    """The write side: every change to a game goes through here."""

    def __init__(self, log: EventLog, projector: Projector | None = None) -> None:
        self.log = log
        self.projector = projector or Projector(log)
        # one lock per game: different games record concurrently (their commits can share one)
        # plain (not re-entrant) locks: an async writer may take one in a worker thread and
        # release it on the event loop
        self._game_lock = KeyedLocks(reentrant=False)
        self._game_turns = AsyncKeyedLocks()
        self._listeners: list[Callable[[str, AppendResult], None]] = []

    def subscribe(self, listener: Callable[[str, AppendResult], None]) -> Callable[[], None]:
        """Call ``listener(game_id, result)`` after every append; returns an unsubscribe function."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def _notify(self, game_id: str, result: AppendResult) -> None:
        for listener in list(self._listeners):
            listener(game_id, result)

    # -- games -----------------------------------------------------------------------------

    def create(
        self,
        title: str,
        players: Sequence[str],
        options: dict[str, Any] | None = None,
        *,
        seed: int | None = None,
        actor: str = "",
        game_id: str | None = None,
    ) -> tuple[str, AppendResult]:
        """Start a game; a digital game (``seed`` given) also gets its first chance outcome."""
        created = GameCreated(title=title, players=tuple(players), options=dict(options or {}), seed=seed)
        game = start(created)  # validates the title, the players and the options
        check_player_names(created.players)  # here, not in start: games stored before it still fold
        where = codec.out_of_range(created.options)
        if where is not None:
            raise InvalidOptions(
                "options.{where}: numbers must be within ±{max_number}", params=dict(where=where, max_number=codec.MAX_NUMBER), code="number-out-of-range",
                field=f"options.{where}",
            )
        game_id = game_id or new_game_id()
        batch = [created, *self._chance_events(game, 2)]
        with self._game_lock(game_id):
            result = self.log.append(game_id, batch, expected_seq=0, actor=actor)
            self.projector.appended(game_id, batch, result.first_seq)
        self._notify(game_id, result)
        return game_id, result

    def fork(self, game_id: str, at_seq: int, *, actor: str = "", new_id: str | None = None) -> tuple[str, AppendResult]:
        """A new game whose history starts as this game's effective history up to ``at_seq``."""
        with self._game_lock(game_id):
            live = self.projector.live(game_id)
            entries = live.history.entries(at_seq)
            if not entries:
                raise HistoryEditRefused("seq {at_seq} has no history to fork", params=dict(at_seq=at_seq), code="fork-empty")
            refuse_score_only(live.head_state)
            created = entries[0].body
            child = new_id or new_game_id()
            batch = [created, Forked(parent_id=game_id, at_seq=at_seq), *(e.body for e in entries[1:]), *_fork_notes(live.history, at_seq)]
            result = self.log.append(child, batch, expected_seq=0, actor=actor)
            self.projector.appended(child, batch, result.first_seq)
        self._notify(child, result)
        return child, result

    def first_append(self, game_id: str) -> tuple[AppendResult, Forked | None]:
        """What creating or forking this game appended, as a replayed result (a retry's answer),
        and its ``Forked`` event if it is a fork."""
        bodies = self.log.read_bodies(game_id, 1, 2)
        forked = bodies[1] if len(bodies) > 1 and isinstance(bodies[1], Forked) else None
        if forked is not None:
            parent = self.projector.history(forked.parent_id)
            last = len(parent.entries(forked.at_seq)) + 1 + len(_fork_notes(parent, forked.at_seq))
        else:
            last = 1 + len(self._chance_events(start(bodies[0]), 2))
        return AppendResult(game_id, 1, last, replayed=True), forked

    # -- moves -----------------------------------------------------------------------------

    def record(
        self,
        game_id: str,
        move: Event,
        expected_seq: int | None = None,
        *,
        idempotency_key: str | None = None,
        actor: str = "",
    ) -> AppendResult:
        """Decide a move with the rules core and append its events (plus the end, plus chance)."""
        return self._run(game_id, lambda: self._plan_record(game_id, move, expected_seq, idempotency_key, actor))

    async def record_async(self, game_id: str, *args: Any, **kw: Any) -> AppendResult:
        """``record``, with its arguments, for an event loop (the loop never waits on the commit)."""
        return await self._run_async(game_id, lambda: self._plan_record(game_id, *args, **kw))

    def _plan_record(
        self, game_id: str, move: Event, expected_seq: int | None = None, idempotency_key: str | None = None,
        actor: str = "",
    ) -> "_Planned":
        codec.check_numbers(move)
        replay = self._replayed(game_id, idempotency_key, move)
        if replay is not None:
            self._refuse_taken_back(game_id, replay)
            return replay
        live = self.projector.live(game_id)
        game = live.head_state
        self._check_expected(game_id, live.history, expected_seq)
        if type(move) not in game.title.event_types:
            raise IllegalMove(
                "{name} is not a {title_name} move; history edits have their own commands", params=dict(name=type(move).__name__, title_name=title_words(game.title)),
                code="not-a-move",
            )
        if game.ended is not None and type(move) not in game.title.after_end:
            raise IllegalMove("the game is over; undo or fork to go on", code="game-over")
        events = list(game.title.decide(game.state, move))
        after = fold(game, events)
        if game.ended is None:
            closing = self._closing_events(after)
            if closing:
                events += closing
                after = fold(after, closing)
        return self._plan_append(game_id, live, events, idempotency_key, actor, after)

    def record_notation(self, game_id: str, text: str, expected_seq: int | None = None, **kw: Any) -> AppendResult:
        game = self.projector.state(game_id)
        return self.record(game_id, game.title.parse_move(game.state, text), expected_seq, **kw)

    # -- history edits ---------------------------------------------------------------------

    def undo(
        self, game_id: str, to_seq: int, expected_seq: int | None = None, *, idempotency_key: str | None = None, actor: str = ""
    ) -> AppendResult:
        return self._run(game_id, lambda: self._plan_undo(game_id, to_seq, expected_seq, idempotency_key, actor))

    async def undo_async(self, game_id: str, *args: Any, **kw: Any) -> AppendResult:
        """``undo``, with its arguments, for an event loop."""
        return await self._run_async(game_id, lambda: self._plan_undo(game_id, *args, **kw))

    def _plan_undo(
        self, game_id: str, to_seq: int, expected_seq: int | None = None, idempotency_key: str | None = None, actor: str = ""
    ) -> "_Planned":
        return self._plan_edit(game_id, Undone(to_seq=to_seq), expected_seq, idempotency_key, actor)

    def redo(
        self, game_id: str, expected_seq: int | None = None, *, idempotency_key: str | None = None, actor: str = ""
    ) -> AppendResult:
        return self._run(game_id, lambda: self._plan_edit(game_id, Redone(), expected_seq, idempotency_key, actor))

    async def redo_async(self, game_id: str, *args: Any, **kw: Any) -> AppendResult:
        """``redo``, with its arguments, for an event loop."""
        return await self._run_async(game_id, lambda: self._plan_edit(game_id, Redone(), *args, **kw))

    def note(
        self,
        game_id: str,
        step: int,
        text: str,
        expected_seq: int | None = None,
        *,
        idempotency_key: str | None = None,
        actor: str = "",
    ) -> AppendResult:
        """Write a note on step ``step`` as the replay numbers it (0: the creation); it changes nothing else."""
        return self._run(game_id, lambda: self._plan_note(game_id, step, text, expected_seq, idempotency_key, actor))

    async def note_async(self, game_id: str, *args: Any, **kw: Any) -> AppendResult:
        """``note``, with its arguments, for an event loop."""
        return await self._run_async(game_id, lambda: self._plan_note(game_id, *args, **kw))

    def _plan_note(
        self, game_id: str, step: int, text: str, expected_seq: int | None = None, idempotency_key: str | None = None,
        actor: str = "",
    ) -> "_Planned":
        text = check_note(text)
        live = self.projector.live(game_id)
        entries = live.history.entries()
        if not 0 <= step < len(entries):
            raise HistoryEditRefused(
                "there is no step {step}: this game has steps 0 to {last}", params=dict(step=step, last=len(entries) - 1),
                code="note-step-out-of-range",
                step=step,
            )
        note = Noted(seq=entries[step].seq, text=text)
        replay = self._replayed(game_id, idempotency_key, note)
        if replay is not None:
            return replay
        self._check_expected(game_id, live.history, expected_seq)
        return self._plan_append(game_id, live, [note], idempotency_key, actor, live.head_state)

    def amend(
        self,
        game_id: str,
        seq: int,
        body: Event,
        expected_seq: int | None = None,
        *,
        idempotency_key: str | None = None,
        actor: str = "",
    ) -> AppendResult:
        """Replace event ``seq``; the whole effective history after it is re-checked first."""
        return self._run(game_id, lambda: self._plan_amend(game_id, seq, body, expected_seq, idempotency_key, actor))

    def _plan_amend(
        self, game_id: str, seq: int, body: Event, expected_seq: int | None, idempotency_key: str | None, actor: str
    ) -> "_Planned":
        codec.check_numbers(body)
        replay = self._replayed(game_id, idempotency_key, Amended(seq=seq, body=_builtins(body)))
        if replay is not None:
            return replay
        live = self.projector.live(game_id)
        self._check_expected(game_id, live.history, expected_seq)
        if isinstance(body, Noted):
            if all(note.seq != seq for note in live.history.notes_at()):
                raise HistoryEditRefused(
                    "{name} is not a {title_name} event", params=dict(name=type(body).__name__, title_name=title_words(live.head_state.title)),
                    code="amend-not-a-move",
                    seq=seq,
                )
            body = msgspec.structs.replace(body, text=check_note(body.text))
            return self._plan_append(game_id, live, [Amended(seq=seq, body=_builtins(body))], idempotency_key, actor, live.head_state)
        entries = live.history.entries()
        index = next((i for i, e in enumerate(entries) if e.seq == seq), None)
        if index is None or index == 0:
            raise HistoryEditRefused(
                "seq {seq} is not a move in the effective history", params=dict(seq=seq), code="amend-not-effective", seq=seq
            )
        game = fold(start(entries[0].body), (e.body for e in entries[1:index]))
        if type(body) not in game.title.event_types:
            raise HistoryEditRefused(
                "{name} is not a {title_name} event", params=dict(name=type(body).__name__, title_name=title_words(game.title)), code="amend-not-a-move", seq=seq
            )
        amended: list[Event] = []
        try:
            decided = game.title.decide(game.state, body)
        except TabletapeError as exc:
            raise HistoryEditRefused(
                "the amended event at seq {seq} is illegal: {message_}", params=dict(seq=seq, message_=exc),
                code="amendment-illegal",
                breaking_seq=seq,
                rule=exc.code,
                # what the rule names (an undescribed component's kind and id: the page asks for it)
                **{k: v for k, v in exc.details.items() if k not in ("code", "breaking_seq", "rule")},
            ) from exc
        if len(decided) != 1:
            raise HistoryEditRefused("an amendment must stand for exactly one event", code="amend-shape")
        amended.append(Amended(seq=seq, body=_builtins(decided[0])))
        game = fold(game, decided)
        for later in entries[index + 1 :]:
            body_later = later.body
            if isinstance(body_later, GameEnded):
                outcome = game.title.outcome(game.state)
                if outcome is None:
                    raise HistoryEditRefused(
                        "after the amendment the game would not be over at seq {seq}", params=dict(seq=later.seq),
                        code="amendment-breaks-history",
                        breaking_seq=later.seq,
                    )
                fixed = GameEnded(scores=outcome.scores, ranks=outcome.ranks, winners=outcome.winners)
                if fixed != body_later:
                    amended.append(Amended(seq=later.seq, body=_builtins(fixed)))
                game = fold(game, [fixed])
                continue
            if isinstance(body_later, Forked):
                game = fold(game, [body_later])
                continue
            try:
                again = game.title.decide(game.state, body_later)
            except TabletapeError as exc:
                raise HistoryEditRefused(
                    "the amendment makes seq {seq} illegal: {message_}", params=dict(seq=later.seq, message_=exc),
                    code="amendment-breaks-history",
                    breaking_seq=later.seq,
                    rule=exc.code,
                ) from exc
            if tuple(again) != (body_later,):
                raise HistoryEditRefused(
                    "the amendment changes what seq {seq} recorded", params=dict(seq=later.seq),
                    code="amendment-breaks-history",
                    breaking_seq=later.seq,
                )
            game = fold(game, again)
        return self._plan_append(game_id, live, amended, idempotency_key, actor)

    # -- internals -------------------------------------------------------------------------

    def _plan_edit(
        self, game_id: str, edit: Event, expected_seq: int | None = None, idempotency_key: str | None = None,
        actor: str = "",
    ) -> "_Planned":
        replay = self._replayed(game_id, idempotency_key, edit)
        if replay is not None:
            return replay
        live = self.projector.live(game_id)
        self._check_expected(game_id, live.history, expected_seq)
        return self._plan_append(game_id, live, [edit], idempotency_key, actor)

    def _plan_append(
        self, game_id: str, live: Live, batch: list[Event], idempotency_key: str | None, actor: str,
        after: GameState | None = None,
    ) -> "_Append":
        """Simulate the batch on a copy of the history (it must be accepted) and add chance.

        ``after`` is the state after the batch when the caller folded it already (a move): then
        the projector is not asked again; a history edit's state comes from its snapshots."""
        history, now = live.history, live.head_state
        written = {note.seq for note in history.notes_at()}
        notes_only = all(isinstance(b, Noted) or (isinstance(b, Amended) and b.seq in written) for b in batch)
        if not notes_only:  # a note on a game recorded by its result alone changes nothing either
            refuse_score_only(now)
        trial = history.copy()
        for body in batch:
            trial.push(body)  # raises HistoryEditRefused before anything is written
        chance: list[Event] = []
        if now.created.seed is not None and not notes_only:
            game = after
            if game is None:
                game = self.projector.project(game_id, trial, trial.head, trial.last_seq, now, history.head)
            if game.ended is None:
                chance = self._chance_events(game, trial.last_seq + 1)
        return _Append(game_id, [*batch, *chance], history.last_seq, idempotency_key, actor)

    def _run(self, game_id: str, plan: Callable[[], "_Planned"]) -> AppendResult:
        """Plan and append under the game's lock, so the plan sees the state it appends to."""
        with self._game_lock(game_id):
            planned = plan()
            if isinstance(planned, AppendResult):
                return planned
            result = self.log.append(
                game_id, planned.events, planned.expected_seq, planned.idempotency_key, planned.actor
            )
            return self._applied(planned, result)

    async def _run_async(self, game_id: str, plan: Callable[[], "_Planned"]) -> AppendResult:
        """``_run`` for an event loop.

        Shielded: a writer that stops waiting (a client hung up) does not stop the write half way,
        so what was decided is appended, folded and announced in order all the same.
        """
        return await asyncio.shield(self._run_locked(game_id, plan))

    async def _run_locked(self, game_id: str, plan: Callable[[], "_Planned"]) -> AppendResult:
        """The game's lock is held across the awaited commit. Tasks queue on an asyncio lock
        first, so at most one of them per game waits for the thread lock (held only by a
        synchronous writer in another thread, if any)."""
        async with self._game_turns(game_id):
            lock = self._game_lock(game_id)
            await acquire_from_loop(lock)
            try:
                planned = plan()
                if isinstance(planned, AppendResult):
                    return planned
                result = await self.log.append_async(
                    game_id, planned.events, planned.expected_seq, planned.idempotency_key, planned.actor
                )
                return self._applied(planned, result)
            finally:
                lock.release()

    def _applied(self, planned: "_Append", result: AppendResult) -> AppendResult:
        self.projector.appended(planned.game_id, planned.events, result.first_seq)
        self._notify(planned.game_id, result)
        return result

    def _chance_events(self, game: GameState, seq: int) -> list[Event]:
        out: list[Event] = []
        while (event := draw_chance(game, seq)) is not None:
            out.append(event)
            game = fold(game, [event])
            seq += 1
        return out

    def _closing_events(self, game: GameState) -> list[Event]:
        outcome = game.title.outcome(game.state)
        if outcome is not None:
            return [GameEnded(scores=outcome.scores, ranks=outcome.ranks, winners=outcome.winners)]
        return []

    def _replayed(self, game_id: str, idempotency_key: str | None, request: Event) -> AppendResult | None:
        """The first result of a retried request; a key reused for another request is refused."""
        if idempotency_key is None:
            return None
        result = self.log.replayed(game_id, idempotency_key)
        if result is None:
            return None
        stored = self.log.read_bodies(game_id, result.first_seq, result.first_seq)[0]
        if type(stored) is not type(request) or not _matches(_builtins(request), _builtins(stored)):
            raise IdempotencyKeyReused(
                "idempotency key {idempotency_key!r} was already used for another request (seq {first_seq}..{last_seq})", params=dict(idempotency_key=idempotency_key, first_seq=result.first_seq, last_seq=result.last_seq),
                game_id=game_id,
                first_seq=result.first_seq,
                last_seq=result.last_seq,
            )
        return result

    def _refuse_taken_back(self, game_id: str, replay: AppendResult) -> None:
        """A retried move undone or amended since its first sending is refused, not answered as
        recorded: an offline phone resending it must drop it, and say so."""
        history = self.projector.live(game_id).history
        if not history.stands(replay.first_seq):
            raise MoveTakenBack(
                "this move was recorded at seq {first_seq} and has since been taken back (undone or corrected): it is not in the game now",
                params=dict(first_seq=replay.first_seq),
                game_id=game_id,
                first_seq=replay.first_seq,
                last_seq=replay.last_seq,
                current_seq=history.last_seq,
            )

    def _check_expected(self, game_id: str, history: History, expected_seq: int | None) -> None:
        if expected_seq is not None and expected_seq != history.last_seq:
            raise ConcurrencyConflict(
                "expected_seq {expected_seq} is stale: game {game_id} is at seq {last_seq}", params=dict(expected_seq=expected_seq, game_id=game_id, last_seq=history.last_seq),
                game_id=game_id,
                expected_seq=expected_seq,
                current_seq=history.last_seq,
            )


def _fork_notes(history: History, at_seq: int) -> list[Noted]:
    """The notes on the steps a fork copies, on the same steps of the fork (its steps' seqs: the
    creation 1, the fork's record 2, the copied steps from 3 on)."""
    entries = history.entries(at_seq)
    seqs = {entry.seq: 1 if index == 0 else index + 2 for index, entry in enumerate(entries)}
    return [Noted(seq=seqs[n.step_seq], text=n.body.text) for n in history.notes_at(at_seq) if n.step_seq in seqs]


class _Append(NamedTuple):
    """An append decided under the game's lock, not yet written."""

    game_id: str
    events: list[Event]
    expected_seq: int
    idempotency_key: str | None
    actor: str


_Planned = Union[AppendResult, _Append]  # a retried request's first result, or what to append


def _matches(request: Any, stored: Any) -> bool:
    """Whether a stored event is what the request asked for; a field left None was the rules' to fill."""
    if isinstance(request, dict) and isinstance(stored, dict):
        return all(value is None or (key in stored and _matches(value, stored[key])) for key, value in request.items())
    if isinstance(request, list) and isinstance(stored, list):
        return len(request) == len(stored) and all(_matches(a, b) for a, b in zip(request, stored))
    return request == stored


def _builtins(event: Event) -> dict[str, Any]:
    from events import codec

    return codec.to_builtins(event)
