"""A server guarded by a bearer token: the Python client sends it, and refuses are UnauthenticatedError.

Every server botarena starts (``botarena.Server()``, and through it the
pools', envs', League's, bench's and the trainer's) has a random token,
handed over in the environment, never on the command line.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import grpc
import pytest

import botarena
import botarena.server
from botarena.v1 import env_pb2, env_pb2_grpc


@pytest.fixture(scope="module")
def guarded() -> Iterator[botarena.Server]:
    with botarena.Server(args=["--auth-token", "s3cret-token"]) as server:
        yield server


def test_calls_without_the_token_are_unauthenticated(guarded: botarena.Server, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BOTARENA_AUTH_TOKEN", raising=False)
    with botarena.Client(guarded.address, token="") as client:  # "": no token (None: the server's)
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
    monkeypatch.setattr(botarena.server, "_tokens", {})  # as in a process that did not start the server
    monkeypatch.setenv("BOTARENA_AUTH_TOKEN", "s3cret-token")
    envs = botarena.make_vec("battlebots", 2, address=guarded.address)
    envs.reset(seed=1)
    envs.close()


def _cmdline(pid: int) -> list[str]:
    with open(f"/proc/{pid}/cmdline", "rb") as f:
        return [a.decode() for a in f.read().split(b"\0") if a]


def _environ(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/environ", "rb") as f:
        return dict(kv.decode().partition("=")[::2] for kv in f.read().split(b"\0") if kv)


def test_a_started_server_refuses_calls_without_its_random_token(monkeypatch: pytest.MonkeyPatch) -> None:
    """Server() needs no flag to be guarded: a random token, in the environment only; Client sends it by itself."""
    monkeypatch.delenv("BOTARENA_AUTH_TOKEN", raising=False)
    with botarena.Server() as server, botarena.Server() as other:
        assert server.token and len(server.token) >= 32 and server.token != other.token
        assert botarena.server.token_for(server.address) == server.token
        # Every way in without the token is refused: gRPC, Connect (Reset), the StepStream.
        with botarena.Client(server.address, token="") as client:
            with pytest.raises(botarena.UnauthenticatedError):
                client.list_games()
            with pytest.raises(botarena.UnauthenticatedError):
                client.create_pool("battlebots", 1)
            with pytest.raises(botarena.UnauthenticatedError):
                client.reset("no-such-pool")
        with botarena.Client(server.address, token=other.token) as client:
            with pytest.raises(botarena.UnauthenticatedError):
                client.list_games()
        channel = grpc.insecure_channel(server.address)
        with pytest.raises(grpc.RpcError) as info:
            env_pb2_grpc.EnvServiceStub(channel).ListGames(env_pb2.ListGamesRequest(), timeout=30)
        assert info.value.code() == grpc.StatusCode.UNAUTHENTICATED
        channel.close()
        # The token is not on the command line (ps shows it to every user), only in the environment.
        if os.path.exists(f"/proc/{server.pid}/cmdline"):
            assert server.pid is not None
            assert not any(server.token in a for a in _cmdline(server.pid))
            assert _environ(server.pid).get("BOTARENA_AUTH_TOKEN") == server.token
        # This process's clients, pools and envs reach it without being told the token.
        with botarena.Client(server.address) as client:
            assert client.list_games()
        envs = botarena.make_vec("battlebots", 2, address=server.address, backend="remote")
        envs.reset(seed=1)
        envs.close()
        address = server.address
    assert botarena.server.token_for(address) is None  # forgotten once stopped


def test_a_given_token_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BOTARENA_AUTH_TOKEN", raising=False)
    assert botarena.Server(token="t1").token == "t1"
    assert botarena.Server(env={"BOTARENA_AUTH_TOKEN": "t2"}).token == "t2"
    assert botarena.Server(args=["--auth-token", "t3"]).token == "t3"
    assert botarena.Server(args=["--auth-token=t4"]).token == "t4"


def test_a_pickled_env_carries_the_token_to_another_process(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A copy in a process that did not start the server (multiprocessing, SuperSuit, Ray) still reaches it."""
    monkeypatch.delenv("BOTARENA_AUTH_TOKEN", raising=False)
    with botarena.Server() as server:
        envs = botarena.make_vec("battlebots", 2, address=server.address, backend="remote")
        pool = botarena.Pool("battlebots", 2, address=server.address, backend="remote", seed=1)
        (tmp_path / "envs.pickle").write_bytes(pickle.dumps((envs, pool)))
        envs.close()
        pool.close()
        code = (
            "import pickle, sys; envs, pool = pickle.loads(open(sys.argv[1], 'rb').read()); "
            "envs.reset(seed=1); pool.reset(); envs.close(); pool.close(); print('ok')"
        )
        env = {k: v for k, v in os.environ.items() if k != "BOTARENA_AUTH_TOKEN"}
        run = subprocess.run([sys.executable, "-c", code, str(tmp_path / "envs.pickle")], capture_output=True, text=True, timeout=120, env=env)
        assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr


def test_the_trainer_server_reads_only_its_opponents_folders(address: str, tmp_path: Path) -> None:
    """The trainer's own server gets --bots-dir for the folders its policy:/dir: opponents live in, never /."""
    from botarena.train.config import TrainConfig

    assert TrainConfig(game="battlebots", opponent="random", address=address).server_args() == ["--idle-timeout", "0"]
    bots = tmp_path / "bots"
    (bots / "mybot").mkdir(parents=True)
    (tmp_path / "policies").mkdir()
    cfg = TrainConfig(
        game="battlebots",
        opponent=f"policy:{tmp_path / 'policies' / 'a.safetensors'}?sample*2,dir:{bots / 'mybot'},random",
        address=address,
        out=str(tmp_path / "run"),
        self_play=True,
    )
    (tmp_path / "run" / "checkpoints").mkdir(parents=True)
    args = cfg.server_args([f"policy:{tmp_path / 'league' / 'x.safetensors'}", "huggy"])
    assert args == [
        "--idle-timeout", "0",
        "--bots-dir", str(tmp_path / "policies"),
        "--bots-dir", str(bots / "mybot"),
        "--bots-dir", str(tmp_path / "run" / "checkpoints"),
    ]  # fmt: skip; tmp_path/league does not exist: left out
    assert "/" not in args and os.path.abspath(os.sep) not in args


def test_the_trainer_starts_its_server_without_the_root_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, address: str) -> None:
    """The Trainer's own server: Server's token, and no --bots-dir / on its command line."""
    from extras import require

    require("torch")
    import botarena.train.ppo as ppo
    from botarena.train.config import TrainConfig

    started: list[botarena.Server] = []

    class Recording(botarena.Server):
        def start(self) -> botarena.Server:
            started.append(self)
            return super().start()

    monkeypatch.setattr(ppo, "Server", Recording)
    cfg = TrainConfig(game="battlebots", opponent="random", num_envs=2, num_steps=8, out=str(tmp_path), quiet=True, channels=(8,), hidden=16)
    tr = ppo.Trainer(cfg)
    try:
        assert len(started) == 1
        cmd = _cmdline(started[0].pid) if started[0].pid and os.path.exists(f"/proc/{started[0].pid}/cmdline") else started[0].args
        assert "--bots-dir" not in cmd and started[0].token not in " ".join(cmd)
    finally:
        tr.close()
