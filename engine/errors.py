"""The one error the engine raises for a refused command or bad input."""

from __future__ import annotations

__all__ = ["RuleViolation"]


class RuleViolation(Exception):
    """A command the rules refuse: nothing was changed.

    `code` is a stable machine-readable reason, `rule_id` the rule it breaks (e.g.
    ``BK-MELD-5``, or ``""`` for plain input errors), `message` a sentence for a person.
    """

    def __init__(self, code: str, rule_id: str, message: str) -> None:
        super().__init__(f"{code} [{rule_id}]: {message}" if rule_id else f"{code}: {message}")
        self.code = code
        self.rule_id = rule_id
        self.message = message

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "rule_id": self.rule_id, "message": self.message}
