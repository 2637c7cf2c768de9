-- 002: tables quarantined by a background process (issue 10 item 1).
--
-- A background loop (the clock, the bots worker, the relay, the tables-in-play read model)
-- that cannot handle one table records it here and leaves it alone, so that every other
-- table keeps being served; the gateway refuses commands at it. An operator lists the rows
-- (`sahra quarantine list`, GET /admin/quarantine) and deletes them to release the table
-- (`sahra quarantine release TABLE`). The statements live in services/store/postgres.py.

CREATE TABLE quarantine (
    stream_id  text        NOT NULL,
    -- Which loop found the failure ("clock", "bots", "relay", "tables-in-play"): each
    -- keeps its own first report; a table is held while it has any row.
    process    text        NOT NULL,
    reason     text        NOT NULL,
    -- Where the loop stood: the table's version, and the global position of the event it
    -- failed on (0 when the failure was not about one event).
    version    integer     NOT NULL DEFAULT 0,
    position   bigint      NOT NULL DEFAULT 0,
    since      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (stream_id, process)
);
