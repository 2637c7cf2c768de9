"""The turn clock: deadlines derived from the event log, fired as system commands."""
