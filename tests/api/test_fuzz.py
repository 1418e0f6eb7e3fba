"""Schema fuzzing: requests generated from the OpenAPI schema (schemathesis) never get a 500,
every answer conforms to the schema, and a rejected request leaves every log unchanged.

Each generated request is sent as generated (random ids and tokens: mostly 404/401), then aimed
at a real game with its write token and its current ``expected_seq``, to reach the rules. The
live stream is left out (a valid stream never ends); its refusals are tested in
``test_stream.py``.
"""

from __future__ import annotations

import httpx
import pytest
import schemathesis
from apiplay import finish, log_size, new_game, play
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis import checks

from api.app import create_app
from api.settings import Settings

APP = create_app(Settings(db_path=":memory:"))
SCHEMA = schemathesis.openapi.from_dict(APP.openapi()).exclude(path="/games/{game_id}/stream")
# the coverage phase enumerates every boundary case of every field (thousands for a move, whose
# structured form is any event of any title): too slow for every run; the fuzzing phase
# still generates both valid and invalid data
SCHEMA.config.phases.coverage.enabled = False
CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_schema_conformance,
]


class Table:
    """The app with two real games: one in progress, one ended."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.svc = client.app.state.services
        self.live = new_game(client, seed=3)
        play(client, self.live, 4)
        self.over = new_game(client, seed=4)
        finish(self.svc, self.over.id)


@pytest.fixture(scope="module")
def table():
    with TestClient(APP) as client:
        yield Table(client)


def aim(case, table: Table) -> bool:
    """Point the request at the game in progress, with its write token and current seq."""
    if "game_id" not in (case.path_parameters or {}):
        return False
    case.path_parameters["game_id"] = table.live.id
    case.headers = {**(case.headers or {}), **table.live.auth}
    if isinstance(case.body, dict) and "expected_seq" in case.body:
        case.body["expected_seq"] = table.svc.log.last_seq(table.live.id)
    return True


def send(client: TestClient, case) -> httpx.Response | None:
    kwargs = case.as_transport_kwargs(base_url="http://testserver")
    try:
        return client.request(
            kwargs["method"],
            kwargs["url"],
            headers=kwargs.get("headers"),
            params=kwargs.get("params"),
            json=kwargs["json"] if "json" in kwargs else None,
            content=kwargs.get("data"),
        )
    except (UnicodeEncodeError, httpx.LocalProtocolError, httpx.InvalidURL):
        return None  # a request the HTTP client itself cannot send never reaches the server


@SCHEMA.parametrize()
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.filter_too_much],
)
def test_generated_requests_get_no_500_conform_and_rejections_write_nothing(case, table):
    check(case, table)
    if aim(case, table):
        check(case, table)


def check(case, table: Table) -> None:
    before = log_size(table.svc)
    response = send(table.client, case)
    if response is None:
        return
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert log_size(table.svc) == before, response.text
        assert set(response.json()) >= {"code", "message"}
    case.validate_response(response, checks=CHECKS)
