"""Read models rebuilt from the event log (each keeps its own checkpoint): the tables in
play and their deadlines, the lobby."""
