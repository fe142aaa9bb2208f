"""The built-in mechanism families (RULES B6, B6b, G3, G7), one module each; importing registers them.

The order of the imports is the order in which mechanisms of one phase act
(B5.9: flags, then armouries and computers).
"""
# isort: skip_file
from . import walls, pits, switches, teleporters, gates, conveyors, pushers, gears, crushers  # noqa: F401
from . import lasers, buzzsaws, squares  # noqa: F401
