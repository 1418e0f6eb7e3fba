import sys, pytest
sys.path[:0] = ["/work/wt/web-text/tests/web"]
from test_page_plain_words import *
from test_page_languages_sweep import sweep_server  # noqa

@pytest.mark.parametrize("lang", ["en"])
@pytest.mark.parametrize("title", ["lost-cities", "marco-polo", "marco-polo-2"])
def test_probe(tall_phone, sweep_server, lang, title):
    page = tall_phone
    options, steps = in_progress_options()[title]
    open_recording(page, sweep_server, title, ["Ana", "Bea"], options, lang)
    for i in range(steps + 4):
        print("STEP", i, codes_on(page, ("Ana", "Bea")))
        if title == "marco-polo-2" and page.locator("#facts [data-fact=setup]").count():
            print("MP2 setup"); break
        step(page)
    game_id, names = finished_games(sweep_server)[title]
    page.goto(f"{sweep_server}/?game={game_id}")
    page.wait_for_selector("#forks > *", state="attached")
    print("FINISHED", codes_on(page, names))
