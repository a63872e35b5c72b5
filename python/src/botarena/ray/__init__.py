"""botarena on a Ray cluster (``pip install "botarena[ray]"``).

* Distributed sampling: :class:`RaySampler` runs a
  :class:`~botarena.rollout.PoolSampler` (a pool and a policy) in each of
  ``num_actors`` Ray actors and returns batched
  :class:`~botarena.rollout.Rollout`s, the same as local samplers of the same
  seed; :class:`RayVectorEnv` is a Gymnasium vector env over many actors'
  pools, for a learner on the driver.
* RLlib: :mod:`botarena.ray.rllib` gives RLlib's EnvRunners one botarena pool
  each (a whole batch of envs per step call) through Gymnasium's vector entry
  point.
* Leagues: :func:`start_servers` puts a ``botarena serve`` on every node and
  :func:`run_league` runs the league's coordinator on the driver against
  them (``python -m botarena.ray league DIR --games N --address ADDR``).
  Results equal a local run's; a node lost mid-run costs no game.
* :class:`~botarena.ray.cluster.LocalCluster` starts and stops a Ray cluster
  of several nodes on this machine (tests, benchmarks).

Each actor's pool uses a local ``botarena serve`` on the actor's node by
default (``backend=`` reaches :class:`~botarena.Pool` unchanged), found by
:func:`botarena.server.find_binary` on that node: install botarena there too.
docs/scale-out.md has the model and the measured figures.
"""

from __future__ import annotations

try:
    import ray as _ray  # noqa: F401
except ImportError as e:  # pragma: no cover - exercised without the extra
    raise ImportError(f"botarena.ray needs Ray: pip install 'botarena[ray]' ({e})") from e

from botarena.ray.league import LeagueRun, ServerGroup, ServerResult, run_league, start_servers
from botarena.ray.sampling import RaySampler, RayVectorEnv, node_address
from botarena.rollout import PoolSampler, Rollout, random_policy, sampler_seeds

__all__ = [
    "LeagueRun",
    "PoolSampler",
    "RaySampler",
    "RayVectorEnv",
    "Rollout",
    "ServerGroup",
    "ServerResult",
    "node_address",
    "random_policy",
    "run_league",
    "sampler_seeds",
    "start_servers",
]
