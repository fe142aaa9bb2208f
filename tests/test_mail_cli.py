"""`pbem mail …`: --help everywhere, exit codes 0/1/2 with the reasons, .eml files sent once, dry runs."""
from __future__ import annotations

import json

import pytest
from mail_fixtures import mail, new_campaign
from typer.testing import CliRunner

from pbem.cli import app

RUNNER = CliRunner()


@pytest.fixture
def pbem(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for variable in ("PBEM_MAIL_CONFIG", "PBEM_IMAP_HOST", "PBEM_SMTP_HOST"):
        monkeypatch.delenv(variable, raising=False)
    url, _ = new_campaign(tmp_path)

    def run(*args):
        result = RUNNER.invoke(app, ["--db", url, *[str(a) for a in args]])
        return result.exit_code, result.stdout, result.stderr
    return run


@pytest.mark.parametrize("command", [["mail"], ["mail", "fetch"], ["mail", "send"], ["mail", "outbox"],
                                     ["mail", "dm-player"]],
                         ids=" ".join)
def test_every_mail_command_has_help(command):
    result = RUNNER.invoke(app, [*command, "--help"])
    assert result.exit_code == 0 and "Usage:" in result.output


def test_usage_errors_exit_2_and_refusals_exit_1_with_the_reason(pbem, tmp_path):
    assert pbem("mail", "fetch")[0] == 2  # no inbox given
    assert pbem("mail", "fetch", "--mbox", "a", "--maildir", "b")[0] == 2
    assert pbem("mail", "dm-player", "m1", "Red", "not an address")[0] == 2
    code, _, err = pbem("mail", "fetch", "--maildir", tmp_path / "nowhere")
    assert code == 1 and "nowhere is not a Maildir" in err
    code, _, err = pbem("mail", "fetch", "--imap")
    assert code == 1 and "no IMAP server: give imap: {host: …} or PBEM_IMAP_HOST" in err
    (tmp_path / "bad.yaml").write_text("smtp: {host: x, port: many}\n")
    code, _, err = pbem("mail", "send", "--config", tmp_path / "bad.yaml")
    assert code == 1 and "bad.yaml:1: smtp.port: must be a whole number" in err
    (tmp_path / "noto.eml").write_bytes(b"Subject: x\r\n\r\nbody\r\n")
    code, _, err = pbem("mail", "send", "--dry-run", tmp_path / "noto.eml")
    assert code == 1 and "needs one To address and a Message-ID" in err


def test_eml_files_are_queued_once_and_a_dry_run_changes_nothing(pbem, tmp_path):
    folder = tmp_path / "reports" / "mail"
    folder.mkdir(parents=True)
    (folder / "alice.eml").write_bytes(mail("gm@example.org", "report", "<r1@pbem>").replace(
        b"To: Game Master <gm@example.org>", b"To: alice@example.org"))
    code, out, _ = pbem("mail", "send", tmp_path / "reports", "--dry-run", "--out", tmp_path / "dry", "--json")
    result = json.loads(out)
    assert code == 0 and result["queued"] == 1 and [m["recipient"] for m in result["messages"]] == ["alice@example.org"]
    [written] = (tmp_path / "dry").glob("*.eml")
    assert written.read_bytes().startswith(b"Date: ") and b"Message-ID: <r1@pbem>" in written.read_bytes()
    code, out, _ = pbem("mail", "send", tmp_path / "reports", "--dry-run", "--out", tmp_path / "dry", "--json")
    assert json.loads(out)["queued"] == 1  # the dry run stored nothing
    code, _, err = pbem("mail", "send", tmp_path / "reports")  # no SMTP server configured: queued, not sent
    assert code == 1 and "no SMTP server" in err
    code, out, _ = pbem("mail", "send", tmp_path / "reports", "--dry-run", "--out", tmp_path / "dry2", "--json")
    assert json.loads(out)["queued"] == 0 and len(json.loads(out)["messages"]) == 1  # queued once, still pending
    code, out, _ = pbem("mail", "outbox", "--json")
    [listed] = json.loads(out)
    assert code == 0 and (listed["recipient"], listed["state"], listed["attempts"]) == ("alice@example.org", "pending", 0)
