"""What a client may call things: player names, command ids and table ids.

Every name or id that arrives from outside (an HTTP body or path, a WebSocket message) is
checked here, once, before anything is decided or written: PostgreSQL refuses some strings
(a NUL in a JSON value) and would otherwise fail the write with a 500 after part of the
work was done, and a control or direction-override character in a name would garble every
view it is shown in. The HTTP routes, the WebSocket and the table service use these checks
alike, so a refusal reads the same whichever way the string came.

The policy, stated once (README "Names and ids"):
- A player name has leading and trailing white space removed, then holds 1 to 64
  characters, at least one of them a letter, digit, symbol or punctuation mark (any
  script: Arabic, emoji, ...). It holds no control character (NUL, tab, newline, DEL, C1),
  no line or paragraph separator and no bidirectional embedding, override or isolate
  (U+202A-U+202E, U+2066-U+2069: unterminated, they reorder the text shown after the name).
  Joiners (ZWJ, ZWNJ) and marks stay: emoji sequences and Arabic need them.
- A command id is 1 to 128 visible ASCII characters ("!" to "~": letters, digits and
  punctuation; no space), taken as sent.
- A table id is 1 to 64 ASCII letters, digits, "-" or "_" (ids this service makes are hex).
A JSON string can never hold a lone surrogate (the decoder refuses it as bad JSON), but
names are checked for them too, for strings that arrive another way.

A refusal is a RuleViolation with code `invalid_name`, `invalid_command_id` or
`invalid_table_id` (HTTP 400, a "rejected" message on a socket) and a sentence naming the
field and what is wrong with it; it never echoes the offending character itself.
"""

from __future__ import annotations

import re
import unicodedata
from typing import NoReturn

from engine.errors import RuleViolation

__all__ = [
    "MAX_COMMAND_ID",
    "MAX_NAME",
    "command_id",
    "player_name",
    "table_id",
    "valid_table_id",
]

MAX_NAME = 64  # characters (code points) after trimming; the engine's own bound too
MAX_COMMAND_ID = 128

_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_COMMAND_ID = re.compile(r"[!-~]{1,128}")
# Bidirectional embeddings, overrides and isolates: left open, they reorder what follows.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_REFUSED_CATEGORIES = {
    "Cc": "a control character",
    "Cs": "a lone surrogate",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}
_VISIBLE = ("L", "N", "S", "P")  # category initials: letters, numbers, symbols, punctuation


def player_name(value: str, field: str = "player") -> str:
    """The name to record (trimmed), or RuleViolation `invalid_name` saying why not."""
    name = value.strip()
    if not name:
        _bad_name(field, "is empty (white space alone does not count)")
    if len(name) > MAX_NAME:
        _bad_name(field, f"has {len(name)} characters, more than {MAX_NAME}")
    visible = False
    for position, char in enumerate(name, start=1):
        category = unicodedata.category(char)
        why = _REFUSED_CATEGORIES.get(category)
        if why is None and char in _BIDI_CONTROLS:
            why = "a text-direction override"
        if why is not None:
            _bad_name(field, f"holds {why} (U+{ord(char):04X}) at character {position}")
        visible = visible or category.startswith(_VISIBLE)
    if not visible:
        _bad_name(field, "has no visible character (a letter, digit, symbol or punctuation)")
    return name


def command_id(value: str, field: str = "command_id") -> str:
    """The id as sent, or RuleViolation `invalid_command_id`."""
    if _COMMAND_ID.fullmatch(value) is None:
        raise RuleViolation(
            "invalid_command_id",
            "",
            f'"{field}" must be 1 to {MAX_COMMAND_ID} visible ASCII characters (letters, '
            'digits and punctuation from "!" to "~"; no spaces or control characters)',
        )
    return value


def valid_table_id(value: str) -> bool:
    """Ids this service makes (hex) or any short name that can be a bus subject token."""
    return _TABLE_ID.fullmatch(value) is not None


def table_id(value: str, field: str = "table_id") -> str:
    """The id as given, or RuleViolation `invalid_table_id`."""
    if not valid_table_id(value):
        raise RuleViolation(
            "invalid_table_id",
            "",
            f'"{field}" must be 1 to 64 ASCII letters, digits, "-" or "_"',
        )
    return value


def _bad_name(field: str, why: str) -> NoReturn:
    raise RuleViolation(
        "invalid_name",
        "",
        f'"{field}" {why}: a name is 1 to {MAX_NAME} characters after trimming white space, '
        "with no control characters, line breaks or text-direction overrides",
    )
