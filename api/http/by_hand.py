"""Reading a request by hand, for the one route where FastAPI's parameter solving is too dear.

Validation uses the same pydantic models and types the OpenAPI schema documents, and failures
raise FastAPI's own ``RequestValidationError``, so clients see exactly the errors of every
other route.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, TypeVar

from fastapi.exceptions import RequestValidationError
from fastapi.security import HTTPAuthorizationCredentials
from fastapi.security.utils import get_authorization_scheme_param
from pydantic import BaseModel, TypeAdapter, ValidationError

M = TypeVar("M", bound=BaseModel)


def _located(exc: ValidationError, *where: str | int) -> RequestValidationError:
    return RequestValidationError([{**e, "loc": (*where, *e["loc"])} for e in exc.errors(include_url=False)])


def validated_body(model: type[M], raw: bytes) -> M:
    """The JSON body as ``model``; a 422 ``malformed-body`` like any other route's."""
    try:
        return model.model_validate_json(raw)
    except ValidationError as exc:
        raise _located(exc, "body") from None


@lru_cache(maxsize=None)
def _adapter(annotation: Any) -> TypeAdapter:
    return TypeAdapter(annotation)


def validated_header(value: str | None, name: str, annotation: Any) -> Any:
    """An optional header's ``value`` validated as ``annotation`` (None when absent)."""
    if value is None:
        return None
    try:
        return _adapter(annotation).validate_python(value)
    except ValidationError as exc:
        raise _located(exc, "header", name) from None


def bearer_token(authorization: str | None) -> HTTPAuthorizationCredentials | None:
    """An ``Authorization: Bearer <token>`` header: the one parser of every route (``api.http.auth.bearer``
    uses it too). Spaces around the token do not count (RFC 6750 allows more than one after ``Bearer``)."""
    scheme, credentials = get_authorization_scheme_param(authorization)
    if not credentials or scheme.lower() != "bearer":
        return None
    return HTTPAuthorizationCredentials(scheme=scheme, credentials=credentials)
