"""Orders as real mail clients send them (tests/mail/clients/, built from the halls game's real turn sheets by
tests/mail/build_corpus.py): every one is accepted and stores exactly the orders its player typed."""
from __future__ import annotations

import json
import mailbox
import sys
from pathlib import Path

import pytest
from mail_fixtures import new_campaign
from sqlmodel import Session, create_engine, select
from typer.testing import CliRunner

from pbem.cli import app
from pbem.store.tables import OrderVersion, Player

sys.path.insert(0, str(Path(__file__).parent / "mail"))
from build_corpus import EXPECTED

CLIENTS = sorted((Path(__file__).parent / "mail" / "clients").glob("*.eml"))
RUNNER = CliRunner()


def stored_programs(url: str) -> dict[str, dict[str, list[str]]]:
    with Session(create_engine(url)) as session:
        names = {p.id: p.name for p in session.exec(select(Player)).all()}
        return {names[v.player_id]: json.loads(v.submission)["programs"]
                for v in session.exec(select(OrderVersion)).all()}


def test_the_corpus_has_every_client_the_issue_names():
    names = {path.stem for path in CLIENTS}
    assert {"thunderbird-flowed", "outlook-hardwrap-html-logo", "outlook-winmail", "apple-mail-flowed-delsp",
            "gmail-alternative", "webmail-html-only", "iphone-reply-sheet-quoted", "forwarded-sheet", "iso-8859-1",
            "windows-1252"} <= names


@pytest.mark.parametrize("path", CLIENTS, ids=lambda p: p.stem)
def test_every_real_client_message_stores_the_orders_it_carries(path, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    url, _ = new_campaign(tmp_path)
    inbox = mailbox.Maildir(str(tmp_path / "inbox"), create=True)
    inbox.add(path.read_bytes())
    result = RUNNER.invoke(app, ["--db", url, "mail", "fetch", "--maildir", str(tmp_path / "inbox"), "--json"])
    [handled] = json.loads(result.stdout)
    assert (result.exit_code, handled["outcome"]) == (0, "accepted"), handled["reasons"]
    player = handled["player"]
    assert stored_programs(url) == {player: EXPECTED[player]}
