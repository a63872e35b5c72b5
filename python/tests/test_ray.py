"""botarena.ray on a real two-node Ray cluster that this module starts and stops.

The cluster (:class:`botarena.ray.cluster.LocalCluster`): a head and a second
node joining it, each a ``ray start`` with one CPU, a 200 MB object store and
no dashboard, on loopback addresses of their own (127.0.0.2, 127.0.0.3). The
tests run in file order; the last one kills the second node.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import numpy.typing as npt
import pytest
from extras import require

require("ray")

import ray  # noqa: E402
import ray.cloudpickle  # noqa: E402

import botarena  # noqa: E402
from botarena.league import League  # noqa: E402
from botarena.ray import RaySampler, RayVectorEnv, run_league, start_servers  # noqa: E402
from botarena.ray.cluster import LocalCluster, node_host  # noqa: E402
from botarena.rollout import PoolSampler, Rollout, sampler_seeds  # noqa: E402
from botarena.server import find_binary  # noqa: E402

# The learner's policy below travels to the actors by value (this module is
# not importable on the nodes).
ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    src = str(Path(botarena.__file__).resolve().parents[1])
    env = {"BOTARENA_BIN": find_binary(), "PYTHONPATH": os.pathsep.join(filter(None, [src, os.environ.get("PYTHONPATH")]))}
    with LocalCluster(2, num_cpus=1, object_store_memory=200_000_000, env=env, timeout=120) as c:
        c.init(log_to_driver=False)
        c.wait_nodes(2, timeout=60)
        yield c


def _report(capsys: pytest.CaptureFixture[str], line: str) -> None:
    with capsys.disabled():
        print(f"\n[ray] {line}", flush=True)


def test_sampler_equals_local_samplers(cluster: LocalCluster) -> None:
    with RaySampler("battlebots", num_actors=2, envs_per_actor=8, seed=11) as sampler:
        assert len(set(sampler.nodes)) == 2, sampler.nodes  # one actor per node (one CPU each)
        remote = [sampler.sample(16), sampler.sample(16)]
    for k in range(2):
        with PoolSampler("battlebots", 8, seed=11, index=k) as local:
            for call in range(2):
                want = local.sample(16)
                got = remote[call][k]
                assert got.index == k
                assert got.equal(want), f"actor {k}, call {call}: rollout differs from the local sampler's"
    both = Rollout.concat(remote[0])
    assert both.rows == 2 * remote[0][0].rows and both.steps == 16


class LinearPolicy:
    """A softmax policy linear in the scalars, over the legal actions (picklable, numpy only)."""

    def __init__(self, w: npt.NDArray[np.float64]) -> None:
        self.w = w

    def probs(self, obs: dict[str, npt.NDArray[Any]], mask: npt.NDArray[np.uint8]) -> npt.NDArray[np.float64]:
        x = np.asarray(obs["scalars"], dtype=np.float64)
        logits = x @ self.w
        logits = np.where(mask > 0, logits, -1e9)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(axis=1, keepdims=True)

    def __call__(self, obs: dict[str, npt.NDArray[Any]], mask: npt.NDArray[np.uint8], rng: np.random.Generator) -> npt.NDArray[np.int32]:
        p = self.probs(obs, mask)
        u = rng.random(len(p))[:, None]
        return np.minimum((np.cumsum(p, axis=1) < u).sum(axis=1), p.shape[1] - 1).astype(np.int32)


def _train(sample: Any, set_policy: Any, features: int, actions: int, iterations: int) -> npt.NDArray[np.float64]:
    """REINFORCE on immediate rewards: deterministic given the rollouts."""
    w = np.zeros((features, actions))
    for _ in range(iterations):
        policy = LinearPolicy(w)
        set_policy(policy)
        r: Rollout = sample()
        x = r.obs["scalars"].reshape(-1, features).astype(np.float64)
        mask = r.mask.reshape(-1, actions)
        p = policy.probs({"scalars": x}, mask)
        onehot = np.eye(actions)[r.actions.reshape(-1)]
        adv = r.rewards.reshape(-1).astype(np.float64)
        w = w + 0.1 * x.T @ ((onehot - p) * adv[:, None]) / len(x)
    return w


def test_training_over_two_nodes_equals_local(cluster: LocalCluster) -> None:
    """A training run over two Ray nodes ends with the weights, bit for bit, of the same run in one process."""
    with RaySampler("battlebots", num_actors=2, envs_per_actor=8, seed=3) as sampler:
        spec = sampler.spec
        features = next(t for t in spec.observations if t.name == "scalars").size
        w_ray = _train(lambda: sampler.sample_concat(32), sampler.set_policy, features, spec.actions, 4)
    locals_ = [PoolSampler("battlebots", 8, seed=3, index=k) for k in range(2)]
    try:

        def set_all(policy: LinearPolicy) -> None:
            for s in locals_:
                s.set_policy(policy)

        w_local = _train(lambda: Rollout.concat([s.sample(32) for s in locals_]), set_all, features, spec.actions, 4)
    finally:
        for s in locals_:
            s.close()
    assert np.any(w_ray != 0)
    assert w_ray.tobytes() == w_local.tobytes()


def test_sampling_throughput_one_and_two_nodes(cluster: LocalCluster, capsys: pytest.CaptureFixture[str]) -> None:
    """Logs agent-steps/s with one actor (one node) and two (two nodes), 128 BattleBots envs per actor."""
    sps = {}
    for actors in (1, 2):
        with RaySampler("battlebots", num_actors=actors, envs_per_actor=128, seed=1) as sampler:
            assert len(set(sampler.nodes)) == actors
            sps[actors] = sampler.throughput(64, rounds=3)
    _report(
        capsys,
        f"sampling battlebots, 128 envs (256 agent rows) per actor, 64 steps per call: "
        f"1 node {sps[1]:,.0f} agent-steps/s, 2 nodes {sps[2]:,.0f} agent-steps/s ({sps[2] / sps[1]:.2f}x; "
        f"{os.cpu_count()} cores on this machine)",
    )
    assert sps[1] > 0 and sps[2] > 0


def test_vector_env_equals_local_vector_envs(cluster: LocalCluster) -> None:
    env = RayVectorEnv("battlebots", num_actors=2, envs_per_actor=4, opponents="sniper")
    try:
        assert env.num_envs == 8 and len(set(env.nodes)) == 2
        obs, info = env.reset(seed=21)
        rng = np.random.default_rng(0)
        acts = [rng.integers(0, env.single_action_space.n, size=8) for _ in range(30)]
        trace = [obs["planes"].copy()]
        rewards = []
        for a in acts:
            obs, rew, term, trunc, info = env.step(a)
            assert info["action_mask"].shape == (8, env.game_spec.actions)
            trace.append(obs["planes"].copy())
            rewards.append(rew)
        assert env.action_masks().shape == (8, env.game_spec.actions)
    finally:
        env.close()
    for k in range(2):
        local = botarena.make_vec("battlebots", 4, opponents="sniper", seed=sampler_seeds(21, k)[0])
        try:
            obs, _ = local.reset(seed=sampler_seeds(21, k)[0])
            assert obs["planes"].tobytes() == trace[0][4 * k : 4 * k + 4].tobytes()
            for t, a in enumerate(acts):
                obs, rew, *_ = local.step(a[4 * k : 4 * k + 4])
                assert obs["planes"].tobytes() == trace[t + 1][4 * k : 4 * k + 4].tobytes(), f"actor {k}, step {t}"
                assert rew.tobytes() == rewards[t][4 * k : 4 * k + 4].tobytes()
        finally:
            local.close()


def test_rllib_env_runners_on_two_nodes(cluster: LocalCluster) -> None:
    """PPO with two EnvRunners, one per node, each stepping one botarena pool of 8 envs."""
    require("ray.rllib")
    require("torch")
    from ray.rllib.algorithms.ppo import PPOConfig

    from botarena.ray.rllib import configure

    config = configure(PPOConfig(), "battlebots", num_envs_per_env_runner=8, game_config={"max_rounds": 50})
    config = config.env_runners(num_env_runners=2).training(
        train_batch_size_per_learner=256, minibatch_size=128, num_epochs=1
    ).debugging(seed=1)
    algo = config.build_algo()
    try:
        result = algo.train()["env_runners"]
        assert result["num_env_steps_sampled"] >= 256
        runners = algo.env_runner_group.foreach_env_runner(
            lambda r: (ray.get_runtime_context().get_node_id(), type(r.env.unwrapped).__name__, r.env.unwrapped.num_envs),
            local_env_runner=False,
        )
    finally:
        algo.stop()
    assert len({n for n, _, _ in runners}) == 2, runners
    assert all(kind == "BotarenaVectorEnv" and n == 8 for _, kind, n in runners), runners


def _new_league(directory: str) -> League:
    league = League(directory, game="bomberman", seed=7)
    for name in ("reference", "random", "idle"):
        league.add(name, name)
    return league


def _games(league: League) -> list[dict[str, Any]]:
    return [{k: v for k, v in g.items() if k != "time"} for g in league.games()]


def test_cli_league(cluster: LocalCluster, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """python -m botarena.ray league DIR --games N --address ADDR --json: a server per node, every game played."""
    from botarena.ray.__main__ import main

    _new_league(str(tmp_path / "L"))
    assert main(["league", str(tmp_path / "L"), "--games", "40", "--address", cluster.address, "--json"]) == 0
    out = capsys.readouterr().out.strip().splitlines()[-1]
    summary = json.loads(out)
    assert summary["played"] == 40 and len(summary["servers"]) == 2, summary
    assert sum(s["games"] for s in summary["servers"]) == 40


def test_league_with_a_node_killed_mid_run(cluster: LocalCluster, capsys: pytest.CaptureFixture[str]) -> None:
    """A league over both nodes, the second killed mid-run: no game lost or doubled, results equal a local run's."""
    games = 2000
    with tempfile.TemporaryDirectory() as tmp:
        local = _new_league(os.path.join(tmp, "local"))
        local.run(games)
        want_games, want_table = _games(local), local.table()
        assert len(want_games) == games

        remote = _new_league(os.path.join(tmp, "ray"))
        with start_servers(num_cpus=1) as servers:
            assert len(set(servers.nodes)) == 2
            victim = servers.nodes.index(node_host(1))  # the second node's server
            result: dict[str, Any] = {}

            def run() -> None:
                try:
                    result["run"] = run_league(remote, games, servers=servers, server_batch=4)
                except BaseException as e:  # reported below
                    result["error"] = e

            runner = threading.Thread(target=run)
            runner.start()
            deadline = time.monotonic() + 120
            played = 0
            while time.monotonic() < deadline and runner.is_alive():
                played = servers.games()[victim] or 0
                if played >= 50:
                    break
                time.sleep(0.05)
            assert runner.is_alive(), f"the run ended before the kill ({played} games on the second node): {result}"
            cluster.kill_node(1)
            killed_at = played
            runner.join(180)
            assert not runner.is_alive(), "the league run did not finish within 180 s of the kill"
        assert "error" not in result, result.get("error")
        run = result["run"]
        _report(
            capsys,
            f"league: {games} bomberman games, second node killed after {killed_at} of its games; "
            f"servers: {[(s.address, s.games, bool(s.error)) for s in run.servers]}; {run.summary.seconds:.1f}s",
        )
        assert run.summary.played == games
        assert [s.address for s in run.dropped] == [servers.addresses[victim]], run.servers
        assert sum(s.games for s in run.servers) == games  # each game's result came back once
        got_games = _games(remote)
        assert sorted(g["index"] for g in got_games) == list(range(games)), "a game lost or stored twice"
        assert got_games == want_games
        assert remote.table() == want_table
