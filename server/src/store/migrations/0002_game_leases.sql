-- 0002: game ownership between server nodes sharing one store (Store::claim_game and friends).
-- owner is the node running the game's room (NULL: none); its lease runs until lease_until_ms.
-- A game without owner always has lease_until_ms 0, so "no owner or lease ran out" is just
-- lease_until_ms < now, and the partial index serves orphaned_games.
ALTER TABLE games ADD COLUMN owner TEXT;
ALTER TABLE games ADD COLUMN lease_until_ms INTEGER NOT NULL DEFAULT 0;
CREATE INDEX games_orphans ON games(lease_until_ms, id) WHERE status<>'over';
CREATE INDEX games_owner ON games(owner) WHERE owner IS NOT NULL;
