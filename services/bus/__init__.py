"""Broadcast of committed events: the bus port, its NATS and in-memory adapters, the relay."""
