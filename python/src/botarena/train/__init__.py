"""PPO for botarena games: train, evaluate, export, watch.

A CleanRL-style PPO (CleanRL's logic, clipped objective, GAE,
advantage normalisation, invalid actions masked out of the policy) over
botarena vector envs (``make_vec``'s :class:`BotarenaVectorEnv`, one per
learner seat, :class:`SeatSplitEnv`: the learner trains in every seat, so it
plays from any), for any of the five games. The network is :class:`botarena.policy.PolicyNet`: convolutions over
the observation planes (3-D for Battle³) plus the scalars, so the trained
policy is exported as one file that ``botarena play --agents policy:PATH``
plays in Go.

Run ``python -m botarena.train --help`` (or python/examples/ppo.py, or
``make train GAME=battlebots MINUTES=10``). A run directory gets:

* ``policy.safetensors`` — the final policy (docs/policy-format.md);
* ``checkpoints/`` — a policy file and a resumable ``.pt`` every
  ``--checkpoint-every`` updates;
* ``curve.csv`` and ``curve.png`` — steps/s, episode return and win/draw/loss
  rates against the opponent, per update;
* ``eval.json`` — the evaluation over ``--eval-games`` games from each seat;
* ``gauntlet.json`` and ``gauntlet.md`` — the policy (sampling, and arg-max)
  against the game's gauntlet (``botarena tournament --gauntlet``),
  ``--gauntlet-games`` games per pairing and seating
  (:mod:`~botarena.train.gauntlet`).

With ``--self-play`` the run also keeps a league (``OUT/league``, see
:class:`botarena.League`) of the game's reference bots (its spec's
``training_opponents``):
every ``--snapshot-every`` updates the current policy is saved as a
snapshot, added to the league, rated in ``--league-games`` league games
(PFSP against the newest snapshot, or round robin), the leaderboard is
logged, and the training pool's opponents become the league's members,
snapshots and bots, weighted by PFSP from the newest snapshot's results
((1 − p)², so opponents it beats are rarely drawn). The final table goes to
``league.txt`` and ``ratings.png``.

With ``--mix`` (``GAME[*WEIGHT],...`` or a JSON list of groups, :func:`~botarena.train.config.parse_mix`)
one run trains on several games or variants that show one observation spec (Battle³'s one-task,
``tasks3`` and 2-player cubes): the envs are split over the groups by weight, each group on pools of
its own with its own config and opponents (:class:`~botarena.train.rollout.MixEnv`); the PPO update
learns from all of them at once, the curve has each group's columns (``NAME/win_rate``, ...), the
evaluation and gauntlet are per group, and the policy file's ``trained.mix`` lists the groups.

The package's modules: :mod:`~botarena.train.config` (:class:`TrainConfig`
and the per-game defaults from the game's spec, :func:`game_defaults`),
:mod:`~botarena.train.rollout` (:class:`SeatSplitEnv` and the rollout
buffer), :mod:`~botarena.train.ppo` (:class:`Trainer`, :func:`train`),
:mod:`~botarena.train.evaluate` (:func:`evaluate`, :func:`play_match`),
:mod:`~botarena.train.curve` (curve.csv, :func:`plot_curve`) and
:mod:`~botarena.train.cli` (:func:`main`, the command line).
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

# config (TrainConfig, the game defaults, the trainer's server flags) needs no PyTorch; the other
# modules do, and are imported only when one of their names is used (PEP 562), so that reading a
# game's training defaults (game_defaults) never imports torch.
from botarena.train.config import GameDefaults, TrainConfig, game_defaults, game_info

_LAZY = {
    "main": "cli",
    "plot_curve": "curve",
    "EvalResult": "evaluate",
    "evaluate": "evaluate",
    "play_match": "evaluate",
    "Trainer": "ppo",
    "train": "ppo",
    "SeatSplitEnv": "rollout",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        mod = importlib.import_module(f"botarena.train.{module}")
    except ModuleNotFoundError as e:
        if e.name not in ("torch", "matplotlib"):
            raise
        raise ModuleNotFoundError(f"botarena.train.{name} needs {e.name}: pip install -e 'python[train]'", name=e.name) from e
    value = getattr(mod, name)
    globals()[name] = value
    return value


class _Package(types.ModuleType):
    """The package's module type: a lazily exported name that is also a submodule's
    (``evaluate``, the function, in the module ``botarena.train.evaluate``) stays the name.

    The import system binds each submodule it loads to its parent's attribute, so without this
    ``from botarena.train import evaluate`` gave the module once anything had imported
    ``botarena.train.evaluate`` first (``botarena.train.cli`` does), and the function otherwise.
    """

    def __setattr__(self, name: str, value: Any) -> None:
        if _LAZY.get(name) == name and isinstance(value, types.ModuleType):
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


__all__ = [
    "EvalResult",
    "GameDefaults",
    "SeatSplitEnv",
    "TrainConfig",
    "Trainer",
    "evaluate",
    "game_defaults",
    "game_info",
    "main",
    "play_match",
    "plot_curve",
    "train",
]
