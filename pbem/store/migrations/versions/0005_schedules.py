"""the autopilot: game schedules and turn deadlines

Revision ID: 0005
Revises: 0004
"""
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision: str = '0005'
down_revision: Union[str, Sequence[str], None] = '0004'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('game_schedules',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('schedule', sa.Text(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id')
    )
    op.create_table('turn_deadlines',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('turn', sa.Integer(), nullable=False),
    sa.Column('dealt_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('due_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('reminded', sa.Text(), nullable=False),
    sa.Column('held_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.Column('held_hash', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('approved', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'turn')
    )
    with op.batch_alter_table('turn_deadlines', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_turn_deadlines_game_id'), ['game_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('turn_deadlines', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_turn_deadlines_game_id'))
    op.drop_table('turn_deadlines')
    op.drop_table('game_schedules')
