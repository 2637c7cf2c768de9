"""The gateway: the HTTP lobby and table routes, the WebSocket seat sessions, and the
verifier's routes it serves. The write path they call is `services/tables/`."""
