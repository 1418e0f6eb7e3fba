"""Every error code the Marco Polo II core raises. Codes are stable: clients match on them.

Rule violations raise ``IllegalMove``; facts that contradict what is known (a component seen twice,
a description that differs from the pack) raise ``ContradictsKnownFacts``; bad options or a bad
content pack raise ``InvalidOptions``.
"""

from __future__ import annotations

# the titles' rules call codes.illegal(...): the one way of raising is the errors module's
from events.errors import bad_options, contradiction, illegal  # noqa: F401

P = "marco-polo-2."
# --- shape --------------------------------------------------------------------------------------
BAD_NOTATION = P + "bad-notation"
UNKNOWN_EVENT = P + "unknown-event"
UNKNOWN_SEAT = P + "unknown-seat"
UNKNOWN_ID = P + "unknown-id"
BAD_DIE = P + "bad-die"
BAD_CHOICE = P + "bad-choice"
MISSING_CHOICE = P + "missing-choice"
EXTRA_CHOICE = P + "extra-choice"
# --- phase and turn order ------------------------------------------------------------------------
NOT_YOUR_TURN = P + "not-your-turn"
NOT_EXPECTED = P + "not-expected-now"
PENDING_FIRST = P + "pending-first"
WRONG_ROUND = P + "wrong-round"
GAME_OVER = P + "game-over"
SETUP_SHAPE = P + "setup-shape"
NOT_OFFERED = P + "not-offered"
# --- components ----------------------------------------------------------------------------------
UNDESCRIBED = P + "undescribed-component"
BAD_DESCRIPTION = P + "bad-description"
DESCRIPTION_MISMATCH = P + "description-mismatch"
DUPLICATE_COMPONENT = P + "duplicate-component"
GOAL_MISMATCH = P + "goal-mismatch"
# --- dice ---------------------------------------------------------------------------------------
DIE_NOT_HELD = P + "die-not-held"
DICE_COUNT = P + "dice-count"
COLOUR_ONCE_PER_SPACE = P + "colour-once-per-space"
NO_STACKING = P + "no-stacking"
ONE_MAIN_ACTION = P + "one-main-action"
MAIN_ACTION_REQUIRED = P + "main-action-required"
ONE_BLACK_DIE_PER_TURN = P + "one-black-die-per-turn"
NO_BLACK_DICE_LEFT = P + "no-black-dice-left"
NO_WRAP = P + "no-wrap-6-1"
PIECE_RULE = P + "donata-piece"
# --- payments -----------------------------------------------------------------------------------
CANNOT_AFFORD = P + "cannot-afford"
OCCUPIED_FEE = P + "occupied-fee"
COMPENSATION = P + "compensation"
# --- travel -------------------------------------------------------------------------------------
TRAVEL_ROW = P + "travel-row"
TRAVEL_STEPS = P + "travel-steps"
NOT_ADJACENT = P + "not-adjacent"
GUILD_ROUTE = P + "guild-route"
GANTULGA_LOWER_ROW = P + "gantulga-lower-row"
EXTRA_POST = P + "extra-post"
SECOND_FIGURE = P + "second-figure"
# --- books, Khan, guilds --------------------------------------------------------------------------
BOOK_DIE = P + "book-die"
BOOK_OPTION = P + "book-option"
KHANS_FAVOR_FULL = P + "khans-favor-full"
KHANS_FAVOR_ASCENDING = P + "khans-favor-ascending"
GUILD_DIE = P + "guild-die"
ONE_SEAL_PER_GUILD = P + "one-seal-per-guild"
SEAL_NOT_OWNED = P + "seal-not-owned"
SEAL_IMPROVED = P + "seal-already-improved"
# --- contracts ----------------------------------------------------------------------------------
CONTRACT_NOT_THERE = P + "contract-not-available"
CONTRACT_LIMIT = P + "contract-limit"
CONTRACT_NOT_ACTIVE = P + "contract-not-active"
CONTRACT_SEEN = P + "contract-already-seen"
# --- special cities and city cards --------------------------------------------------------------------
NEEDS_POST = P + "needs-post"
SPECIAL_FULL = P + "special-city-full"
CITY_CARD_USED = P + "city-card-used"
CITY_CARD_NEXT_TURN = P + "city-card-next-turn"
CARD_TIMES = P + "city-card-times"
# --- characters and caravans -----------------------------------------------------------------------
NOT_YOUR_CHARACTER = P + "not-your-character"
ONCE_PER_TURN = P + "once-per-turn"
CARAVAN_NONE_FREE = P + "caravan-none-free"
CARAVAN_GOODS = P + "caravan-goods"
CARAVAN_TILE = P + "caravan-route-tile"
CARAVAN_CITY = P + "caravan-city"
CARAVAN_STEPS = P + "caravan-steps"
CARAVAN_NOT_MET = P + "caravan-not-met"
CARAVANS_OFF = P + "caravans-not-in-play"
# --- options ------------------------------------------------------------------------------------
BAD_OPTIONS = P + "bad-options"
PLAYER_COUNT = P + "player-count"
CONTENT_MISMATCH = P + "content-mismatch"
BAD_PACK = P + "bad-content-pack"

CONTRADICTION_CODES: tuple[str, ...] = (CONTRACT_SEEN, DESCRIPTION_MISMATCH, DUPLICATE_COMPONENT, GOAL_MISMATCH)
OPTION_CODES: tuple[str, ...] = (BAD_OPTIONS, PLAYER_COUNT, CONTENT_MISMATCH, BAD_PACK)
CODES: tuple[str, ...] = tuple(v for k, v in dict(globals()).items() if k.isupper() and isinstance(v, str) and v.startswith(P))
