"""gm_events: the history of the GM's controls (extend, pause, resume, replace, address, away, broadcast,
observe, policy, press)

Revision ID: 0007
Revises: 0006
"""
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision: str = '0007'
down_revision: Union[str, Sequence[str], None] = '0006'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('gm_events',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('player', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('data', sa.Text(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('gm_events', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_gm_events_game_id'), ['game_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('gm_events', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_gm_events_game_id'))
    op.drop_table('gm_events')
