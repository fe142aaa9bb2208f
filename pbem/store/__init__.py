"""store layer (DESIGN.md "Layers"): the database, as repository functions that read and write rows (the callers
in `gm` commit).

- `db`: opening any SQLAlchemy URL (SQLite by default), migrated on open (Alembic, `migrations/`); a new database
  created by the statements of `schema` (`schema.DIALECT.sql`).
- `tables`: every game's tables (SQLModel, on `model.Table`); `turn_tables`: a campaign's turns' tables.
- `games`: games, players, robots and stored states (repository functions, `Store`, `Refused`).
- `turns`: a BotWars game's turns: hands dealt, what a turn sheet holds, order versions, status, a processed turn's
  rows; `played`: a processed turn's rows read back.
- `outbox`: the outbox's rows: pending, claimed, what became of each message (`pbem.gm.outgoing` commits).
- `controls`: the history of the GM's controls (`gm_events`), and what it says now: paused, observers, policies,
  absences.
- `due`: what a cron tick has to do, from the stored rows with plain SQL (no ORM, no engine).
- `newmatch`: a new death match's rows written with plain SQL (`dm new`: no ORM); `refusal`: `Refused`, which
  every layer raises.
"""
