"""Measures the drop-in faces against peers in the same run, alternating A, B, A, B.

    .venv/bin/python python/tools/bench_dropin.py [--rounds 3] [--json]

1. One env from Python: the median step of ``gym.make("botarena/battlebots-v0")``
   (one round trip to the local server) beside Gymnasium's pure-Python
   ``CartPole-v1``.
2. Autoreset: ``make_vec("battlebots", 1024)`` agent-steps/s in next-step and
   same-step mode (same-step builds ``final_obs`` for the ended envs).
3. SB3 PPO learner steps/s, update included (16 envs, n_steps 128, 4096
   steps): botarena's BattleBots with the default ``MultiInputPolicy`` and
   with ``PlanesExtractor``, beside CartPole in SB3's ``DummyVecEnv``.

Needs the sb3 extra. Prints one line per measurement; with --json, JSON Lines.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any, Callable

import gymnasium as gym
import numpy as np

import botarena
import botarena.sb3


def single_env_step_us(make: Callable[[], gym.Env[Any, Any]], steps: int = 2000) -> float:
    env = make()
    env.reset(seed=0)
    times = []
    for _ in range(steps):
        t = time.perf_counter()
        _, _, term, trunc, _ = env.step(env.action_space.sample())
        times.append(time.perf_counter() - t)
        if term or trunc:
            env.reset()
    env.close()
    return statistics.median(times) * 1e6


def vector_sps(address: str, mode: str, num_envs: int = 1024, seconds: float = 4.0) -> float:
    envs = botarena.make_vec("battlebots", num_envs, address=address, autoreset_mode=mode, opponents="random", seed=1)
    _, infos = envs.reset(seed=1)
    rng = np.random.default_rng(0)
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        mask = infos["action_mask"]
        actions = (rng.random(mask.shape) * mask).argmax(1)
        _, _, _, _, infos = envs.step(actions)
        n += num_envs
    sps = n / (time.perf_counter() - start)
    envs.close()
    return sps


def sb3_sps(make_env: Callable[[], Any], policy: str, policy_kwargs: dict[str, Any] | None = None, steps: int = 4096) -> float:
    from stable_baselines3 import PPO

    env = make_env()
    model = PPO(policy, env, n_steps=128, batch_size=256, n_epochs=4, device="cpu", seed=0, policy_kwargs=policy_kwargs)
    start = time.perf_counter()
    model.learn(steps)
    sps = model.num_timesteps / (time.perf_counter() - start)
    env.close()
    return sps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    import torch
    from stable_baselines3.common.env_util import make_vec_env

    torch.set_num_threads(1)
    results: dict[str, list[float]] = {}

    def record(name: str, value: float) -> None:
        results.setdefault(name, []).append(value)

    with botarena.Server() as server:
        a = server.address
        cases: list[tuple[str, Callable[[], float]]] = [
            ("single_env_step_us/botarena-battlebots", lambda: single_env_step_us(lambda: gym.make("botarena/battlebots-v0", address=a))),
            ("single_env_step_us/CartPole-v1", lambda: single_env_step_us(lambda: gym.make("CartPole-v1"))),
            ("make_vec_agent_steps_per_s/battlebots-1024/next_step", lambda: vector_sps(a, "next_step")),
            ("make_vec_agent_steps_per_s/battlebots-1024/same_step", lambda: vector_sps(a, "same_step")),
            (
                "sb3_ppo_steps_per_s/botarena-battlebots/MultiInputPolicy",
                lambda: sb3_sps(lambda: botarena.sb3.make_vec_env("battlebots", 16, address=a, seed=0, opponents="huggy"), "MultiInputPolicy"),
            ),
            (
                "sb3_ppo_steps_per_s/botarena-battlebots/PlanesExtractor",
                lambda: sb3_sps(
                    lambda: botarena.sb3.make_vec_env("battlebots", 16, address=a, seed=0, opponents="huggy"),
                    "MultiInputPolicy",
                    botarena.sb3.policy_kwargs(),
                ),
            ),
            ("sb3_ppo_steps_per_s/CartPole-v1-DummyVecEnv/MlpPolicy", lambda: sb3_sps(lambda: make_vec_env("CartPole-v1", 16, seed=0), "MlpPolicy")),
        ]
        for r in range(args.rounds):
            for name, fn in cases:
                value = fn()
                record(name, value)
                if not args.json:
                    print(f"round {r + 1}: {name} = {value:,.1f}", flush=True)
    for name, values in results.items():
        line = {"name": name, "values": [round(v, 1) for v in values], "median": round(statistics.median(values), 1)}
        print(json.dumps(line) if args.json else f"{name}: median {line['median']:,} of {line['values']}")


if __name__ == "__main__":
    main()
