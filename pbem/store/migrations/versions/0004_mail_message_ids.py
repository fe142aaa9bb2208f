"""mail_received: the Message-ID and the time a message was read, beside its server's receive time

A message's key is now its Message-ID with a digest of its body (a reused
Message-ID with another body is a new message); the bare Message-ID and the
size let an IMAP fetch skip what it has handled without downloading it.
`received_at` is the time the GM's server received the message (RULES D5);
`read_at` the time pbem read it.

Revision ID: 0004
Revises: 0003
"""
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision: str = '0004'
down_revision: Union[str, Sequence[str], None] = '0003'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('mail_received', schema=None) as batch_op:
        batch_op.add_column(sa.Column('message_id', sqlmodel.sql.sqltypes.AutoString(), nullable=True))
        batch_op.add_column(sa.Column('read_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
        batch_op.create_index(batch_op.f('ix_mail_received_message_id'), ['message_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('mail_received', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_mail_received_message_id'))
        batch_op.drop_column('read_at')
        batch_op.drop_column('message_id')
