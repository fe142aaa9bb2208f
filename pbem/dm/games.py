"""The one place where bundled death-match games are registered (by importing them)."""
from . import takebacktoe  # noqa: F401
from . import flowerfield  # noqa: F401
from .icemaze import game as _ice  # noqa: F401
from .gyulbot import game as _gyulbot  # noqa: F401
