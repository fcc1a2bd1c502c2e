"""HTTPS for the page: the user's own certificate, or a self-signed one kept in guard's state.

Beyond loopback the page is served over HTTPS only: the cookie and the CSRF token must not
cross a network in the clear. Without a certificate of the user's, one is made for the address
the page is served on and kept in ``web/`` under guard's state directory (mode 0700, the key
0600), a protected path: an agent's line that reads it asks, and under enforcement it is
withheld. The terminal shows the certificate's SHA-256 fingerprint, to compare with what the
phone's browser shows before trusting it.
"""

from __future__ import annotations

import datetime
import hashlib
import ipaddress
import os
import ssl
from dataclasses import dataclass

from guard.errors import GuardError

DAYS = 365


@dataclass(frozen=True, slots=True)
class Certificate:
    cert: str  # PEM file
    key: str
    fingerprint: str  # SHA-256 of the DER certificate, AA:BB:…
    made: bool  # made here (self-signed), not the user's


def web_state_dir() -> str:
    """``web/`` in guard's state directory (GUARD_STATE_DIR when set)."""
    base = os.environ.get("GUARD_STATE_DIR", "")
    if not base:
        from guard.dirs import user_state_dir

        base = user_state_dir()
    return os.path.join(base, "web")


def certificate(host: str, *, cert: str | None, key: str | None) -> Certificate:
    """The user's certificate when named, else the kept self-signed one for ``host`` (made
    when missing or made for another host)."""
    if cert or key:
        if not (cert and key):
            raise GuardError("guard: --cert and --key go together; name both files")
        return Certificate(cert, key, fingerprint(cert), made=False)
    where = web_state_dir()
    os.makedirs(where, mode=0o700, exist_ok=True)
    os.chmod(where, 0o700)
    cert_path, key_path = os.path.join(where, "cert.pem"), os.path.join(where, "key.pem")
    host_path = os.path.join(where, "host")
    try:
        with open(host_path, encoding="utf-8") as f:
            same = f.read() == host and os.path.exists(cert_path) and os.path.exists(key_path)
    except OSError:
        same = False
    if not same:
        make_self_signed(host, cert_path, key_path)
        with open(host_path, "w", encoding="utf-8") as f:
            f.write(host)
    return Certificate(cert_path, key_path, fingerprint(cert_path), made=True)


def context(c: Certificate) -> ssl.SSLContext:
    made = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    made.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        made.load_cert_chain(c.cert, c.key)
    except (OSError, ssl.SSLError) as exc:
        raise GuardError(
            f"guard: cannot use the certificate {c.cert} with the key {c.key} ({exc}); "
            "name a PEM certificate and its key"
        ) from None
    return made


def fingerprint(path: str) -> str:
    try:
        with open(path, encoding="ascii") as f:
            der = ssl.PEM_cert_to_DER_cert(f.read())
    except (OSError, ValueError) as exc:
        problem = f"guard: cannot read the certificate {path} ({exc}); name a PEM file"
        raise GuardError(problem) from None
    digest = hashlib.sha256(der).hexdigest().upper()
    return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))


def make_self_signed(host: str, cert_path: str, key_path: str) -> None:
    """A new key (P-256) and a certificate for ``host``, valid a year; the key mode 0600."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"guard watch {host}")])
    try:
        alt: x509.GeneralName = x509.IPAddress(ipaddress.ip_address(host))
    except ValueError:
        alt = x509.DNSName(host)
    now = datetime.datetime.now(datetime.UTC)
    made = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=DAYS))
        .add_extension(x509.SubjectAlternativeName([alt]), critical=False)
        .sign(key, hashes.SHA256())
    )
    pem_key = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    fd = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(pem_key)
    with open(cert_path, "wb") as f:
        f.write(made.public_bytes(serialization.Encoding.PEM))
