"""one table for every game: a death match becomes a game (games, players as its seats, its actions as moves in
order_versions); dm_match, dm_action and mail_dm_players go, their rows moved

A match keeps its name, its config (as the game's setup) and its seed; each player of its config is a seat, with
the address and secret it was enrolled with by mail (none: it does not play by mail); each action, accepted or
refused with its reason, is a move numbered in arrival order (turn 0), linked to the message that carried it when
one did. A match named like a campaign is renamed `NAME-match` (the names were unique per table, now per
database). The match's deadline row is written by the first full `pbem run` (or any move): its rules know it.

Revision ID: 0011
Revises: 0010
"""
import json
from datetime import datetime, timezone
from typing import Any, Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0011'
down_revision: Union[str, Sequence[str], None] = '0010'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

GM = "GM"  # pbem.dm.clock.GM, as it was when these rows were written


def upgrade() -> None:
    with op.batch_alter_table('order_versions') as batch:
        batch.alter_column('player_id', existing_type=sa.Integer(), nullable=True)
        batch.alter_column('submitted_at', existing_type=sa.DateTime(timezone=True), nullable=True)
        batch.add_column(sa.Column('accepted', sa.Boolean(), nullable=False, server_default=sa.true()))
        batch.add_column(sa.Column('reason', sa.Text(), nullable=True))
        batch.add_column(sa.Column('mail', sa.String(), nullable=True))
        batch.add_column(sa.Column('actor', sa.String(), nullable=True))
    with op.batch_alter_table('turn_deadlines') as batch:
        batch.add_column(sa.Column('about', sa.Text(), nullable=True))
    bind = op.get_bind()
    if "dm_match" in sa.inspect(bind).get_table_names():
        _move_matches(bind)
        op.drop_table('mail_dm_players')
        with op.batch_alter_table('dm_action') as batch:
            batch.drop_index('ix_dm_action_match_id')
        op.drop_table('dm_action')
        with op.batch_alter_table('dm_match') as batch:
            batch.drop_index('ix_dm_match_name')
        op.drop_table('dm_match')


def _utc(moment: Any) -> datetime | None:
    """A stored time in UTC (SQLite gives text back, without the zone)."""
    if moment is None:
        return None
    moment = datetime.fromisoformat(moment) if isinstance(moment, str) else moment
    assert isinstance(moment, datetime)
    return moment.astimezone(timezone.utc) if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def _inserted(bind: sa.engine.Connection, statement: Any) -> int:
    """The key of the row `statement` inserts."""
    key = bind.execute(statement).inserted_primary_key
    assert key is not None
    return int(key[0])


def _move_matches(bind: sa.engine.Connection) -> None:
    meta = sa.MetaData()
    games, players, versions = (sa.Table(name, meta, autoload_with=bind)
                                for name in ("games", "players", "order_versions"))
    taken = {name for name, in bind.execute(sa.text("SELECT name FROM games"))}
    enrolled: dict[tuple[str, str], tuple[str, str]] = {
        (match, player): (email, secret) for match, player, email, secret
        in bind.execute(sa.text("SELECT match, player, email, secret FROM mail_dm_players"))}
    carried = {(game, player, _utc(at)): key for key, game, player, at in bind.execute(sa.text(
        "SELECT key, game, player, received_at FROM mail_received WHERE kind = 'dm'"))}
    for match_id, name, game, config in bind.execute(sa.text(
            "SELECT id, name, game, config FROM dm_match ORDER BY id")).all():
        actions = bind.execute(sa.text("SELECT seq, player, at, payload, accepted, reason FROM dm_action "
                                       "WHERE match_id = :match ORDER BY seq"), {"match": match_id}).all()
        stamps = [stamp for _, _, at, _, _, _ in actions for stamp in [_utc(at)] if stamp is not None]
        document = json.loads(config)
        new_name = name
        while new_name in taken:
            new_name += "-match"
        taken.add(new_name)
        game_id = _inserted(bind, games.insert().values(
            name=new_name, ruleset=game, seed=str(document.get("seed", 0)), setup=config,
            created_at=min(stamps) if stamps else datetime.now(timezone.utc)))
        seats = {}
        for position, player in enumerate(document["players"]):
            email, secret = enrolled.get((name, player), ("", ""))
            seats[player] = _inserted(bind, players.insert().values(
                game_id=game_id, position=position, name=player, email=email, secret=secret, timezone=None))
        for seq, player, at, payload, accepted, reason in actions:
            stamp = _utc(at)
            mail = carried.get((name, player, stamp))
            bind.execute(versions.insert().values(
                game_id=game_id, turn=0, player_id=seats.get(player), version=seq,
                source="mail" if mail else ("clock" if player == GM else "command"), text=payload,
                submission=payload, submitted_at=stamp, accepted=bool(accepted), reason=reason, mail=mail,
                actor=None if player in seats else player))
        if new_name != name:
            bind.execute(sa.text("UPDATE mail_received SET game = :new WHERE game = :old AND kind = 'dm'"),
                         {"new": new_name, "old": name})


def downgrade() -> None:
    """The old tables come back, empty: refused while a death match is stored (its rows would be lost)."""
    found = op.get_bind().execute(sa.text("SELECT name FROM games WHERE ruleset IN ('gyulbot', 'ice', "
                                          "'takebacktoe', 'flowerfield')")).all()
    if found:
        raise RuntimeError(f"cannot go back before revision 0011 with death matches stored ({', '.join(n for n, in found)}):"
                           " their rows would be lost")
    op.create_table('dm_match',
                    sa.Column('id', sa.Integer(), nullable=False),
                    sa.Column('name', sa.String(), nullable=False),
                    sa.Column('game', sa.String(), nullable=False),
                    sa.Column('config', sa.String(), nullable=False),
                    sa.PrimaryKeyConstraint('id'))
    with op.batch_alter_table('dm_match') as batch:
        batch.create_index('ix_dm_match_name', ['name'], unique=True)
    op.create_table('dm_action',
                    sa.Column('id', sa.Integer(), nullable=False),
                    sa.Column('match_id', sa.Integer(), nullable=False),
                    sa.Column('seq', sa.Integer(), nullable=False),
                    sa.Column('player', sa.String(), nullable=False),
                    sa.Column('at', sa.DateTime(timezone=True), nullable=True),
                    sa.Column('payload', sa.String(), nullable=False),
                    sa.Column('accepted', sa.Boolean(), nullable=False),
                    sa.Column('reason', sa.String(), nullable=True),
                    sa.ForeignKeyConstraint(['match_id'], ['dm_match.id']),
                    sa.PrimaryKeyConstraint('id'),
                    sa.UniqueConstraint('match_id', 'seq'))
    with op.batch_alter_table('dm_action') as batch:
        batch.create_index('ix_dm_action_match_id', ['match_id'], unique=False)
    op.create_table('mail_dm_players',
                    sa.Column('id', sa.Integer(), nullable=False),
                    sa.Column('match', sa.String(), nullable=False),
                    sa.Column('player', sa.String(), nullable=False),
                    sa.Column('email', sa.String(), nullable=False),
                    sa.Column('secret', sa.String(), nullable=False),
                    sa.PrimaryKeyConstraint('id'),
                    sa.UniqueConstraint('match', 'player'))
    with op.batch_alter_table('mail_dm_players') as batch:
        batch.create_index('ix_mail_dm_players_match', ['match'], unique=False)
    with op.batch_alter_table('turn_deadlines') as batch:
        batch.drop_column('about')
    with op.batch_alter_table('order_versions') as batch:
        batch.drop_column('actor')
        batch.drop_column('mail')
        batch.drop_column('reason')
        batch.drop_column('accepted')
        batch.alter_column('submitted_at', existing_type=sa.DateTime(timezone=True), nullable=False)
        batch.alter_column('player_id', existing_type=sa.Integer(), nullable=False)
