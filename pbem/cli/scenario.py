"""`pbem scenario check|run`: the rule scenarios (DESIGN.md "Rule scenario")."""
from .common import sub_app

scenario_app = sub_app("scenario", "Run rule scenarios.")
