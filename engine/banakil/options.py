"""Banakil table options (BK-OPT-*): the two rule sets are presets of these fields.

The engine reads only these fields, never the rule-set name (BK-RS-3); a host may take a
preset and override any field one by one. `validate` rejects values that cannot work: of
the wrong type, not one of the named values, or outside the finite range of `BOUNDS`.
Every number is bounded above too: a client's number ends up in timers and totals, and
one turn of 10^12 seconds once made the clock fail on every tick for every table.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from engine.errors import RuleViolation

__all__ = ["BOUNDS", "PRESETS", "BanakilOptions", "options_from", "validate"]

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

# name -> (least, most, unit) of every number option. The least are the rules' (BK-RS-3: a
# target below 1 or a turn below 5 s cannot work); the most are generous but finite.
BOUNDS: dict[str, tuple[int, int, str]] = {
    # BK-OPT-2 gives 150 / 202 / 222. A million is "play until the table is closed" (the
    # service bench plays such tables): far beyond any evening, still exact arithmetic.
    "target_score": (1, 1_000_000, "points"),
    # PF-TIMER-1 gives 20 / 40 s. Ten minutes is 15 times the classic turn, room for a
    # slow or teaching table; a longer wait is a stalled table, not a slow one.
    "turn_seconds": (5, 600, "seconds"),
    # BK-WIN-C3/C4 give 5: a margin of a whole deal's points is already more than any use.
    "tie_margin": (0, 100, "points"),
    # BK-OPT-6 gives 20 (51 / 102 are the sahrat single-meld bonuses): a tenfold margin.
    "going_out_bonus": (0, 200, "points"),
    # BK-OPT-9 gives 2 / 10; BK-STOCK-S3's 10 is the cap that makes every deal end.
    "max_reshuffles": (0, 10, "reshuffles"),
    # BK-OPT-12 gives 1 / 2; a meld has 3 cards, so at most 3 can be real.
    "min_real_cards": (1, 3, "cards"),
}
_SHOWN_NAMES = 5  # unknown option names listed in an error, each cut to _SHOWN_CHARS
_SHOWN_CHARS = 32


def options_from(preset: str | None = None, /, **overrides: Any) -> BanakilOptions:
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
        shown = ", ".join(repr(option[:_SHOWN_CHARS]) for option in unknown[:_SHOWN_NAMES])
        more = f" and {len(unknown) - _SHOWN_NAMES} more" if len(unknown) > _SHOWN_NAMES else ""
        raise RuleViolation("bad_option", "BK-RS-3", f"unknown table option(s): {shown}{more}")
    if overrides.get("mode") == "one_vs_one" and "target_score" not in overrides:
        overrides["target_score"] = _ONE_VS_ONE_TARGET
    base.update(overrides)
    opts = _converted(base)
    validate(opts)
    return opts


def validate(opts: BanakilOptions) -> None:
    """Reject option values that cannot work (BK-RS-3), however the options were made: a
    Struct built in code or decoded elsewhere is checked for types and named values too."""
    _converted(msgspec.structs.asdict(opts))
    for name, (least, most, unit) in BOUNDS.items():
        value = getattr(opts, name)
        if not least <= value <= most:
            raise RuleViolation(
                "bad_option",
                "BK-RS-3",
                f"{name} must be between {least} and {most} {unit}, not {_shown(value)}",
            )
    checks: list[tuple[bool, str, str]] = [
        (
            opts.mode == "partnership" or opts.one_vs_one_allowed,
            "BK-PLAY-C1",
            "this rule set has only the partnership mode (4 players)",
        ),
    ]
    for ok, rule, message in checks:
        if not ok:
            raise RuleViolation("bad_option", rule, message)


def _converted(fields: dict[str, Any]) -> BanakilOptions:
    try:
        return msgspec.convert(fields, BanakilOptions)
    except msgspec.ValidationError as exc:
        raise RuleViolation("bad_option", "BK-RS-3", f"invalid table option: {exc}") from None


def _shown(value: int) -> str:
    """The refused number, unless it is too long to be worth printing."""
    return str(value) if abs(value) < 10**15 else "a number that large"
