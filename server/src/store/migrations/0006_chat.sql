-- 0006: the chat of games between people (docs/protocol.md, "Chat"): one row a line, in the
-- order written (id). color 0 is White, 1 Black; ply is the number of plies played when the
-- line was written.
CREATE TABLE chat (
    id       INTEGER PRIMARY KEY,
    game_id  TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply      INTEGER NOT NULL,
    color    INTEGER NOT NULL,
    at_ms    INTEGER NOT NULL,
    text     TEXT NOT NULL
);
CREATE INDEX chat_game ON chat(game_id, id);
