"""Robots that count how often the engine reads one of their fields: a test can say a step does not visit every
robot (issue #36) without timing anything."""
from pbem.engine.state import Robot


def counting_robot(field: str) -> type[Robot]:
    """A `Robot` class whose instances count, in the class's `reads`, every read of `field` by any code."""

    class Counted(Robot):
        reads = 0

        def __getattribute__(self, name):
            if name == field:
                Counted.reads += 1
            return super().__getattribute__(name)

    return Counted
