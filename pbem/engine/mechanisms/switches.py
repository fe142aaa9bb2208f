"""Switches and electric eyes (RULES B6.7, B6.8): the controls other elements name by `id`."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..geometry import Dir, Square
from ..mechanism import Field, Mechanism, boolean, choice, direction, register, text
from ..room import Element
from ..vocabulary import Cause
from .base import Mounted

if TYPE_CHECKING:  # pragma: no cover
    from ..context import TurnContext
    from ..state import Robot


class Control(Mechanism):
    is_control = True

    def initial_state(self, element: Element) -> str:
        return "on" if element.get("on", False) else "off"

    def toggle(self, ctx: TurnContext, element: Element, cause: str, robot: Robot | None) -> None:
        ctx.flip_control(element, ctx.state(element) != "on", cause, robot)


@register
class Switch(Control):
    """B6.7: pressed when a robot moves into its square (by any means) or a crusher comes down on it.
    A pressure switch turns on for good; a toggle switch flips each time."""

    type = "switch"
    fields = {"id": Field(text), "kind": Field(choice("toggle", "pressure"), required=False, default="toggle"),
              "on": Field(boolean, required=False, default=False)}
    enter_order = 10

    def on_enter(self, ctx: TurnContext, element: Element, robot: Robot, frm: Square, direction: Dir, how: str) -> bool:
        self.on_press(ctx, element, how, robot)
        return False

    def on_press(self, ctx: TurnContext, element: Element, cause: str, robot: Robot | None) -> None:
        if element.get("kind", "toggle") == "pressure":
            ctx.flip_control(element, True, cause, robot)
        else:
            self.toggle(ctx, element, cause, robot)


@register
class Eye(Mounted, Control):
    """B6.8: a wall-mounted toggle flipped by a beam travelling head-on into its wall (once per stage)."""

    type = "eye"
    fields = {"wall": Field(direction), "id": Field(text), "on": Field(boolean, required=False, default=False)}

    def on_beam(self, ctx: TurnContext, element: Element, square: Square, direction: Dir) -> None:
        if square == element.at and direction == element.get("wall"):
            self.toggle(ctx, element, Cause.LASER, None)
