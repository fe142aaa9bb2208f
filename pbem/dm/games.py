"""The one place where bundled death-match games are registered (by importing them)."""
from . import takebacktoe  # noqa: F401
from . import flowerfield  # noqa: F401
