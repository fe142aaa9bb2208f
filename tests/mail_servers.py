"""Real mail servers on the loopback interface for the mail tests.

`SmtpServer`: aiosmtpd with STARTTLS and login required, keeping every message
it receives (and refusing for good any recipient named nobody@…). `ImapServer`: pymap's in-memory backend (one user) in a
subprocess, with STARTTLS; `TlsTunnel` puts implicit TLS (IMAPS) in front of it. All use a throwaway self-signed certificate for
127.0.0.1, bounded timeouts, and stop when the test ends.

Ports: every server listens on a socket this process bound to port 0 itself (`reserved_port`), never on a
number found free and bound later, so no other test or program can take it in between. A reserved port nobody
listens on yet refuses connections: a server that is down.
"""
from __future__ import annotations

import asyncio
import datetime
import imaplib
import ipaddress
import socket
import ssl
import subprocess
import sys
import threading
from pathlib import Path

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

HOST = "127.0.0.1"
USER, PASSWORD = "gm", "letmein"
STARTUP_SECONDS = 120  # a bound on a server coming up, never a measure: a loaded machine may take a minute


def certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost: (cert.pem, key.pem)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1)).not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                        x509.IPAddress(ipaddress.ip_address(HOST))]), False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


_RESERVED: dict[int, socket.socket] = {}


def reserved_port(port: int = 0) -> int:
    """A port bound by this process (kept until a server here listens on it): connections are refused until then.
    `port`: that one again, after its server stopped (connections it closed may linger there, so reuse it)."""
    held = socket.socket()
    if port:
        held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    held.bind((HOST, port))
    port = held.getsockname()[1]
    _RESERVED[port] = held
    return port


def _listening(port: int | None) -> socket.socket:
    """The reserved socket of `port` (a new one when None), for a server to listen on."""
    return _RESERVED.pop(port if port is not None else reserved_port())


class _OwnSocketController(Controller):
    """aiosmtpd's controller, serving on a socket already bound (its own binds host:port itself)."""

    def __init__(self, *args, sock: socket.socket, **kwargs):
        super().__init__(*args, port=sock.getsockname()[1], **kwargs)
        self.sock = sock

    def _create_server(self):
        return self.loop.create_server(self._factory_invoker, sock=self.sock, ssl=self.ssl_context)


class _Keeper:
    def __init__(self):
        self.messages: list[tuple[str, list[str], bytes]] = []

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.startswith("nobody@"):
            return "550 5.1.1 no such user"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.messages.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.original_content))
        return "250 OK"


def _login(server, session, envelope, mechanism, auth_data):
    ok = isinstance(auth_data, LoginPassword) and auth_data.login == USER.encode() \
        and auth_data.password == PASSWORD.encode()
    return AuthResult(success=ok, handled=False)  # aiosmtpd answers 535 itself


class SmtpServer:
    """aiosmtpd on 127.0.0.1 requiring STARTTLS (or speaking TLS from the start) and login; `messages` holds (from, to, bytes) received."""

    def __init__(self, cert: Path, key: Path, port: int | None = None, implicit_tls: bool = False,
                 smtputf8: bool = False):
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(cert, key)
        self.keeper = _Keeper()
        sock = _listening(port)
        self.port = sock.getsockname()[1]
        tls = {"ssl_context": context} if implicit_tls else {"tls_context": context, "require_starttls": True}
        self.controller = _OwnSocketController(self.keeper, hostname=HOST, sock=sock, auth_required=True,
                                               auth_require_tls=not implicit_tls, authenticator=_login,
                                               ready_timeout=STARTUP_SECONDS, timeout=10, enable_SMTPUTF8=smtputf8, **tls)

    @property
    def messages(self):
        return self.keeper.messages

    def start(self) -> "SmtpServer":
        self.controller.start()
        return self

    def stop(self) -> None:
        self.controller.stop()


_PYMAP_ON_SOCKET = """import asyncio, socket, sys
from pymap.main import main
listening = socket.socket(fileno=int(sys.argv[1]))
start_server = asyncio.start_server
async def on_the_given_socket(callback, host=None, port=None, **options):
    return await start_server(callback, sock=listening, **options)
asyncio.start_server = on_the_given_socket
sys.argv = ["pymap", *sys.argv[2:]]
main()
"""


class ImapServer:
    """pymap's dict backend on 127.0.0.1 with STARTTLS, one user (USER/PASSWORD), serving the socket this process
    bound (pymap itself binds a port by number)."""

    def __init__(self, cert: Path, key: Path, port: int | None = None):
        sock = _listening(port)
        sock.listen()
        self.port = sock.getsockname()[1]
        self.process = subprocess.Popen(
            [sys.executable, "-c", _PYMAP_ON_SOCKET, str(sock.fileno()), "--cert", str(cert), "--key", str(key),
             "dict", "--demo-user", USER, "--demo-password", PASSWORD],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, pass_fds=[sock.fileno()])
        sock.close()  # the server has it now
        self.cafile = cert
        try:  # the socket takes connections at once; pymap is up when it greets (a fresh interpreter importing
            # pymap can take half a minute on a loaded machine: the bound only keeps a broken start from hanging)
            with socket.create_connection((HOST, self.port), timeout=STARTUP_SECONDS) as probe:
                if not probe.recv(64).startswith(b"* OK"):
                    raise OSError("no greeting")
        except OSError as error:
            self.process.kill()
            said = self.process.communicate(timeout=5)[1].decode(errors="replace")
            self.stop()
            raise RuntimeError(f"pymap did not start ({error}): {said}") from None

    def client(self) -> imaplib.IMAP4:
        connection = imaplib.IMAP4(HOST, self.port, timeout=10)
        connection.starttls(ssl_context=ssl.create_default_context(cafile=str(self.cafile)))
        connection.login(USER, PASSWORD)
        return connection

    def deliver(self, *messages: bytes, folder: str = "INBOX") -> None:
        connection = self.client()
        try:
            for data in messages:
                status, detail = connection.append(folder, None, None, data)
                assert status == "OK", detail
        finally:
            connection.logout()

    def stop(self, keep_port: bool = False) -> None:
        """The server ends; `keep_port`: its port stays reserved, refusing connections, until a server comes back
        on it (`ImapServer(cert, key, port=…)`, with an empty mailbox: a server down, then up)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        self.process.stderr.close()
        if keep_port:
            reserved_port(self.port)


class TlsTunnel:
    """Implicit TLS on a free port, forwarded in the clear to `target_port` (pymap speaks only STARTTLS)."""

    def __init__(self, cert: Path, key: Path, target_port: int):
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(cert, key)
        self.target_port = target_port
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server = asyncio.run_coroutine_threadsafe(
            asyncio.start_server(self._forward, HOST, 0, ssl=context), self.loop).result(timeout=STARTUP_SECONDS)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _forward(self, reader, writer):
        upstream_reader, upstream_writer = await asyncio.open_connection(HOST, self.target_port)
        await asyncio.gather(_pipe(reader, upstream_writer), _pipe(upstream_reader, writer))

    def stop(self) -> None:
        async def close():
            self.server.close()
        asyncio.run_coroutine_threadsafe(close(), self.loop).result(timeout=5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)


async def _pipe(reader, writer) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, ssl.SSLError):
        pass
    finally:
        writer.close()


def use_loopback_servers(monkeypatch, folder: Path, cert: Path, imap_port: int, smtp_port: int) -> Path:
    """A mail config (folder/mail.yaml) for the loopback IMAP and SMTP servers, in force for the test."""
    path = folder / "mail.yaml"
    path.write_text(
        f"from: Game Master <gm@example.org>\n"
        f"imap: {{host: {HOST}, port: {imap_port}, tls: starttls, user: {USER}, cafile: {cert}, timeout: 10}}\n"
        f"smtp: {{host: {HOST}, port: {smtp_port}, tls: starttls, user: {USER}, cafile: {cert}, timeout: 10}}\n")
    monkeypatch.setenv("PBEM_MAIL_CONFIG", str(path))
    monkeypatch.setenv("PBEM_SMTP_PASSWORD", PASSWORD)
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", PASSWORD)
    return path


def spring_game(tmp_path: Path, tmp_path_factory, monkeypatch, alice: str):
    """A Geek-o game `spring` with alice at the address `alice` (and bob), the loopback servers' mail config in
    force and the test's folder as the working folder; the CLI at 2026-12-01 20:00 UTC (a function of its
    arguments), the TLS certificate and key, and the SMTP port to start a server on."""
    from typer.testing import CliRunner

    from pbem.cli import app

    monkeypatch.chdir(tmp_path)
    cert, key = certificate(tmp_path_factory.mktemp("tls"))
    smtp_port = reserved_port()
    use_loopback_servers(monkeypatch, tmp_path, cert, reserved_port(), smtp_port)
    url, runner = f"sqlite:///{tmp_path / 'pbem.db'}", CliRunner()

    def pbem(*args):
        result = runner.invoke(app, ["--db", url, "--now", "2026-12-01T20:00Z", *map(str, args)])
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        return result

    created = pbem("game", "new", "spring", "--ruleset", "geeko", "--seed", "7",
                   "--player", f"alice:{alice}:Zapper,Spanner", "--player", "bob:bob@example.org:Bolt,Nut")
    assert created.exit_code == 0, created.output
    return pbem, cert, key, smtp_port
