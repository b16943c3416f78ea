-- 0020: puzzles (docs/engine.md "Puzzles", docs/protocol.md "Puzzles"): the shipped set and the
-- puzzles the server mined from its own finished games, with their Glicko-2 ratings; the
-- solvers' ratings per variant ("u<id>" an account, "g<hash>" a guest's browser); every attempt,
-- rated once per solver and puzzle; the daily puzzle of each variant; the background miner's
-- place in the finished games.
CREATE TABLE puzzles (
    id          TEXT PRIMARY KEY,
    variant     TEXT NOT NULL,
    body        TEXT NOT NULL,
    origin      TEXT NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    plays       INTEGER NOT NULL DEFAULT 0,
    solved      INTEGER NOT NULL DEFAULT 0,
    added_ms    INTEGER NOT NULL
);
CREATE INDEX puzzles_variant_rating ON puzzles(variant, rating);
CREATE TABLE puzzle_ratings (
    player_id   TEXT NOT NULL,
    variant     TEXT NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    attempts    INTEGER NOT NULL DEFAULT 0,
    solved      INTEGER NOT NULL DEFAULT 0,
    best_streak INTEGER NOT NULL DEFAULT 0,
    updated_ms  INTEGER NOT NULL,
    PRIMARY KEY (player_id, variant)
);
CREATE TABLE puzzle_attempts (
    id          INTEGER PRIMARY KEY,
    player_id   TEXT NOT NULL,
    puzzle_id   TEXT NOT NULL REFERENCES puzzles(id),
    variant     TEXT NOT NULL,
    solved      INTEGER NOT NULL,
    rated       INTEGER NOT NULL,
    rating      INTEGER NOT NULL,
    delta       INTEGER NOT NULL,
    at_ms       INTEGER NOT NULL
);
CREATE UNIQUE INDEX puzzle_attempts_rated_once ON puzzle_attempts(player_id, puzzle_id) WHERE rated = 1;
CREATE INDEX puzzle_attempts_player ON puzzle_attempts(player_id, at_ms);
CREATE TABLE puzzle_daily (
    variant     TEXT NOT NULL,
    day         TEXT NOT NULL,
    puzzle_id   TEXT NOT NULL,
    PRIMARY KEY (variant, day)
);
CREATE TABLE puzzle_mining (
    name        TEXT PRIMARY KEY,
    cursor_ms   INTEGER NOT NULL,
    cursor_id   TEXT NOT NULL,
    games       INTEGER NOT NULL DEFAULT 0,
    positions   INTEGER NOT NULL DEFAULT 0,
    kept        INTEGER NOT NULL DEFAULT 0
);
