"""`make serve` installs no matplotlib (the ``charts`` extra): the server's charts then answer a
503 naming what to install, in the reader's language, and everything else still answers."""

from __future__ import annotations

import sys

import pytest

from projections.stats import charts


@pytest.fixture
def without_matplotlib(monkeypatch):
    # what an install without the extra has: the import fails
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    charts._figure_class.cache_clear()
    yield
    charts._figure_class.cache_clear()


@pytest.mark.parametrize("path", ["/stats/charts/scores?title=lost-cities", "/stats/charts/seats?title=lost-cities",
                                  "/stats/charts/characters?title=marco-polo&format=png"])
def test_a_chart_without_matplotlib_is_a_503_saying_what_to_install(client, without_matplotlib, path):
    answer = client.get(path)
    assert answer.status_code == 503
    assert answer.json()["code"] == "charts-not-installed"
    assert ".[charts]" in answer.json()["message"]
    spanish = client.get(path, headers={"Accept-Language": "es"})
    assert spanish.json()["message"].startswith("los gráficos del servidor necesitan matplotlib")
    assert client.get("/stats/leaderboard").status_code == 200
