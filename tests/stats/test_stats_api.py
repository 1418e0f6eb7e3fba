"""The statistics endpoints through the real app on a real DuckDB file: answers, filters, errors
as ``{code, message}``, charts as images, and a complete OpenAPI schema."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from api.http.app import create_app
from api.http.settings import Settings

QUESTIONS = [
    "/stats/leaderboard",
    "/stats/leaderboard?title=lost-cities&option=expeditions=6",
    "/stats/leaderboard?player=ana&date_from=2026-01-01T00:00:00Z&date_to=2026-03-01",
    "/stats/head-to-head?player=ana",
    "/stats/head-to-head?player=ana&opponent=bea",
    "/stats/seats?title=lost-cities",
    "/stats/scores?title=marco-polo&bin_width=5",
    "/stats/sources?title=lost-cities",
    "/stats/lost-cities/wagers",
    "/stats/lost-cities/bonus?player=bea",
    "/stats/lost-cities/rounds?option=rounds=3",
    "/stats/marco-polo/characters",
    "/stats/marco-polo/beijing",
    "/stats/marco-polo/contracts?include_forks=true",
]


@pytest.fixture
def client(db_path):
    with TestClient(create_app(Settings(db_path=db_path))) as client:
        yield client


@pytest.mark.parametrize("url", QUESTIONS)
def test_every_question_answers(client, url):
    answer = client.get(url)
    assert answer.status_code == 200, answer.text
    assert answer.json()


def test_answers_follow_the_filters(client):
    every = client.get("/stats/leaderboard").json()["rows"]
    january = client.get("/stats/leaderboard?date_to=2026-02-01T00:00:00Z").json()["rows"]
    assert sum(r["games"] for r in january) < sum(r["games"] for r in every)
    nobody = client.get("/stats/leaderboard?date_from=2030-01-01").json()["rows"]
    assert nobody == []


@pytest.mark.parametrize(
    "url, status, code",
    [
        ("/stats/seats", 422, "stats-title-needed"),
        ("/stats/scores?title=chess", 422, "stats-title-not-covered"),
        ("/stats/lost-cities/characters", 422, "stats-title-not-covered"),
        ("/stats/leaderboard?option=rounds", 422, "malformed-request"),
        ("/stats/leaderboard?date_from=yesterday", 422, "malformed-request"),
        ("/stats/charts/pie", 404, "not-found"),
    ],
)
def test_errors_are_json_with_a_code(client, url, status, code):
    answer = client.get(url)
    assert answer.status_code == status, answer.text
    assert answer.json()["code"] == code and answer.json()["message"]


def test_charts_are_images(client):
    svg = client.get("/stats/charts/scores?title=lost-cities")
    assert svg.status_code == 200 and svg.headers["content-type"] == "image/svg+xml"
    assert svg.content.lstrip().startswith(b"<?xml") and b"<svg" in svg.content
    png = client.get("/stats/charts/characters?format=png")
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
    seats = client.get("/stats/charts/seats?title=marco-polo")
    assert seats.status_code == 200
    assert client.get("/stats/charts/scores?title=lost-cities").content == svg.content  # reproducible


def test_the_openapi_schema_describes_every_statistics_route(client):
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]
    for path in ("/stats/leaderboard", "/stats/head-to-head", "/stats/seats", "/stats/scores", "/stats/sources",
                 "/stats/lost-cities/wagers", "/stats/{title}/characters", "/stats/{title}/beijing",
                 "/sql", "/sql/views", "/stats/charts/scores"):
        assert path in paths, path
    ok = paths["/stats/leaderboard"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert ok["$ref"].endswith("/LeaderboardOut")
    assert "400" in paths["/sql"]["post"]["responses"]
    assert "image/svg+xml" in paths["/stats/charts/scores"]["get"]["responses"]["200"]["content"]
    params = {p["name"] for p in paths["/stats/leaderboard"]["get"]["parameters"]}
    assert {"title", "player", "date_from", "date_to", "option", "include_forks"} <= params


@pytest.mark.parametrize("moment", ["0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00"])
def test_dates_at_the_edge_of_the_calendar_are_answered(client, moment):
    """A time zone that pushes a date past year 1 or 9999 is no 500 (found by schema fuzzing)."""
    for bound in ("date_from", "date_to"):
        response = client.get("/stats/lost-cities/bonus", params={bound: moment})
        assert response.status_code == 200, response.text


@pytest.mark.parametrize("moment", ["0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00"])
def test_the_game_list_answers_dates_at_the_edge_of_the_calendar(client, moment):
    for bound in ("created_from", "created_to"):
        response = client.get("/games", params={bound: moment})
        assert response.status_code == 200, response.text
