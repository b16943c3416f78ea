-- 0004: sliding session expiry (docs/protocol.md, "HTTP"): a session is valid while it was used
-- within the expiry (30 days by default); each use moves last_used_ms. Sessions of before this
-- migration count as used when it ran.
ALTER TABLE sessions ADD COLUMN last_used_ms INTEGER NOT NULL DEFAULT 0;
UPDATE sessions SET last_used_ms = created_ms;
CREATE INDEX sessions_user ON sessions(user_id);
