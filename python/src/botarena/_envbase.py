"""What botarena's env classes share: pickling by settings, rendering one env of a pool, checking
keyword arguments, the render modes and the observation forms ("dict" and "flat")."""

from __future__ import annotations

import inspect
from typing import Any, Iterable, Mapping

import numpy as np
import numpy.typing as npt

from botarena.pool import Pool
from botarena.server import remember_token
from botarena.spec import GameSpec, observation_space

#: The observation forms of the env classes: a Dict of tensors, or one float32 vector.
OBSERVATIONS = ("dict", "flat")

#: The render modes of every botarena env: the game's picture and its native text.
RENDER_MODES = ["rgb_array", "ansi"]

#: The render modes of the PettingZoo and single-agent envs: "human" prints the native text.
HUMAN_RENDER_MODES = ["human", *RENDER_MODES]


class SettingsPickle:
    """Pickles an env by its constructor arguments (``self._args``), not its state.

    Unpickling calls ``__init__(**args)``: the copy is a new pool with the same
    settings on the same server, or on a new local server when the original
    started its own (``address=None``). It must be reset before its first
    step. copy.deepcopy, multiprocessing, SuperSuit and Ray copy envs this way.
    The state holds the token of the pool's client for another server.
    """

    _args: dict[str, Any]
    pool: Pool

    def _keep_settings(self, settings: dict[str, Any], config: Mapping[str, Any], *, human: bool = False) -> None:
        """Checks an env constructor's arguments and keeps them as the settings a copy is made with.

        settings holds the named arguments (``game``, ``render_mode`` and
        ``observation`` among them), config the other keywords. Raises
        ValueError for a render mode (``human`` allowed with human) or an
        observation form the env lacks, and TypeError for a config key that
        is not one of the game's (:func:`check_config`).
        """
        check_render_mode(settings["render_mode"], human=human)
        check_observation(settings["observation"])
        check_config(type(self).__name__, settings["game"], config)
        self._args = {**settings, **config}

    def __getstate__(self) -> dict[str, Any]:
        own, token = self.pool._copy_state()
        return {"args": self._args, "own_server": own, "token": token}

    def __setstate__(self, state: dict[str, Any]) -> None:
        args = dict(state["args"])
        if state["own_server"]:
            args["address"] = None
        elif args.get("address"):
            # The server's token travels with the copy (a server this
            # process started may require one the copy's process lacks).
            remember_token(args["address"], state.get("token"))
        self.__init__(**args)  # type: ignore[misc]


class SingleRender:
    """render, and the printing of ``human`` mode, of an env that shows env 0 of its pool
    (:class:`~botarena.env.BotarenaEnv`, :class:`~botarena.parallel.BotarenaParallelEnv`)."""

    pool: Pool
    render_mode: str | None

    def render(self) -> Any:
        """The game's picture (``rgb_array``), its native text (``ansi``) or None (``human`` prints it after every reset and step)."""
        if self.render_mode == "human":
            return None
        return render_env(self.pool, self.render_mode)

    def _print_human(self) -> None:
        if self.render_mode == "human":
            render_env(self.pool, "human")


def close_pool(env: object) -> None:
    """Closes env's pool (and the server it started), if its constructor got as far as making one."""
    pool = getattr(env, "pool", None)
    if pool is not None:
        pool.close()


def render_env(pool: Pool, render_mode: str | None, env: int = 0) -> Any:
    """Env env of pool in render_mode: its picture (``rgb_array``), its native text (``ansi``), or None.

    ``human`` prints the native text and returns None.
    """
    if render_mode == "rgb_array":
        return pool.render_rgb(env)
    if render_mode == "ansi":
        return pool.render(env)
    if render_mode == "human":
        print(pool.render(env), flush=True)
    return None


def check_render_mode(render_mode: str | None, *, human: bool = False) -> None:
    """Raises ValueError unless render_mode is None or one of :data:`RENDER_MODES` (or "human" if allowed)."""
    modes = (["human"] if human else []) + RENDER_MODES
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"render_mode must be None or one of {', '.join(map(repr, modes))}, got {render_mode!r}")


def check_observation(observation: str) -> None:
    """Raises ValueError unless observation is one of :data:`OBSERVATIONS`."""
    if observation not in OBSERVATIONS:
        raise ValueError(f"observation must be 'dict' or 'flat', got {observation!r}")


# Pool's own keyword parameters, which the env classes pass through with the config.
_POOL_KEYWORDS = frozenset(
    name for name, p in inspect.signature(Pool.__init__).parameters.items() if p.kind is inspect.Parameter.KEYWORD_ONLY
)


def check_config(where: str, game: str, config: Mapping[str, Any], games: Iterable[Mapping[str, Any]] | None = None) -> None:
    """Raises TypeError, as Python does for an unknown keyword, for a key of config that game lacks.

    config holds the keyword arguments an env constructor did not name: the
    game's config fields (``botarena.games.GAMES[i]["config_fields"]``) and
    :class:`~botarena.pool.Pool`'s own keywords (``workers=``, ...). A game this
    package was not generated with is left to the server, which rejects
    unknown fields with InvalidArgumentError. TorchRL's ``GymEnv`` and other
    wrappers try keywords (``frameskip=``) and drop those that raise TypeError
    with "unexpected keyword argument 'NAME'".
    """
    if games is None:
        from botarena.games import GAMES

        games = GAMES
    fields = next((g.get("config_fields") for g in games if g["name"] == game), None)
    if fields is None:
        return
    for key in config:
        if key not in fields and key not in _POOL_KEYWORDS:
            raise TypeError(
                f"{where}() got an unexpected keyword argument {key!r}: not a config field of {game} "
                f"(its fields: {', '.join(fields) or 'none'})"
            )


def tensor_names(spec: GameSpec) -> list[str]:
    """The observation tensors in the order of the Dict space (and of the flat vector)."""
    return list(observation_space(spec).spaces)


def flatten_rows(obs: Mapping[str, npt.NDArray[Any]], names: list[str], rows: int) -> npt.NDArray[np.float32]:
    """The rows of obs as float32 vectors, shape ``(rows, size)``: each tensor's row flattened, in names order.

    A new array; see :func:`botarena.spec.flat_space` for the layout.
    """
    return np.concatenate([np.asarray(obs[k]).reshape(rows, -1) for k in names], axis=1, dtype=np.float32)
