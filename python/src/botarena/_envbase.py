"""What botarena's env classes share: pickling by settings and rendering one env of a pool."""

from __future__ import annotations

from typing import Any

from botarena.pool import Pool


class SettingsPickle:
    """Pickles an env by its constructor arguments (``self._args``), not its state.

    Unpickling calls ``__init__(**args)``: the copy is a new pool with the same
    settings on the same server, or on a new local server when the original
    started its own (``address=None``). It must be reset before its first
    step. copy.deepcopy, multiprocessing, SuperSuit and Ray copy envs this way.
    """

    _args: dict[str, Any]
    pool: Pool

    def __getstate__(self) -> dict[str, Any]:
        return {"args": self._args, "own_server": self.pool._server is not None}

    def __setstate__(self, state: dict[str, Any]) -> None:
        args = dict(state["args"])
        if state["own_server"]:
            args["address"] = None
        self.__init__(**args)  # type: ignore[misc]


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
