"""The types of the C search (`_search.c`, compiled by `pip install`)."""
from array import array

def search(stops: array[int], is_goal: bytes, runs: bytes, start: array[int], cols: int, limit: int, max_nodes: int,
           stop: object, check_every: int, /) -> tuple[bytes | None, int, bool]:
    """(orders as direction indices or None, positions stored, whether a limit ended the search first)."""
