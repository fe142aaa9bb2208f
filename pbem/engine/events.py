"""Typed events: everything that happens during a turn, in the order it happens.

Stage reports are built from these alone, so each carries what a report line
needs: the stage (0 for end of turn), the robot, and the specifics.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Event:
    stage: int
    robot: str | None
