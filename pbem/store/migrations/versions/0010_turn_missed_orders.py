"""turns.missed: what the turn played for each player whose orders were missing (B4.6), as the engine recorded it

Revision ID: 0010
Revises: 0009
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0010'
down_revision: Union[str, Sequence[str], None] = '0009'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # Turns processed before this revision keep NULL: pbem.store.played asks the engine for those.
    with op.batch_alter_table('turns') as batch:
        batch.add_column(sa.Column('missed', sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('turns') as batch:
        batch.drop_column('missed')
