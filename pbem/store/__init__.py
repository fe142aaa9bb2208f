"""store layer (DESIGN.md "Layers"): the database and the GM's turn cycle on it.

- `db`: opening any SQLAlchemy URL (SQLite by default), migrated on open (Alembic, `migrations/`).
- `tables`: the SQLModel tables; `dm`: the death-match tables.
- `games`: games, players, robots and stored states (repository functions, `Store`, `Refused`).
- `cycle`: deal, submit/check, status, process (one transaction), rollback, replay, processed_turn.
- `archive`: `game import` / `game export` of whole campaign folders.
- `controls`: the history of the GM's controls (`gm_events`), and what it says now: paused, observers, policies,
  absences.
- `due`: what a cron tick has to do, from the stored rows with plain SQL (no ORM, no engine).
"""
