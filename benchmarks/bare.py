"""The bare peer of the HTTP benchmark: a uvicorn + FastAPI route that only answers.

It takes the same POST as tabletape's move route (path, bearer token, JSON body), parses the
body as FastAPI would and answers 201 with the next seq, so the same load generator drives it;
what tabletape does beyond this (rules, log, projections) is the difference in the figures.

``lane`` answers the same POST the way tabletape's move route is reached (``api/http/fast_lane.py``):
an ASGI middleware ahead of FastAPI's routing. Its CPU per request is what uvicorn itself costs,
the part of an append no change of tabletape's can remove.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import Response

import msgspec

app = FastAPI()
_encoder = msgspec.json.Encoder()


@app.post("/games/{game_id}/moves", status_code=201)
async def move(game_id: str, request: Request) -> Response:
    body = msgspec.json.decode(await request.body())
    answer = {"game_id": game_id, "last_seq": body["expected_seq"] + 1}
    return Response(_encoder.encode(answer), status_code=201, media_type="application/json")


@app.get("/health")
async def health() -> dict:
    return {"status": "ok", "log": {"appends": 0, "commits": 0, "events": 0}}


class _Lane:
    """The move POST answered ahead of FastAPI's routing; anything else goes on to ``app``."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or scope["method"] != "POST" or not path.endswith("/moves"):
            await self.app(scope, receive, send)
            return
        chunks = []
        while True:
            message = await receive()
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        body = msgspec.json.decode(b"".join(chunks))
        answer = _encoder.encode({"game_id": path[len("/games/") : -len("/moves")], "last_seq": body["expected_seq"] + 1})
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(answer)).encode())]
        await send({"type": "http.response.start", "status": 201, "headers": headers})
        await send({"type": "http.response.body", "body": answer})


lane = _Lane(app)

