"""`pbem run` keeps the turn sheets it mails on disk (issue #35), where `pbem demo` keeps them: beside the turn's
report, in OUT/GAME/turn-NNN/sheets/ (NAME.txt, NAME.html, NAME-orders.yaml), so the GM can see what went out."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from pbem.cli import app

RUNNER = CliRunner()


def test_run_writes_the_sheets_it_mails_beside_the_reports(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_MAIL_CONFIG", raising=False)
    db, out = f"sqlite:///{tmp_path / 'pbem.db'}", tmp_path / "site"

    def pbem(now: str, *args: str) -> dict:
        result = RUNNER.invoke(app, ["--db", db, "--now", now, *args])
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout) if "--json" in args else {}

    pbem("2026-01-01T12:00:00Z", "game", "new", "bw", "--ruleset", "botwars", "--player", "alice:alice@x.org:Zapper",
         "--player", "bob:bob@x.org:Bolt", "--seed", "3", "--deadline", "2d")
    done = pbem("2026-01-01T12:00:00Z", "run", "--out", str(out), "--json")["done"]
    assert [d["what"] for d in done] == ["dealt"]
    first = out / "bw" / "turn-001" / "sheets"
    assert sorted(p.name for p in first.iterdir() if p.suffix != ".png") == [
        "alice-orders.yaml", "alice.html", "alice.txt", "bob-orders.yaml", "bob.html", "bob.txt"]
    assert "game: bw" in (first / "alice-orders.yaml").read_text() and "turn: 1" in (first / "alice-orders.yaml").read_text()
    done = pbem("2026-01-03T12:00:00Z", "run", "--out", str(out), "--json")["done"]
    assert [d["what"] for d in done][:2] == ["processed", "dealt"]
    assert (out / "bw" / "turn-001" / "summary.txt").is_file()  # the report, beside the sheets of its turn
    assert "turn: 2" in (out / "bw" / "turn-002" / "sheets" / "alice-orders.yaml").read_text()
