"""Read models rebuilt from the event log (each keeps its own checkpoint)."""
