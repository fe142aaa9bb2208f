"""Death-match games (RULES Part D): pure rules, solvers and generators."""
from .base import Action, Config, Game, Replay, Result, get_game, replay

__all__ = ["Action", "Config", "Game", "Replay", "Result", "get_game", "replay"]
