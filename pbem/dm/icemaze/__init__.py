"""The Ice maze death match (RULES D2): the slide, an exact solver, a generator and the round flow."""
from .maze import MAX_ORDERS, ORDERS, Maze, Position, play, slide, solves
from .solver import Solution, solve

__all__ = ["MAX_ORDERS", "ORDERS", "Maze", "Position", "Solution", "play", "slide", "solve", "solves"]
