"""Rummy, the Manipulation family (rules/rummy.md): so far the group and table checks."""

from engine.rummy.groups import Group, TableViolation, check_group, check_table
from engine.rummy.variants import VARIANTS, Variant, deck

__all__ = ["VARIANTS", "Group", "TableViolation", "Variant", "check_group", "check_table", "deck"]
