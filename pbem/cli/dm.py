"""`pbem dm …` and `pbem flowers …`: death-match games."""
from .common import sub_app

dm_app = sub_app("dm", "Replay and run death-match games.")
flowers_app = sub_app("flowers", "Flower Field tools.")
