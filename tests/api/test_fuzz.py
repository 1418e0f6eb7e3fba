"""Schema fuzzing: requests generated from the OpenAPI schema (schemathesis) never get a 500,
every answer conforms to the schema, and a rejected request leaves every log unchanged.

Each generated request is sent as generated (random ids and tokens: mostly 404/401), then aimed
at a real game with its write token and its current ``expected_seq``, to reach the rules. The
live stream is left out here (a valid stream never ends); the header fuzzing below, over a real
server, includes it.
"""

from __future__ import annotations

import json
import os

import httpx
import pytest
import requests
import schemathesis
from apiplay import finish, log_size, new_game, play
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from requests.exceptions import InvalidHeader
from requests.utils import check_header_validity
from schemathesis import checks
from schemathesis.core.parameters import ParameterLocation

from api.http.app import create_app
from api.http.settings import Settings

#: On CI every run sends the same requests (derandomized, no example database), so that a red CI
#: is a change in the code, not a new draw; elsewhere each run draws new ones, and a failure found
#: is kept in ``.hypothesis/`` and tried first next time. A failure is reported as found, not
#: shrunk (shrinking a request over a real server can take minutes).
CI = bool(os.environ.get("CI"))
FUZZ = settings(
    derandomize=CI,
    database=None if CI else settings.default.database,
    deadline=None,  # the examples are bounded in number; a time per example would fail on a busy machine
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.filter_too_much],
)

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


def conformable(response: httpx.Response) -> schemathesis.Response:
    """The answer as ``validate_response`` takes it, its request copied without the header values
    that requests (which schemathesis rebuilds the request with) refuses to hold, such as a leading
    ``\\x85`` (whitespace to Python, not to HTTP). The server got them; only the copy leaves them out."""
    request = response.request
    headers = {}
    for name, value in request.headers.items():
        try:
            check_header_validity((name, value))
        except InvalidHeader:
            continue
        headers[name] = value
    return schemathesis.Response(
        status_code=response.status_code,
        headers={name: [value] for name, value in response.headers.items()},
        content=response.content,
        request=requests.Request(request.method, str(request.url), headers=headers, data=request.content).prepare(),
        elapsed=response.elapsed.total_seconds(),
        verify=True,
        message=response.reason_phrase,
        http_version=response.http_version,
        encoding=response.encoding,
    )


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
@settings(FUZZ, max_examples=100)  # CI's fixed 100 find a /sql body over its limit; 25 did not
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
    assert response.status_code != 413 or not body_fits_schema(case), "a body the schema allows is too large"
    case.validate_response(conformable(response), checks=CHECKS)


def body_fits_schema(case) -> bool:
    body = case.meta.components.get(ParameterLocation.BODY) if case.meta is not None else None
    return body is not None and body.mode.is_positive


# -- headers, over a real server ------------------------------------------------------------------
#
# The test client re-encodes header values as UTF-8; a real client sends their latin-1 bytes, so
# that "²" arrives as the byte b"\xb2" (a digit to str.isdigit(), not to int()). These cases go to
# a real uvicorn, with header values that are sometimes number-like (digits, superscripts, signs)
# and sometimes any latin-1 text. The live stream is included: its answer is read up to its
# first bytes, then the connection closes.



def takes_headers(ctx) -> bool:
    """Header parameters, or a bearer token (``Authorization``)."""
    raw = ctx.operation.definition.raw
    return bool(raw.get("security")) or any(p.get("in") == "header" for p in raw.get("parameters", []))


HEADER_SCHEMA = schemathesis.openapi.from_dict(APP.openapi()).include(func=takes_headers)
HEADER_SCHEMA.config.phases.coverage.enabled = False
HEADER_SCHEMA.config.generation.update(codec="latin-1")
NUMBER_LIKE = st.text(st.sampled_from("0129²³¹½ -"), min_size=1, max_size=12)
LATIN_1 = st.text(st.characters(codec="latin-1"), max_size=40)
UVICORN_REFUSED = "Invalid HTTP request received."


@HEADER_SCHEMA.hook
def flatmap_headers(ctx, headers):
    """Every header the operation declares, and its bearer token, with a fuzzed value."""
    names = {p.name for p in ctx.operation.headers} | {"Authorization"}
    headers = headers or {}
    values = {
        name: st.one_of(NUMBER_LIKE, NUMBER_LIKE, LATIN_1, *([st.just(headers[name])] if name in headers else []))
        for name in names
    }
    return st.fixed_dictionaries(values).map(lambda fuzzed: {**headers, **fuzzed})


class LiveTable:
    """A real server with a game in progress (played over HTTP)."""

    def __init__(self, base: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=30)
        self.live = new_game(self.http, seed=3)
        play(self.http, self.live, 4)

    def last_seq(self) -> int:
        return self.http.get(f"/games/{self.live.id}").json()["last_seq"]


@pytest.fixture(scope="module")
def live_table(live_base):
    table = LiveTable(live_base)
    yield table
    table.http.close()


def send_raw(http: httpx.Client, case) -> httpx.Response | None:
    """The request with its header values as latin-1 bytes; a stream is read to its first bytes."""
    kwargs = case.as_transport_kwargs(base_url=str(http.base_url).rstrip("/"))
    try:
        headers = {name: str(value).encode("latin-1") for name, value in (kwargs.get("headers") or {}).items()}
        request = http.build_request(
            kwargs["method"],
            kwargs["url"],
            headers=headers,
            params=kwargs.get("params"),
            json=kwargs["json"] if "json" in kwargs else None,
            content=kwargs.get("data"),
        )
        response = http.send(request, stream=True)
    except (UnicodeEncodeError, httpx.LocalProtocolError, httpx.InvalidURL):
        return None  # a request the HTTP client itself cannot send never reaches the server
    try:
        if response.headers.get("content-type", "").startswith("text/event-stream"):
            next(response.iter_raw(), b"")  # a live stream: it answered, and never ends
        else:
            response.read()
    finally:
        response.close()
    if response.status_code == 400 and response.text == UVICORN_REFUSED:
        return None  # a control character in a header: uvicorn's parser answers before the app
    return response


def check_raw(case, table: LiveTable) -> None:
    before = table.last_seq()
    response = send_raw(table.http, case)
    if response is None:
        return
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert table.last_seq() == before, response.text
        assert set(response.json()) >= {"code", "message"}
    if not response.headers.get("content-type", "").startswith("text/event-stream"):
        case.validate_response(conformable(response), checks=CHECKS)


@HEADER_SCHEMA.parametrize()
@settings(FUZZ, max_examples=15)
def test_generated_headers_sent_as_bytes_to_a_real_server_get_no_500(case, live_table):
    check_raw(case, live_table)
    if "game_id" in (case.path_parameters or {}):
        case.path_parameters["game_id"] = live_table.live.id  # the generated headers reach the route
        check_raw(case, live_table)
        case.headers = {**(case.headers or {}), **live_table.live.auth}
        if isinstance(case.body, dict) and "expected_seq" in case.body:
            case.body["expected_seq"] = live_table.last_seq()
        check_raw(case, live_table)


@given(value=st.one_of(NUMBER_LIKE, LATIN_1))
@settings(FUZZ, max_examples=60)
def test_any_last_event_id_resumes_the_stream_or_is_refused_as_a_bad_last_event_id(value, live_table):
    url = f"/games/{live_table.live.id}/stream"
    try:
        response = live_table.http.send(
            live_table.http.build_request("GET", url, headers={"Last-Event-ID": value.encode("latin-1")}), stream=True
        )
    except httpx.LocalProtocolError:
        return  # a value the HTTP client itself refuses to send
    try:
        if response.status_code == 200:
            return  # resumed (a seq, or all blanks, which HTTP strips to no header at all)
        body = response.read().decode()
    finally:
        response.close()
    if response.status_code == 400 and body == UVICORN_REFUSED:
        return
    assert response.status_code == 422 and json.loads(body)["code"] == "bad-last-event-id", (value, body)


def test_an_answer_to_a_header_value_requests_refuses_is_still_validated(live_table):
    """Seen in the header fuzzing: ``Authorization: \\x85÷\\x99`` reached the server, then checking
    its answer failed inside requests (InvalidHeader) as schemathesis rebuilt the request."""
    operation = HEADER_SCHEMA["/games/{game_id}/undo"]["POST"]
    case = operation.Case(
        path_parameters={"game_id": live_table.live.id},
        headers={"Authorization": "\x85÷\x99"},
        body={"expected_seq": live_table.last_seq()},
        media_type="application/json",
    )
    response = send_raw(live_table.http, case)
    assert response.request.headers["authorization"].encode("latin-1") == b"\x85\xf7\x99"
    assert response.status_code == 401 and response.json()["code"]
    with pytest.raises(InvalidHeader):
        case.validate_response(response, checks=CHECKS)
    case.validate_response(conformable(response), checks=CHECKS)
