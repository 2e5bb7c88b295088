"""`python -m bot calc`: JSON on stdout for a good call, exit 2 with the field named on stderr otherwise."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def test_prints_result_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = json.dumps({"price": 3_000_000, "years_held": 1, "date": "2026-03-01"})
    assert main(["calc", "resale_vat", "--args", args]) == 0
    out = capsys.readouterr().out
    assert json.loads(out) == {"vat": 87378.64, "surcharges": 5242.72, "total": 92621.36, "rate": 0.03}


def test_chinese_stays_readable_in_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["calc", "land_remaining_years", "--args", '{"use": "住宅", "grant_year": 2000, "year": 2026}'])
        == 0
    )
    assert json.loads(capsys.readouterr().out) == {"remaining": 44, "total_years": 70}


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["calc", "deed_tax", "--args", '{"price": -5, "area": 90, "home_order": 1}'], "price: must be > 0"),
        (["calc", "deed_tax", "--args", '{"price": 5, "area": 90}'], "home_order: required"),
        (["calc", "deed_tax", "--args", '{"price": 5, "area": 90, "home_order": 7}'], "home_order"),
        (
            ["calc", "equal_installment", "--args", '{"principal": 1, "annual_rate": 0.03, "years": 0}'],
            "years",
        ),
        (["calc", "deed_tax", "--args", "{price: 5}"], "--args is not valid JSON"),
        (["calc", "deed_tax", "--args", "[1, 2]"], "JSON object"),
        (["calc", "no_such_calc"], "valid names: deed_tax"),
        (["calc"], "--list"),
    ],
)
def test_bad_call_exits_2_naming_the_problem(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert words in captured.err
    assert "Traceback" not in captured.err


def test_list_names_every_calculator_with_its_description(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calc", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 24
    deed = next(line for line in lines if line.startswith("deed_tax "))
    assert "契税" in deed


def test_schema_prints_the_tool_definition(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calc", "equal_principal", "--schema"]) == 0
    tool = json.loads(capsys.readouterr().out)
    assert tool["function"]["name"] == "equal_principal"
    assert tool["function"]["parameters"]["required"] == ["principal", "annual_rate", "years"]


def test_schema_of_unknown_calculator_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calc", "deedtax", "--schema"]) == 2
    assert "valid names: deed_tax" in capsys.readouterr().err
