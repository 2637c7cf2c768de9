-- 003: what a seat chose for its own screen, kept beside its table (issue 14, PF-SORT).
--
-- A seat's preferences (today one: "hand_order", by suit, by rank or its own order of its
-- cards, PF-SORT-1..3) are presentation, never game state: they are not events, are in no
-- deal record and change no fold, so they live here and not in `events`. One row per
-- (table, seat, name), overwritten by the seat's latest choice; a reconnecting socket reads
-- it back. `value` is the JSON the table service wrote. The statements live in
-- services/store/postgres.py.

CREATE TABLE seat_preferences (
    stream_id  text        NOT NULL,
    seat       integer     NOT NULL,
    name       text        NOT NULL,
    value      jsonb       NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (stream_id, seat, name)
);
