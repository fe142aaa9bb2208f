"""`pbem mail fetch|send`."""
from .common import sub_app

mail_app = sub_app("mail", "Fetch orders from and send reports to the players.")
