"""Build tests/mail/clients/*.eml: alice's and bob's orders for turn 1 of the halls test game, each message
shaped as a real mail client sends it (headers, MIME structure, wrapping, charsets), each body made from the
real turn sheet pbem deals for that game. Run from the repository root after the sheet changes:

    python3 tests/mail/build_corpus.py

Every file must store the orders listed in EXPECTED (tests/test_mail_clients.py checks it).
"""
from __future__ import annotations

import base64
import quopri
import sys
import tempfile
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent.parent), str(HERE.parent)]  # this checkout's pbem, and the test fixtures

# What each message carries: the player and the programs the GM must end up with.
EXPECTED = {"alice": {"Zapper": ["FWD2#680", "RT90#300"], "Spanner": ["FWD1#580", "LF90#70"]},
            "bob": {"Bolt": ["FWD1#630", "UTRN#50"], "Nut": ["FWD2#700", "LF90#290"]}}
# The sheet's order block as a player fills it in (by kind, by number, or both)
FILLED = {"alice": {"Zapper": "FWD2, 300", "Spanner": "FWD1#580, LF90#70"},
          "bob": {"Bolt": "630, UTRN", "Nut": "FWD2#700, LF90#290"}}
# An old sheet's secret line, 91 characters with its comment: what hard wrap at 72 used to break
OLD_SECRET = '{secret}   # proves these orders are yours: keep it, share it with nobody'


def sheets() -> dict[str, str]:
    """The real turn sheets (text) of the halls game, turn 1."""
    from mail_fixtures import new_campaign

    from pbem.gm.turn_sheets import turn_sheets
    from pbem.render import turn_sheet_text
    from pbem.store.games import Store, current_state, get_game

    url, _ = new_campaign(Path(tempfile.mkdtemp()))
    store = Store(url)
    with store.session() as session:
        game = get_game(session, "halls")
        found = {s.player: turn_sheet_text(s) for s in turn_sheets(session, game, current_state(session, game))}
    store.close()
    return found


def filled(sheet: str, player: str) -> str:
    """The sheet with the programs filled in, from its `game:` line on (what a player pastes)."""
    text = sheet[sheet.index("game: halls"):]
    for robot, cards in FILLED[player].items():
        text = text.replace(f"  {robot}: {{program: []}}", f"  {robot}: {{program: [{cards}]}}")
    return text


def hard_wrap(text: str, width: int = 72) -> str:
    """What Outlook and many webmails do to a long line: cut it at a space, no marker."""
    return "\n".join(piece for line in text.split("\n")
                     for piece in (textwrap.wrap(line, width, break_long_words=False, drop_whitespace=True,
                                                 subsequent_indent="") or [""]))


def flowed(text: str, width: int = 72, delsp: bool = False) -> str:
    """RFC 3676: long lines broken after a space, the space kept at the line's end (DelSp=no), or an extra
    space added and removed again by the reader (DelSp=yes); every piece of a quoted line keeps its `>`s;
    lines starting with a space or 'From ' are space-stuffed."""
    out = []
    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        prefix, line = line[:depth] + (" " if depth else ""), line[depth:].removeprefix(" ") if depth else line
        if not depth and line.startswith((" ", "From ")):
            line = " " + line
        room = width - len(prefix)
        while len(line) > room and " " in line[1:room]:
            cut = line.rindex(" ", 1, room) + 1
            out.append(prefix + line[:cut] + (" " if delsp else ""))
            line = line[cut:]
        out.append(prefix + (line.rstrip(" ") if line.strip() else line))
    return "\n".join(out)


def qp(text: str, charset: str = "utf-8") -> str:
    return quopri.encodestring(text.replace("\n", "\r\n").encode(charset)).decode("ascii")


def b64(data: bytes) -> str:
    return "\n".join(textwrap.wrap(base64.b64encode(data).decode("ascii"), 76))


def head(sender: str, message_id: str, date: str, extra: str, subject: str = "Re: halls, turn 1: turn sheet") -> str:
    return (f"Return-Path: <{sender.split('<')[-1].rstrip('>')}>\n"
            f"Received: from mx.example.org (mx.example.org [192.0.2.7])\n"
            f"\tby imap.gm.example (Postfix) with ESMTPS id 4QX2{message_id[1:6]}\n"
            f"\tfor <gm@example.org>; {date}\n"
            f"From: {sender}\nTo: Game Master <gm@example.org>\nSubject: {subject}\nDate: {date}\n"
            f"Message-ID: {message_id}\nMIME-Version: 1.0\n{extra}")


def html_of(text: str) -> str:
    """A text as a webmail's editor writes it: a <div> per line, leading spaces as &nbsp;, <br> for blank lines."""
    rows = []
    for line in text.split("\n"):
        stripped = line.lstrip(" ")
        content = "&nbsp;" * (len(line) - len(stripped)) + stripped.replace("&", "&amp;").replace("<", "&lt;")
        rows.append(f"<div>{content or '<br>'}</div>")
    return "\n".join(rows)


LOGO = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                     "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")


def build(sheet: dict[str, str]) -> dict[str, str]:
    alice, bob = filled(sheet["alice"], "alice"), filled(sheet["bob"], "bob")
    old_alice = alice.replace('secret: "s-alice"', "secret: " + OLD_SECRET.format(secret='"s-alice"'))
    old_bob = bob.replace('secret: "s-bob"', "secret: " + OLD_SECRET.format(secret='"s-bob"'))
    files: dict[str, str] = {}

    files["thunderbird-flowed"] = head(
        "Alice Liddell <alice@example.org>", "<8d1f2c3a-1b2c-4d5e-9f00-a1b2c3d4e5f6@example.org>",
        "Mon, 23 Nov 2026 19:02:11 +0100",
        "User-Agent: Mozilla Thunderbird\nContent-Language: en-GB\n"
        "Content-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: 8bit\n") + "\n" + \
        flowed(f"Hi GM,\n\nhere are my orders, with the old secret line from my first sheet:\n\n{old_alice}\n"
               f"Best,\nAlice\n\nOn 23/11/2026 18:00, Game Master wrote:\n"
               + "\n".join("> " + line for line in sheet["alice"].split("\n")))

    alt = "----=_NextPart_001_01DB3E4F.5C1A2B30"
    rel = "----=_NextPart_000_01DB3E4F.5C1A2B30"
    outlook_text = hard_wrap(f"Hello,\n\nMy orders for this turn:\n\n{old_bob}\nRegards,\nBob Smith\n"
                             "Senior Robot Wrangler | Example Ltd | +44 20 7946 0000\n")
    files["outlook-hardwrap-html-logo"] = head(
        "Bob Smith <bob@example.org>", "<DB9PR03MB7451C0FFEE@DB9PR03MB7451.eurprd03.prod.outlook.com>",
        "Mon, 23 Nov 2026 18:40:02 +0000",
        "X-Mailer: Microsoft Outlook 16.0\nThread-Index: AdtAx1234567890abcdef==\nContent-Language: en-gb\n"
        f'Content-Type: multipart/related;\n\tboundary="{rel}";\n\ttype="multipart/alternative"\n') + \
        f"\nThis is a multi-part message in MIME format.\n\n--{rel}\n" \
        f'Content-Type: multipart/alternative;\n\tboundary="{alt}"\n\n\n--{alt}\n' \
        f'Content-Type: text/plain;\n\tcharset="us-ascii"\nContent-Transfer-Encoding: 7bit\n\n{outlook_text}\n\n' \
        f'--{alt}\nContent-Type: text/html;\n\tcharset="us-ascii"\nContent-Transfer-Encoding: quoted-printable\n\n' \
        + qp(f'<html><body lang=EN-GB><div class=WordSection1><p class=MsoNormal>Hello,<o:p></o:p></p>'
             f'<pre>{old_bob}</pre><p class=MsoNormal>Regards,<br>Bob Smith</p>'
             f'<p><img width=120 height=40 src="cid:image001.png@01DB3E4F.5C1A2B30"></p></div></body></html>') + \
        f"\n--{alt}--\n\n--{rel}\nContent-Type: image/png;\n\tname=\"image001.png\"\n" \
        f"Content-Transfer-Encoding: base64\nContent-ID: <image001.png@01DB3E4F.5C1A2B30>\n\n{b64(LOGO)}\n\n--{rel}--\n"

    mixed = "----=_NextPart_000_0011_01DB3E50.12345678"
    files["outlook-winmail"] = head(
        "Bob Smith <bob@example.org>", "<000b01db3e50$12345678$0a0b0c0d@example.org>",
        "Mon, 23 Nov 2026 18:44:40 -0000",
        "X-Mailer: Microsoft Outlook 15.0\nX-MS-TNEF-Correlator: 00000000AB12CD34\n"
        f'Content-Type: multipart/mixed;\n\tboundary="{mixed}"\n') + \
        f"\nThis is a multi-part message in MIME format.\n\n--{mixed}\nContent-Type: text/plain;\n\tcharset=\"us-ascii\"\n" \
        f"Content-Transfer-Encoding: 7bit\n\n{hard_wrap(bob)}\n\n--{mixed}\nContent-Type: application/ms-tnef;\n" \
        f"\tname=\"winmail.dat\"\nContent-Transfer-Encoding: base64\nContent-Disposition: attachment;\n" \
        f"\tfilename=\"winmail.dat\"\n\n{b64(bytes(range(256)))}\n\n--{mixed}--\n"

    apple_alt = "Apple-Mail=_7E2D6A34-5B1C-4F2E-8C11-2B9D0F6A1E55"
    apple_rel = "Apple-Mail=_3C0A7F12-9E44-4B7B-A2D1-5F6E7D8C9B0A"
    files["apple-mail-flowed-delsp"] = head(
        "Alice Liddell <alice@example.org>", "<5A2B7C1D-9E8F-4A3B-8C2D-1E0F9A8B7C6D@example.org>",
        "Mon, 23 Nov 2026 20:15:37 +0100",
        "X-Mailer: Apple Mail (2.3774.200.91.1.1)\n"
        f'Content-Type: multipart/alternative;\n\tboundary="{apple_alt}"\n') + \
        f"\n\n--{apple_alt}\nContent-Transfer-Encoding: quoted-printable\n" \
        f"Content-Type: text/plain;\n\tcharset=utf-8;\n\tdelsp=yes;\n\tformat=flowed\n\n" + \
        qp(flowed(f"Orders below \u2013 sorry for the delay!\n\n{old_alice}\n\u2014 Alice", delsp=True)) + \
        f"\n--{apple_alt}\nContent-Type: multipart/related;\n\ttype=\"text/html\";\n\tboundary=\"{apple_rel}\"\n\n\n" \
        f"--{apple_rel}\nContent-Transfer-Encoding: quoted-printable\nContent-Type: text/html;\n\tcharset=utf-8\n\n" + \
        qp(f"<html><body><div>Orders below \u2013 sorry for the delay!</div><br><div>{html_of(alice)}</div>"
           f"<div>\u2014 Alice</div><img src=\"cid:sig-logo@example.org\"></body></html>") + \
        f"\n--{apple_rel}\nContent-Transfer-Encoding: base64\nContent-Disposition: inline;\n\tfilename=logo.png\n" \
        f"Content-Type: image/png;\n\tname=\"logo.png\"\nContent-Id: <sig-logo@example.org>\n\n{b64(LOGO)}\n" \
        f"--{apple_rel}--\n\n--{apple_alt}--\n"

    gmail = "000000000000a1b2c3061f4e5d6c"
    files["gmail-alternative"] = head(
        "Bob <bob@example.org>", "<CAHx=3dQ+Z9a8b7c6d5e4f3g2h1i0jKLMnOpQrStUvWxYz@mail.gmail.com>",
        "Mon, 23 Nov 2026 21:03:55 +0000",
        f'Content-Type: multipart/alternative; boundary="{gmail}"\n',
        subject="Re: halls, turn 1: turn sheet for bob") + \
        f"\n--{gmail}\nContent-Type: text/plain; charset=\"UTF-8\"\n\n{bob}\n" \
        f"On Mon, 23 Nov 2026 at 18:00, Game Master <gm@example.org> wrote:\n\n" + \
        "\n".join("> " + line for line in sheet["bob"].split("\n")) + \
        f"\n\n--{gmail}\nContent-Type: text/html; charset=\"UTF-8\"\nContent-Transfer-Encoding: quoted-printable\n\n" + \
        qp(f'<div dir="ltr">{html_of(bob)}</div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">'
           f'On Mon, 23 Nov 2026 at 18:00, Game Master &lt;gm@example.org&gt; wrote:<br></div>'
           f'<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex">'
           f'<pre>{sheet["bob"]}</pre></blockquote></div>') + f"\n--{gmail}--\n"

    files["webmail-html-only"] = head(
        "alice@example.org", "<1732390000.123456@webmail.example.net>", "Mon, 23 Nov 2026 22:10:00 +0100",
        "User-Agent: Roundcube Webmail/1.6.9\nContent-Type: text/html; charset=UTF-8\n"
        "Content-Transfer-Encoding: quoted-printable\n") + "\n" + \
        qp(f"<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=UTF-8\"><style>p{{margin:0}}"
           f"</style></head><body style='font-size: 10pt'><p>Hi!</p><p>&nbsp;</p>{html_of(alice)}<p>&nbsp;</p>"
           f"<p>Alice</p></body></html>") + "\n"

    files["iphone-reply-sheet-quoted"] = head(
        "Bob Smith <bob@example.org>", "<9F1E2D3C-4B5A-6978-8A9B-0C1D2E3F4A5B@example.org>",
        "Mon, 23 Nov 2026 23:59:01 +0000",
        "X-Mailer: iPhone Mail (22B91)\nContent-Type: text/plain; charset=utf-8\n"
        "Content-Transfer-Encoding: quoted-printable\n") + "\n" + \
        qp(f"{bob}\nSent from my iPhone\n\n> On 23 Nov 2026, at 18:00, Game Master <gm@example.org> wrote:\n>\n"
           + "\n".join("> " + line for line in sheet["bob"].split("\n"))) + "\n"

    files["forwarded-sheet"] = head(
        "Alice <alice@example.org>", "<CAF0rwArd3d5h33t@mail.gmail.com>", "Tue, 24 Nov 2026 07:30:00 +0000",
        "Content-Type: text/plain; charset=\"UTF-8\"\n", subject="Fwd: halls, turn 1: turn sheet for alice") + \
        "\nSending from my other client, orders filled in below.\n\n" \
        "---------- Forwarded message ---------\nFrom: Game Master <gm@example.org>\n" \
        "Date: Mon, 23 Nov 2026 at 18:00\nSubject: halls, turn 1: turn sheet for alice\nTo: <alice@example.org>\n\n" \
        + sheet["alice"][:sheet["alice"].index("game: halls")] + alice + "\n"

    files["iso-8859-1"] = head(
        "=?ISO-8859-1?Q?J=FCrgen_=28Alice=29?= <alice@example.org>", "<20261123190000.GA1234@example.org>",
        "Mon, 23 Nov 2026 19:00:00 +0100",
        "User-Agent: Mutt/2.2.13 (2024-03-09)\nContent-Type: text/plain; charset=iso-8859-1\n"
        "Content-Disposition: inline\nContent-Transfer-Encoding: quoted-printable\n") + "\n" + \
        qp(f"Grüße aus Köln,\n\n{alice}\n-- \nJürgen", "iso-8859-1") + "\n"

    files["windows-1252"] = head(
        "Bob <bob@example.org>", "<001501db3e51$aabbccdd$eeff0011@example.org>", "Mon, 23 Nov 2026 19:30:00 -0500",
        "X-Mailer: Microsoft Windows Live Mail 16.4.3528.331\nContent-Type: text/plain;\n\tcharset=\"Windows-1252\"\n"
        "Content-Transfer-Encoding: quoted-printable\n") + "\n" + \
        qp("\u201cOrders\u201d \u2013 worth every \u20ac:\n\n"
           + bob.replace("reboot: []", "reboot: []   # none this time \u2026") + "\n", "cp1252") + "\n"
    return files


def main() -> None:
    out = HERE / "clients"
    out.mkdir(exist_ok=True)
    for name, text in build(sheets()).items():
        (out / f"{name}.eml").write_bytes(text.replace("\r\n", "\n").replace("\n", "\r\n").encode("utf-8"))
    print(f"{len(list(out.glob('*.eml')))} messages in {out}")


if __name__ == "__main__":
    main()
