"""The one place where bundled death-match games are registered (by importing them)."""
