"""HTTPS for the web view: a certificate given (``--web-cert/--web-key``) or a self-signed one made on request.

A self-signed certificate is kept in the user's data folder (the key readable
by its owner only) and made again only when it is missing or has expired; the
invites show its SHA-256 fingerprint, which a phone's warning page shows too,
so that staff can tell it is the station's.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import ssl
from pathlib import Path

from controlroom.paths import data_dir

SELF_SIGNED = "selfsigned"


def folder() -> Path:
    return data_dir() / "web"


def self_signed(where: Path | None = None, names: tuple[str, ...] = ("localhost",)) -> tuple[Path, Path]:
    """The station's self-signed certificate and key (made now if missing or expired): (cert, key)."""
    where = where or folder()
    cert, key = where / "station-cert.pem", where / "station-key.pem"
    if cert.exists() and key.exists() and not _expired(cert):
        return cert, key
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    private = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "controlroom station")])
    alt: list[x509.GeneralName] = [x509.DNSName(n) for n in names]
    alt.append(x509.IPAddress(ipaddress.ip_address("127.0.0.1")))
    now = dt.datetime.now(dt.UTC)
    certificate = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject)
                   .public_key(private.public_key()).serial_number(x509.random_serial_number())
                   .not_valid_before(now - dt.timedelta(days=1)).not_valid_after(now + dt.timedelta(days=825))
                   .add_extension(x509.SubjectAlternativeName(alt), critical=False)
                   .sign(private, hashes.SHA256()))
    where.mkdir(parents=True, exist_ok=True)
    fd = os.open(key, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                      serialization.NoEncryption()))
    cert.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    return cert, key


def _expired(cert: Path) -> bool:
    try:
        from cryptography import x509

        c = x509.load_pem_x509_certificate(cert.read_bytes())
        return c.not_valid_after_utc <= dt.datetime.now(dt.UTC) + dt.timedelta(days=1)
    except Exception:             # unreadable: made again
        return True


def fingerprint(cert: Path) -> str:
    """The certificate's SHA-256 fingerprint as browsers show it (AB:CD:...)."""
    der = ssl.PEM_cert_to_DER_cert(cert.read_text(encoding="ascii"))
    digest = hashlib.sha256(der).hexdigest().upper()
    return ":".join(digest[i:i + 2] for i in range(0, len(digest), 2))


def context(cert: Path, key: Path) -> ssl.SSLContext:
    """A server context for the certificate; ValueError in words when it cannot be used."""
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        ctx.load_cert_chain(str(cert), str(key))
    except (OSError, ssl.SSLError) as exc:
        raise ValueError(f"the web certificate {cert} with key {key} cannot be used: {exc}") from None
    return ctx
