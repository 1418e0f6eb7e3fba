"""Golden logs: whole logs of every title written by the code of their day, each with the state and
score it folded to (``tests/golden/logs/``), and the shape of every event type then
(``tests/golden/event_shapes.json``). Later code must read them to the same results.

Regenerate (never in tests) only when the change is meant, and say why in the commit:
``PYTHONPATH=. python -m tests.golden_logs [logs] [shapes]`` (both by default).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

import msgspec
from msgspec import inspect

import rules  # noqa: F401  (registers the titles' events)
from events import codec, upcasting
from events.duckdb_log import DuckDBEventLog
from events.errors import TabletapeError
from events.lifecycle import GameCreated, ScoreOnly, score_only_end
from projections.fold import GameState
from projections.projector import Projector
from replay.recorder import Recorder
from rules.marco_polo_2.content import SYNTHETIC
from tests import golden_games

LOGS = golden_games.GOLDEN / "logs"
SHAPES = golden_games.GOLDEN / "event_shapes.json"
PLAYERS = ("Ana", "Bea", "Cai")


# -- what a game folded to -----------------------------------------------------------------------


def outcome(game: GameState) -> dict[str, Any]:
    """What a reader of the game sees at its head: the end, the score sheet, and the whole state
    (as a digest: any difference in it is a difference)."""
    ended = game.ended
    return {
        "length": game.length,
        "ended": None if ended is None else {"scores": list(ended.scores), "ranks": list(ended.ranks), "winners": list(ended.winners)},
        "score": msgspec.to_builtins(game.title.score(game.state)),
        "state": hashlib.sha256(msgspec.msgpack.encode(game.state)).hexdigest(),
    }


def read_logs() -> dict[str, list[bytes]]:
    """Every golden game's stored bodies (msgpack, as a log holds them), by game id, in seq order."""
    games: dict[str, list[bytes]] = {}
    for path in sorted(LOGS.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            games.setdefault(record["game_id"], []).append(msgspec.msgpack.encode(record["body"]))
    return games


def expected() -> dict[str, Any]:
    return json.loads((LOGS / "expected.json").read_text(encoding="utf-8"))


def replay_into(log: DuckDBEventLog) -> dict[str, Any]:
    """Decode every golden log as stored bodies, import it into ``log``, and fold each game afresh."""
    games = read_logs()
    log.import_games((game_id, codec.decode_many(bodies)) for game_id, bodies in games.items())
    projector = Projector(log)
    return {game_id: outcome(projector.state(game_id)) for game_id in games}


# -- what each event type looks like ---------------------------------------------------------------


def shapes() -> dict[str, Any]:
    """Every registered event type's shape (its fields as stored, their types, which are
    required, their defaults) and version, by tag."""
    now = {
        tag: {"version": upcasting.version_of(event_type), "shape": _shape(inspect.type_info(event_type))}
        for tag, event_type in sorted(codec.registered().items())
    }
    return json.loads(json.dumps(now))  # as the snapshot reads back: tuples are lists


def _shape(t: Any) -> Any:
    if isinstance(t, inspect.StructType):
        return {"fields": {f.encode_name: _field(f) for f in t.fields}}
    if isinstance(t, inspect.EnumType):
        return {"enum": sorted(msgspec.to_builtins([m.value for m in t.cls]))}
    said: dict[str, Any] = {"kind": type(t).__name__.removesuffix("Type")}
    for name in t.__struct_fields__:
        value = getattr(t, name)
        if value is not None and name != "cls":
            said[name] = [_shape(v) for v in value] if name in ("types", "item_types") else (
                _shape(value) if isinstance(value, inspect.Type) else msgspec.to_builtins(value)
            )
    return said


def _field(f: inspect.Field) -> dict[str, Any]:
    if f.required:
        return {"type": _shape(f.type)}
    default = f.default if f.default is not msgspec.NODEFAULT else f.default_factory()
    return {"type": _shape(f.type), "default": msgspec.to_builtins(default)}


def shape_changes(recorded: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """What changed since ``recorded`` that old logs could not be read through: a tag gone, or a
    shape changed with no upcaster from the recorded version."""
    changes = []
    for tag, then in sorted(recorded.items()):
        if tag not in now:
            changes.append(f"{tag}: no event type reads it any more, and old logs hold it")
        elif now[tag]["shape"] != then["shape"] and not upcasting.has_upcaster(tag, then["version"]):
            changed = f"{tag}: its shape changed ({_difference(then['shape'], now[tag]['shape'])}) with no upcaster from version {then['version']}"
            if _additive(then["shape"], now[tag]["shape"]):
                changes.append(
                    f"{changed}; the new fields have defaults, so old bodies read them as their defaults: if that is what "
                    f"old games meant, record the shape (PYTHONPATH=. python -m tests.golden_logs shapes)"
                )
            else:
                changes.append(
                    f"{changed}: register_upcaster({tag!r}, {then['version']}, fn) and declare "
                    f"v: int = {then['version'] + 1} (see docs/design.md, 'Old logs stay readable')"
                )
    return changes


def _additive(then: dict[str, Any], now: dict[str, Any]) -> bool:
    old, new = then["fields"], now["fields"]
    return all(new.get(name) == field for name, field in old.items()) and all("default" in new[name] for name in new.keys() - old.keys())


def _difference(then: dict[str, Any], now: dict[str, Any]) -> str:
    old, new = then["fields"], now["fields"]
    said = [f"-{name}" for name in old if name not in new] + [f"+{name}" for name in new if name not in old]
    return " ".join(said + [f"~{name}" for name in old if name in new and old[name] != new[name]])


# -- writing them (by hand, never in tests) --------------------------------------------------------


def _play(recorder: Recorder, game_id: str, rng: random.Random, moves: int | None = None) -> None:
    """Random legal moves until the game ends (or ``moves`` were made)."""
    while moves is None or moves > 0:
        game = recorder.projector.state(game_id)
        if game.ended is not None:
            return
        legal = game.title.legal_moves(game.state)
        recorder.record(game_id, legal[rng.randrange(len(legal))])
        moves = None if moves is None else moves - 1


def _amend_some_move(recorder: Recorder, game_id: str, rng: random.Random) -> None:
    """Replace an earlier move with another move legal there, the first that keeps the rest legal."""
    projector = recorder.projector
    entries = projector.history(game_id).entries()
    for entry in rng.sample(entries[2:-1], len(entries) - 3):
        before = projector.state_at(game_id, entries[entries.index(entry) - 1].seq)
        for move in before.title.legal_moves(before.state):
            if move != entry.body and type(move) in before.title.event_types:
                try:
                    recorder.amend(game_id, entry.seq, move)
                    return
                except TabletapeError:
                    continue
    raise RuntimeError(f"no move of {game_id} can be amended")


def _edited(recorder: Recorder, title: str, options: dict[str, Any], seed: int) -> list[str]:
    """A digital game with an undo, a redo, an amendment and a fork, both played to the end."""
    rng = random.Random(seed)
    game_id, _ = recorder.create(title, PLAYERS[:2], options, seed=seed, game_id=f"{title}-edited")
    _play(recorder, game_id, rng, 12)
    recorder.undo(game_id, recorder.log.last_seq(game_id) - 3)
    recorder.redo(game_id)
    _play(recorder, game_id, rng, 6)
    recorder.undo(game_id, recorder.log.last_seq(game_id) - 2)
    _amend_some_move(recorder, game_id, rng)
    fork_id, _ = recorder.fork(game_id, recorder.log.last_seq(game_id) - 4, new_id=f"{title}-forked")
    _play(recorder, game_id, rng)
    _play(recorder, fork_id, rng)
    return [game_id, fork_id]


def _score_only(log: DuckDBEventLog, title: str) -> list[str]:
    created = GameCreated(title=title, players=PLAYERS[:2], options={})
    marker = ScoreOnly(source="bgstats", ref=f"{title}-play", played_at="2025-06-01T18:30:00", duration_min=45, start_seat=1)
    game_id = f"{title}-score-only"
    log.import_games([(game_id, [created, marker, score_only_end((31, 40), (1,))])])
    return [game_id]


def _from_notation(recorder: Recorder, title: str) -> list[str]:
    """The hand-worked golden games of a title, recorded move by move."""
    ids = []
    for path in golden_games.files(title):
        players, options, moves, _, _ = golden_games.load(path)
        game_id, _ = recorder.create(title, players, options, game_id=f"{title}-{path.stem}")
        for text in moves:
            recorder.record_notation(game_id, text)
        ids.append(game_id)
    return ids


def _digital(recorder: Recorder, title: str, options: dict[str, Any], seeds: range, players: int = 2) -> list[str]:
    ids = []
    for seed in seeds:
        game_id, _ = recorder.create(title, PLAYERS[:players], options, seed=seed, game_id=f"{title}-digital-{seed}")
        _play(recorder, game_id, random.Random(seed))
        ids.append(game_id)
    return ids


def write_shapes() -> None:
    """One tag a line, so a diff names the tags that changed."""
    lines = [f"{json.dumps(tag)}: {json.dumps(shape, sort_keys=True)}" for tag, shape in shapes().items()]
    SHAPES.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")


def write_logs() -> None:
    log = DuckDBEventLog(":memory:")
    recorder = Recorder(log, Projector(log))
    mp2 = {"content": SYNTHETIC.ref}
    titles = {
        "lost-cities": _digital(recorder, "lost-cities", {"rounds": 1}, range(1, 2))
        + _edited(recorder, "lost-cities", {"rounds": 1}, 7),
        "marco-polo": _from_notation(recorder, "marco-polo") + _digital(recorder, "marco-polo", {}, range(1, 2), 3)
        + _edited(recorder, "marco-polo", {}, 7),
        "marco-polo-2": _from_notation(recorder, "marco-polo-2") + _digital(recorder, "marco-polo-2", mp2, range(1, 2))
        + _edited(recorder, "marco-polo-2", mp2, 7),
    }
    LOGS.mkdir(exist_ok=True)
    for title, game_ids in titles.items():
        game_ids += _score_only(log, title)
        lines = [
            json.dumps({"game_id": game_id, "seq": e.seq, "body": codec.to_builtins(e.body)}, ensure_ascii=False, separators=(",", ":"))
            for game_id in game_ids
            for e in log.read(game_id)
        ]
        (LOGS / f"{title}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    outcomes = replay_into(DuckDBEventLog(":memory:"))
    projector = Projector(log)
    assert outcomes == {game_id: outcome(projector.state(game_id)) for game_id in outcomes}, "a log reads back as written"
    (LOGS / "expected.json").write_text(json.dumps(outcomes, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    what = sys.argv[1:] or ["logs", "shapes"]
    if "logs" in what:
        write_logs()
    if "shapes" in what:
        write_shapes()
