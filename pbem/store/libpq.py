"""Plain SQL over PostgreSQL through libpq itself (ctypes), for the quiet cron tick (`pbem.store.due`): psycopg's
import alone costs about a third of `import sqlmodel`, loading libpq a twentieth. Read only; each value comes
back as text, typed by its column's type where the tick needs it (booleans, integers); times stay ISO text,
which the tick parses. Where libpq cannot be loaded, the caller reads through psycopg."""
from __future__ import annotations

import ctypes
import re
from typing import Any

_CONNECTION_OK, _TUPLES_OK = 0, 2
_BOOL, _INTEGERS = 16, (20, 21, 23)
_PARAMETER = re.compile(r"(?<![:\w]):(\w+)")  # `:name`, as libpq spells it: `$1`


def _library() -> Any:
    lib = ctypes.CDLL("libpq.so.5")
    pointer, text, number = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int
    for name, result, arguments in (
            ("PQconnectdb", pointer, [text]), ("PQstatus", number, [pointer]), ("PQerrorMessage", text, [pointer]),
            ("PQfinish", None, [pointer]), ("PQclear", None, [pointer]),
            ("PQexecParams", pointer, [pointer, text, number, pointer, ctypes.POINTER(text), pointer, pointer, number]),
            ("PQresultStatus", number, [pointer]), ("PQresultErrorMessage", text, [pointer]),
            ("PQntuples", number, [pointer]), ("PQnfields", number, [pointer]), ("PQftype", ctypes.c_uint, [pointer, number]),
            ("PQgetisnull", number, [pointer, number, number]), ("PQgetvalue", text, [pointer, number, number])):
        function = getattr(lib, name)
        function.restype, function.argtypes = result, arguments
    return lib


class Connection:
    """One connection: `rows(sql, **parameters)` with parameters as `:name`, as sqlite3 and SQLAlchemy take them."""

    def __init__(self, conninfo: dict[str, Any]):
        self.lib = _library()
        quoted = " ".join(f"{key}='" + str(value).replace("\\", "\\\\").replace("'", "\\'") + "'"
                          for key, value in conninfo.items())
        self.handle = self.lib.PQconnectdb(quoted.encode("utf-8"))
        if self.lib.PQstatus(self.handle) != _CONNECTION_OK:
            message = (self.lib.PQerrorMessage(self.handle) or b"").decode("utf-8", "replace")
            self.close()
            raise OSError(f"cannot connect to PostgreSQL: {message.strip()}")

    def rows(self, sql: str, **parameters: Any) -> list[tuple[Any, ...]]:
        names: list[str] = []

        def numbered(found: re.Match[str]) -> str:
            names.append(found.group(1))
            return f"${len(names)}"
        query = _PARAMETER.sub(numbered, sql)
        values = [_text(parameters[name]) for name in names]
        array = (ctypes.c_char_p * max(len(values), 1))(*values)
        result = self.lib.PQexecParams(self.handle, query.encode("utf-8"), len(values), None, array, None, None, 0)
        try:
            if self.lib.PQresultStatus(result) != _TUPLES_OK:
                raise OSError((self.lib.PQresultErrorMessage(result) or b"").decode("utf-8", "replace").strip())
            types = [self.lib.PQftype(result, column) for column in range(self.lib.PQnfields(result))]
            return [tuple(None if self.lib.PQgetisnull(result, row, column)
                          else _typed(self.lib.PQgetvalue(result, row, column).decode("utf-8"), kind)
                          for column, kind in enumerate(types))
                    for row in range(self.lib.PQntuples(result))]
        finally:
            self.lib.PQclear(result)

    def close(self) -> None:
        if self.handle:
            self.lib.PQfinish(self.handle)
            self.handle = None


def _text(value: Any) -> bytes | None:
    if value is None:
        return None
    return (("true" if value else "false") if isinstance(value, bool) else str(value)).encode("utf-8")


def _typed(text: str, kind: int) -> Any:
    if kind == _BOOL:
        return text == "t"
    return int(text) if kind in _INTEGERS else text
