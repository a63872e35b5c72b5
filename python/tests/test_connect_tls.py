"""Connect over TLS: unary Step and the StepStream (HTTP/1.1 by ALPN, or HTTP/2) give the plaintext server's observations.

The server is ``botarena serve --tls-cert/--tls-key`` with a self-signed
certificate made by ``openssl`` (skipped where there is none); the client
trusts it through ``SSL_CERT_FILE``, as a user with a private CA would.
"""

from __future__ import annotations

import shutil
import ssl
import subprocess
from pathlib import Path
from typing import Iterator

import numpy as np
import pytest

import botarena
from botarena._connect_stream import ConnectStream
from botarena.errors import ServerUnavailableError
from test_connect import _stream_steps

_STREAM = "/botarena.v1.EnvService/StepStream"


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("no openssl to make a self-signed certificate")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    args = ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2"]
    args += ["-subj", "/CN=botarena-test", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)]
    subprocess.run([openssl, *args], check=True, capture_output=True, timeout=60)
    return cert, key


@pytest.fixture(scope="module")
def tls_server(certificate: tuple[Path, Path]) -> Iterator[botarena.Server]:
    cert, key = certificate
    with botarena.Server(args=["--tls-cert", str(cert), "--tls-key", str(key)]) as server:
        yield server


@pytest.fixture()
def trusted(certificate: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """The client trusts the test certificate: Python's ssl (the Connect calls) reads SSL_CERT_FILE when a context
    loads its roots, grpcio (the control calls) GRPC_DEFAULT_SSL_ROOTS_FILE_PATH when its first TLS channel does."""
    monkeypatch.setenv("SSL_CERT_FILE", str(certificate[0]))
    monkeypatch.setenv("GRPC_DEFAULT_SSL_ROOTS_FILE_PATH", str(certificate[0]))


def _obs(client: botarena.Client, transport: str, n: int = 6) -> list[dict[str, bytes]]:
    """The obs bytes of a reset and n steps of a fixed-seed Bomberman pool stepped over transport."""
    with botarena.Pool("bomberman", 8, client=client, seed=5, transport=transport) as pool:
        obs, _ = pool.reset()
        out = [{k: v.tobytes() for k, v in obs.items()}]
        rng = np.random.default_rng(1)
        for _ in range(n):
            obs, *_ = pool.step(rng.integers(0, pool.spec.actions, pool.rows, dtype=np.int32))
            out.append({k: v.tobytes() for k, v in obs.items()})
        return out


@pytest.mark.usefixtures("trusted")
def test_unary_and_stream_over_tls_give_the_plaintext_servers_observations(tls_server: botarena.Server, client: botarena.Client) -> None:
    plain = _obs(client, "unary")
    with botarena.Client(tls_server.address, token=tls_server.token, tls=True) as c:
        assert _obs(c, "unary") == plain
        assert _obs(c, "stream") == plain


@pytest.mark.usefixtures("trusted")
def test_stream_over_tls_goes_over_http1_by_alpn_and_agrees_with_http2(tls_server: botarena.Server) -> None:
    version1, over1 = _stream_steps(tls_server.address, 4, http2=False, tls=True, token=tls_server.token)
    version2, over2 = _stream_steps(tls_server.address, 4, http2=True, tls=True, token=tls_server.token)
    assert (version1, version2) == (1, 2)  # HTTP/1.1 without a fallback
    assert over1 == over2


def test_a_stream_that_does_not_trust_the_certificate_is_refused(tls_server: botarena.Server, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    for http2 in (False, True):
        with pytest.raises((ServerUnavailableError, ssl.SSLError)):
            ConnectStream(tls_server.address, _STREAM, timeout=30, token=tls_server.token, tls=True, http2=http2)
