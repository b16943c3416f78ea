-- 0007: a game's rating changes found by the game (load_game gives a finished rated game's back,
-- so that its result shows both ratings and their changes after a restart or an unload).
CREATE INDEX rating_changes_game ON rating_changes(game_id);
