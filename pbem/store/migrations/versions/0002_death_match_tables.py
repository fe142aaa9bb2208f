"""death-match tables (pbem/store/dm.py)

Databases where `pbem dm` created these tables itself, before they joined the
migrations, already have them: those are left as they are.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22 07:36:38.428932

"""
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0002'
down_revision: Union[str, Sequence[str], None] = '0001'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    if "dm_match" in sa.inspect(op.get_bind()).get_table_names():
        return
    op.create_table('dm_match',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('game', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('config', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('dm_match', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_dm_match_name'), ['name'], unique=True)

    op.create_table('dm_action',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('match_id', sa.Integer(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('player', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('payload', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('accepted', sa.Boolean(), nullable=False),
    sa.Column('reason', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.ForeignKeyConstraint(['match_id'], ['dm_match.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('match_id', 'seq')
    )
    with op.batch_alter_table('dm_action', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_dm_action_match_id'), ['match_id'], unique=False)



def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('dm_action', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_dm_action_match_id'))

    op.drop_table('dm_action')
    with op.batch_alter_table('dm_match', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_dm_match_name'))

    op.drop_table('dm_match')
