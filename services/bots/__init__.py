"""Bots: the worker that plays every bot seat. What a bot plays is decided beneath it, in
the table service (`services/tables/bot_policy.py`), which also gives a seat back."""
