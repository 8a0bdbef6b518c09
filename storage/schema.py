"""The schema, as numbered migrations applied in order at start-up (docs/architecture.md §6).

`PRAGMA user_version` holds how many migrations a file has had. A migration is appended, never
edited: a file made by an older release is brought up to date step by step, and a file made by
a newer release is refused rather than misread.

Chips: `balances` is the running total per (chat, user); `ledger` has one row per movement and is
unique per (chat, user, kind, ref), which is what makes a settlement applied twice a no-op.
Chips change hands only between people (migration 4): a person brings chips from their balance
to a table (`holds`, one row per session and person), a deal's settlement moves chips between the
holds of the people at stake, and what is left returns to the balance. `hold` and `return` rows
move chips between a balance and a table, `settlement` rows between tables, and `grant`, `refill`
and `adjustment` rows bring chips in, so a chat's balances plus its held chips always equal its
grants, refills and adjustments, and neither a balance nor a hold can go below zero.

`posts` holds what a chat must still be shown: written in the transaction that saves the move
that made it, deleted once the platform has it, so a restart sends what a crash kept back.

Several processes may share one database (docs/architecture.md §6, migration 5): `workers` has a row
per living process, `leases` says which process runs each open game's timers, and a post's `owner`
is the process delivering it (NULL: nobody yet). `storage.workers` keeps them.

PostgreSQL has its own migrations (`storage.schema_pg`), numbered as these, so a version means
the same schema on both.

A person has two languages: `users.language` is their client's, refreshed whenever they type
a command or take a seat, and `users.chosen_language` the one they chose with `/lang` in the
private chat with the bot, which wins over the client's for everything only they see (their
hand, their notes).
"""

from __future__ import annotations

MIGRATIONS: tuple[str, ...] = (
    # 1: people, chats, chips, ledger, sessions, finished deals.
    """
    CREATE TABLE users (
        id          INTEGER PRIMARY KEY,
        platform    TEXT NOT NULL,
        platform_id TEXT NOT NULL,
        name        TEXT NOT NULL,
        language    TEXT,
        created_at  REAL NOT NULL,
        UNIQUE (platform, platform_id)
    );
    CREATE TABLE chats (
        id          INTEGER PRIMARY KEY,
        platform    TEXT NOT NULL,
        platform_id TEXT NOT NULL,
        title       TEXT NOT NULL DEFAULT '',
        language    TEXT,
        settings    TEXT NOT NULL DEFAULT '{}',
        created_at  REAL NOT NULL,
        UNIQUE (platform, platform_id)
    );
    CREATE TABLE balances (
        chat_id  INTEGER NOT NULL REFERENCES chats (id),
        user_id  INTEGER NOT NULL REFERENCES users (id),
        balance  INTEGER NOT NULL,
        joined   INTEGER NOT NULL,
        PRIMARY KEY (chat_id, user_id)
    );
    CREATE INDEX balances_by_chat ON balances (chat_id, balance DESC, joined, user_id);
    CREATE TABLE ledger (
        id       INTEGER PRIMARY KEY,
        chat_id  INTEGER NOT NULL REFERENCES chats (id),
        user_id  INTEGER NOT NULL REFERENCES users (id),
        kind     TEXT NOT NULL CHECK (kind IN ('grant', 'settlement', 'refund', 'adjustment')),
        ref      TEXT NOT NULL,
        amount   INTEGER NOT NULL,
        note     TEXT NOT NULL DEFAULT '',
        at       REAL NOT NULL,
        UNIQUE (chat_id, user_id, kind, ref)
    );
    CREATE TABLE sessions (
        id          INTEGER PRIMARY KEY,
        chat_id     INTEGER NOT NULL REFERENCES chats (id),
        topic       TEXT NOT NULL DEFAULT '',
        game        TEXT NOT NULL,
        options     TEXT NOT NULL,
        seats       TEXT NOT NULL,
        stake       INTEGER NOT NULL DEFAULT 1,
        creator_id  INTEGER REFERENCES users (id),
        status      TEXT NOT NULL
                    CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
        state       TEXT,
        version     INTEGER NOT NULL DEFAULT 0,
        deadline    REAL,
        messages    TEXT NOT NULL DEFAULT '{}',
        created_at  REAL NOT NULL,
        updated_at  REAL NOT NULL
    );
    CREATE UNIQUE INDEX one_open_session_per_place
        ON sessions (chat_id, topic) WHERE status IN ('lobby', 'active');
    CREATE INDEX open_sessions ON sessions (status) WHERE status IN ('lobby', 'active');
    CREATE TABLE deals (
        id          INTEGER PRIMARY KEY,
        session_id  INTEGER NOT NULL REFERENCES sessions (id),
        deal_no     INTEGER NOT NULL,
        chat_id     INTEGER NOT NULL REFERENCES chats (id),
        game        TEXT NOT NULL,
        reason      TEXT NOT NULL,
        at          REAL NOT NULL,
        refunded    INTEGER NOT NULL DEFAULT 0,
        UNIQUE (session_id, deal_no)
    );
    CREATE INDEX deals_by_chat ON deals (chat_id, id DESC);
    CREATE TABLE deal_seats (
        deal_id  INTEGER NOT NULL REFERENCES deals (id),
        seat     INTEGER NOT NULL,
        user_id  INTEGER NOT NULL REFERENCES users (id),
        points   INTEGER NOT NULL,
        delta    INTEGER NOT NULL,
        won      INTEGER NOT NULL,
        PRIMARY KEY (deal_id, seat)
    );
    CREATE INDEX deal_seats_by_user ON deal_seats (user_id);
    """,
    # 2: posts that must reach a chat (a deal's result, a match's end), kept with their session
    # from the save that makes them until the chat has them.
    """
    CREATE TABLE posts (
        id          INTEGER PRIMARY KEY,
        session_id  INTEGER NOT NULL REFERENCES sessions (id),
        body        TEXT NOT NULL,
        created_at  REAL NOT NULL
    );
    CREATE INDEX posts_by_session ON posts (session_id, id);
    """,
    # 3: the language a person chose for themselves (`/lang` in the private chat); NULL
    # follows their client's.
    """
    ALTER TABLE users ADD COLUMN chosen_language TEXT;
    """,
    # 4: table stakes. Ledger rows for holds, returns and the daily refill; the chips each person
    # has on a table; who asked to hear of new lobbies; whether a seat played a deal for chips.
    # Balances can no longer go below zero: older files' negative balances are raised to zero by
    # an adjustment row, so the books still add up.
    """
    CREATE TABLE ledger_new (
        id       INTEGER PRIMARY KEY,
        chat_id  INTEGER NOT NULL REFERENCES chats (id),
        user_id  INTEGER NOT NULL REFERENCES users (id),
        kind     TEXT NOT NULL CHECK (kind IN ('grant', 'settlement', 'refund', 'adjustment',
                                               'hold', 'return', 'refill')),
        ref      TEXT NOT NULL,
        amount   INTEGER NOT NULL,
        note     TEXT NOT NULL DEFAULT '',
        at       REAL NOT NULL,
        UNIQUE (chat_id, user_id, kind, ref)
    );
    INSERT INTO ledger_new SELECT id, chat_id, user_id, kind, ref, amount, note, at FROM ledger;
    DROP TABLE ledger;
    ALTER TABLE ledger_new RENAME TO ledger;
    CREATE INDEX ledger_by_person ON ledger (chat_id, user_id, id);
    INSERT INTO ledger (chat_id, user_id, kind, ref, amount, note, at)
        SELECT chat_id, user_id, 'adjustment', 'floor', -balance, 'table stakes', 0
        FROM balances WHERE balance < 0;
    CREATE TABLE balances_new (
        chat_id  INTEGER NOT NULL REFERENCES chats (id),
        user_id  INTEGER NOT NULL REFERENCES users (id),
        balance  INTEGER NOT NULL CHECK (balance >= 0),
        joined   INTEGER NOT NULL,
        PRIMARY KEY (chat_id, user_id)
    );
    INSERT INTO balances_new SELECT chat_id, user_id, MAX(balance, 0), joined FROM balances;
    DROP TABLE balances;
    ALTER TABLE balances_new RENAME TO balances;
    CREATE INDEX balances_by_chat ON balances (chat_id, balance DESC, joined, user_id);
    CREATE TABLE holds (
        session_id  INTEGER NOT NULL REFERENCES sessions (id),
        user_id     INTEGER NOT NULL REFERENCES users (id),
        chat_id     INTEGER NOT NULL REFERENCES chats (id),
        amount      INTEGER NOT NULL CHECK (amount >= 0),
        PRIMARY KEY (session_id, user_id)
    );
    CREATE INDEX holds_by_person ON holds (chat_id, user_id);
    CREATE TABLE notify (
        chat_id  INTEGER NOT NULL REFERENCES chats (id),
        user_id  INTEGER NOT NULL REFERENCES users (id),
        PRIMARY KEY (chat_id, user_id)
    );
    ALTER TABLE deal_seats ADD COLUMN staked INTEGER NOT NULL DEFAULT 1;
    UPDATE deal_seats SET staked = 0 WHERE user_id IN (SELECT id FROM users
        WHERE platform = 'computer') OR deal_id IN (SELECT s.deal_id FROM deal_seats s
        JOIN users u ON u.id = s.user_id GROUP BY s.deal_id
        HAVING SUM(u.platform != 'computer') < 2);
    """,
    # 5: processes sharing the database: who is alive, who runs which game's timers, and who
    # delivers which post (NULL: nobody yet).
    """
    CREATE TABLE workers (
        id        TEXT PRIMARY KEY,
        host      TEXT NOT NULL,
        pid       INTEGER NOT NULL,
        platform  TEXT NOT NULL,
        seen      REAL NOT NULL
    );
    CREATE TABLE leases (
        session_id  INTEGER PRIMARY KEY REFERENCES sessions (id),
        owner       TEXT NOT NULL
    );
    CREATE INDEX leases_by_owner ON leases (owner);
    ALTER TABLE posts ADD COLUMN owner TEXT;
    """,
    # 6: PostgreSQL tells the processes listening of every saved game (a trigger); a SQLite
    # file has no such channel (`storage.changes`), so nothing changes here but the number.
    "",
    # 7: a deal's moves next to its seed, so that anyone can replay it and check it end to
    # end (`storage.moves`): the seed, what it was dealt with (options, players, the match,
    # the stake and what each seat had on the table) and the moves' compact text, written
    # with the deal's row. Deals played before have none (NULL).
    """
    ALTER TABLE deals ADD COLUMN seed TEXT;
    ALTER TABLE deals ADD COLUMN setup TEXT;
    ALTER TABLE deals ADD COLUMN moves TEXT;
    """,
    # 8: a chat's seasons (`storage.seasons`): one row per season that has ended, numbered in
    # the chat from 1, with its span. What a season counts is read from the ledger between
    # its start and its end, so it is kept once, there; the season under way has no row (it
    # follows from the last one, the chat's setting and the ledger). A season's row is
    # written once, whoever writes it first: that is what posts its podium once.
    """
    CREATE TABLE seasons (
        chat_id  INTEGER NOT NULL REFERENCES chats (id),
        number   INTEGER NOT NULL,
        starts   REAL NOT NULL,
        ends     REAL NOT NULL,
        PRIMARY KEY (chat_id, number)
    );
    CREATE INDEX ledger_by_time ON ledger (chat_id, kind, at);
    """,
)
