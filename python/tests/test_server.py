"""botarena.Server and the catalogue."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

import botarena


def test_server_address(address: str) -> None:
    host, _, port = address.rpartition(":")
    assert host and int(port) > 0


def test_server_start_stop() -> None:
    server = botarena.Server()
    with server:
        addr = server.address
        with botarena.Client(addr) as c:
            assert any(g.name == "bomberman" for g in c.list_games())
        proc = server._proc
    assert proc is not None and proc.poll() is not None
    with pytest.raises(botarena.ServerError):
        server.address  # noqa: B018


def test_server_startup_failure_shows_output(tmp_path: Path) -> None:
    fake = tmp_path / "botarena"
    fake.write_text("#!/bin/sh\necho 'botarena serve: listen tcp: address in use' >&2\nexit 3\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    with pytest.raises(botarena.ServerError, match="address in use") as e:
        botarena.Server(binary=str(fake)).start()
    assert "status 3" in str(e.value)


def test_server_missing_binary() -> None:
    with pytest.raises(botarena.ServerError, match="cannot run"):
        botarena.Server(binary=os.devnull + "/nope").start()


def test_list_games(client: botarena.Client) -> None:
    games = {g.name: g for g in client.list_games()}
    assert {"bomberman", "bomberman/2p", "bomberman/8p", "bomberman/12p"} <= set(games)
    g = games["bomberman"]
    assert g.spec.seats == 4 and g.spec.actions == 7
    assert {"idle", "random", "reference"} <= set(g.agents)
    planes = g.spec.observation("planes")
    assert planes.shape == (12, 21, 21) and planes.dtype.name == "uint8"
    assert g.spec.observation("scalars").shape == (8,)
    assert isinstance(g.default_config, dict)


def test_game_spec_with_config(client: botarena.Client) -> None:
    assert client.game_spec("bomberman", {"players": 2}).seats == 2
    assert client.game_spec("bomberman/8p").seats == 8
