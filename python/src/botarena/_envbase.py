"""What botarena's env classes share: pickling by settings and rendering one env of a pool."""

from __future__ import annotations

from typing import Any

from botarena.pool import Pool
from botarena.server import remember_token


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

    def __getstate__(self) -> dict[str, Any]:
        own = self.pool._server is not None
        client = getattr(self.pool, "client", None)
        token = None if own or client is None else client._token
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
