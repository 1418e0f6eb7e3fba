"""Reading a Server-Sent Events stream in tests: one dict (``id``, ``data``, a named one's
``event``) per message."""

from __future__ import annotations

import json
from typing import Iterable, Iterator


def sse_messages(lines: Iterable[str]) -> Iterator[dict]:
    """The messages of an event stream's lines, as they complete."""
    current: dict = {}
    for line in lines:
        if line.startswith("id: "):
            current["id"] = int(line[4:])
        elif line.startswith("event: "):
            current["event"] = line[7:]
        elif line.startswith("data: "):
            current["data"] = json.loads(line[6:])
        elif line == "" and current:
            yield current
            current = {}
