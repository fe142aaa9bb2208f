"""The campaign site's rulebook page: `docs/rules.md` as HTML, so that a player can look up any rule id a mail
or a report names (each rule's id is also its anchor: `rules.html#B4.6`)."""
from __future__ import annotations

import re
from typing import Sequence

from ..resources import resource_path
from . import html

_HEADING = re.compile(r"<h([2-4])>([BGD]\d+b?) ")
_ITEM = re.compile(r"<li>(\s*(?:<p>)?<strong>([BGD]\d+b?\.\d+)\b)")


def rules_markdown() -> str:
    return resource_path("docs/rules.md").read_text(encoding="utf-8")


def rules_page(templates: Sequence[str] = ()) -> str:
    from markdown_it import MarkdownIt  # only when the page is made

    body = MarkdownIt("commonmark").render(rules_markdown())
    body = _HEADING.sub(lambda m: f'<h{m[1]} id="{m[2]}">{m[2]} ', body)
    body = _ITEM.sub(lambda m: f'<li id="{m[2]}">{m[1]}', body)
    return html.render("rules.html", templates, body=body)
