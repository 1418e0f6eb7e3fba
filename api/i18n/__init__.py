"""The message catalogues (``en.json``, ``es.json``, ``ja.json`` beside this file) and the choice of
language: ``Accept-Language`` for the API, ``--lang`` or the locale for the CLI.

A refusal is raised with an English template and its parameters (``events.messages``); its key in
the catalogue is its code, or ``code/sub-key`` where one code has several messages, found by the
English template it was raised with. A move's sentence is a ``Phrase`` keyed in
``sentences``. The page reads the same files at ``/i18n/{lang}.json``.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping

from events.errors import TabletapeError
from events.messages import Joined, Phrase, Templated, listed, phrase, render, say, template_in

LANGS: tuple[str, ...] = ("en", "es", "ja")
DEFAULT = "en"
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]")
_QUOTED = re.compile(r'"([^"{}]{6,})"')

#: the language the CLI speaks, set once by ``--lang`` or the locale
cli_lang: str = DEFAULT


@lru_cache(maxsize=None)
def catalogue(lang: str) -> dict[str, Any]:
    """One language's catalogue as stored: ``{lang, name, errors, cli, terms}``."""
    if lang not in LANGS:
        raise KeyError(lang)
    text = resources.files(__package__).joinpath(f"{lang}.json").read_text(encoding="utf-8")
    return json.loads(text)


def negotiate(accept_language: str | None) -> str:
    """The language of ours a client's ``Accept-Language`` ranks highest (q-values honoured, a
    region ignored: ``es-MX`` is ``es``); English when it names none of ours."""
    best, best_q = DEFAULT, 0.0
    for order, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for p in params.split(";"):
            name, _, value = p.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        primary = tag.strip().lower().split("-")[0]
        if tag.strip() == "*":
            primary = DEFAULT
        if primary in LANGS and q > best_q:  # ties keep the earlier, as the header lists them
            best, best_q = primary, q
    return best


def locale_lang(environ: Mapping[str, str]) -> str:
    """The language of a POSIX locale: ``LC_ALL``, else ``LC_MESSAGES``, else ``LANG``
    (``ja_JP.UTF-8`` is ``ja``; ``C``, ``POSIX`` and languages we lack are English)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            primary = re.split(r"[_.@-]", value)[0].lower()
            return primary if primary in LANGS else DEFAULT
    return DEFAULT


def _escaped(message: str) -> str:
    return message.replace("{", "{{").replace("}", "}}")


@lru_cache(maxsize=None)
def _keys_by_template() -> dict[str, tuple[str, ...]]:
    by: dict[str, list[str]] = {}
    for key, template in catalogue("en")["errors"].items():
        by.setdefault(template, []).append(key)
    return {t: tuple(keys) for t, keys in by.items()}


def error_key(exc: TabletapeError) -> str | None:
    """The catalogue key of a refusal: its code's entry for the template it was raised with."""
    template = exc.template if exc.template is not None else _escaped(exc.message)
    keys = _keys_by_template().get(template, ())
    code = exc.code
    for key in keys:
        base = key.split("/")[0]
        if base == code or (base.endswith(".*") and code.startswith(base[:-1])):
            return key
    return keys[0] if keys else None


def _fill(template: str | None, params: Mapping[str, Any]) -> str | None:
    if template is None:
        return None
    try:
        return render(template, params)
    except (KeyError, IndexError, ValueError, AttributeError):
        return None


def localised_params(exc: TabletapeError, lang: str) -> dict[str, Any]:
    """The refusal's parameters with the game's words in ``lang``: a colour, a good, a kind of die
    (the catalogue's ``terms``: by title, by parameter, by the English word), and a refusal it
    wraps in its own message."""
    # English messages are the raised ones: its terms name components for the page, not for them
    terms = {} if lang == DEFAULT else catalogue(lang).get("terms", {}).get(exc.code.split(".")[0], {})
    out: dict[str, Any] = {}
    for k, v in exc.params.items():
        if isinstance(v, TabletapeError):  # the refusal an amendment or an import ran into
            v = message(v, lang)
        elif is_templated(v):  # a bad field of a content pack (its rules' own exception)
            v = nested_message(v, lang)
        out[k] = _term(terms, k, v, lang)
    return out


def _term(terms: Mapping[str, Any], name: str, value: Any, lang: str) -> Any:
    if isinstance(value, Phrase):
        return phrase_text(value, lang, terms)
    if isinstance(value, Joined):
        return value.sep.join(str(_term(terms, name, v, lang)) for v in value.items)
    if _is_amounts(value, terms):  # a cost, or what a seat holds: {"camels": 1} is "1 camel"
        amounts = [phrase("cost/amount", "{n} {res}", n=n, res=terms["res"][res]) for res, n in value.items()]
        return phrase_text(listed(amounts, last="comma"), lang, terms) if amounts else value
    return terms.get(name, {}).get(value, value) if isinstance(value, str) else value


def phrase_text(p: Phrase, lang: str, terms: Mapping[str, Any] | None = None) -> str:
    """A nested phrase in ``lang``: its catalogue template (``phrases``) filled with its own
    parameters, phrases within rendered the same way; its English where the catalogue has none."""
    if lang == DEFAULT:
        return str(p)
    if _is_sentence(p.key, lang):  # a status line or a move's sentence quoted in a refusal
        return sentence(p, lang)
    params = {k: _term(terms or {}, k, v, lang) for k, v in p.params.items()}
    filled = _fill(catalogue(lang).get("phrases", {}).get(p.key), params)
    return filled if filled is not None else str(p)


def _is_amounts(value: Any, terms: Mapping[str, Any]) -> bool:
    res = terms.get("res", {})
    return isinstance(value, dict) and bool(value) and all(k in res and isinstance(n, int) for k, n in value.items())


def _is_sentence(key: str, lang: str) -> bool:
    return template_in(catalogue(lang).get("sentences", {}), key) is not None


def is_templated(value: Any) -> bool:
    """An exception other than ours that carries a template and its parameters (a pack's
    ``PackError``): a refusal wrapping it translates it too."""
    return isinstance(value, Templated)


def nested_message(exc: Exception, lang: str) -> str:
    """A templated exception's message in ``lang`` (its catalogue key found by its English
    template, its words by the ``terms`` of that key's prefix); its own message where there is none."""
    return templated(exc.template, exc.params, lang, str(exc))  # type: ignore[attr-defined]


def templated(template: str, params: Mapping[str, Any], lang: str, english: str | None = None) -> str:
    """A message stored as its English template and parameters (a grown pack's conflict), in
    ``lang``: its catalogue key found by the template, its words by that key's prefix's ``terms``;
    ``english`` (or the template filled) where the catalogue has none."""
    keys = _keys_by_template().get(template, ())
    if english is None:
        english = _fill(template, params) or template
    if lang == DEFAULT or not keys:
        return english
    terms = catalogue(lang).get("terms", {}).get(keys[0].split("/")[0], {})
    params = {k: terms.get(k, {}).get(v, v) if isinstance(v, str) else v for k, v in params.items()}
    translated = _fill(catalogue(lang)["errors"].get(keys[0]), params)
    return translated if translated is not None else english


def message(exc: TabletapeError, lang: str) -> str:
    """The refusal's message in ``lang``; its English message where the catalogue has none."""
    if lang == DEFAULT:
        return exc.message
    key = error_key(exc)
    translated = _fill(catalogue(lang)["errors"].get(key) if key else None, localised_params(exc, lang))
    return translated if translated is not None else exc.message


def rule(exc: TabletapeError) -> dict[str, str] | None:
    """The rulebook's own words a refusal quotes, in the rulebook's language: ``{lang, text}``."""
    quotes = [v for k, v in exc.params.items() if k.startswith("rule") and isinstance(v, str)]
    template = exc.template if exc.template is not None else _escaped(exc.message)
    literal = re.sub(r"\{[^{}]*\}", "", template.replace("{{", "").replace("}}", ""))
    quotes += _QUOTED.findall(literal)
    # an engine's phrase may quote the rulebook too ("for the route ...: \"Puedes avanzar ...\"")
    quotes += [q for v in exc.params.values() if isinstance(v, (str, Phrase, Joined)) for q in _QUOTED.findall(str(v))]
    if not quotes:
        return None
    text = quotes[0].strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1]
    return {"lang": "ja" if _CJK.search(text) else "es", "text": text}


def text(section: str, key: str, lang: str, /, **params: Any) -> str:
    """A catalogue string other than an error's (``cli``, ``edge``), filled; English if missing."""
    template = catalogue(lang).get(section, {}).get(key)
    filled = _fill(template, params)
    if filled is None:
        filled = render(catalogue(DEFAULT)[section][key], params)
    return filled


def sentence(words: Phrase, lang: str) -> str:
    """A move's sentence in ``lang`` (the catalogue's ``sentences``, and ``phrases`` for the words of
    a pending step it may hold); English as the rules word it."""
    if lang == DEFAULT:
        return say(words)
    found = catalogue(lang)
    return say(words, [found.get("sentences", {}), found.get("phrases", {})], _named(lang))


@lru_cache(maxsize=None)
def _named(lang: str) -> Any:
    """A sentence's character id as the language's edition prints the name (``terms``; ids are
    the same in no two titles)."""
    names: dict[str, str] = {}
    for words in catalogue(lang).get("terms", {}).values():
        names.update(words.get("character", {}) if isinstance(words, dict) else {})
    return lambda name, value: names.get(value, value) if name == "character" and isinstance(value, str) else value


def title_name(title: Any, lang: str) -> str:
    """A title's name as its edition in ``lang`` prints it (``phrases``: ``title/{id}``)."""
    return catalogue(lang).get("phrases", {}).get(f"title/{title.id}", title.name)


def cli(key: str, /, **params: Any) -> str:
    """A CLI message in the CLI's language."""
    return text("cli", key, cli_lang, **params)
