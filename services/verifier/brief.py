"""A verdict for a person at a terminal: one short line per check, the first difference
named by its field.

A failed check's `detail` quotes both events whole (for `--json` and the Verify page,
which show them as cards). Printed as it is, a difference in a CardsDealt is one line of
4 KB: every hand and the stock, twice. Here it is the detail's head ("event 4 differs",
as the Verify page heads it too) and then only what differs: the field and, inside the
hands or the stock, the first position that differs, each value clipped.
"""

from __future__ import annotations

from typing import Any

import msgspec

from engine.verify import Check, Difference, Verdict

__all__ = ["brief_check", "brief_lines"]

_VALUE = 48  # characters of one value shown
_LINE = 200  # characters of one line at most
_FIELDS = 3  # differing fields named, then "and N more"
_JSON = msgspec.json.Encoder()


def brief_lines(verdict: Verdict) -> list[str]:
    """The verdict, one line per deal and per check, none longer than ~200 characters."""
    lines = []
    for deal in verdict.deals:
        head = "PASS" if deal.passed else "FAIL"
        commitment = deal.commitment or "-"
        lines.append(f"deal {deal.deal}: {head} (commitment {commitment})")
        mark = {"pass": "ok  ", "fail": "FAIL", "unchecked": "--  "}
        lines.extend(f"  {mark[c.status]} {c.name}: {brief_check(c)}" for c in deal.checks)
    return lines


def brief_check(check: Check) -> str:
    difference = check.difference
    if difference is None:
        return _clip(check.detail, _LINE)
    head = check.detail.split(":", 1)[0]
    return _clip(f"{head}: {_what_differs(difference)}", _LINE)


def _what_differs(d: Difference) -> str:
    want, got = d.expected, d.recorded
    if want is None:
        return f"the log has a {type(got).__name__} the rules do not give"
    if got is None:
        return f"the rules give a {type(want).__name__} the log does not have"
    if type(want) is not type(got):
        return f"the log has a {type(got).__name__}, the rules give a {type(want).__name__}"
    found = _differences(_plain(got), _plain(want), "")
    shown = [
        f"{path or 'the event'}: the log has {_show(log)}, the rules give {_show(rules)}"
        for path, log, rules in found[:_FIELDS]
    ]
    more = len(found) - _FIELDS
    return f"{type(got).__name__} " + "; ".join(shown) + (f"; and {more} more" if more > 0 else "")


def _differences(log: Any, rules: Any, path: str) -> list[tuple[str, Any, Any]]:
    """(path, log value, rules value) of each place that differs, the first in a list only
    (after one card is off, the rest of a hand usually is too: the first says where)."""
    if isinstance(log, dict) and isinstance(rules, dict):
        found = []
        for key in [*rules, *(k for k in log if k not in rules)]:
            if log.get(key) != rules.get(key):
                found += _differences(log.get(key), rules.get(key), f"{path}.{key}".lstrip("."))
        return found
    if isinstance(log, list | tuple) and isinstance(rules, list | tuple) and log != rules:
        for i in range(min(len(log), len(rules))):
            if log[i] != rules[i]:
                return _differences(log[i], rules[i], f"{path}[{i}]")
        return [(f"{path} (length)", len(log), len(rules))]
    return [(path, log, rules)]


def _plain(event: Any) -> Any:
    return msgspec.to_builtins(event)


def _show(value: Any) -> str:
    return _clip(_JSON.encode(value).decode(), _VALUE)


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"
