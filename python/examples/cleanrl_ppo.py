#!/usr/bin/env python3
"""CleanRL-style single-file PPO on a botarena game.

This is the shape of CleanRL's ``ppo.py`` (one file: arguments, an MLP
agent, a rollout loop with GAE, clipped PPO updates, TensorBoard-free
logging to stdout), with one line that differs: where CleanRL builds
``gym.vector.SyncVectorEnv([make_env(...) for i in range(num_envs)])``, this
builds a botarena vector env, stepped in Go on the server::

    envs = botarena.make_vec(game, num_envs, autoreset_mode="same_step", ...)

Same-step autoreset is what CleanRL's GAE assumes: the step that ends an
episode is its last transition, and the next observation already belongs to
the new episode, so no transition is a "reset step" to be ignored.
``RecordEpisodeStatistics`` reports each finished episode's return, logged as
``global_step=..., episodic_return=...`` lines; ``flatten`` turns the game's
dict of tensors into CleanRL's flat vector (Gymnasium's vector observation
wrappers accept only next-step autoreset, as they do not transform
``final_obs``).

    python python/examples/cleanrl_ppo.py --game battlebots --opponents huggy --total-timesteps 200000

Needs PyTorch (``pip install -e 'python[train]'``).
"""

from __future__ import annotations

import argparse
import json
import random
import time

import gymnasium as gym
import numpy as np
import torch
from torch import nn, optim
from torch.distributions.categorical import Categorical

import botarena


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--game", default="battlebots", help="botarena game (registry name)")
    p.add_argument("--opponents", default="huggy", help="built-in agent in the other seats")
    p.add_argument("--config", default="{}", help="game config as a JSON object")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--total-timesteps", type=int, default=200_000)
    p.add_argument("--learning-rate", type=float, default=2.5e-4)
    p.add_argument("--num-envs", type=int, default=16)
    p.add_argument("--num-steps", type=int, default=128, help="steps per env per rollout")
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--num-minibatches", type=int, default=4)
    p.add_argument("--update-epochs", type=int, default=4)
    p.add_argument("--clip-coef", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    p.add_argument("--address", default=None, help="host:port of a botarena server (default: start one)")
    args = p.parse_args(argv)
    args.batch_size = args.num_envs * args.num_steps
    args.minibatch_size = args.batch_size // args.num_minibatches
    args.num_iterations = max(1, args.total_timesteps // args.batch_size)
    return args


def flatten(obs: dict[str, np.ndarray]) -> torch.Tensor:
    """The batch of observations as CleanRL's (num_envs, features) float tensor, tensors in spec order."""
    n = next(iter(obs.values())).shape[0]
    return torch.from_numpy(np.concatenate([v.reshape(n, -1) for v in obs.values()], axis=1, dtype=np.float32))


def layer_init(layer: nn.Linear, std: float = np.sqrt(2), bias_const: float = 0.0) -> nn.Linear:
    torch.nn.init.orthogonal_(layer.weight, std)
    torch.nn.init.constant_(layer.bias, bias_const)
    return layer


class Agent(nn.Module):
    def __init__(self, envs: gym.vector.VectorEnv, n_obs: int) -> None:
        super().__init__()
        n_act = int(envs.single_action_space.n)  # type: ignore[attr-defined]
        self.critic = nn.Sequential(
            layer_init(nn.Linear(n_obs, 64)), nn.Tanh(), layer_init(nn.Linear(64, 64)), nn.Tanh(), layer_init(nn.Linear(64, 1), std=1.0)
        )
        self.actor = nn.Sequential(
            layer_init(nn.Linear(n_obs, 64)), nn.Tanh(), layer_init(nn.Linear(64, 64)), nn.Tanh(), layer_init(nn.Linear(64, n_act), std=0.01)
        )

    def get_value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(x)

    def get_action_and_value(self, x: torch.Tensor, action: torch.Tensor | None = None) -> tuple[torch.Tensor, ...]:
        probs = Categorical(logits=self.actor(x))
        if action is None:
            action = probs.sample()
        return action, probs.log_prob(action), probs.entropy(), self.critic(x)


def main(argv: list[str] | None = None) -> dict[str, float]:
    args = parse_args(argv)
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    device = torch.device("cpu")

    # The one line that differs from CleanRL: a botarena vector env, same-step autoreset.
    envs = botarena.make_vec(args.game, args.num_envs, opponents=args.opponents, autoreset_mode="same_step", address=args.address, **json.loads(args.config))
    envs = gym.wrappers.vector.RecordEpisodeStatistics(envs)
    n_obs = sum(int(np.prod(s.shape)) for s in envs.single_observation_space.values())  # type: ignore[attr-defined]

    agent = Agent(envs, n_obs).to(device)
    optimizer = optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    obs = torch.zeros((args.num_steps, args.num_envs, n_obs)).to(device)
    actions = torch.zeros((args.num_steps, args.num_envs)).to(device)
    logprobs = torch.zeros((args.num_steps, args.num_envs)).to(device)
    rewards = torch.zeros((args.num_steps, args.num_envs)).to(device)
    dones = torch.zeros((args.num_steps, args.num_envs)).to(device)
    values = torch.zeros((args.num_steps, args.num_envs)).to(device)

    global_step = 0
    start_time = time.time()
    next_obs, _ = envs.reset(seed=args.seed)
    next_obs = flatten(next_obs).to(device)
    next_done = torch.zeros(args.num_envs).to(device)
    returns: list[float] = []

    for iteration in range(1, args.num_iterations + 1):
        for step in range(args.num_steps):
            global_step += args.num_envs
            obs[step] = next_obs
            dones[step] = next_done
            with torch.no_grad():
                action, logprob, _, value = agent.get_action_and_value(next_obs)
                values[step] = value.flatten()
            actions[step] = action
            logprobs[step] = logprob

            next_obs_np, reward, terminations, truncations, infos = envs.step(action.cpu().numpy())
            next_done_np = np.logical_or(terminations, truncations)
            rewards[step] = torch.tensor(reward).to(device).view(-1)
            next_obs, next_done = flatten(next_obs_np).to(device), torch.Tensor(next_done_np).to(device)

            if "episode" in infos:
                for r in infos["episode"]["r"][infos["_episode"]]:
                    returns.append(float(r))
                    print(f"global_step={global_step}, episodic_return={float(r):.3f}", flush=True)

        # GAE: with same-step autoreset, dones[t+1] marks the end of the episode of step t.
        with torch.no_grad():
            next_value = agent.get_value(next_obs).reshape(1, -1)
            advantages = torch.zeros_like(rewards).to(device)
            lastgaelam = torch.zeros(args.num_envs).to(device)
            for t in reversed(range(args.num_steps)):
                if t == args.num_steps - 1:
                    nextnonterminal = 1.0 - next_done
                    nextvalues = next_value
                else:
                    nextnonterminal = 1.0 - dones[t + 1]
                    nextvalues = values[t + 1]
                delta = rewards[t] + args.gamma * nextvalues * nextnonterminal - values[t]
                advantages[t] = lastgaelam = delta + args.gamma * args.gae_lambda * nextnonterminal * lastgaelam
            returns_t = advantages + values

        b_obs = obs.reshape((-1, n_obs))
        b_logprobs = logprobs.reshape(-1)
        b_actions = actions.reshape(-1)
        b_advantages = advantages.reshape(-1)
        b_returns = returns_t.reshape(-1)
        b_values = values.reshape(-1)

        b_inds = np.arange(args.batch_size)
        clipfracs = []
        for _epoch in range(args.update_epochs):
            np.random.shuffle(b_inds)
            for start in range(0, args.batch_size, args.minibatch_size):
                mb_inds = b_inds[start : start + args.minibatch_size]
                _, newlogprob, entropy, newvalue = agent.get_action_and_value(b_obs[mb_inds], b_actions.long()[mb_inds])
                logratio = newlogprob - b_logprobs[mb_inds]
                ratio = logratio.exp()
                with torch.no_grad():
                    approx_kl = ((ratio - 1) - logratio).mean()
                    clipfracs += [((ratio - 1.0).abs() > args.clip_coef).float().mean().item()]
                mb_advantages = b_advantages[mb_inds]
                mb_advantages = (mb_advantages - mb_advantages.mean()) / (mb_advantages.std() + 1e-8)
                pg_loss = torch.max(
                    -mb_advantages * ratio, -mb_advantages * torch.clamp(ratio, 1 - args.clip_coef, 1 + args.clip_coef)
                ).mean()
                newvalue = newvalue.view(-1)
                v_clipped = b_values[mb_inds] + torch.clamp(newvalue - b_values[mb_inds], -args.clip_coef, args.clip_coef)
                v_loss = 0.5 * torch.max((newvalue - b_returns[mb_inds]) ** 2, (v_clipped - b_returns[mb_inds]) ** 2).mean()
                loss = pg_loss - args.ent_coef * entropy.mean() + v_loss * args.vf_coef
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()

        sps = int(global_step / (time.time() - start_time))
        recent = np.mean(returns[-100:]) if returns else float("nan")
        print(
            f"iteration={iteration} global_step={global_step} SPS={sps} mean_return_100={recent:.3f} "
            f"approx_kl={approx_kl.item():.4f} clipfrac={np.mean(clipfracs):.3f}",
            flush=True,
        )

    envs.close()
    return {"episodes": float(len(returns)), "mean_return": float(np.mean(returns)) if returns else float("nan"), "steps": float(global_step)}


if __name__ == "__main__":
    main()
