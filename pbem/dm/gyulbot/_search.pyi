"""The types of the Gyulbot solver's C search (`_search.c`, compiled by `pip install`)."""

def search(spec: object, robots: int, rows: int, cols: int, goal: int, bits: int, max_moves: int, max_nodes: int,
           stop: object, check_every: int, /) -> tuple[int, int, tuple[tuple[int, int], ...]]:
    """(the solution's length, -1 (none within max_moves) or -2 (a limit); positions expanded; (colour, direction)
    moves)."""

def tables(spec: object, robots: int, rows: int, cols: int, goal: int, upto: int, /) -> tuple[
        list[int], tuple[list[int], list[int], list[int], list[int]], list[int], int]:
    """(free runs by cell * 4 + direction, the reach table by direction, stopper marks, needs)."""
