"""turns.over: whether the game was over after the turn, as the engine said, so listing games reads no state

Revision ID: 0006
Revises: 0005
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0006'
down_revision: Union[str, Sequence[str], None] = '0005'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # Turns processed before this revision keep NULL: pbem.store.summary asks the engine for those.
    with op.batch_alter_table('turns') as batch:
        batch.add_column(sa.Column('over', sa.Boolean(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('turns') as batch:
        batch.drop_column('over')
