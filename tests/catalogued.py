"""A refusal's check against the message catalogues, called wherever a test expects one: the
English template of its key, filled with its params, is the message the rules raised, and every
other language fills its own template with the same params."""

from __future__ import annotations

from api import i18n
from events.errors import TabletapeError
from events.messages import render


def catalogued(exc: TabletapeError) -> str:
    """The refusal's catalogue key, once its messages in every language are checked."""
    key = i18n.error_key(exc)
    assert key is not None, f"no catalogue entry for {exc.code}: {exc.template or exc.message!r}"
    assert render(i18n.catalogue("en")["errors"][key], exc.params) == exc.message, key
    for lang in i18n.LANGS:
        filled = render(i18n.catalogue(lang)["errors"][key], i18n.localised_params(exc, lang))
        assert filled == i18n.message(exc, lang), (lang, key)
    return key
