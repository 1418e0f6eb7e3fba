"""Statistics benchmarks (issue 6): `python -m benchmarks.stats [--small]`. Prints its figures.

Generates 100,000 seeded random Lost Cities matches, 20,000 Marco Polo games and 20,000 Marco
Polo II games on the synthetic pack (legal play through the rules core, on every core), imports them through the log's bulk import, then times
every canned statistic, the statistics page's dashboard and player-page answers (target <= 200 ms
each), the full read-model rebuild (target >= 250,000 events/s), the full rating rebuild (target < 30 s)
and one re-rate after an amendment of a game 1,000 games back (target < 1 s), and the BG Stats export (``--score-only N`` also imports N
BG Stats plays as score-only games first, and times that import).

Generated games are cached in ``data/bench/stats/`` (gitignored), one msgpack file per chunk of
games, so a rerun only imports and measures.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import tempfile
import time
from pathlib import Path
from typing import Callable, Iterator

import msgspec

import rules  # noqa: F401  (registers the titles' events)
from events import codec
from events.base import Event
from events.log import new_game_id
from projections.stats.questions import Filters, Questions
from replay.simulate import random_game

from benchmarks.__main__ import table_like as lc_table_like
from benchmarks.common import median_ms, row
from benchmarks.marco_polo import table_like as mp_table_like

CACHE = Path(__file__).resolve().parents[1] / "data" / "bench" / "stats"
CHUNK = 2_000
NAMES = ("Ana", "Bea", "Carl", "Dana", "Eli", "Fay", "Gus", "Hana")


def players_for(seed: int, count: int) -> tuple[str, ...]:
    return tuple(random.Random(seed).sample(NAMES, count))


def lost_cities_match(seed: int) -> list[bytes]:
    """One 3-round match; a tenth of them with the 6-expedition option."""
    options = {"rounds": 3, "expeditions": 6 if seed % 10 == 0 else 5, "first_seat": seed % 2}
    events = random_game("lost-cities", players_for(seed, 2), options, seed=seed, policy=lc_table_like)
    return [codec.encode(e) for e in events]


def marco_polo_game(seed: int) -> list[bytes]:
    """One game of 2-4 players with characters dealt at random (first-game layout for a quarter)."""
    count = 2 + seed % 3
    options = {} if seed % 4 == 0 else {"characters": "chosen"}
    events = random_game("marco-polo", players_for(seed, count), options, seed=seed, policy=mp_table_like)
    return [codec.encode(e) for e in events]


def marco_polo_2_game(seed: int) -> list[bytes]:
    """One game of 2-4 players on the synthetic pack; half with the caravans."""
    from rules.marco_polo_2.content import SYNTHETIC

    from benchmarks.marco_polo_2 import table_like

    options = {"content": SYNTHETIC.ref, "caravans": bool(seed % 2), "characters": "all" if seed % 3 else "offer"}
    events = random_game("marco-polo-2", players_for(seed, 2 + seed % 3), options, seed=seed, policy=table_like)
    return [codec.encode(e) for e in events]


MAKERS = {"lost-cities": lost_cities_match, "marco-polo": marco_polo_game, "marco-polo-2": marco_polo_2_game}


def _chunk_path(title: str, index: int, count: int) -> Path:
    """The cached chunk ``index`` as needed for ``count`` games: a full chunk, else a short one
    named by its size (a later, larger count must not take a short chunk for a full one)."""
    full = CACHE / title / f"chunk-{index:05d}.msgpack"
    size = min(CHUNK, count - index * CHUNK)
    return full if size == CHUNK or full.exists() else full.with_name(f"chunk-{index:05d}-{size}.msgpack")


def ensure_cache(title: str, count: int, workers: int | None = None) -> None:
    """Generate the chunks of ``count`` games that are not cached yet (seeds 0..count-1)."""
    missing = [i for i in range((count + CHUNK - 1) // CHUNK) if not _chunk_path(title, i, count).exists()]
    if not missing:
        return
    (CACHE / title).mkdir(parents=True, exist_ok=True)
    make = MAKERS[title]
    with multiprocessing.get_context("fork").Pool(workers or os.cpu_count() or 1) as pool:
        for index in missing:
            seeds = range(index * CHUNK, min((index + 1) * CHUNK, count))
            games = pool.map(make, seeds, chunksize=16)
            path = _chunk_path(title, index, count)
            tmp = path.with_suffix(".tmp")
            tmp.write_bytes(msgspec.msgpack.encode(games))
            tmp.replace(path)  # a chunk is either whole or absent


def cached_games(title: str, count: int) -> Iterator[list[list[Event]]]:
    """The cached games, one chunk at a time (decoded)."""
    left = count
    for index in range((count + CHUNK - 1) // CHUNK):
        raw = msgspec.msgpack.decode(_chunk_path(title, index, count).read_bytes(), type=list[list[bytes]])
        games = [codec.decode_many(g) for g in raw[: min(left, CHUNK)]]
        left -= len(games)
        yield games


def import_cached(log, title: str, count: int, clock_ms: int) -> int:
    """Bulk-import the cached games in chunks; game ids are time-ordered from ``clock_ms``."""
    events = 0
    n = 0
    for games in cached_games(title, count):
        ids = [new_game_id(now_ms=clock_ms + n + i) for i in range(len(games))]
        events += log.import_games(zip(ids, games))
        n += len(games)
    return events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--small", action="store_true", help="5,000 + 1,000 games: a quick run")
    parser.add_argument("--lost-cities", type=int, default=None, help="Lost Cities matches")
    parser.add_argument("--marco-polo", type=int, default=None, help="Marco Polo games")
    parser.add_argument("--marco-polo-2", type=int, default=None, help="Marco Polo II games (synthetic pack)")
    parser.add_argument("--generate-only", action="store_true", help="fill the cache and stop")
    parser.add_argument("--db", default=None, help="keep the benchmark database here (default: a temp file)")
    parser.add_argument("--charts", default=None, help="also draw the example charts into this folder")
    parser.add_argument("--score-only", type=int, default=0, help="also import this many BG Stats plays (score-only)")
    args = parser.parse_args()
    lc = args.lost_cities if args.lost_cities is not None else (5_000 if args.small else 100_000)
    mp = args.marco_polo if args.marco_polo is not None else (1_000 if args.small else 20_000)
    mp2 = args.marco_polo_2 if args.marco_polo_2 is not None else (1_000 if args.small else 20_000)
    print(f"tabletape statistics benchmarks on {os.cpu_count()} cores "
          f"({lc:,} Lost Cities, {mp:,} Marco Polo, {mp2:,} Marco Polo II)")
    t0 = time.perf_counter()
    ensure_cache("lost-cities", lc)
    ensure_cache("marco-polo", mp)
    ensure_cache("marco-polo-2", mp2)
    row("generate (or load from the cache) the random legal games", f"{time.perf_counter() - t0:.1f} s", "(info)")
    if args.generate_only:
        return
    run(lc, mp, args.db, args.charts, args.score_only, mp2)


def draw_charts(ask: Questions, folder: str) -> None:
    """The README's example charts (SVG), from the benchmark's seeded games."""
    from projections.stats import charts

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    lc, mp = Filters(title="lost-cities"), Filters(title="marco-polo")
    (out / "lost-cities-scores.svg").write_bytes(charts.scores(ask.scores(lc)))
    (out / "lost-cities-seats.svg").write_bytes(charts.seats(ask.seats(lc)))
    (out / "marco-polo-scores.svg").write_bytes(charts.scores(ask.scores(mp)))
    (out / "marco-polo-characters.svg").write_bytes(
        charts.characters(ask.title_question(mp, "characters"), "marco-polo"))
    (out / "marco-polo-seats.svg").write_bytes(charts.seats(ask.seats(mp)))
    row(f"example charts written to {folder}", "5 files", "(info)")


def timed(fn: Callable[[], object], repeat: int = 5) -> float:
    """Median milliseconds of ``fn`` over ``repeat`` runs (after one warm-up run)."""
    fn()
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return median_ms(samples)


def canned(ask: Questions) -> list[tuple[str, Callable[[], object]]]:
    lc, mp, mp2 = Filters(title="lost-cities"), Filters(title="marco-polo"), Filters(title="marco-polo-2")
    return [
        ("leaderboard, every title", lambda: ask.leaderboard(Filters())),
        ("leaderboard, Lost Cities, option expeditions=6", lambda: ask.leaderboard(
            Filters(title="lost-cities", options=(("expeditions", 6),)))),
        ("leaderboard, games with one player", lambda: ask.leaderboard(Filters(player="ana"))),
        ("head-to-head, one player against each rival", lambda: ask.head_to_head(Filters(player="ana"))),
        ("head-to-head, every pair", lambda: ask.head_to_head(Filters())),
        ("win rate by seat and first player, Lost Cities", lambda: ask.seats(lc)),
        ("win rate by seat and first player, Marco Polo", lambda: ask.seats(mp)),
        ("score distribution, Lost Cities", lambda: ask.scores(lc)),
        ("score distribution, Marco Polo", lambda: ask.scores(mp)),
        ("points by source, Lost Cities", lambda: ask.sources(lc)),
        ("points by source, Marco Polo", lambda: ask.sources(mp)),
        ("Lost Cities: expedition score by wagers", lambda: ask.title_question(lc, "wagers")),
        ("Lost Cities: 8-card bonus frequency", lambda: ask.title_question(lc, "bonus")),
        ("Lost Cities: expeditions opened and score per round", lambda: ask.title_question(lc, "rounds")),
        ("Marco Polo: win rate and score by character", lambda: ask.title_question(mp, "characters")),
        ("Marco Polo: does reaching Beijing first win", lambda: ask.title_question(mp, "beijing")),
        ("Marco Polo: contracts completed vs rank", lambda: ask.title_question(mp, "contracts")),
        ("win rate by seat and first player, Marco Polo II", lambda: ask.seats(mp2)),
        ("score distribution, Marco Polo II", lambda: ask.scores(mp2)),
        ("points by source, Marco Polo II", lambda: ask.sources(mp2)),
        ("Marco Polo II: win rate and score by character", lambda: ask.title_question(mp2, "characters")),
        ("Marco Polo II: contracts completed vs rank", lambda: ask.title_question(mp2, "contracts")),
    ]


def page_answers(read_models) -> tuple[str, list[tuple[str, Callable[[], object]]]]:
    """The statistics page's answers: ``projections.stats.pages`` where it exists; else the
    queries its dashboard and player page need, through the canned questions (named so)."""
    try:
        from projections.stats.pages import Pages
    except ImportError:
        ask = Questions(read_models)
        both = ("lost-cities", "marco-polo")
        return "via canned questions", [
            ("dashboard via leaderboard, head-to-head, scores, seats", lambda: (
                ask.leaderboard(Filters()), ask.head_to_head(Filters()),
                [(ask.scores(Filters(title=t)), ask.seats(Filters(title=t))) for t in both])),
            ("player page via 7 canned questions of one player", lambda: (
                ask.leaderboard(Filters(player="ana")), ask.head_to_head(Filters(player="ana")),
                [(ask.seats(Filters(title=t, player="ana")), ask.sources(Filters(title=t, player="ana")))
                 for t in both],
                ask.title_question(Filters(title="marco-polo", player="ana"), "characters"))),
        ]
    pages = Pages(read_models)
    return "Pages", [
        ("dashboard, every title (Pages.dashboard)", lambda: pages.dashboard(Filters())),
        ("dashboard, Lost Cities (Pages.dashboard)", lambda: pages.dashboard(Filters(title="lost-cities"))),
        ("player page, every title (Pages.player)", lambda: pages.player("Ana", Filters())),
        ("player page, Marco Polo (Pages.player)", lambda: pages.player("Ana", Filters(title="marco-polo"))),
        ("page index (Pages.index)", lambda: pages.index()),
    ]


def bgstats_plays(count: int) -> dict:
    """A BG Stats export of ``count`` plays of the three titles, seeded (for the score-only import)."""
    from api.formats.bgstats import BGG

    rng = random.Random(15)
    titles = sorted(BGG)
    plays = []
    for n in range(count):
        title = titles[n % len(titles)]
        seats = rng.sample(range(len(NAMES)), 2 if title == "lost-cities" else rng.choice((2, 3, 4)))
        scores = [rng.randint(-40, 120) for _ in seats]
        plays.append({
            "uuid": f"BENCH-{n:08d}", "gameRefId": titles.index(title) + 1, "durationMin": rng.randint(20, 150),
            "playDate": f"20{20 + n % 6}-{1 + n % 12:02d}-{1 + n % 28:02d} 20:00:00",
            "playerScores": [{"playerRefId": p + 1, "score": str(s), "seatOrder": i + 1, "startPlayer": i == 0,
                              "winner": s == max(scores)} for i, (p, s) in enumerate(zip(seats, scores))],
        })
    return {
        "games": [{"id": i + 1, "name": BGG[t][1], "bggId": BGG[t][0]} for i, t in enumerate(titles)],
        "players": [{"id": i + 1, "name": name} for i, name in enumerate(NAMES)],
        "plays": plays,
    }


def run(lc: int, mp: int, db: str | None, charts_dir: str | None = None, score_only: int = 0, mp2: int = 0) -> None:
    from events.duckdb_log import DuckDBEventLog
    from projections.read_models import ReadModels
    from projections.stats import sql

    path = db or os.path.join(tempfile.mkdtemp(prefix="tabletape-stats-"), "stats.duckdb")
    if os.path.exists(path):
        os.remove(path)
    log = DuckDBEventLog(path)
    t0 = time.perf_counter()
    events = import_cached(log, "lost-cities", lc, 1_700_000_000_000)
    events += import_cached(log, "marco-polo", mp, 1_700_000_000_000 + lc)
    events += import_cached(log, "marco-polo-2", mp2, 1_700_000_000_000 + lc + mp)
    seconds = time.perf_counter() - t0
    row(f"bulk import of {lc + mp + mp2:,} games ({events:,} events)", f"{events / seconds:,.0f} ev/s", "(info)")
    read_models = ReadModels(log, catch_up=False)  # the rebuild below is the catch-up, timed
    t0 = time.perf_counter()
    games = read_models.rebuild()
    seconds = time.perf_counter() - t0
    rate = events / seconds
    row(f"full read-model rebuild ({games:,} games, {events:,} events, {seconds:.1f} s)", f"{rate:,.0f} ev/s",
        ">= 250,000 ev/s", rate >= 250_000)
    if score_only:
        from api.formats import bgstats
        from projections.projector import Projector

        document = bgstats_plays(score_only)
        t0 = time.perf_counter()
        report = bgstats.import_document(log, Projector(log, read_models=False), document)
        row(f"BG Stats import of {len(report.imported):,} plays as score-only games",
            f"{time.perf_counter() - t0:.1f} s", "(info)")
    ask = Questions(read_models)
    worst = 0.0
    for name, fn in canned(ask):
        ms = timed(fn)
        worst = max(worst, ms)
        row(f"  {name} (median)", f"{ms:.1f} ms", "<= 200 ms", ms <= 200)
    row("slowest canned statistic", f"{worst:.1f} ms", "<= 200 ms", worst <= 200)
    how, answers = page_answers(read_models)
    worst = 0.0
    for name, fn in answers:
        ms = timed(fn, repeat=3)
        worst = max(worst, ms)
        row(f"  {name} (median)", f"{ms:.1f} ms", "<= 200 ms", ms <= 200)
    row(f"slowest page answer ({how})", f"{worst:.1f} ms", "<= 200 ms", worst <= 200)
    from api.formats import bgstats

    t0 = time.perf_counter()
    plays = len(bgstats.export(read_models)["plays"])
    row(f"BG Stats export of every finished game ({plays:,} plays)", f"{time.perf_counter() - t0:.1f} s", "(info)")
    ms = timed(lambda: read_models.refresh(), repeat=20)
    row("refresh with nothing new (every question pays it)", f"{ms:.2f} ms", "(info)")
    bench_catch_up(log, read_models)
    bench_ratings(log, read_models)
    ms = timed(lambda: sql.run(read_models, "SELECT title, count(*) FROM games GROUP BY title"), repeat=3)
    row("SQL sandbox: count games by title (copies the games view)", f"{ms:.1f} ms", "(info)")
    if charts_dir:
        draw_charts(ask, charts_dir)
    log.close()


def bench_catch_up(log, read_models) -> None:
    """A game recorded while the statistics are current, then one question: the lazy catch-up."""
    from projections.projector import Projector
    from replay.recorder import Recorder

    recorder = Recorder(log, Projector(log))
    game_id, _ = recorder.create("lost-cities", ("Ana", "Bea"), {"rounds": 1}, seed=7)
    rng = random.Random(7)
    while recorder.projector.state(game_id).ended is None:
        game = recorder.projector.state(game_id)
        moves = game.title.legal_moves(game.state)
        recorder.record(game_id, moves[rng.randrange(len(moves))])
    t0 = time.perf_counter()
    changed = read_models.refresh()
    ms = (time.perf_counter() - t0) * 1000
    row(f"catch-up of {changed} game(s) recorded since the last question", f"{ms:.1f} ms", "(info)")


def bench_ratings(log, read_models, back: int = 1_000) -> None:
    """The full rating rebuild, then one amendment of a game ``back`` games before the latest of
    its title and the re-rate it causes: from that game on, from the ratings kept before it."""
    from projections.stats.ratings import Ratings

    ratings = Ratings(read_models)
    # the CPU time beside the wall time: on a machine shared with other work the two differ
    t0, c0 = time.perf_counter(), time.process_time()
    games = ratings.rebuild()
    rebuild_s, cpu_s = time.perf_counter() - t0, time.process_time() - c0
    row(f"full rating rebuild ({games:,} finished games; CPU {cpu_s:.1f} s)", f"{rebuild_s:.1f} s", "< 30 s", rebuild_s < 30)
    ms = timed(lambda: ratings.refresh(), repeat=20)
    row("ratings refresh with nothing new", f"{ms:.2f} ms", "(info)")
    target = read_models.con.execute(
        """SELECT game_id FROM games WHERE status = 'ended' AND parent_id IS NULL AND NOT score_only AND title = 'lost-cities'
        ORDER BY ended_at DESC, game_id DESC LIMIT 1 OFFSET ?""",
        [back],
    ).fetchall()
    if not target:
        row("re-rate after an amendment", "no recorded Lost Cities game to amend", "(info)")
        return
    game_id = target[0][0]
    if not amend_the_winner(log, game_id):
        row("re-rate after an amendment", "no amendment changed the winner", "(info)")
        return
    t0, c0 = time.perf_counter(), time.process_time()
    rerated = ratings.refresh()
    seconds, cpu_s = time.perf_counter() - t0, time.process_time() - c0
    row(f"re-rate after amending a game {back:,} back ({rerated:,} re-rated; CPU {cpu_s * 1000:.0f} ms)",
        f"{seconds * 1000:.0f} ms", "< 1 s", seconds < 1)
    row("  of which: rating one game (the rebuild's mean)", f"{1e6 * rebuild_s / max(games, 1):.0f} µs", "(info)")


def amend_the_winner(log, game_id: str) -> bool:
    """Amend moves of a game, the latest first, until its winner changes (True) or none can."""
    from events.errors import HistoryEditRefused
    from projections.projector import Projector
    from replay.recorder import Recorder

    projector = Projector(log, read_models=False)
    recorder = Recorder(log, projector)
    was = projector.state(game_id).ended
    for entry in reversed(projector.live(game_id).history.entries()[1:-1]):
        game = projector.state_at(game_id, entry.seq - 1)
        for move in game.title.legal_moves(game.state):
            if move == entry.body:
                continue
            try:
                recorder.amend(game_id, entry.seq, move)
            except HistoryEditRefused:
                continue
            if projector.state(game_id).ended.ranks != was.ranks:
                return True
    return False


if __name__ == "__main__":
    main()
