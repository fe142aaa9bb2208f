"""`pbem room …`: check room files (and, from render, draw them)."""
from .common import sub_app

room_app = sub_app("room", "Check and draw room files.")
