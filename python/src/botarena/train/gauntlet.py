"""The trained policy against the game's gauntlet, after training.

:func:`run_gauntlet` runs ``botarena tournament GAME --gauntlet`` with the
run's policy added twice, as trained (``trained=policy:PATH?sample``,
sampling from its action distribution) and by its arg-max
(``trained-argmax=policy:PATH``), and ``--focus trained,trained-argmax`` so
that only their pairings are played: each against the game's built-in bots
and committed policies, and the two against each other. It writes the CLI's
JSON to ``gauntlet.json`` and a readable table (:func:`render_gauntlet_md`)
to ``gauntlet.md`` beside ``eval.json``.

The tournament's seed is :func:`gauntlet_seed` of the run's seed: the run's
seed plus :data:`GAUNTLET_SEED_OFFSET` (mod 2⁶⁴). The tournament derives each
game's seed from it and the game's index (league.GameSeed), so its games
are seeded apart from the training envs (seeded from the run's seed) and
the same run seed gives the same gauntlet.

Nothing here needs PyTorch: the games run in Go.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
from collections.abc import Mapping, Sequence
from typing import Any

#: Added to the run's seed to get the gauntlet's tournament seed.
GAUNTLET_SEED_OFFSET = 0x9E3779B97F4A7C15

#: The names of the trained policy in the gauntlet, by evaluation mode.
TRAINED = {"sample": "trained", "argmax": "trained-argmax"}


def gauntlet_seed(seed: int) -> int:
    """The gauntlet's tournament seed for a run seeded seed (see the module)."""
    return (seed + GAUNTLET_SEED_OFFSET) % (1 << 64)


def gauntlet_command(
    binary: str, policy: str | pathlib.Path, game: str, *, games: int, seed: int, config: Mapping[str, Any] | None = None
) -> list[str]:
    """The ``botarena tournament`` command line of :func:`run_gauntlet`."""
    path = pathlib.Path(policy).resolve()
    cmd = [
        binary,
        "tournament",
        game,
        "--gauntlet",
        "--agents",
        f"{TRAINED['sample']}=policy:{path}?sample,{TRAINED['argmax']}=policy:{path}",
        "--focus",
        ",".join(TRAINED.values()),
        "--games",
        str(games),
        "--seed",
        str(gauntlet_seed(seed)),
        "--json",
    ]
    if config:
        cmd += ["--config", json.dumps(dict(config))]
    return cmd


def run_gauntlet(
    policy: str | pathlib.Path,
    game: str,
    out: str | pathlib.Path,
    *,
    games: int,
    seed: int,
    config: Mapping[str, Any] | None = None,
    binary: str | None = None,
    cwd: str | pathlib.Path | None = None,
) -> dict[str, Any]:
    """Plays policy against game's gauntlet, writes OUT/gauntlet.json and OUT/gauntlet.md, returns the table.

    games is the number of games per pairing and seating (``--games``); the
    tournament runs in cwd (by default the source checkout's root when there
    is one, where ``--gauntlet`` finds the committed policies, else the
    working directory). Raises :class:`RuntimeError` with the CLI's stderr if
    it fails.
    """
    from botarena.server import find_binary, repo_root

    cmd = gauntlet_command(binary or find_binary(), policy, game, games=games, seed=seed, config=config)
    if cwd is None:
        cwd = repo_root()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[1:4])} ... exited {proc.returncode}: {proc.stderr.strip()}")
    table = json.loads(proc.stdout)
    out = pathlib.Path(out)
    (out / "gauntlet.json").write_text(json.dumps(table, indent=2) + "\n")
    (out / "gauntlet.md").write_text(render_gauntlet_md(table))
    return table


def _rows(table: Mapping[str, Any], trained: Sequence[str]) -> list[tuple[str, str, Mapping[str, Any], Mapping[str, Any]]]:
    """(agent, opponent, pair, agent's side) for each pairing of an agent in trained, in the table's order."""
    rows = []
    for pair in table["pairs"]:
        for k in (0, 1):
            if pair["agents"][k] in trained:
                rows.append((pair["agents"][k], pair["agents"][1 - k], pair, pair["sides"][k]))
                break
    return rows


def format_actions(actions: Mapping[str, float] | None) -> str:
    """Actions by kind as ``"nothing 0, move 6, bomb 0.5"`` (one decimal at most, every kind, in the game's order); "-" for none.

    The kinds are the game's own (``mean_actions`` of the tournament's
    JSON, ``actions`` of a result's leaderboard entry; docs/recording-format.md
    lists them), so a kind the bot never used shows as 0.
    """
    if not actions:
        return "-"
    return ", ".join(f"{kind} {n:.1f}".removesuffix(".0") for kind, n in actions.items())


def format_deaths(deaths: Mapping[str, int] | None, games: int | None = None) -> str:
    """Deaths by cause as ``"18 of 20: own bomb 15, opponent's bomb 3"`` (with ``games``, the seats
    played) or ``"own bomb 15, opponent's bomb 3"``, causes with none left out, in the game's order;
    ``"none"`` when nobody died, "-" when the game does not say how its players end.

    The causes are the game's own (``deaths`` and ``loser_deaths`` of the tournament's JSON;
    docs/recording-format.md lists them).
    """
    if deaths is None:
        return "-"
    died = {cause: n for cause, n in deaths.items() if n}
    total = sum(died.values())
    if not total:
        return "none" if games is None else f"0 of {games}"
    listed = ", ".join(f"{cause} {n}" for cause, n in died.items())
    return listed if games is None else f"{total} of {games}: {listed}"


def render_gauntlet_md(table: Mapping[str, Any], trained: Sequence[str] | None = None) -> str:
    """A Markdown table of a ``botarena tournament --json`` table, one row per pairing of a trained agent.

    trained names the agents whose results are shown (by default the
    table's focus, else its first agent): per pairing the agent, the
    opponent, W/D/L, the win rate with its 95% Wilson interval, the mean
    points of both sides (the game's own score), the distinct endings, the
    mean game length, and both sides' mean actions per game by kind
    (:func:`format_actions`), so that a bot that never bombs or never moves
    shows beside its win rate; for a game that says how its players end,
    also the agent's deaths by cause and, in its wins, how the losers died
    (:func:`format_deaths`), so that wins by the opponent's own bomb show.
    """
    if trained is None:
        trained = table.get("focus") or [table["agents"][0]["agent"]]
    lines = [
        f"# {table['game']}: gauntlet",
        "",
        f"Seed {table['seed']}, {table['games_per_seating']} games per pairing and seating, {table['seats']} seats"
        + (f", at most {table['max_rounds']} rounds" if table.get("max_rounds") else "")
        + ". Win rate: wins/games (a draw is not a win), with its 95% Wilson interval. Length: mean rounds per game."
        + " Actions: mean actions per game by kind, whether or not the rules let them take effect.",
        "",
        "| agent | opponent | games | W/D/L | win rate | 95% interval | mean points | opponent's mean points | distinct endings | length | actions | opponent's actions |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    rows = _rows(table, trained)
    deaths = any("deaths" in side for _, _, _, side in rows)
    if deaths:
        lines[2] += " Died: the agent's deaths by cause over its seats. Its wins' losers died by: how the other agent died in the agent's wins."
        lines[-2] += " died | its wins' losers died by |"
        lines[-1] += "---|---|"
    for agent, opponent, pair, side in rows:
        other = pair["sides"][1] if pair["sides"][0] is side else pair["sides"][0]
        lo, hi = side["win_rate_95"]
        line = (
            f"| {agent} | {opponent} | {pair['games']} | {side['wins']}/{side['draws']}/{side['losses']} | "
            f"{100 * side['win_rate']:.1f}% | [{100 * lo:.1f}%, {100 * hi:.1f}%] | {side['mean_points']:.2f} | "
            f"{other['mean_points']:.2f} | {pair['distinct_endings']} | {pair['mean_rounds']:.1f} | "
            f"{format_actions(side.get('mean_actions'))} | {format_actions(other.get('mean_actions'))} |"
        )
        if deaths:
            line += f" {format_deaths(side.get('deaths'), side.get('seat_games'))} | {format_deaths(side.get('loser_deaths'))} |"
        lines.append(line)
    return "\n".join(lines) + "\n"


def gauntlet_scalars(table: Mapping[str, Any], trained: Sequence[str] | None = None) -> dict[str, float]:
    """The tracker's scalars of a gauntlet: ``gauntlet/AGENT/OPPONENT/win_rate`` (and draw and loss rates),
    ``.../length`` (mean rounds per game) and ``.../actions/KIND`` (the agent's mean actions of each kind per game)."""
    if trained is None:
        trained = table.get("focus") or [table["agents"][0]["agent"]]
    out: dict[str, float] = {}
    for agent, opponent, pair, side in _rows(table, trained):
        tag = f"gauntlet/{agent}/{opponent}"
        out[f"{tag}/win_rate"] = side["win_rate"]
        out[f"{tag}/draw_rate"] = side["draws"] / pair["games"]
        out[f"{tag}/loss_rate"] = side["losses"] / pair["games"]
        out[f"{tag}/length"] = pair["mean_rounds"]
        for kind, n in (side.get("mean_actions") or {}).items():
            out[f"{tag}/actions/{kind}"] = n
        seats = side.get("seat_games") or 0
        for cause, n in (side.get("deaths") or {}).items():
            if seats:
                out[f"{tag}/died/{cause}"] = n / seats
    return out
