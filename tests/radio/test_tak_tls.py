"""tls:// with --tak-cert, --tak-key and --tak-ca: the station's certificate shown, the server's checked."""

from __future__ import annotations

import datetime
import ipaddress
import socket
import ssl
import threading
from types import SimpleNamespace

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from tak_helpers import wait_until

from controlroom.core.wiring import check_links
from controlroom.game.events import make_event
from controlroom.game.roster import Member
from controlroom.game.state import GameState
from controlroom.game.tak_settings import TakSettings
from controlroom.game.views import make_delta
from controlroom.radio.cot_in import StreamSplitter, decode
from controlroom.radio.link import HeardQueue
from controlroom.radio.tak_link import TakLink, tls_files


def _cert(name, key, issuer=None, issuer_key=None, ca=False, ip=None):
    now = datetime.datetime.now(datetime.UTC)
    builder = (x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)]))
               .issuer_name(issuer.subject if issuer else x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)]))
               .public_key(key.public_key()).serial_number(x509.random_serial_number())
               .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
               .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if ip:
        builder = builder.add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address(ip))]),
                                        critical=False)
    return builder.sign(issuer_key or key, hashes.SHA256())


def _write(path, cert=None, key=None):
    data = b""
    if cert is not None:
        data += cert.public_bytes(serialization.Encoding.PEM)
    if key is not None:
        data += key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                  serialization.NoEncryption())
    path.write_bytes(data)
    return str(path)


@pytest.fixture
def pki(tmp_path):
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = _cert("test CA", ca_key, ca=True)
    files = {"ca": _write(tmp_path / "ca.pem", ca)}
    for who, ip in (("server", "127.0.0.1"), ("station", None)):
        key = ec.generate_private_key(ec.SECP256R1())
        files[f"{who}_cert"] = _write(tmp_path / f"{who}.pem", _cert(who, key, ca, ca_key, ip=ip))
        files[f"{who}_key"] = _write(tmp_path / f"{who}.key", key=key)
    return files


class TlsServer:
    """One TLS connection, client certificate required; what the client sends."""

    def __init__(self, pki) -> None:
        self.ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.ctx.load_cert_chain(pki["server_cert"], pki["server_key"])
        self.ctx.load_verify_locations(pki["ca"])
        self.ctx.verify_mode = ssl.CERT_REQUIRED
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.sock.settimeout(10)
        self.port = self.sock.getsockname()[1]
        self.peer, self.messages = None, []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        try:
            conn, _ = self.sock.accept()
            with self.ctx.wrap_socket(conn, server_side=True) as tls:
                self.peer = tls.getpeercert()
                tls.settimeout(10)
                splitter = StreamSplitter()
                while data := tls.recv(65536):
                    self.messages += splitter.feed(data)
        except OSError:
            return


def test_a_tls_server_gets_the_battle_from_the_station_it_knows(pki):
    server = TlsServer(pki)
    url = f"tls://127.0.0.1:{server.port}"
    link = TakLink([url], HeardQueue(), tls=tls_files([url], pki["station_cert"], pki["station_key"], pki["ca"]))
    link.opened(SimpleNamespace(name="tls", tak=TakSettings(), places=()))
    state = GameState([Member(1, "Aldo", "North", "Wolves")])
    state.apply(make_event(1000, "position", "tracker:31", device=31, lat=58.38, lon=26.72, fix=1))
    link.inbox.put_devices({"tracker:31": {"role": "tracker", "group": "Wolves"}})
    link.inbox.put_delta(make_delta(state, (), (), full=True))
    link.start()
    try:
        assert wait_until(lambda: server.messages, 15), [c.last_error for c in link.connections]
    finally:
        link.request_stop()
        assert link.join(10)
        server.sock.close()
    assert dict(x[0] for x in server.peer["subject"])["commonName"] == "station"
    assert decode(server.messages[0], "t").uid == "controlroom.tls.group.Wolves"


def test_tls_without_the_station_certificate_or_with_a_missing_file_is_refused_in_words(pki, tmp_path):
    with pytest.raises(ValueError, match="--tak-cert FILE.pem --tak-key FILE.pem"):
        check_links([], ["tls://127.0.0.1:8089"], (None, None, None))
    with pytest.raises(ValueError, match="--tak-ca .*: no such file"):
        check_links([], ["tls://127.0.0.1:8089"], (pki["station_cert"], pki["station_key"], str(tmp_path / "no")))
    with pytest.raises(ValueError, match="tcp://HOST:PORT"):
        check_links([], ["http://127.0.0.1:8089"])
    check_links([], ["tcp://127.0.0.1:8087", "udp://239.2.3.1:6969?proto=1"])
