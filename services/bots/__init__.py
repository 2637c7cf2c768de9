"""Bots: the policy that plays a bot's seat, and the worker that plays every bot seat."""
