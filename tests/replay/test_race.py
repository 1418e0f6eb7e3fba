"""The score race: the turning point and the biggest swing read from a series, and the series
of real games folded once, public while a game goes on and the end's scoring after it."""

from __future__ import annotations

from events.lifecycle import GameEnded
from projections.fold import fold_all
from replay.race import Swing, biggest_swing, leads, race, turning_point
from replay.simulate import random_game
from rules.lost_cities import CardPlayed


def test_the_turning_point_is_the_step_after_which_the_winner_led_for_good():
    series = [(0, 0), (5, 0), (5, 9), (12, 9), (12, 10), (15, 10)]
    assert turning_point(series, (0,)) == 3
    # a leader from the first step
    assert turning_point([(0, 0), (3, 0), (4, 1), (9, 2)], (0,)) == 1
    # the lead taken on the last step alone
    assert turning_point([(0, 0), (0, 4), (5, 4)], (0,)) == 2


def test_a_level_game_and_a_game_without_winners_have_no_turning_point():
    assert turning_point([(0, 0), (4, 4)], (0, 1)) is None
    assert turning_point([(0, 0), (4, 2)], ()) is None
    assert turning_point([], (0,)) is None


def test_a_tie_broken_outside_the_score_counts_as_led_on_the_last_step():
    # equal scores at the end, the winner by camels: the outcome puts them ahead there
    assert turning_point([(0, 0), (6, 2), (6, 6)], (0,)) == 1
    assert turning_point([(0, 0), (6, 6), (6, 6)], (0,)) == 2
    assert not leads((6, 6), (0,))


def test_three_and_four_seats_and_partners_as_one_side():
    three = [(0, 0, 0), (2, 3, 1), (6, 3, 7), (8, 3, 7), (8, 9, 7), (11, 9, 7)]
    assert turning_point(three, (0,)) == 5
    # partners (seats 0 and 2, 1 and 3) share their side's score and win together
    four = [(0, 0, 0, 0), (-20, 0, -20, 0), (-20, -40, -20, -40), (5, -40, 5, -40)]
    assert turning_point(four, (0, 2)) == 2
    assert turning_point(four, (1, 3)) == 3
    # two winners sharing a victory over a third seat
    assert turning_point([(0, 0, 0), (4, 4, 1), (5, 5, 9), (10, 10, 9)], (0, 1)) == 3


def test_the_biggest_swing_is_the_largest_change_of_one_seat_earliest_on_a_tie():
    series = [(0, 0), (-20, 0), (-20, -60), (10, -60), (10, 0)]
    assert biggest_swing(series) == Swing(step=2, seat=1, delta=-60)
    assert biggest_swing([(0, 0), (0, 5), (5, 5)]) == Swing(step=1, seat=1, delta=5)
    assert biggest_swing([(0, 0), (0, 0)]) is None
    assert biggest_swing([]) is None


def test_within_a_step_the_seat_that_moved_names_the_swing():
    series = [(0, 0, 0, 0), (-40, 0, -40, 0)]
    assert biggest_swing(series, (None, 2)) == Swing(step=1, seat=2, delta=-40)
    assert biggest_swing(series) == Swing(step=1, seat=0, delta=-40)


def _imported(log, events):
    game_id = "race-game"
    log.import_games([(game_id, events)])
    return game_id


def test_an_ended_game_races_to_its_outcome_and_names_its_steps(log, projector):
    events = random_game("lost-cities", ("Ana", "Bea"), {"rounds": 2}, seed=3)
    game_id = _imported(log, events)
    got = race(projector, game_id)
    ended = events[-1]
    assert isinstance(ended, GameEnded)
    assert not got.public_only and got.players == ("Ana", "Bea")
    assert got.steps == tuple(range(len(events)))
    assert got.scores[0] == (0, 0) and got.scores[-1] == ended.scores
    assert got.winners == ended.winners
    # every step's scores are the rules core's own, as if folded from scratch
    for step in (5, len(events) // 2, len(events) - 2):
        game = fold_all(events[: step + 1])
        assert got.scores[step] == game.title.score_after(game.state, False)
    if got.turning_point is not None:
        assert all(leads(s, got.winners) for s in got.scores[got.turning_point:-1])
    assert got.swing is not None
    assert "step " in str(got.swing_words) and "(round " in str(got.swing_words) and "points for" in str(got.swing_words)


def test_a_lost_cities_expedition_counts_as_it_lies_on_the_table(log, projector):
    events = random_game("lost-cities", ("Ana", "Bea"), {"rounds": 1}, seed=5)
    first = next(i for i, e in enumerate(events) if isinstance(e, CardPlayed))
    game_id = _imported(log, events[: first + 1])
    got = race(projector, game_id)
    assert got.public_only and got.winners == () and got.turning_point is None
    seat = events[first].seat
    assert got.scores[-1][seat] < 0 and got.scores[-1][1 - seat] == 0  # a new expedition costs 20 first


def test_a_marco_polo_game_in_progress_counts_the_score_track_alone(log, projector):
    from rules.marco_polo_2.content import SYNTHETIC

    chosen = {"marco-polo": {"characters": "chosen"}, "marco-polo-2": {"content": SYNTHETIC.ref, "characters": "all"}}
    for title, options in chosen.items():
        events = random_game(title, ("Ana", "Bea", "Cy"), options, seed=2)
        game_id = f"race-{title}"
        log.import_games([(game_id, events[: len(events) * 2 // 3])])
        got = race(projector, game_id)
        game = fold_all(events[: len(events) * 2 // 3])
        assert got.public_only
        assert got.scores[-1] == tuple(p.vp for p in game.state.seats)
        assert len(got.scores[-1]) == 3
        log.import_games([(f"race-{title}-ended", events)])
        whole = race(projector, f"race-{title}-ended")
        assert not whole.public_only and whole.scores[-1] == events[-1].scores  # the end's own scoring
        assert whole.winners == events[-1].winners


def test_a_game_the_table_ended_early_races_to_the_winners_it_recorded(log, projector):
    events = random_game("lost-cities", ("Ana", "Bea"), {"rounds": 1}, seed=5)[:30]
    game_id = _imported(log, [*events, GameEnded(scores=(5, 3), ranks=(1, 2), winners=(0,))])
    got = race(projector, game_id)
    assert not got.public_only and got.winners == (0,) and got.steps[-1] == 30
