"""The base of every table: SQLModel with pydantic's validator and serializer built on first use, not at import.

A table's rows are never validated when made (SQLModel builds them field by field), so building each table's
pydantic schema when its module loads only cost every command that opens the store (#34: a fifth of what the
tables cost `pbem dm new` beyond `import sqlmodel`); `model_dump` and the like build it when first asked.
"""
from __future__ import annotations

from sqlmodel import SQLModel
from sqlmodel._compat import SQLModelConfig


class Table(SQLModel):
    model_config = SQLModelConfig(defer_build=True)
