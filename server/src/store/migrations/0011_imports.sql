-- 0011: who imported a game (POST /api/import). An imported game sits in nobody's seat (player
-- id `imported`); this table lists it among the importer's games (Store::games_of), so the
-- player finds it again on the profile and under "Your games".
CREATE TABLE imports (
    player_id  TEXT NOT NULL,
    game_id    TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    PRIMARY KEY (player_id, game_id)
);
CREATE INDEX imports_game ON imports(game_id);
