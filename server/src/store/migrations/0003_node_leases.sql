-- 0003: one lease per node instead of one per game. A node's heartbeat then writes one row
-- (its own) instead of every game it holds: with 1,000 live games per node, renewing them all
-- three times a second stalled the store thread and moves waited behind it. games.owner names
-- the node; the node holds its games while nodes.lease_until_ms has not passed.
-- games.lease_until_ms (0002) is no longer read.
CREATE TABLE nodes (
    node            TEXT PRIMARY KEY,
    lease_until_ms  INTEGER NOT NULL
);
DROP INDEX games_orphans;
CREATE INDEX games_open_owner ON games(owner, id) WHERE status<>'over';
