"""Every error code the Marco Polo core raises, in one place. Codes are stable: clients match on them.

Rule violations raise ``IllegalMove``; recorded facts that contradict what is already known (a
contract seen twice, a reveal that does not match) raise ``ContradictsKnownFacts``; bad options
raise ``InvalidOptions``. Each message names the rule, quoting the seed where it speaks.
"""

from __future__ import annotations

# the titles' rules call codes.illegal(...): the one way of raising is the errors module's
from events.errors import bad_options, contradiction, illegal  # noqa: F401

P = "marco-polo."
# --- shape of a move ----------------------------------------------------------------------------
BAD_NOTATION = P + "bad-notation"
UNKNOWN_EVENT = P + "unknown-event"
UNKNOWN_SEAT = P + "unknown-seat"
UNKNOWN_ID = P + "unknown-id"
BAD_DIE = P + "bad-die"
MISSING_CHOICE = P + "missing-choice"
EXTRA_CHOICE = P + "extra-choice"
BAD_CHOICE = P + "bad-choice"
# --- phase and turn order -----------------------------------------------------------------------
NOT_YOUR_TURN = P + "not-your-turn"
NOT_EXPECTED = P + "not-expected-now"
AWAITING_SETUP = P + "awaiting-setup"
AWAITING_CONTRACTS = P + "awaiting-contracts"
AWAITING_ROLL = P + "awaiting-roll"
PENDING_FIRST = P + "pending-first"
WRONG_ROUND = P + "wrong-round"
GAME_OVER = P + "game-over"
# --- setup --------------------------------------------------------------------------------------
SETUP_SHAPE = P + "setup-shape"
DUPLICATE_COMPONENT = P + "duplicate-component"
FIRST_GAME_CHARACTERS = P + "first-game-characters"
BASIC_CITY_BONUSES = P + "basic-city-bonuses"
NOT_OFFERED = P + "not-offered"
KEEP_TWO = P + "keep-two-objectives"
# --- dice ---------------------------------------------------------------------------------------
DIE_NOT_HELD = P + "die-not-held"
DICE_COUNT = P + "dice-count"
RASCHID_SETS_DICE = P + "raschid-sets-dice"
COLOUR_ONCE_PER_SPACE = P + "colour-once-per-space"
ONE_MAIN_ACTION = P + "one-main-action"
MAIN_ACTION_REQUIRED = P + "main-action-required"
ONE_BLACK_DIE_PER_TURN = P + "one-black-die-per-turn"
NO_BLACK_DICE_LEFT = P + "no-black-dice-left"
NO_WRAP = P + "no-wrap-6-1"
# --- payments -----------------------------------------------------------------------------------
CANNOT_AFFORD = P + "cannot-afford"
OCCUPIED_FEE = P + "occupied-fee"
# --- bazaar and Khan's favor --------------------------------------------------------------------
UNKNOWN_ROW = P + "unknown-bazaar-row"
BAZAAR_COLUMN = P + "bazaar-column"
KHANS_FAVOR_FULL = P + "khans-favor-full"
KHANS_FAVOR_ASCENDING = P + "khans-favor-ascending"
# --- contracts ----------------------------------------------------------------------------------
CONTRACT_COLUMN = P + "contract-column"
TAKE_ONE_OR_TWO = P + "take-one-or-two"
TWO_ACTIVE_CONTRACTS = P + "two-active-contracts"
CONTRACT_NOT_ACTIVE = P + "contract-not-active"
CONTRACT_SEEN = P + "contract-already-seen"
CONTRACT_MISMATCH = P + "contract-mismatch"
CONTRACT_MUST_BE_NAMED = P + "contract-must-be-named"
# --- travel -------------------------------------------------------------------------------------
TRAVEL_STEPS = P + "travel-steps"
NOT_ADJACENT = P + "not-adjacent"
SECOND_FIGURE = P + "second-figure-niccolo"
# --- city cards ---------------------------------------------------------------------------------
CITY_CARD_NO_POST = P + "city-card-needs-post"
CITY_CARD_USED = P + "city-card-used"
CITY_CARD_NEXT_TURN = P + "city-card-next-turn"
CARD_TIMES = P + "city-card-times"
# --- round start, end ---------------------------------------------------------------------------
COMPENSATION = P + "compensation"
OBJECTIVES_MISMATCH = P + "objectives-mismatch"
# --- options ------------------------------------------------------------------------------------
BAD_OPTIONS = P + "bad-options"
PLAYER_COUNT = P + "player-count"
CONTENT_MISMATCH = P + "content-mismatch"

CONTRADICTION_CODES: tuple[str, ...] = (CONTRACT_SEEN, CONTRACT_MISMATCH, OBJECTIVES_MISMATCH, DUPLICATE_COMPONENT)
OPTION_CODES: tuple[str, ...] = (BAD_OPTIONS, PLAYER_COUNT, CONTENT_MISMATCH)
#: every code, listable and stable
CODES: tuple[str, ...] = tuple(v for k, v in dict(globals()).items() if k.isupper() and isinstance(v, str) and v.startswith(P))
ILLEGAL_MOVE_CODES: tuple[str, ...] = tuple(c for c in CODES if c not in CONTRADICTION_CODES + OPTION_CODES)
