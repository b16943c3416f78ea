-- 0001: games with their moves, accounts and sessions, ratings per variant, reward points.
CREATE TABLE games (
    id              TEXT PRIMARY KEY,
    variant         TEXT NOT NULL,
    mode            TEXT NOT NULL,
    level           TEXT NOT NULL DEFAULT '',
    forced_capture  INTEGER NOT NULL DEFAULT 1,
    draw_rules      INTEGER NOT NULL DEFAULT 0,
    start_fen       TEXT NOT NULL,
    white_id        TEXT NOT NULL DEFAULT '',
    white_name      TEXT NOT NULL DEFAULT '',
    white_computer  INTEGER NOT NULL DEFAULT 0,
    white_user      INTEGER,
    black_id        TEXT NOT NULL DEFAULT '',
    black_name      TEXT NOT NULL DEFAULT '',
    black_computer  INTEGER NOT NULL DEFAULT 0,
    black_user      INTEGER,
    time_control    TEXT NOT NULL DEFAULT '{}',
    clocks          TEXT NOT NULL DEFAULT '{}',
    status          TEXT NOT NULL,
    outcome         TEXT NOT NULL DEFAULT '',
    reason          TEXT NOT NULL DEFAULT '',
    result_text     TEXT NOT NULL DEFAULT '',
    version         INTEGER NOT NULL DEFAULT 0,
    rated           INTEGER NOT NULL DEFAULT 0,
    invite_hash     TEXT NOT NULL DEFAULT '',
    invite_expires  INTEGER NOT NULL DEFAULT 0,
    rematch_of      TEXT NOT NULL DEFAULT '',
    created_ms      INTEGER NOT NULL,
    updated_ms      INTEGER NOT NULL
);
CREATE INDEX games_status ON games(status);
CREATE INDEX games_white ON games(white_id);
CREATE INDEX games_black ON games(black_id);

CREATE TABLE moves (
    game_id  TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply      INTEGER NOT NULL,
    text     TEXT NOT NULL,
    at_ms    INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;

CREATE TABLE users (
    id             INTEGER PRIMARY KEY,
    username       TEXT NOT NULL UNIQUE COLLATE NOCASE,
    password_hash  TEXT NOT NULL,
    created_ms     INTEGER NOT NULL
);

CREATE TABLE sessions (
    token_hash  TEXT PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_ms  INTEGER NOT NULL
);

CREATE TABLE ratings (
    user_id  INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    variant  TEXT NOT NULL,
    rating   INTEGER NOT NULL,
    games    INTEGER NOT NULL,
    PRIMARY KEY (user_id, variant)
);

CREATE TABLE rewards (
    player_id  TEXT NOT NULL,
    day        TEXT NOT NULL,
    points     INTEGER NOT NULL,
    PRIMARY KEY (player_id, day)
);
