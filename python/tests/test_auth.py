"""A server guarded by a bearer token: the Python client sends it, and refuses are UnauthenticatedError."""

from __future__ import annotations

from typing import Iterator

import pytest

import botarena


@pytest.fixture(scope="module")
def guarded() -> Iterator[botarena.Server]:
    with botarena.Server(args=["--auth-token", "s3cret-token"]) as server:
        yield server


def test_calls_without_the_token_are_unauthenticated(guarded: botarena.Server, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BOTARENA_AUTH_TOKEN", raising=False)
    with botarena.Client(guarded.address) as client:
        with pytest.raises(botarena.UnauthenticatedError) as info:
            client.list_games()
    assert guarded.address in str(info.value)
    with botarena.Client(guarded.address, token="wrong") as client:
        with pytest.raises(botarena.UnauthenticatedError):
            client.list_games()


def test_the_token_reaches_every_call(guarded: botarena.Server, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BOTARENA_AUTH_TOKEN", raising=False)
    client = botarena.Client(guarded.address, token="s3cret-token")
    assert client.list_games()
    for transport in ("unary", "stream"):
        with botarena.Pool("battlebots", 2, client=client, transport=transport, seed=1) as pool:
            pool.reset()
            pool.step([0] * pool.rows)
    client.close()


def test_the_token_comes_from_the_environment(guarded: botarena.Server, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOTARENA_AUTH_TOKEN", "s3cret-token")
    envs = botarena.make_vec("battlebots", 2, address=guarded.address)
    envs.reset(seed=1)
    envs.close()
