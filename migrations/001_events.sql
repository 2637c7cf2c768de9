-- 001: the event store (events, snapshots, reader checkpoints).
--
-- Applied once by `sahra migrate`, inside one transaction, under an advisory lock (see
-- services/store/migrate.py). Every SQL statement that reads or writes these tables lives
-- in services/store/postgres.py.

-- One row per event. A stream is one table's history: versions 1, 2, 3 … with no gaps.
CREATE TABLE events (
    -- Global, from a sequence: taken when the row is inserted, NOT when it commits, so two
    -- concurrent writers may commit in the opposite order of their positions. Catch-up
    -- readers therefore order by (txid, position), never by position alone.
    position    bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    stream_id   text        NOT NULL,
    version     integer     NOT NULL CHECK (version > 0),
    type        text        NOT NULL,
    data        jsonb       NOT NULL,
    -- {"command_id", "seat", "player", "server_time"}: the same for every event of an append.
    metadata    jsonb       NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    -- The writing transaction's 64-bit id (never wraps). Assigned by the first write of the
    -- transaction; an append is its transaction's first write, so the id is taken after the
    -- append's snapshot saw the previous version committed: within a stream, txid order is
    -- version order. A reader only returns rows whose txid is below the oldest transaction
    -- still running, so no transaction can later commit "behind" its checkpoint.
    txid        xid8        NOT NULL DEFAULT pg_current_xact_id(),
    -- Set on the first event of an append only (NULL, which never conflicts, on the others):
    -- a repeated command id then hits events_stream_command_key below and appends nothing.
    command_id  text,
    -- Optimistic concurrency: two writers expecting the same version both try to insert
    -- version n+1; the second one blocks on this index until the first commits, then fails.
    -- Either key may fire for a racing retry of the same command; the store looks the
    -- command up after any violation (the winner has committed by then) and answers
    -- "duplicate" if it finds it, "concurrency conflict" otherwise.
    CONSTRAINT events_stream_version_key UNIQUE (stream_id, version),
    CONSTRAINT events_stream_command_key UNIQUE (stream_id, command_id)
);

-- Catch-up reading (`read_all`): WHERE (txid, position) > checkpoint AND txid < xmin
-- ORDER BY txid, position — a range scan of this index.
CREATE INDEX events_txid_position_idx ON events (txid, position);

-- The folded state of a stream at `version`, per engine version: a new engine (different
-- rules or state shape) never reads an old engine's snapshot; it folds from the events.
-- `state` is bytea, not jsonb: the exact bytes the engine encoded come back unchanged
-- (jsonb would reorder keys and normalise numbers), and nothing queries inside it.
CREATE TABLE snapshots (
    stream_id      text        NOT NULL,
    engine_version text        NOT NULL,
    version        integer     NOT NULL CHECK (version > 0),
    state          bytea       NOT NULL,
    saved_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (stream_id, engine_version)
);

-- Where each named catch-up reader (NATS relay, projections) stands: the (txid, position)
-- of the last event it has handled. (0, 0) — or no row — is the start.
CREATE TABLE checkpoints (
    name       text        PRIMARY KEY,
    txid       xid8        NOT NULL,
    position   bigint      NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);
