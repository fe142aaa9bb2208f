"""players.timezone: the player's own time zone, so deadlines are shown in it beside the game's (issue #24)

Revision ID: 0008
Revises: 0007
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0008'
down_revision: Union[str, Sequence[str], None] = '0007'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # NULL: the player reads deadlines in the game's zone only.
    with op.batch_alter_table('players') as batch:
        batch.add_column(sa.Column('timezone', sa.String(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('players') as batch:
        batch.drop_column('timezone')
