"""initial schema

Revision ID: 0001
Revises: 
Create Date: 2026-11-22 07:09:55.857251

"""
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0001'
down_revision: Union[str, Sequence[str], None] = None
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""

    op.create_table('games',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('ruleset', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('seed', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('setup', sa.Text(), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_games_name'), ['name'], unique=True)

    op.create_table('dealt_hands',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('turn', sa.Integer(), nullable=False),
    sa.Column('holder', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('cards', sa.Text(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'turn', 'holder')
    )
    with op.batch_alter_table('dealt_hands', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_dealt_hands_game_id'), ['game_id'], unique=False)

    op.create_table('events',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('turn', sa.Integer(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('board', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('stage', sa.Integer(), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('data', sa.Text(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'turn', 'seq')
    )
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_events_game_id'), ['game_id'], unique=False)

    op.create_table('players',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('email', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('secret', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'name')
    )
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_players_game_id'), ['game_id'], unique=False)

    op.create_table('state_snapshots',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('turn', sa.Integer(), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('board', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('stage', sa.Integer(), nullable=False),
    sa.Column('state', sa.Text(), nullable=False),
    sa.Column('hash', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'turn', 'kind', 'board', 'stage')
    )
    with op.batch_alter_table('state_snapshots', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_state_snapshots_game_id'), ['game_id'], unique=False)

    op.create_table('turns',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('seed', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('before_hash', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('after_hash', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('events_hash', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('orders', sa.Text(), nullable=False),
    sa.Column('processed_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'number')
    )
    with op.batch_alter_table('turns', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_turns_game_id'), ['game_id'], unique=False)

    op.create_table('order_versions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('turn', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('source', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('submission', sa.Text(), nullable=False),
    sa.Column('submitted_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'turn', 'player_id', 'version')
    )
    with op.batch_alter_table('order_versions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_order_versions_game_id'), ['game_id'], unique=False)

    op.create_table('robots',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'name')
    )
    with op.batch_alter_table('robots', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_robots_game_id'), ['game_id'], unique=False)




def downgrade() -> None:
    """Downgrade schema."""

    with op.batch_alter_table('robots', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_robots_game_id'))

    op.drop_table('robots')
    with op.batch_alter_table('order_versions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_order_versions_game_id'))

    op.drop_table('order_versions')
    with op.batch_alter_table('turns', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_turns_game_id'))

    op.drop_table('turns')
    with op.batch_alter_table('state_snapshots', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_state_snapshots_game_id'))

    op.drop_table('state_snapshots')
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_players_game_id'))

    op.drop_table('players')
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_events_game_id'))

    op.drop_table('events')
    with op.batch_alter_table('dealt_hands', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_dealt_hands_game_id'))

    op.drop_table('dealt_hands')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_games_name'))

    op.drop_table('games')

