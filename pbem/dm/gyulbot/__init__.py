"""Gyulbot (RULES D1): board and moves, exact solver, generator and the death-match round flow."""
