"""`pbem ice solve|generate`."""
from .common import sub_app

ice_app = sub_app("ice", "Solve and generate ice mazes.")
