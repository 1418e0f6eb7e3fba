"""Every error code the Lost Cities core raises, in one place. Codes are stable: clients match on them.

Rule violations raise ``IllegalMove``; recorded facts that contradict what is already known
raise ``ContradictsKnownFacts``; bad options raise ``InvalidOptions``.
"""

from __future__ import annotations

# the titles' rules call codes.illegal(...): the one way of raising is the errors module's
from events.errors import bad_options, contradiction, illegal  # noqa: F401

# --- notation and shape of a move -------------------------------------------------------------
BAD_NOTATION = "lost-cities.bad-notation"
UNKNOWN_EVENT = "lost-cities.unknown-event"
UNKNOWN_CARD = "lost-cities.unknown-card"
UNKNOWN_SOURCE = "lost-cities.unknown-source"
UNKNOWN_SEAT = "lost-cities.unknown-seat"
# --- phase and turn order ---------------------------------------------------------------------
NOT_YOUR_TURN = "lost-cities.not-your-turn"
PLAY_THEN_DRAW = "lost-cities.play-then-draw"
AWAITING_DEAL = "lost-cities.awaiting-deal"
ROUND_IN_PROGRESS = "lost-cities.round-in-progress"
WRONG_ROUND = "lost-cities.wrong-round"
GAME_OVER = "lost-cities.game-over"
# --- dealing ----------------------------------------------------------------------------------
DEAL_EIGHT_EACH = "lost-cities.deal-eight-each"
SHUFFLE_NOT_FULL_DECK = "lost-cities.shuffle-not-full-deck"
# --- expeditions ------------------------------------------------------------------------------
EXPEDITION_MUST_ASCEND = "lost-cities.expedition-must-ascend"
NO_EQUAL_VALUES = "lost-cities.no-equal-values"
WAGER_AFTER_NUMBER = "lost-cities.wager-after-number"
TOO_MANY_WAGERS = "lost-cities.too-many-wagers"
# --- drawing ----------------------------------------------------------------------------------
DISCARD_PILE_EMPTY = "lost-cities.discard-pile-empty"
NO_REDRAW_OF_DISCARD = "lost-cities.no-redraw-of-discard"
DRAW_PILE_EMPTY = "lost-cities.draw-pile-empty"
# --- partnership passes -----------------------------------------------------------------------
PASS_ONLY_IN_PARTNERSHIP = "lost-cities.pass-only-in-partnership"
PASS_BELOW_SIX = "lost-cities.pass-below-six"
PASS_TWO_CARDS = "lost-cities.pass-two-cards"
CARD_MUST_BE_NAMED = "lost-cities.card-must-be-named"
# --- contradictions with known facts ----------------------------------------------------------
CARD_NOT_IN_HAND = "lost-cities.card-not-in-hand"
CARD_ALREADY_SEEN = "lost-cities.card-already-seen"
DRAWN_CARD_MISMATCH = "lost-cities.drawn-card-mismatch"
REVEAL_WRONG_SIZE = "lost-cities.reveal-wrong-size"
REVEAL_MISSING_KNOWN_CARD = "lost-cities.reveal-missing-known-card"
# --- options ----------------------------------------------------------------------------------
BAD_OPTIONS = "lost-cities.bad-options"
PLAYER_COUNT = "lost-cities.player-count"

ILLEGAL_MOVE_CODES: tuple[str, ...] = (
    BAD_NOTATION,
    UNKNOWN_EVENT,
    UNKNOWN_CARD,
    UNKNOWN_SOURCE,
    UNKNOWN_SEAT,
    NOT_YOUR_TURN,
    PLAY_THEN_DRAW,
    AWAITING_DEAL,
    ROUND_IN_PROGRESS,
    WRONG_ROUND,
    GAME_OVER,
    DEAL_EIGHT_EACH,
    SHUFFLE_NOT_FULL_DECK,
    EXPEDITION_MUST_ASCEND,
    NO_EQUAL_VALUES,
    WAGER_AFTER_NUMBER,
    TOO_MANY_WAGERS,
    DISCARD_PILE_EMPTY,
    NO_REDRAW_OF_DISCARD,
    DRAW_PILE_EMPTY,
    PASS_ONLY_IN_PARTNERSHIP,
    PASS_BELOW_SIX,
    PASS_TWO_CARDS,
    CARD_MUST_BE_NAMED,
)
CONTRADICTION_CODES: tuple[str, ...] = (
    CARD_NOT_IN_HAND,
    CARD_ALREADY_SEEN,
    DRAWN_CARD_MISMATCH,
    REVEAL_WRONG_SIZE,
    REVEAL_MISSING_KNOWN_CARD,
)
OPTION_CODES: tuple[str, ...] = (BAD_OPTIONS, PLAYER_COUNT)
#: every code, listable and stable
CODES: tuple[str, ...] = ILLEGAL_MOVE_CODES + CONTRADICTION_CODES + OPTION_CODES
