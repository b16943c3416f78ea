-- 0010: sign-in from outside (docs/security.md, "Sign-in"). external_identities: the accounts of
-- an OpenID Connect issuer (Google) or of Telegram that sign a user in, by (issuer, subject); a
-- user made by such a sign-in has an empty password_hash (no password login). auth_pending: the
-- short-lived records of a sign-in under way, by the hash of their secret (the OpenID Connect
-- request's state, a sign-in ticket), with their expiry.
CREATE TABLE external_identities (
    issuer      TEXT NOT NULL,
    subject     TEXT NOT NULL,
    user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_ms  INTEGER NOT NULL,
    PRIMARY KEY (issuer, subject)
);
CREATE INDEX external_identities_user ON external_identities(user_id);

CREATE TABLE auth_pending (
    key_hash    TEXT PRIMARY KEY,
    payload     TEXT NOT NULL,
    expires_ms  INTEGER NOT NULL
);
CREATE INDEX auth_pending_expiry ON auth_pending(expires_ms);
