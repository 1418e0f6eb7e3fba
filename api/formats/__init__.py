"""File formats in and out of a store: BG Stats exports and JSON Lines."""
