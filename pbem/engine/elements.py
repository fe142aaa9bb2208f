"""A board's element states at game start (B6.5–B6.9, G3): each stateful element's listed state, then the
state its control implies (a switch given `on: true` starts its elements in their other state)."""
from __future__ import annotations

from typing import Iterable

from .mechanism import mechanism
from .room import Room
from .state import Board, Robot


def initial_states(room: Room) -> dict[str, str]:
    states: dict[str, str] = {}
    for element in room.elements:
        word = mechanism(element.type).initial_state(element)
        if word is not None:
            states.setdefault(element.key, word)
    for element in room.elements:
        control = element.get("control")
        if control is not None and states.get(str(control)) == "on":
            word = mechanism(element.type).controlled_state(element, True)
            if word is not None:
                states[element.key] = word
    return states


def new_board(room: Room, robots: Iterable[Robot] = ()) -> Board:
    """A board for `room` with every element in its starting state and these robots on it."""
    return Board(room, {robot.name: robot for robot in robots}, initial_states(room))
