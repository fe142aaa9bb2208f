"""`pbem gyulbot solve|generate`."""
from .common import sub_app

gyulbot_app = sub_app("gyulbot", "Solve and generate Gyulbot puzzles.")
