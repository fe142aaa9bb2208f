"""pbem run's memory of faults: the last inbox failure (mail_inbox) and turns whose reports are owed

Revision ID: 0009
Revises: 0008
"""
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision: str = '0009'
down_revision: Union[str, Sequence[str], None] = '0008'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('mail_inbox',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('origin', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('failed_since', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.Column('error', sa.Text(), nullable=True),
    sa.Column('checked_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('reports_owed',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('turn', sa.Integer(), nullable=False),
    sa.Column('folder', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('since', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('error', sa.Text(), nullable=True),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game', 'turn', 'folder')
    )
    with op.batch_alter_table('reports_owed', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_reports_owed_game'), ['game'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('reports_owed', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_reports_owed_game'))
    op.drop_table('reports_owed')
    op.drop_table('mail_inbox')
