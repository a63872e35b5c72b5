#!/usr/bin/env python3
"""Stable-Baselines3 PPO (or sb3-contrib MaskablePPO) on a botarena game.

    python python/examples/sb3_ppo.py --game battlebots --opponents huggy --timesteps 100000
    python python/examples/sb3_ppo.py --game bomberman/2p --opponents reference --masked

The env is ``botarena.sb3.make_vec_env``: one pool of ``--num-envs`` games
stepped in Go, as an SB3 ``VecEnv`` with ``action_masks()``. The policy is
SB3's ``MultiInputPolicy`` with botarena's ``PlanesExtractor`` (small
same-size convolutions over the boards); ``--mlp`` uses SB3's default
extractor instead. At the end the policy plays ``--eval-episodes`` games and
the script prints the win/draw/loss count.

Needs the sb3 extra: ``pip install -e 'python[sb3]'``.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks
from stable_baselines3 import PPO

import botarena.sb3


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--game", default="battlebots")
    p.add_argument("--opponents", default="huggy", help="built-in agent in the other seats")
    p.add_argument("--config", default="{}", help="game config as a JSON object")
    p.add_argument("--num-envs", type=int, default=16)
    p.add_argument("--timesteps", type=int, default=100_000)
    p.add_argument("--n-steps", type=int, default=128, help="steps per env per rollout")
    p.add_argument("--masked", action="store_true", help="sb3-contrib MaskablePPO (illegal actions masked)")
    p.add_argument("--mlp", action="store_true", help="SB3's default extractor (flattened planes) instead of PlanesExtractor")
    p.add_argument("--eval-episodes", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--address", default=None, help="host:port of a botarena server (default: start one)")
    p.add_argument("--save", default=None, help="where to save the model (.zip)")
    return p.parse_args(argv)


def evaluate(model: PPO, env: botarena.sb3.VecEnv, episodes: int, masked: bool) -> dict[str, int]:
    """Plays until episodes games ended; counts wins (return > 0), draws (0) and losses."""
    counts = {"wins": 0, "draws": 0, "losses": 0}
    obs = env.reset()
    returns = np.zeros(env.num_envs)
    while sum(counts.values()) < episodes:
        kwargs = {"action_masks": get_action_masks(env)} if masked else {}
        actions, _ = model.predict(obs, deterministic=False, **kwargs)
        obs, rewards, dones, _ = env.step(actions)
        returns += rewards
        for i in np.flatnonzero(dones):
            key = "wins" if returns[i] > 0 else "draws" if returns[i] == 0 else "losses"
            counts[key] += 1
            returns[i] = 0
    return counts


def main(argv: list[str] | None = None) -> dict[str, int]:
    args = parse_args(argv)
    env = botarena.sb3.make_vec_env(
        args.game, args.num_envs, opponents=args.opponents, seed=args.seed, address=args.address, **json.loads(args.config)
    )
    algo = MaskablePPO if args.masked else PPO
    kwargs = {} if args.mlp else {"policy_kwargs": botarena.sb3.policy_kwargs()}
    model = algo(
        "MultiInputPolicy",
        env,
        n_steps=args.n_steps,
        batch_size=min(256, args.n_steps * args.num_envs),
        seed=args.seed,
        device="cpu",
        verbose=1,
        **kwargs,
    )
    start = time.time()
    model.learn(args.timesteps)
    print(f"trained {model.num_timesteps} steps in {time.time() - start:.1f} s", flush=True)
    if args.save:
        model.save(args.save)
    counts = evaluate(model, env, args.eval_episodes, args.masked)
    print(f"evaluation vs {args.opponents}: {json.dumps(counts)}", flush=True)
    env.close()
    return counts


if __name__ == "__main__":
    main()
