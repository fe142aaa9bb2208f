"""The one place where bundled death-match drawers are registered (by importing them)."""
