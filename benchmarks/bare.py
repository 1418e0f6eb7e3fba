"""The bare peer of the HTTP benchmark: a uvicorn + FastAPI route that only answers.

It takes the same POST as tabletape's move route (path, bearer token, JSON body), parses the
body as FastAPI would and answers 201 with the next seq, so the same load generator drives it;
what tabletape does beyond this (rules, log, projections) is the difference in the figures.
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
