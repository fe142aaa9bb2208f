"""Where the store keeps parsed setups between processes (`pbem.store.states`): the shelf the command line lends
(`pbem.cli.shelf`), as it lends render its pictures' (`pbem.render.shelf`)."""
from __future__ import annotations

from ..shelving import Lent

_LENT = Lent()
lend, shelved = _LENT.lend, _LENT.shelved
