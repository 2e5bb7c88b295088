"""Calculator arguments as JSON Schema, and the validator that turns a call's JSON into typed arguments.

One schema serves three readers: an LLM (OpenAI function-tool `parameters`), the critic's re-check, and
`validate`, which understands exactly the subset the builders below emit: type (optionally nullable), enum,
minimum / exclusiveMinimum / maximum, default, and `format: date` (optional, defaulting to today).
Numbers become `Decimal` (via their JSON text, so 0.0305 stays 0.0305), integers `int`, dates `datetime.date`.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from decimal import Decimal
from typing import Any

from calc.errors import CalcError

DATE_FORMAT = "date"
_NO_DEFAULT = object()


def _field(
    kind: str,
    description: str,
    *,
    nullable: bool = False,
    default: Any = _NO_DEFAULT,
    **constraints: Any,
) -> dict[str, Any]:
    spec: dict[str, Any] = {"type": [kind, "null"] if nullable else kind, "description": description}
    spec.update({key: value for key, value in constraints.items() if value is not None})
    if default is not _NO_DEFAULT:
        spec["default"] = default
    return spec


def number(
    description: str,
    *,
    minimum: float | None = None,
    exclusive_minimum: float | None = None,
    maximum: float | None = None,
    enum: list[float] | None = None,
    nullable: bool = False,
    default: Any = _NO_DEFAULT,
) -> dict[str, Any]:
    return _field(
        "number",
        description,
        nullable=nullable,
        default=default,
        minimum=minimum,
        exclusiveMinimum=exclusive_minimum,
        maximum=maximum,
        enum=enum,
    )


def money(description: str, *, nullable: bool = False, default: Any = _NO_DEFAULT) -> dict[str, Any]:
    """An amount in yuan that may be zero (a balance, a cost)."""
    return number(description, minimum=0, nullable=nullable, default=default)


def positive(description: str, *, nullable: bool = False, default: Any = _NO_DEFAULT) -> dict[str, Any]:
    """A price or area that must be above zero, often because something is divided by it."""
    return number(description, exclusive_minimum=0, nullable=nullable, default=default)


def fraction(
    description: str, *, minimum: float = 0, maximum: float = 1, default: Any = _NO_DEFAULT
) -> dict[str, Any]:
    """A rate or ratio as a fraction; the maximum catches percentages passed by mistake (3.05 for 0.0305)."""
    return number(
        f"{description}（小数，如 0.0305 表示 3.05%）", minimum=minimum, maximum=maximum, default=default
    )


def integer(
    description: str,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    enum: list[int] | None = None,
    nullable: bool = False,
    default: Any = _NO_DEFAULT,
) -> dict[str, Any]:
    return _field(
        "integer",
        description,
        nullable=nullable,
        default=default,
        minimum=minimum,
        maximum=maximum,
        enum=enum,
    )


def boolean(description: str, *, default: Any = _NO_DEFAULT) -> dict[str, Any]:
    return _field("boolean", description, default=default)


def string(
    description: str, *, enum: list[str] | None = None, nullable: bool = False, default: Any = _NO_DEFAULT
) -> dict[str, Any]:
    return _field("string", description, nullable=nullable, default=default, enum=enum)


def transaction_date() -> dict[str, Any]:
    return _field(
        "string", "交易日期，ISO 格式如 2026-03-01；省略则为今天，按当日有效的政策计算", format=DATE_FORMAT
    )


def parameters(**properties: dict[str, Any]) -> dict[str, Any]:
    """An object schema; a property is required unless it has a default or is the (today-defaulting) date."""
    required = [
        name
        for name, spec in properties.items()
        if "default" not in spec and spec.get("format") != DATE_FORMAT
    ]
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def _shown(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _expected(spec: dict[str, Any]) -> str:
    kinds = spec["type"] if isinstance(spec["type"], list) else [spec["type"]]
    words = {
        "number": "a number",
        "integer": "an integer",
        "boolean": "true or false",
        "string": "an ISO date (YYYY-MM-DD)" if spec.get("format") == DATE_FORMAT else "a string",
        "null": "null",
    }
    return " or ".join(words[kind] for kind in kinds)


def _convert(name: str, spec: dict[str, Any], value: Any) -> Any:
    kinds = spec["type"] if isinstance(spec["type"], list) else [spec["type"]]

    def fail(problem: str) -> CalcError:
        return CalcError(f"{problem} — {spec['description']}", field=name)

    if value is None:
        if "null" in kinds:
            return None
        raise fail(f"expected {_expected(spec)}, got null")
    kind = kinds[0]
    wrong_type = fail(f"expected {_expected(spec)}, got {_shown(value)}")
    if kind in ("number", "integer"):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise wrong_type
        if isinstance(value, float) and not math.isfinite(value):
            raise wrong_type
        if kind == "integer":
            if isinstance(value, float) and not value.is_integer():
                raise wrong_type
            converted: Any = int(value)
        else:
            converted = Decimal(str(value))
        # Bounds and number enums are compared as Decimals: the float 0.01 is slightly above Decimal("0.01").
        bounds = {
            key: Decimal(str(spec[key])) for key in ("minimum", "exclusiveMinimum", "maximum") if key in spec
        }
        if "minimum" in bounds and converted < bounds["minimum"]:
            raise fail(f"must be ≥ {spec['minimum']}, got {_shown(value)}")
        if "exclusiveMinimum" in bounds and converted <= bounds["exclusiveMinimum"]:
            raise fail(f"must be > {spec['exclusiveMinimum']}, got {_shown(value)}")
        if "maximum" in bounds and converted > bounds["maximum"]:
            raise fail(f"must be ≤ {spec['maximum']}, got {_shown(value)}")
    elif kind == "boolean":
        if not isinstance(value, bool):
            raise wrong_type
        converted = value
    elif not isinstance(value, str):
        raise wrong_type
    elif spec.get("format") == DATE_FORMAT:
        try:
            converted = dt.date.fromisoformat(value.strip())
        except ValueError:
            raise wrong_type from None
    else:
        converted = value.strip()
    allowed = [Decimal(str(choice)) if kind == "number" else choice for choice in spec.get("enum", ())]
    if "enum" in spec and converted not in allowed:
        choices = ", ".join(_shown(choice) for choice in spec["enum"])
        raise fail(f"expected one of {choices}, got {_shown(value)}")
    return converted


def validate(schema: dict[str, Any], args: Any) -> dict[str, Any]:
    """Typed keyword arguments for a calculator, with defaults filled; CalcError names the first bad field."""
    if not isinstance(args, dict):
        raise CalcError(f"arguments must be a JSON object, got {_shown(args)}")
    properties: dict[str, dict[str, Any]] = schema["properties"]
    unknown = [name for name in args if name not in properties]
    if unknown:
        raise CalcError(f"unknown argument; expected some of {', '.join(properties)}", field=unknown[0])
    kwargs: dict[str, Any] = {}
    for name, spec in properties.items():
        if name in args:
            kwargs[name] = _convert(name, spec, args[name])
        elif spec.get("format") == DATE_FORMAT:
            kwargs[name] = dt.date.today()
        elif "default" in spec:
            kwargs[name] = _convert(name, spec, spec["default"])
        else:
            raise CalcError(f"required, {_expected(spec)} — {spec['description']}", field=name)
    return kwargs
