"""The one place where bundled death-match drawers are registered (by importing them)."""
# The import order is the registration order: not sorted.
# isort: skip_file
from . import dm_takebacktoe  # noqa: F401
from . import dm_flowerfield  # noqa: F401
from . import dm_ice  # noqa: F401
from . import dm_gyulbot as _gyulbot  # noqa: F401
