"""The table application service: the one write path of every table, whoever writes.

The gateway (a player's command), the clock (a timeout) and the bots worker (a bot's
move) all go through `service.TableService`: load the table, decide, append, publish, then
the follow-ups. What it needs lives here with it: the codec of stored rows, the sealing of
hidden cards at rest, the publisher, the seed timer, the quarantine of unreadable tables.
It sits beneath all three processes and imports none of them.
"""
