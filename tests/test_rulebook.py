"""docs/rules.md, the rulebook that ships with the project: it defines every rule id the code, the tests, the
templates and the rule scenarios cite (so a player or GM can look up any id a mail or report names), it keeps
the ids of the shared RULES.md, and it is written in its own words, not copied."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).parents[1]
RULEBOOK = ROOT / "docs" / "rules.md"
ID = r"[BGD]\d+b?(?:\.\d+)?"
# a citation: any dotted id (B4.6, D1.4: board cells such as D4 or B2 never carry a dot), B6b, or ids right after
# "RULES" ("RULES B5, B7.3 and B12", "RULES B4.4–B4.7")
DOTTED = re.compile(r"\b([BGD]\d+b?\.\d+|B6b)\b")
AFTER_RULES = re.compile(rf"\bRULES\s+({ID}(?:\s*(?:,|and|–|-|/|or)\s*{ID})*)")


def defined_ids(text: str) -> set[str]:
    """Ids the rulebook defines: headings (`### B6 …`, `### G3 …`), bold items (`- **B6.1** …`) and the
    numbered phases (`1. **B5.1 Robots move**`)."""
    headings = re.findall(rf"^#{{2,4}} ({ID})\b", text, flags=re.MULTILINE)
    bold = re.findall(rf"\*\*({ID})\b", text)
    return set(headings) | set(bold)


def cited_ids() -> dict[str, str]:
    """Every rule id cited in the project: id -> one file that cites it."""
    cited: dict[str, str] = {}
    for path in sorted((ROOT / "tests" / "scenarios").rglob("*.yaml")):
        with path.open(encoding="utf-8") as handle:
            for rule in yaml.safe_load(handle).get("rules", []):
                cited.setdefault(str(rule), str(path.relative_to(ROOT)))
    files = [*(ROOT / "pbem").rglob("*.py"), *(ROOT / "tests").glob("*.py"), *(ROOT / "templates").rglob("*.*"),
             ROOT / "README.md"]
    for path in sorted(files):
        text = path.read_text(encoding="utf-8", errors="replace")
        found = set(DOTTED.findall(text))
        for group in AFTER_RULES.findall(text):
            found |= set(re.findall(ID, group))
        for rule in found:
            cited.setdefault(rule, str(path.relative_to(ROOT)))
    return cited


def test_the_rulebook_defines_every_cited_rule_id() -> None:
    defined = defined_ids(RULEBOOK.read_text(encoding="utf-8"))
    cited = cited_ids()
    assert len(cited) > 80 and {"B4.6", "B11", "G2", "D5", "B5.7"} <= set(cited)  # the search finds citations
    missing = {rule: where for rule, where in cited.items() if rule not in defined}
    assert not missing, f"cited but not in docs/rules.md: {missing}"


def test_the_rulebook_covers_every_part_and_the_formats() -> None:
    text = RULEBOOK.read_text(encoding="utf-8")
    defined = defined_ids(text)
    expected = ({f"B{n}" for n in range(1, 14)} | {f"G{n}" for n in range(1, 10)} | {f"D{n}" for n in range(1, 6)}
                | {f"B5.{n}" for n in range(1, 10)} | {f"B6.{n}" for n in range(1, 12)}
                | {f"B6b.{n}" for n in range(1, 7)} | {"B6b"})
    assert expected <= defined, sorted(expected - defined)
    for example in ("program: [FWD2, RT90, 540, FWD1#500]", "reboot: [", "option_hp:", "action: {roll: 4",
                    "{plant: [R D5, B C4]}", "{claim: 8}", "{solution:"):
        assert example in text, example


def _shared_rules() -> Path | None:
    """The shared RULES.md the ids come from, where this checkout sits beside it (not in a fresh clone)."""
    return next((p / "shared" / "RULES.md" for p in ROOT.resolve().parents if (p / "shared" / "RULES.md").is_file()),
                None)


def test_the_rulebook_keeps_every_id_of_the_shared_rules_in_its_own_words() -> None:
    shared = _shared_rules()
    if shared is None:
        pytest.skip("no shared RULES.md beside this checkout: docs/rules.md is the rulebook")
    source = shared.read_text(encoding="utf-8")
    ids = set(re.findall(rf"^- ({ID})\b", source, flags=re.MULTILINE))
    ids |= set(re.findall(rf"^###? ({ID})\b", source, flags=re.MULTILINE))
    ids |= set(re.findall(rf"^- ({ID}) ", source, flags=re.MULTILINE))
    text = RULEBOOK.read_text(encoding="utf-8")
    assert ids and ids <= defined_ids(text), sorted(ids - defined_ids(text))
    lines = {line.strip() for line in text.splitlines()}
    copied = [line for line in source.splitlines() if len(line.strip()) > 40 and line.strip() in lines
              and not line.startswith("---")]
    assert len(copied) < 10, copied


def test_the_site_links_the_rulebook_with_an_anchor_per_rule(tmp_path) -> None:
    from pbem.render.site import write_site

    written = write_site(tmp_path, [])
    assert tmp_path / "rules.html" in written
    assert 'href="rules.html"' in (tmp_path / "index.html").read_text(encoding="utf-8")
    page = (tmp_path / "rules.html").read_text(encoding="utf-8")
    for rule in ("B4.6", "B6b.5", "G2", "D2.3", "B11"):
        assert f'id="{rule}"' in page, rule
    assert "<strong>one point at a time</strong>" in page and "**" not in page  # rendered, not raw text
