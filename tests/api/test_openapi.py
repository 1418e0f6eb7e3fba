"""The OpenAPI schema is complete: bodies, responses, errors, tokens, and every title's moves."""

from __future__ import annotations

from api.http.edge import BODY_LIMITS, route_of
from events import codec
from rules import titles


def test_every_operation_documents_its_answers_and_errors(client):
    spec = client.get("/openapi.json").json()
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            responses = operation["responses"]
            success = [s for s in responses if s.startswith("2")]
            assert success, (method, path)
            if "{game_id}" in path:
                assert "404" in responses, (method, path)
            for status in (s for s in responses if s[0] in "45"):
                schema = responses[status]["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/ErrorOut"}, (method, path, status)


def test_writes_document_the_token_and_the_body(client):
    spec = client.get("/openapi.json").json()
    assert spec["components"]["securitySchemes"]["HTTPBearer"]["scheme"] == "bearer"
    for path in ("moves", "undo", "redo", "amend"):
        operation = spec["paths"][f"/games/{{game_id}}/{path}"]["post"]
        assert operation["security"] == [{"HTTPBearer": []}]
        assert {"401", "403", "409", "422"} <= set(operation["responses"])
        assert "$ref" in operation["requestBody"]["content"]["application/json"]["schema"]
    move_in = spec["components"]["schemas"]["MoveIn"]
    assert "expected_seq" in move_in["required"]


def test_the_structured_move_is_any_event_of_any_title(client):
    spec = client.get("/openapi.json").json()
    move = spec["components"]["schemas"]["MoveIn"]["properties"]["move"]
    refs = {r["$ref"].rsplit("/", 1)[1] for r in move["anyOf"][0]["oneOf"]}
    expected = {event.__name__ for title in titles().values() for event in title.event_types}
    assert refs == expected
    for name in refs:
        tags = spec["components"]["schemas"][name]["properties"]["type"]["enum"]
        assert tags[0] in codec.registered()


def test_the_log_documents_json_and_msgpack(client):
    spec = client.get("/openapi.json").json()
    content = spec["paths"]["/games/{game_id}/events"]["get"]["responses"]["200"]["content"]
    assert {"application/json", "application/msgpack"} <= set(content)
    stream = spec["paths"]["/games/{game_id}/stream"]["get"]["responses"]["200"]["content"]
    assert "text/event-stream" in stream


def test_every_operation_that_takes_a_body_documents_the_edges_413_with_its_limit(client):
    """The fuzzer found POST /sql answering an undocumented 413 to a body over 64 KiB: the edge
    refuses it before any route runs, so no route declared it."""
    spec = client.get("/openapi.json").json()
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if "requestBody" in operation:
                limit = BODY_LIMITS[route_of(method.upper(), path)]
                assert str(limit) in operation["responses"]["413"]["description"], (method, path)
    answer = client.post("/sql", json={"query": "select 1 -- " + "x" * BODY_LIMITS["sql"]})
    assert answer.status_code == 413 and answer.json()["limit"] == BODY_LIMITS["sql"]
    assert "413" in spec["paths"]["/sql"]["post"]["responses"]
