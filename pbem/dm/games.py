"""The one place where bundled death-match games are registered (by importing them)."""
# The import order is the registration order (the order games are listed in): not sorted.
# isort: skip_file
from . import takebacktoe  # noqa: F401
from . import flowerfield  # noqa: F401
from .icemaze import game as _ice  # noqa: F401
from .gyulbot import game as _gyulbot  # noqa: F401
