"""`pbem turn …`: deal, submit, check, status, process, rollback."""
from .common import sub_app

turn_app = sub_app("turn", "Run a game's turn cycle.")
