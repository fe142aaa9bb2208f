"""Board lasers and blasers (RULES B6b.5): wall turrets whose beams the lasers phase traces."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..geometry import Dir, Square
from ..mechanism import Field, direction, positive_int, register
from ..room import Element
from .base import Controlled, Mounted, controlled_fields

if TYPE_CHECKING:  # pragma: no cover
    from ..context import TurnContext


@register
class Laser(Mounted):
    """Fires away from its wall, starting in its own square, `beams` beams of `laser_damage` each."""

    type = "laser"
    fields = {"wall": Field(direction), "beams": Field(positive_int, required=False, default=1)}

    def beams(self, ctx: TurnContext, element: Element) -> list[tuple[Square, Dir, int]]:
        return [(element.at, element.get("wall").opposite, element.get("beams", 1) * ctx.ruleset.laser_damage)]


@register
class Blaser(Controlled, Laser):
    """A laser that its switch or eye turns on or off (listed state: `on`)."""

    type = "blaser"
    words = ("off", "on")
    flag = "on"
    fields = {**Laser.fields, **controlled_fields("on", False)}

    def beams(self, ctx: TurnContext, element: Element) -> list[tuple[Square, Dir, int]]:
        return Laser.beams(self, ctx, element) if self.is_set(ctx, element) else []
