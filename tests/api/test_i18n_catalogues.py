"""The message catalogues: complete in every language, every translation filled by the same
parameters as the English, and the English template of every refusal reproducing the message the
rules raised, over the refusals of a sweep of wrong moves in every title."""

from __future__ import annotations

import ast
import json
import random
import re
from pathlib import Path

import msgspec
import pytest

from api import i18n
from events.errors import TabletapeError
from events.messages import Joined, Phrase, fields, render, template_in
from projections.fold import GameState, start
from events.lifecycle import GameCreated
from replay.recorder import draw_chance
from rules.marco_polo_2.content import SYNTHETIC

ROOT = Path(__file__).resolve().parents[2]
FILES = {lang: ROOT / "api" / "i18n" / f"{lang}.json" for lang in i18n.LANGS}
SECTIONS = ("errors", "edge", "cli", "terms", "score", "page", "phrases", "sentences")
QUOTED = re.compile(r'"[^"{}]{6,}"')


def flat(section: dict, path: tuple[str, ...] = ()) -> dict[tuple[str, ...], str]:
    out: dict[tuple[str, ...], str] = {}
    for k, v in section.items():
        out.update(flat(v, path + (k,)) if isinstance(v, dict) else {path + (k,): v})
    return out


def strings(lang: str) -> dict[tuple[str, ...], str]:
    doc = i18n.catalogue(lang)
    return {(s, *k): v for s in SECTIONS for k, v in flat(doc[s]).items()}


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_each_catalogue_is_json_of_its_language_with_no_empty_string(lang):
    doc = json.loads(FILES[lang].read_text(encoding="utf-8"))
    assert doc["lang"] == lang and doc["name"]
    empty = [key for key, text in strings(lang).items() if not text.strip()]
    assert empty == []


@pytest.mark.parametrize("lang", [lang for lang in i18n.LANGS if lang != "en"])
def test_every_key_is_in_every_language_with_the_placeholders_of_the_english(lang):
    english, translated = strings("en"), strings(lang)
    assert sorted(set(english) ^ set(translated)) == []
    differ = {key: (fields(english[key]), fields(translated[key])) for key in english if fields(english[key]) != fields(translated[key])}
    assert differ == {}


@pytest.mark.parametrize("lang", [lang for lang in i18n.LANGS if lang != "en"])
def test_the_rulebooks_words_a_message_quotes_travel_unchanged(lang):
    english, translated = strings("en"), strings(lang)
    lost = {key: q for key, text in english.items() for q in QUOTED.findall(text) if q not in translated[key]}
    assert lost == {}


# -- every refusal the source raises is in the catalogue -----------------------------------------

HELPERS = {"illegal", "contradiction", "bad_options"}
SOURCE = [p for d in ("rules", "events", "projections", "replay", "api") for p in (ROOT / d).rglob("*.py")]


def error_classes() -> set[str]:
    import api.errors  # noqa: F401  (the edge's errors)
    import api.formats.jsonl  # noqa: F401
    import projections.stats.parquet  # noqa: F401

    found, todo = set(), [TabletapeError]
    while todo:
        cls = todo.pop()
        found.add(cls.__name__)
        todo.extend(cls.__subclasses__())
    return found


def raised_messages() -> list[tuple[str, ast.expr, bool]]:
    """(where, message node, is it a template with params) of each refusal the source raises."""
    classes, out = error_classes(), []
    for path in SOURCE:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "attr", getattr(node.func, "id", None))
            if name in HELPERS and len(node.args) >= 2:
                msg, templated = node.args[1], any(k.arg != "details" for k in node.keywords)
            elif name in classes and node.args:
                msg, templated = node.args[0], any(k.arg == "params" for k in node.keywords)
            else:
                continue
            out.append((f"{path.relative_to(ROOT)}:{node.lineno}", msg, templated))
    return out


def raised_templates() -> list[tuple[str, str]]:
    """(where, template) of each refusal raised with a literal template."""
    out = []
    for where, msg, templated in raised_messages():
        if isinstance(msg, ast.Constant) and isinstance(msg.value, str):
            text = msg.value if templated else msg.value.replace("{", "{{").replace("}", "}}")
            out.append((where, text))
    return out


def test_no_refusal_is_raised_as_an_f_string():
    # an f-string message cannot be translated: raise the template and its params instead
    # (tools/templatize.py rewrites such sites mechanically)
    formatted = [where for where, msg, _ in raised_messages() if isinstance(msg, (ast.JoinedStr, ast.BinOp))]
    assert formatted == []


def test_every_template_the_source_raises_is_in_the_english_catalogue():
    known = set(i18n.catalogue("en")["errors"].values())
    sites = raised_templates()
    missing = [(where, t) for where, t in sites if t not in known]
    # events/duckdb_log.py still raises plain messages (another branch works there): they are in
    # the catalogue as their escaped text, so this holds for them too
    assert len(sites) > 380 and missing == []


# -- a sweep of wrong moves: the catalogue reproduces what the rules said --------------------------

GAMES = [
    ("lost-cities", ("Ana", "Bea"), {"rounds": 1}),
    ("lost-cities", ("Ana", "Bea", "Cai", "Dan"), {"rounds": 1}),
    ("marco-polo", ("Ana", "Bea", "Cai"), {}),
    ("marco-polo-2", ("Ana", "Bea", "Cai"), {"content": SYNTHETIC.ref, "caravans": True}),
]


def wrong_variants(move, others, rng: random.Random):
    """Moves that differ from a legal one in one field: another seat, a nearby number, a token
    taken from another legal move, an emptied or doubled tuple."""
    for name in move.__struct_fields__:
        value = getattr(move, name)
        if isinstance(value, bool):
            yield msgspec.structs.replace(move, **{name: not value})
        elif isinstance(value, int):
            for v in (-1, value + 1, value + 3, 99):
                yield msgspec.structs.replace(move, **{name: v})
        elif isinstance(value, str):
            pool = [getattr(o, name) for o in others if isinstance(getattr(o, name, None), str)]
            for v in rng.sample(pool, min(3, len(pool))) + ["zz"]:
                yield msgspec.structs.replace(move, **{name: v})
        elif isinstance(value, tuple):
            yield msgspec.structs.replace(move, **{name: ()})
            yield msgspec.structs.replace(move, **{name: value + value})
            if value:
                yield msgspec.structs.replace(move, **{name: value[:-1]})


def refusals(title_id: str, players, options, seed: int, steps: int = 60) -> list[TabletapeError]:
    """The refusals of wrong moves tried along one random legal game (its first ``steps`` events)."""
    rng = random.Random(seed)
    created = GameCreated(title=title_id, players=players, options=options, seed=seed)
    game = start(created)
    rules, state, got, stale = game.title, game.state, [], []
    for n in range(steps):
        if rules.outcome(state) is not None:
            break

        def attempt(call):
            try:
                call()
            except TabletapeError as exc:
                got.append(exc)
            except Exception:  # noqa: BLE001 - a move of a shape the wire format would refuse
                pass

        chance = draw_chance(GameState(rules, created, state), n + 2)
        if chance is not None:
            attempt(lambda: rules.decide(state, rules.chance_event(state, ("zz",))))
            decided = (chance,)
        else:
            moves = rules.legal_moves(state)
            if not moves:
                break
            for text in ("", "zz", "??", "1", "x y z"):
                attempt(lambda text=text: rules.decide(state, rules.parse_move(state, text)))
            for move in moves[:4] + stale[:4]:
                for wrong in wrong_variants(move, moves, rng):
                    attempt(lambda wrong=wrong: rules.decide(state, wrong))
            stale = moves
            decided = rules.decide(state, moves[rng.randrange(len(moves))])
        for event in decided:
            state = rules.evolve(state, event)
    return got


@pytest.fixture(scope="module")
def corpus() -> list[TabletapeError]:
    return [exc for title, players, options in GAMES for seed in (1, 2) for exc in refusals(title, players, options, seed)]


def test_the_english_template_with_the_params_reproduces_every_refusal_of_the_sweep(corpus):
    english = i18n.catalogue("en")["errors"]
    wrong = []
    for exc in corpus:
        key = i18n.error_key(exc)
        if key is None or render(english[key], exc.params) != exc.message:
            wrong.append((exc.code, key, exc.message))
    keys = {i18n.error_key(exc) for exc in corpus}
    # the illegal-move tests of each title check their refusals the same way (tests/catalogued.py)
    assert wrong == [] and len(keys) >= 60, (len(keys), wrong[:5])


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_every_refusal_of_the_sweep_is_translated_with_its_params(corpus, lang):
    translated = i18n.catalogue(lang)["errors"]
    untranslated = []
    for exc in corpus:
        text = i18n.message(exc, lang)
        filled = render(translated[i18n.error_key(exc)], i18n.localised_params(exc, lang))
        if text != filled or (text == exc.message and fields(exc.template or "") - {"rule", "admin"}):
            untranslated.append((exc.code, text))
    assert untranslated == []


# -- the score sheets' sources have a label in every language (for the page) -----------------------

SHEETS = [
    ("lost-cities", ("Ana", "Bea"), {"rounds": 1}),
    ("marco-polo", ("Ana", "Bea"), {}),
    ("marco-polo-2", ("Ana", "Bea"), {"content": SYNTHETIC.ref, "caravans": True}),
]
NOT_SOURCES = {"seat", "player", "side", "seats", "players", "expeditions", "complete", "starting_seat"}


def sources(sheet, out: set[str]) -> set[str]:
    if isinstance(sheet, dict):
        for k, v in sheet.items():
            if isinstance(v, (dict, list)):
                sources(v, out)
            elif k not in NOT_SOURCES:
                out.add(k)
    elif isinstance(sheet, list):
        for v in sheet:
            sources(v, out)
    return out


@pytest.mark.parametrize("title_id, players, options", SHEETS)
def test_every_source_of_a_finished_score_sheet_has_a_label(title_id, players, options):
    from replay.simulate import random_game

    events = random_game(title_id, players, options, seed=3)
    game = start(events[0])
    state = game.state
    for event in events[1:-1]:
        state = game.title.evolve(state, event)
    sheet = game.title.score(state)
    wanted = sources(sheet, set()) - {"rounds_played", "rounds_agreed"} | set(sheet.get("expedition_order", ()))
    for lang in i18n.LANGS:
        assert wanted - set(i18n.catalogue(lang)["score"][title_id]) == set(), lang


# -- every string the page asks for is in the catalogue ------------------------------------------

PAGE_KEY = re.compile(r"""\b(?:t|say)\('([a-z0-9][a-z0-9._-]*)'""")
STATIC = ROOT / "api" / "web" / "static"


def test_every_key_the_page_names_is_in_the_page_section():
    """The page's ``t('key')`` calls (``api/web/static``, i18n.js): each key written out in the
    source is in the catalogue (keys built at run time are caught by the browser tests)."""
    page = {".".join(key[1:]) for key in strings("en") if key[0] == "page"}
    named = {m for path in STATIC.rglob("*.js") if "vendor" not in path.parts for m in PAGE_KEY.findall(path.read_text(encoding="utf-8"))}
    assert len(named) > 100
    assert sorted(named - page) == []


# -- the phrases a message embeds (why a payment is due, which move was refused) ------------------


def test_every_phrase_the_source_builds_is_in_the_english_catalogue_with_its_template():
    # tools/phrasify.py writes these calls from the catalogue; a phrase written by hand must match it
    # (a move's sentence is keyed in ``sentences`` instead; a key built at run time is checked by
    # the sweeps below)
    english, built = i18n.catalogue("en"), []
    for path in SOURCE:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "phrase":
                if all(isinstance(a, ast.Constant) for a in node.args[:2]):
                    key, template = (a.value for a in node.args[:2])
                    built.append((f"{path.relative_to(ROOT)}:{node.lineno}", key, template))
    known = lambda key: english["phrases"].get(key) or template_in(english["sentences"], key)  # noqa: E731
    wrong = [(where, key) for where, key, template in built if known(key) != template]
    assert len(built) > 100 and wrong == []


def nested(value) -> list[Phrase]:
    """The phrases of a parameter, phrases within phrases too."""
    if isinstance(value, Joined):
        return [p for v in value.items for p in nested(v)]
    if not isinstance(value, Phrase):
        return []
    return [value] + [p for v in value.params.values() for p in nested(v)]


def test_every_phrase_of_the_sweep_is_in_the_english_catalogue_with_its_template(corpus):
    # a phrase built with a computed key (describe_pending's) is checked here, not by the source scan
    # a list of names ("Ana and Cy") is keyed in ``sentences``, where move sentences list them too
    english = i18n.catalogue("en")
    known = lambda key: english["phrases"].get(key) or template_in(english["sentences"], key)  # noqa: E731
    found = {(p.key, p.template) for exc in corpus for v in exc.params.values() for p in nested(v)}
    assert {k for k, _ in found} >= {"pending/marco-polo-2/keep", "why/reroll", "reason/where", "place/hand"}
    assert [(k, t) for k, t in found if known(k) != t] == []


ENGLISH_WORDS = re.compile(
    r"\b(cannot|needs|for the|route|hand|plays|discards|draws|reveal|take|pick|keep|record|round|"
    r"contract|coins|camels|reroll|turn a die|pending|expected|phase|first:|the|of)\b"
)


def phrased(exc: TabletapeError) -> list[Phrase]:
    return [v for v in exc.params.values() if isinstance(v, Phrase)]


@pytest.mark.parametrize("title_id", ["lost-cities", "marco-polo", "marco-polo-2"])
@pytest.mark.parametrize("lang", ["es", "ja"])
def test_a_refusal_with_a_nested_phrase_reads_wholly_in_each_language(corpus, title_id, lang):
    samples = {}
    for exc in corpus:
        if exc.code.startswith(title_id + ".") and phrased(exc):
            samples.setdefault((exc.code, tuple(p.key for p in phrased(exc))), exc)
    assert len(samples) >= 2
    # the phase lines and the places of a Lost Cities card are still English (describe_pending,
    # knowledge.places): the words of those parameters are left out of the check
    english_left = {}
    for key, exc in samples.items():
        text = i18n.message(exc, lang)
        localised = i18n.localised_params(exc, lang)
        for name, p in exc.params.items():
            if isinstance(p, Phrase):
                assert localised[name] in text and str(p) not in text, (key, text)
        # the words the phrases bring (the outer template is checked by the sweep's tests)
        # (a notation's help keeps its verbs: "reveal 1:R7" is what one types in every language)
        rest = " ".join(
            localised[name] for name, p in exc.params.items() if isinstance(p, Phrase) and not p.key.startswith("notation/")
        )
        for p in phrased(exc):
            for v in p.params.values():
                if isinstance(v, str) and v and " " in v:
                    rest = rest.replace(v, "")
                for nested in v.params.values() if isinstance(v, Phrase) else ():
                    if isinstance(nested, str) and " " in nested:
                        rest = rest.replace(nested, "")
        # the rulebook's words stay in the rulebook's language, a cost is given as its ids
        rest = re.sub(r'"[^"]*"|\{[^{}]*\}|\'[^\']*\'', "", rest)
        found = ENGLISH_WORDS.findall(rest)
        if found:
            english_left[key] = (found, text)
    assert english_left == {}
    codes = {code for code, _ in samples}
    wanted = {
        "lost-cities": "lost-cities.card-not-in-hand",
        "marco-polo": "marco-polo.cannot-afford",
        "marco-polo-2": "marco-polo-2.cannot-afford",
    }
    assert wanted[title_id] in codes


def test_a_nested_phrase_is_its_text_in_the_answers_language_in_the_params(corpus):
    from api.errors import refused

    exc = next(e for e in corpus if e.code == "marco-polo.cannot-afford" and phrased(e))
    bodies = {lang: json.loads(refused(exc, lang).body) for lang in i18n.LANGS}
    assert bodies["en"]["message"] == exc.message
    assert bodies["en"]["params"]["why"] == str(exc.params["why"])
    assert bodies["es"]["params"]["why"].startswith("para ")
    assert bodies["ja"]["params"]["why"].startswith("（")
    assert {b["code"] for b in bodies.values()} == {"marco-polo.cannot-afford"}
    assert bodies["es"]["rulebook"] == {"lang": "es", "text": "pagar 1 camello para volver a tirar un dado"} or "rulebook" in bodies["es"]

