"""The games behind one interface (`base.Game`): the death matches (RULES Part D) with their solvers and
generators, and BotWars/Geek-o through a thin adapter (`campaign.py`). Pure rules."""
from .base import Action, Config, Game, Replay, Result, get_game, replay

__all__ = ["Action", "Config", "Game", "Replay", "Result", "get_game", "replay"]
