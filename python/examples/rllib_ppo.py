#!/usr/bin/env python3
"""RLlib PPO on a botarena game: every seat plays one shared policy (self-play).

    python python/examples/rllib_ppo.py --game battlebots --iterations 20

The env is botarena's PettingZoo ParallelEnv behind RLlib's
ParallelPettingZooEnv adapter. RLlib's default PPO networks cannot take the
nested observation Dict, so :class:`FlatObservation` flattens each agent's
``observation`` tensors into one float32 vector next to its action mask, and
:class:`MaskedPPOModule` (RLlib's action-masking idea) drops the logits of
illegal actions to the float minimum before sampling and in the loss.

Each iteration prints one line: iteration, env steps sampled, mean episode
return (summed over the agents, so about 0 in a zero-sum game; player_0's is
in brackets) and seconds. Needs the rllib extra: ``pip install -e 'python[rllib]'``.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from typing import Any

import ray
import torch
from gymnasium import spaces
from pettingzoo.utils.wrappers import BaseParallelWrapper
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.wrappers.pettingzoo_env import ParallelPettingZooEnv
from ray.tune.registry import register_env

import botarena


class FlatObservation(BaseParallelWrapper):
    """Each agent's observation as ``{"observations": flat float32 vector, "action_mask": mask}``."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        space = env.observation_space(env.possible_agents[0])
        self._nested = space["observation"]
        self._space = spaces.Dict(
            {"observations": spaces.flatten_space(self._nested), "action_mask": space["action_mask"]}
        )

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._space

    def _flat(self, obs: dict[str, Any]) -> dict[str, Any]:
        return {
            a: {"observations": spaces.flatten(self._nested, o["observation"]), "action_mask": o["action_mask"]}
            for a, o in obs.items()
        }

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        obs, infos = self.env.reset(seed=seed, options=options)
        return self._flat(obs), infos

    def step(self, actions: dict[str, Any]) -> Any:
        obs, *rest = self.env.step(actions)
        return (self._flat(obs), *rest)


class MaskedPPOModule(DefaultPPOTorchRLModule):
    """RLlib's default PPO networks over ``obs["observations"]``, with illegal actions masked out."""

    def __init__(self, *, observation_space: spaces.Dict, **kwargs: Any) -> None:
        # The networks are built for the flat vector only; the mask is not an input.
        super().__init__(observation_space=observation_space["observations"], **kwargs)

    @staticmethod
    def _split(batch: dict[str, Any]) -> tuple[dict[str, Any], torch.Tensor]:
        obs = batch[Columns.OBS]
        return {**batch, Columns.OBS: obs["observations"]}, obs["action_mask"]

    @staticmethod
    def _mask(out: dict[str, Any], mask: torch.Tensor) -> dict[str, Any]:
        logits = out[Columns.ACTION_DIST_INPUTS]
        out[Columns.ACTION_DIST_INPUTS] = logits.masked_fill(mask == 0, torch.finfo(logits.dtype).min)
        return out

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        inner, mask = self._split(batch)
        return self._mask(super()._forward(inner, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        inner, mask = self._split(batch)
        return self._mask(super()._forward_train(inner, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        return super().compute_values(self._split(batch)[0], embeddings)


def make_env(env_config: dict[str, Any]) -> ParallelPettingZooEnv:
    """One botarena parallel env (with its own local server) as an RLlib MultiAgentEnv.

    Not seeded here: RLlib seeds each env runner's first reset with seed + its index.
    """
    env = botarena.parallel_env(env_config["game"], **env_config["game_config"])
    return ParallelPettingZooEnv(FlatObservation(env))


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="battlebots")
    p.add_argument("--game-config", default="{}", help='game config as JSON, e.g. \'{"max_rounds": 100}\'')
    p.add_argument("--iterations", type=int, default=10)
    p.add_argument("--num-env-runners", type=int, default=0)
    p.add_argument("--batch-size", type=int, default=4000, help="env steps per iteration")
    p.add_argument("--minibatch-size", type=int, default=256)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)

    register_env("botarena", make_env)
    config = (
        PPOConfig()
        .environment(
            "botarena",
            env_config={"game": args.game, "game_config": json.loads(args.game_config)},
        )
        .env_runners(num_env_runners=args.num_env_runners)
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, episode, **kw: "shared")
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": RLModuleSpec(module_class=MaskedPPOModule)})
        )
        .training(
            train_batch_size_per_learner=args.batch_size,
            minibatch_size=args.minibatch_size,
            num_epochs=args.epochs,
        )
        .debugging(seed=args.seed)
    )
    ray.init(num_cpus=args.num_env_runners + 1, include_dashboard=False)
    algo = config.build_algo()
    try:
        for i in range(1, args.iterations + 1):
            start = time.perf_counter()
            runners = algo.train()["env_runners"]
            ret = runners.get("episode_return_mean", math.nan)
            ret0 = runners.get("agent_episode_returns_mean", {}).get("player_0", math.nan)
            print(
                f"iter {i}: {runners['num_env_steps_sampled']} env steps, "
                f"mean episode return {ret:.3f} (player_0 {ret0:.3f}), {time.perf_counter() - start:.1f} s",
                flush=True,
            )
    finally:
        algo.stop()
        ray.shutdown()


if __name__ == "__main__":
    main()
