"""``tabletape`` with noughts and crosses registered: ``python -m extra_titles.serve serve ...``."""

import rules
from api.program import main
from extra_titles.noughts_and_crosses import NoughtsAndCrosses

rules.register_title(NoughtsAndCrosses())  # the one line a new title needs

main()
