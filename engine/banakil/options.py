"""Banakil table options (BK-OPT-*): the two rule sets are presets of these fields.

The engine reads only these fields, never the rule-set name (BK-RS-3); a host may take a
preset and override any field one by one. `validate` rejects values that cannot work.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from engine.errors import RuleViolation

__all__ = ["PRESETS", "BanakilOptions", "options_from", "validate"]

Mode = Literal["partnership", "one_vs_one"]


class BanakilOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    ruleset: Literal["classic", "sahrat"] = "sahrat"  # BK-RS-2: a label only (BK-RS-3)
    mode: Mode = "partnership"
    one_vs_one_allowed: bool = True  # BK-OPT-1
    target_score: int = 222  # BK-OPT-2 (whole points)
    match_end: Literal["margin", "highest_total"] = "highest_total"  # BK-OPT-3
    tie_margin: int = 5  # BK-WIN-C3/C4: "difference greater than 5"
    scoring_unit: Literal["player", "team"] = "team"  # BK-OPT-4, BK-OPT-8
    personal_opening: bool = False  # BK-OPT-5
    going_out_bonus: int = 20  # BK-OPT-6
    single_meld_bonus: bool = True  # BK-OPT-7
    max_reshuffles: int = 10  # BK-OPT-9, BK-STOCK-S3
    exhausted_deal: Literal["dead", "used_up"] = "used_up"  # BK-OPT-10
    ground_draw: Literal["chosen_and_above", "top_only_must_use"] = "top_only_must_use"
    min_real_cards: int = 2  # BK-OPT-12
    wild_two_in_sets: bool = True  # BK-OPT-13
    partner_addon_needs_own_meld: bool = True  # BK-OPT-14
    freed_joker: Literal["to_hand", "must_remeld"] = "must_remeld"  # BK-OPT-15
    wild_two_relocation: Literal["any_position", "ends_on_real_card"] = "ends_on_real_card"
    first_player: Literal["host_cut", "fair_draw_dealer"] = "fair_draw_dealer"  # BK-OPT-17
    turn_seconds: int = 20  # BK-OPT-19
    table_kind: Literal["free", "coin"] = "free"  # BK-OPT-20
    bots_allowed: bool = True  # BK-OPT-21: inert at a coin table (PF-BOT-1)
    hints: bool = True  # BK-OPT-22
    series: bool = False  # BK-OPT-23: best of 3 when on
    provably_fair: bool = True  # BK-OPT-24

    @property
    def seats(self) -> int:
        return 4 if self.mode == "partnership" else 2


PRESETS: dict[str, BanakilOptions] = {
    "sahrat": BanakilOptions(),
    "classic": BanakilOptions(
        ruleset="classic",
        one_vs_one_allowed=False,
        target_score=202,
        match_end="margin",
        scoring_unit="player",
        personal_opening=True,
        single_meld_bonus=False,
        max_reshuffles=2,
        exhausted_deal="dead",
        ground_draw="chosen_and_above",
        min_real_cards=1,
        wild_two_in_sets=False,
        partner_addon_needs_own_meld=False,
        freed_joker="to_hand",
        wild_two_relocation="any_position",
        first_player="host_cut",
        turn_seconds=40,
        hints=False,
    ),
}
_ONE_VS_ONE_TARGET = 150  # BK-OPT-2: sahrat 1v1


def options_from(preset: str | None = None, **overrides: Any) -> BanakilOptions:
    """A preset (default `sahrat`, BK-RS-2) with single options overridden, validated.

    Choosing the 1v1 mode on a preset also takes the preset's 1v1 target (150) unless the
    target is set explicitly.
    """
    name = preset or "sahrat"
    if name not in PRESETS:
        raise RuleViolation("bad_option", "BK-RS-1", f"unknown rule set {name!r}")
    base = msgspec.structs.asdict(PRESETS[name])
    unknown = sorted(set(overrides) - set(base))
    if unknown:
        raise RuleViolation("bad_option", "BK-RS-3", f"unknown table option(s): {unknown}")
    if overrides.get("mode") == "one_vs_one" and "target_score" not in overrides:
        overrides["target_score"] = _ONE_VS_ONE_TARGET
    base.update(overrides)
    try:
        opts = msgspec.convert(base, BanakilOptions)
    except msgspec.ValidationError as exc:
        raise RuleViolation("bad_option", "BK-RS-3", f"invalid table option: {exc}") from None
    validate(opts)
    return opts


def validate(opts: BanakilOptions) -> None:
    """Reject option values that cannot work (BK-RS-3)."""
    checks: list[tuple[bool, str, str]] = [
        (opts.target_score >= 1, "BK-RS-3", "the target score must be at least 1"),
        (opts.turn_seconds >= 5, "BK-RS-3", "the turn time must be at least 5 seconds"),
        (opts.min_real_cards in (1, 2, 3), "BK-RS-3", "min_real_cards must be 1, 2 or 3"),
        (opts.max_reshuffles >= 0, "BK-RS-3", "max_reshuffles cannot be negative"),
        (opts.tie_margin >= 0, "BK-RS-3", "tie_margin cannot be negative"),
        (opts.going_out_bonus >= 0, "BK-RS-3", "going_out_bonus cannot be negative"),
        (
            opts.mode == "partnership" or opts.one_vs_one_allowed,
            "BK-PLAY-C1",
            "this rule set has only the partnership mode (4 players)",
        ),
    ]
    for ok, rule, message in checks:
        if not ok:
            raise RuleViolation("bad_option", rule, message)
