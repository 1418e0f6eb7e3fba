"""A bad content pack and a malformed body in the reader's language: the same code, field and
``loc`` in English, Spanish and Japanese, the message and each pydantic ``msg`` translated."""

from __future__ import annotations

import copy

import pytest

from rules.marco_polo_2.content import SYNTHETIC

MP2 = "/titles/marco-polo-2/packs"
LANGUAGES = {"en": "en", "es": "es-ES,es;q=0.9", "ja": "ja-JP"}


@pytest.fixture
def admin(svc) -> dict[str, str]:
    return {"Authorization": f"Bearer {svc.admin_token_issued}"}


def three(client, method: str, path: str, body, headers=None) -> dict[str, dict]:
    out = {}
    for lang, header in LANGUAGES.items():
        response = client.request(method, path, json=body, headers={**(headers or {}), "Accept-Language": header})
        assert response.status_code == 422, response.text
        assert response.headers["content-language"] == lang
        out[lang] = response.json()
    return out


def test_a_bad_pack_field_is_refused_in_three_languages_naming_the_same_field(client, admin):
    bad = copy.deepcopy(SYNTHETIC.data)
    bad["id"] = "ours-bad"
    bad["map"]["routes"][0]["coins"] = -1
    said = three(client, "POST", MP2, bad, admin)
    assert {b["code"] for b in said.values()} == {"marco-polo-2.bad-content-pack"}
    assert {b["field"] for b in said.values()} == {"pack.map.routes[0].coins"}
    assert said["en"]["message"] == "bad content pack: pack.map.routes[0].coins: must be an integer 0..1000000, not -1"
    assert said["es"]["message"] == "paquete de contenido incorrecto: pack.map.routes[0].coins: debe ser un entero de 0 a 1000000, no -1"
    assert said["ja"]["message"] == "コンテンツパックが正しくありません: pack.map.routes[0].coins: 0～1000000 の整数でなければなりません（-1 ではなく）"
    # the field's complaint travels with its own parameters, translated
    assert said["es"]["params"]["exc"] == {"path": "pack.map.routes[0].coins", "lo": 0, "hi": 1000000, "value": "-1",
                                            "message": "pack.map.routes[0].coins: debe ser un entero de 0 a 1000000, no -1"}


def test_a_new_version_removing_what_the_pack_lacks_is_refused_in_three_languages(client, admin):
    said = three(client, "POST", f"{MP2}/{SYNTHETIC.id}/versions", {"remove": [{"kind": "contract", "id": "nope"}]}, admin)
    assert {b["field"] for b in said.values()} == {"remove[0].id"}
    pack = f"'{SYNTHETIC.id}'"
    assert said["en"]["message"] == f"bad content pack: remove[0].id: contract 'nope' is not in pack {pack}"
    assert said["es"]["message"] == f"paquete de contenido incorrecto: remove[0].id: contract 'nope' no está en el paquete {pack}"
    assert said["ja"]["message"] == f"コンテンツパックが正しくありません: remove[0].id: contract 'nope' はパック {pack} にありません"


def test_a_malformed_body_says_what_is_wrong_in_three_languages_with_the_same_loc(client):
    body = {"title": "lost-cities", "players": "Ana", "colour": "red"}
    said = three(client, "POST", "/games", body)
    assert {b["code"] for b in said.values()} == {"malformed-body"}
    locs = {lang: [e["loc"] for e in b["errors"]] for lang, b in said.items()}
    assert locs["en"] == locs["es"] == locs["ja"] and ["body", "colour"] in locs["en"]
    by_type = {lang: {e["type"]: e["msg"] for e in b["errors"]} for lang, b in said.items()}
    assert by_type["en"]["extra_forbidden"] == "Extra inputs are not permitted"
    assert by_type["es"]["extra_forbidden"] == "No se admiten campos adicionales"
    assert by_type["ja"]["extra_forbidden"] == "余分な項目は使えません"
    assert by_type["es"]["list_type"] == "Debe ser una lista" and by_type["ja"]["list_type"] == "リストでなければなりません"
    first = said["en"]["errors"][0]
    where = ".".join(str(p) for p in first["loc"])
    assert said["en"]["message"] == f"{where}: {first['msg']}"
    assert said["es"]["message"] == f"{where}: {said['es']['errors'][0]['msg']}" != said["en"]["message"]
    assert said["ja"]["message"] == f"{where}: {said['ja']['errors'][0]['msg']}"


def test_a_missing_field_is_translated_and_keeps_its_loc(client):
    said = three(client, "POST", "/games", {"players": ["Ana", "Bea"]})
    assert said["en"]["message"] == "body.title: Field required"
    assert said["es"]["message"] == "body.title: Campo obligatorio"
    assert said["ja"]["message"] == "body.title: 必須の項目です"
    assert {str(b["errors"][0]["loc"]) for b in said.values()} == {"['body', 'title']"}


def test_every_pack_field_complaint_the_source_raises_is_in_the_catalogue():
    """``PackError(path, template, ...)`` of the Marco Polo II pack format: each literal template
    is a ``pack-field/`` message of the English catalogue (so it is translated in every language)."""
    import ast
    from pathlib import Path

    from api import i18n

    root = Path(__file__).resolve().parents[2] / "rules" / "marco_polo_2" / "content"
    known = {t for k, t in i18n.catalogue("en")["errors"].items() if k.startswith("pack-field/")}
    sites = [
        (f"{path.name}:{node.lineno}", "{path}: " + node.args[1].value)
        for path in root.glob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "PackError" and len(node.args) >= 2
        and isinstance(node.args[1], ast.Constant)
    ]
    assert len(sites) > 30 and [s for s in sites if s[1] not in known] == []


def test_our_own_validators_complaints_are_translated_with_where_and_their_limit(client):
    said = three(client, "POST", "/games", {"title": "lost-cities", "players": ["Ana", "Bea"], "options": {"a": {"b": "x" * 5000}}})
    assert said["en"]["message"] == "body.options: Value error, a.b: text may hold at most 4000 characters"
    assert said["es"]["message"] == "body.options: Valor no válido: a.b: el texto puede tener como mucho 4000 caracteres"
    assert said["ja"]["message"] == "body.options: 値が正しくありません: a.b: テキストは 4000 文字以内です"
    assert {b["errors"][0]["type"] for b in said.values()} == {"value_error"}
