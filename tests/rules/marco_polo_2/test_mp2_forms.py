"""The pack editor's form schema (``content/forms.py``) and the pack validator agree: every field
``schema.validate_component`` knows is in the form and nothing else; specs filled in from the form
validate; the form's bounds and choices are the validator's (one past a bound is refused)."""

from __future__ import annotations

import json

import pytest

from rules.marco_polo_2 import MarcoPolo2
from rules.marco_polo_2.content import SYNTHETIC
from rules.marco_polo_2.content.forms import pack_forms
from rules.marco_polo_2.content.schema import CARD_KINDS, KINDS, PackError, validate_component

FORMS = pack_forms()
KIND_FORMS = FORMS["kinds"]
#: where the form asks more than the validator: a contract always shows a cost and a reward, a
#: city has at most its four kinds of space
STRICTER = {("contract", "cost"), ("contract", "reward"), ("node", "slots")}


def known_fields(kind: str, base: dict) -> set[str]:
    """The fields the validator knows for ``kind`` (its "unknown field" error lists them)."""
    with pytest.raises(PackError) as err:
        validate_component(kind, {**base, "zz_unknown": 1})
    message = str(err.value)
    assert "unknown field (known: " in message, message
    return set(message.split("(known: ", 1)[1].rstrip(")").split(", "))


def active(fields: list[dict], spec: dict) -> list[dict]:
    """The fields shown for ``spec`` (a field's ``when`` names another field's values)."""
    out = []
    for f in fields:
        w = f.get("when")
        if w is None:
            out.append(f)
            continue
        by = next(x for x in fields if x["name"] == w["field"])
        value = spec.get(w["field"], by.get("default", False) if by["type"] == "boolean" else by.get("default"))
        if value in w["in"]:
            out.append(f)
    return out


def variants(kind: str) -> list[dict]:
    """The specs that switch fields on and off: one per city-card kind, node kind, any-bonus flag."""
    if kind == "city_card":
        return [{"kind": k} for k in CARD_KINDS]
    if kind == "node":
        return [{"kind": k} for k in ("city", "oasis", "start")]
    if kind in ("city_bonus", "outpost"):
        return [{"any_bonus": True}, {}]
    return [{}]


def sample(field: dict, full: bool, n: int = 0):
    """A value for ``field`` as the form would send it (``full``: the most a user may enter)."""
    t = field["type"]
    if t in ("integer", "number"):
        if field.get("max") is not None and full:
            return field["max"]
        return max(field["min"], 1 if field.get("default") is None else field["min"])
    if t == "bundle":
        keys = field["keys"] if full else field["keys"][:1]
        return {k: field.get("limits", {}).get(k, 2 + n) for k in keys}
    if t == "choice":
        return field["choices"][-1 if full else 0]["value"]
    if t == "boolean":
        return True
    if t == "text":
        return f"lion{n}"
    if t == "ref":
        return f"P{n}"
    if t == "list":
        count = field["min"] if not full or field.get("max") is None else field["max"]
        count = max(count, 2 if full and field.get("max") is None else count)
        return [sample(field["item"], full, i) for i in range(count)]
    if t == "object":
        return {f["name"]: sample(f, full, n) for f in field["fields"] if full or f["required"]}
    raise AssertionError(f"unknown field type {t}")


def built(kind: str, variant: dict, full: bool) -> dict:
    fields = KIND_FORMS[kind]["fields"]
    spec = dict(variant)
    for f in active(fields, spec):
        if f["name"] in spec:
            continue
        if f["type"] == "boolean" and f["name"] == "any_bonus":
            continue  # the variant sets it
        if full or f["required"]:
            spec[f["name"]] = sample(f, full)
    return spec


def test_the_schema_is_json_and_covers_every_kind():
    assert json.loads(json.dumps(FORMS)) == FORMS
    assert list(KIND_FORMS) == list(KINDS)
    assert MarcoPolo2().pack_forms() == FORMS
    for kind, form in KIND_FORMS.items():
        assert form["label"] and form["help"], kind
        for f in form["fields"]:
            assert f["label"] and f["type"] in {"integer", "number", "bundle", "choice", "boolean", "text", "list"}, (kind, f)
            assert "_" not in f["label"] and f["label"] != f["name"], (kind, f["label"])  # plain words, not codes


@pytest.mark.parametrize("kind", KINDS)
def test_the_form_has_every_field_the_validator_knows_and_no_other(kind):
    for variant in variants(kind):
        base = {"kind": variant["kind"]} if kind == "city_card" else {}
        known = known_fields(kind, base)
        shown = {f["name"] for f in KIND_FORMS[kind]["fields"]} if kind != "city_card" else {
            f["name"] for f in active(KIND_FORMS[kind]["fields"], variant)}
        shown.add("id")
        assert shown == known, (kind, variant, shown ^ known)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("full", [False, True], ids=["required only", "everything"])
def test_specs_built_from_the_form_validate(kind, full):
    for variant in variants(kind):
        spec = built(kind, variant, full)
        assert validate_component(kind, spec) == spec


@pytest.mark.parametrize("kind", KINDS)
def test_one_past_a_bound_or_outside_the_choices_is_refused(kind):
    for variant in variants(kind):
        spec = built(kind, variant, True)
        for f in active(KIND_FORMS[kind]["fields"], spec):
            if (kind, f["name"]) in STRICTER:
                continue
            bad = []
            if f["type"] in ("integer", "number"):
                bad.append(f["min"] - 1)
                if f.get("max") is not None:
                    bad.append(f["max"] + 1)
            if f["type"] == "choice" and f["name"] != "kind":
                bad.append("not-a-choice" if isinstance(f["choices"][0]["value"], str) else 99)
            if f["type"] == "bundle":
                bad.append({"not_a_resource": 1})
                bad += [{k: cap + 1} for k, cap in f.get("limits", {}).items()]
                if f["nonempty"]:
                    bad.append({})
            if f["type"] == "list" and f.get("max") is not None:
                bad.append([sample(f["item"], True, i) for i in range(f["max"] + 1)])
            for value in bad:
                with pytest.raises(PackError) as err:
                    validate_component(kind, {**spec, f["name"]: value})
                assert f["name"] in err.value.path, (kind, f["name"], value, err.value)


def test_every_synthetic_component_fills_its_form():
    for kind, items in SYNTHETIC.components.items():
        fields = KIND_FORMS[kind]["fields"]
        for cid, spec in items.items():
            names = {f["name"] for f in active(fields, spec)} | {"id"}
            assert set(spec) <= names, (kind, cid, set(spec) - names)


@pytest.mark.parametrize("kind", KINDS)
def test_a_required_field_left_out_is_refused_and_an_optional_one_is_not(kind):
    fields = KIND_FORMS[kind]["fields"]
    switches = {f["when"]["field"] for f in fields if f.get("when")}  # leaving one out shows other fields
    for variant in variants(kind):
        spec = built(kind, variant, True)
        for f in active(fields, spec):
            if f["name"] not in spec or f["name"] in switches:
                continue
            rest = {k: v for k, v in spec.items() if k != f["name"]}
            if f["required"]:
                with pytest.raises(PackError) as err:
                    validate_component(kind, rest)
                assert err.value.path.endswith(f["name"]) and "missing" in str(err.value), (kind, f["name"], err.value)
            else:
                assert validate_component(kind, rest) == rest, (kind, f["name"])
