"""The gateway: the table application service, the HTTP lobby and WebSocket seat sessions."""
