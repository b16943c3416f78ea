-- 0005: every rated game's rating change per player (GET /api/players/{name}: the history and
-- the wins, losses and draws), written in the same transaction as the ratings. score2 is twice
-- the player's score: 2 a win, 1 a draw, 0 a loss.
CREATE TABLE rating_changes (
    user_id  INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    variant  TEXT NOT NULL,
    game_id  TEXT NOT NULL,
    rating   INTEGER NOT NULL,
    delta    INTEGER NOT NULL,
    score2   INTEGER NOT NULL,
    at_ms    INTEGER NOT NULL,
    PRIMARY KEY (user_id, game_id)
);
CREATE INDEX rating_changes_user ON rating_changes(user_id, at_ms);
