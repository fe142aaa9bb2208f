"""`pbem init`, `pbem demo`, `pbem game …`, `pbem replay`: campaigns and their history."""
from .common import sub_app

game_app = sub_app("game", "Create, list, show, import and export games.")
