"""mail tables: messages read, the outbox, death-match players' addresses

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22 07:35:31.153109

"""
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0003'
down_revision: Union[str, Sequence[str], None] = '0002'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table('mail_dm_players',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('match', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('player', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('email', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('secret', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('match', 'player')
    )
    with op.batch_alter_table('mail_dm_players', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_mail_dm_players_match'), ['match'], unique=False)

    op.create_table('mail_outbox',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('message_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('recipient', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('subject', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('purpose', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('data', sa.LargeBinary(), nullable=False),
    sa.Column('state', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('last_error', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('queued_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('sent_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('mail_outbox', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_mail_outbox_message_id'), ['message_id'], unique=True)
        batch_op.create_index(batch_op.f('ix_mail_outbox_state'), ['state'], unique=False)

    op.create_table('mail_received',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('key', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('received_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('origin', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('archived', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('sender', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('size', sa.Integer(), nullable=False),
    sa.Column('outcome', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('game', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('player', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('detail', sa.Text(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('mail_received', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_mail_received_key'), ['key'], unique=True)



def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('mail_received', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_mail_received_key'))

    op.drop_table('mail_received')
    with op.batch_alter_table('mail_outbox', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_mail_outbox_state'))
        batch_op.drop_index(batch_op.f('ix_mail_outbox_message_id'))

    op.drop_table('mail_outbox')
    with op.batch_alter_table('mail_dm_players', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_mail_dm_players_match'))

    op.drop_table('mail_dm_players')
