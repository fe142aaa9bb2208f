"""pbem: a play-by-email game-master engine for BotWars, Geek-o and four death-match games."""
__version__ = "0.1.0"
