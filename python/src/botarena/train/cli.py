"""The command line, ``python -m botarena.train``: train (or load) a policy, evaluate it, play a match."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import pathlib
import sys
from typing import Any, Sequence

from botarena.policy import load_policy
from botarena.train.config import DEFAULT_ENT_COEF, DEFAULT_GAMMA, MixGroup, TrainConfig, game_info, parse_mix, parse_opponents
from botarena.train.evaluate import evaluate, play_match
from botarena.train.gauntlet import gauntlet_scalars, run_gauntlet
from botarena.train.imitate import parse_action_range
from botarena.train.curve import read_curve
from botarena.train.ppo import train
from botarena.train.track import Tracker, open_tracker

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    d = TrainConfig()
    p = argparse.ArgumentParser(
        prog="python -m botarena.train",
        description="Train a PPO bot for a botarena game against a built-in (or external, or policy:) opponent, "
        "evaluate it, export it as a policy file Go can play (policy:PATH), and show a match.",
    )
    p.add_argument("--game", default="", help=f"(default {d.game}; with --evaluate, the policy's game) registry name: battlebots, bomberman/2p, battleships/small, battlecube/2p, portalbomber, ...")
    p.add_argument(
        "--opponent",
        default="",
        help="agent for the other seats (default: the game's reference bot, as `botarena games GAME` shows), or a mixture "
        "drawn at each episode start, AGENT[*WEIGHT],... (sniper*2,nop,huggy); after training the policy is evaluated "
        "against each",
    )
    p.add_argument(
        "--config", default="{}", help="game config as JSON, e.g. '{\"hp_reward\": 0.1}' (with --evaluate and neither --game nor --config: the policy's)"
    )
    p.add_argument(
        "--mix",
        default="",
        metavar="GROUPS",
        help="train on several games or variants at once, the envs split by weight, each group on its own pools: GAME[*WEIGHT],... "
        "(battlecube*2,battlecube/tasks3), the run's --opponent and --config in each; or a JSON list of objects with keys game, "
        "weight, opponent, config (laid over --config), imitate (this group's teacher for --imitate, \"\" for none) and name "
        "(its curve columns NAME/win_rate, ...). Every group must show one observation spec; evaluation and gauntlet per group. "
        "Not with --game or --self-play",
    )
    p.add_argument("--minutes", type=float, default=d.minutes, help="training time budget (0: none)")
    p.add_argument("--total-steps", type=int, default=d.total_steps, help="learner steps budget (0: none)")
    p.add_argument("--num-envs", type=int, default=d.num_envs)
    p.add_argument("--num-steps", type=int, default=d.num_steps, help="rollout length per env and update")
    p.add_argument("--lr", type=float, default=d.lr)
    p.add_argument("--no-anneal-lr", dest="anneal_lr", action="store_false")
    p.add_argument("--gamma", type=float, default=None, help=f"discount (default: the game's training default, `botarena games GAME`, else {DEFAULT_GAMMA})")
    p.add_argument("--gae-lambda", type=float, default=d.gae_lambda)
    p.add_argument("--update-epochs", type=int, default=d.update_epochs)
    p.add_argument("--minibatches", type=int, default=d.minibatches)
    p.add_argument("--clip", type=float, default=d.clip)
    p.add_argument("--ent-coef", type=float, default=None, help=f"entropy coefficient (default: the game's training default, else {DEFAULT_ENT_COEF})")
    p.add_argument("--vf-coef", type=float, default=d.vf_coef)
    p.add_argument(
        "--value-warmup",
        type=int,
        default=d.value_warmup,
        metavar="N",
        help="the run's first N PPO updates (counted from update 1, so a resumed run past N has none) train the value head alone: "
        "its loss only, every other weight frozen, the policy unchanged; for a policy from --init whose value head does not "
        "know its returns (a behaviour clone). 0: off",
    )
    p.add_argument("--max-grad-norm", type=float, default=d.max_grad_norm)
    p.add_argument("--channels", default="", help="conv channels, comma separated (default: the game's training defaults, `botarena games GAME`)")
    p.add_argument("--strides", default="", help="conv strides, comma separated (default: per game, or 1s with --channels)")
    p.add_argument("--hidden", type=int, default=0, help="trunk width (default: per game)")
    p.add_argument(
        "--head",
        default=d.head,
        choices=["auto", "flat", "factored", "factored-per-command"],
        help="policy head: factored (command, then cell) where the game's spec factors its actions (auto), or one flat softmax",
    )
    p.add_argument("--seed", type=int, default=d.seed)
    p.add_argument("--device", default=d.device, help="auto, cpu, cuda, cuda:1, ...")
    p.add_argument("--threads", type=int, default=d.threads, help="torch CPU threads (0: the cores free when the run starts: the cores it may use less the 1-minute load average, at least 1)")
    p.add_argument(
        "--overlap",
        action="store_true",
        help="collect the next rollout while the update runs, with the weights from before the update "
        "(the rollout lags one update behind; PPO's clipped ratio corrects for it)",
    )
    p.add_argument(
        "--backend",
        default=d.backend,
        choices=["auto", "remote", "native"],
        help="where the rollout's envs step: remote (the trainer's server), native (in this process, the native library); "
        "auto: native with a GPU device, else remote",
    )
    p.add_argument(
        "--bf16",
        action="store_true",
        help="run the update's convolutions and trunk in bfloat16 autocast, the heads in float32 (several times faster matrix "
        "products on CPUs with AMX or AVX-512 BF16, and on GPUs; the rollout stays float32). Ignored, with a notice, on a CPU "
        "whose /proc/cpuinfo lists neither avx512_bf16 nor amx_bf16, where autocast emulates bfloat16 and the update ran ~7x slower",
    )
    p.add_argument(
        "--skip-forced",
        action="store_true",
        help="leave the steps on which the learner had one legal action (the other seat's turn in a game of alternating "
        "moves, such as portalbomber) out of the update; they carry no policy gradient, and GAE still uses them",
    )
    p.add_argument("--out", default="", help="run directory (default runs/<game>)")
    p.add_argument("--checkpoint-every", type=int, default=d.checkpoint_every, help="updates between checkpoints")
    p.add_argument(
        "--eval-games", type=int, default=d.eval_games, help="evaluation games after training from each seat, in every mode (0: skip)"
    )
    p.add_argument(
        "--gauntlet-games",
        type=int,
        default=d.gauntlet_games,
        metavar="N",
        help="after training, play the policy (sampling, and arg-max) against the game's gauntlet (botarena tournament "
        "--gauntlet), N games per pairing and seating, seeded from --seed apart from training; writes OUT/gauntlet.json "
        "and OUT/gauntlet.md (0: skip)",
    )
    p.add_argument(
        "--eval-temperature",
        type=float,
        default=0.0,
        metavar="T",
        help="also evaluate sampling at temperature T (policy:PATH?temp=T in Go), besides sample and arg-max",
    )
    p.add_argument(
        "--resume",
        default="",
        help="continue from a checkpoints/update_N.pt; auto: from the run directory's newest one, if any (so that the same "
        "command restarted after an interruption continues)",
    )
    p.add_argument("--init", default="", metavar="POLICY", help="start from this policy file's architecture and weights (not with --resume)")
    p.add_argument("--address", default="", help="host:port of a running botarena serve (default: start one)")
    p.add_argument("--learner-seats", default="", help="seats the learner trains in, envs split evenly (default: every seat)")
    p.add_argument("--evaluate", default="", metavar="POLICY", help="skip training: evaluate this policy file (and --play it)")
    p.add_argument("--play", action="store_true", help="after training, play one match of the trained bot on the terminal")
    p.add_argument("--quiet", action="store_true")
    p.add_argument(
        "--track",
        default="",
        metavar="KINDS",
        help="experiment tracking, comma separated: tensorboard (event files in OUT/tb), wandb (pip install 'botarena[wandb]'); "
        "each update's curve row as train/*, the evaluation as eval/*",
    )
    im = p.add_argument_group(
        "imitation", "start from a network fitted to a built-in agent's games (botarena.train.imitate), then PPO"
    )
    im.add_argument("--imitate", default="", metavar="AGENT", help="the agent to imitate, e.g. greedy (`botarena games GAME` lists them)")
    im.add_argument("--imitate-games", type=int, default=d.imitate_games, help="its games against the --opponent mixture (shared by weight), over every seat")
    im.add_argument("--imitate-epochs", type=int, default=d.imitate_epochs, help="passes over its decisions (0: no clone, the network keeps its start; with --imitate-coef, the decisions serve its term alone)")
    alone = "in games of more than two seats, seat the teacher (and the DAgger student) once a game, against copies of the opponent in every other seat (default: a league of the two, which seats it 2-3 times in a 4-player game)"
    im.add_argument("--imitate-alone", action="store_true", help=alone)
    im.add_argument(
        "--imitate-actions",
        default=d.imitate_actions,
        metavar="LO:HI",
        help="imitate only the teacher's decisions whose action index is in [LO, HI) (`botarena rules GAME` numbers them), "
        "e.g. a Battleships teacher's shots and not its fleet (default: every decision)",
    )
    im.add_argument("--imitate-lr", type=float, default=d.imitate_lr, help="learning rate while imitating")
    im.add_argument(
        "--dagger-rounds",
        type=int,
        default=d.dagger_rounds,
        help="after the clone, rounds of DAgger: the clone plays --dagger-games games (dagger:AGENT:policy:CLONE), "
        "AGENT labels each of its states with what it would have done, and the clone is refitted on all decisions so far",
    )
    im.add_argument("--dagger-games", type=int, default=d.dagger_games, help="the clone's games a DAgger round, shared over the --opponent mixture by weight, over every seat")
    im.add_argument("--dagger-epochs", type=int, default=d.dagger_epochs, help="passes over all decisions so far after each DAgger round")
    im.add_argument(
        "--imitate-coef",
        type=float,
        default=d.imitate_coef,
        help="keep imitating during PPO: add this × the cross-entropy on a minibatch of the agent's decisions to each PPO minibatch (0: off)",
    )
    sp = p.add_argument_group("self-play", "train against a league of the policy's snapshots and the game's reference bots")
    sp.add_argument("--self-play", action="store_true", help="keep a league (OUT/league) and train against PFSP-weighted members")
    sp.add_argument("--snapshot-every", type=int, default=d.snapshot_every, help="updates between snapshots added to the league")
    sp.add_argument("--league", default="", help="league directory (default OUT/league; an existing league is continued)")
    sp.add_argument("--league-games", type=int, default=d.league_games, help="league games after each snapshot")
    sp.add_argument("--league-match", default=d.league_match, choices=["pfsp", "round-robin"], help="pfsp: the newest snapshot against PFSP-drawn opponents")
    sp.add_argument("--league-bots", default="", help="fixed league members, comma separated (default: the game's training opponents, `botarena games GAME`)")
    sp.add_argument("--pfsp-k", type=int, default=d.pfsp_k, help="league members kept in the training mixture, the heaviest (0: all)")
    sp.add_argument("--snapshot-keep", type=int, default=d.snapshot_keep, help="the newest snapshots in the training mixture (0: all)")
    share = "the most weight the snapshots get together in the training mixture, the rest going to the fixed members"
    sp.add_argument("--snapshot-share", type=float, default=d.snapshot_share, help=share)
    return p


def _policy_game(policy: str) -> str:
    """The game a policy file was trained on, or the default game without one."""
    if policy:
        return str(load_policy(policy).arch["game"])
    return TrainConfig().game


def _items(flag: str) -> tuple[str, ...]:
    """The items of a comma-separated flag, spaces stripped, empty ones dropped."""
    return tuple(k.strip() for k in flag.split(",") if k.strip())


def _train_config(args: argparse.Namespace, game: str, config: dict[str, Any]) -> TrainConfig:
    """The run's settings from the parsed flags: each :class:`TrainConfig` field is the flag of its name
    (the parser has one for every field), the comma-separated ones split into tuples, the output folder
    defaulting to ``runs/<game>``."""
    flags = {f.name: getattr(args, f.name) for f in dataclasses.fields(TrainConfig)}
    ints = {name: tuple(int(c) for c in _items(flags[name])) for name in ("channels", "strides", "learner_seats")}
    return TrainConfig(
        **{
            **flags,
            **ints,
            "game": game,
            "config": config,
            "out": args.out or os.path.join("runs", game.replace("/", "-")),
            "track": _items(args.track),
            "league_bots": _items(args.league_bots),
        }
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Runs ``python -m botarena.train`` with ``argv`` (default: sys.argv[1:]) and returns its exit status."""
    args = _parser().parse_args(argv)
    try:
        config = json.loads(args.config)
    except json.JSONDecodeError as e:
        print(f"botarena.train: --config is not JSON: {e}", file=sys.stderr)
        return 2
    if not isinstance(config, dict):
        print("botarena.train: --config must be a JSON object", file=sys.stderr)
        return 2
    try:
        mix = parse_mix(args.mix)
    except ValueError as e:
        print(f"botarena.train: --mix: {e}", file=sys.stderr)
        return 2
    if mix and (args.game or args.self_play or args.evaluate):
        print("botarena.train: --mix names the games: not with --game, --self-play or --evaluate", file=sys.stderr)
        return 2
    game = mix[0].game if mix else args.game or _policy_game(args.evaluate)
    if args.evaluate and not config and not args.game:
        # The policy's own config: a field may shape its observations (bomberman's view_radius).
        config = dict(load_policy(args.evaluate).arch.get("config") or {})
    cfg = _train_config(args, game, config)
    try:
        parse_opponents(args.opponent or "random")
    except ValueError as e:
        print(f"botarena.train: --opponent: {e}", file=sys.stderr)
        return 2
    try:
        parse_action_range(args.imitate_actions)
    except ValueError as e:
        print(f"botarena.train: --imitate-actions: {e}", file=sys.stderr)
        return 2
    if (args.imitate or any(g.imitate for g in mix)) and (
        args.imitate_games < 1
        or args.imitate_epochs < 0
        or (args.imitate_epochs == 0 and not args.imitate_coef > 0)
        or not args.imitate_lr > 0
        or not args.imitate_coef >= 0
    ):
        print(
            "botarena.train: --imitate-games must be at least 1, --imitate-epochs at least 1 (or 0, no clone, with --imitate-coef above 0), "
            "--imitate-lr above 0, --imitate-coef 0 or more",
            file=sys.stderr,
        )
        return 2
    if args.dagger_rounds < 0 or (args.dagger_rounds and (not args.imitate or args.dagger_games < 1 or args.dagger_epochs < 1)):
        print("botarena.train: --dagger-rounds needs --imitate AGENT, and --dagger-games and --dagger-epochs at least 1", file=sys.stderr)
        return 2
    if args.value_warmup < 0:
        print("botarena.train: --value-warmup must be 0 or more", file=sys.stderr)
        return 2
    if args.evaluate:
        cfg = dataclasses.replace(cfg, out=args.out or str(pathlib.Path(args.evaluate).parent))
    elif not cfg.minutes and not cfg.total_steps:
        print("botarena.train: give a budget: --minutes or --total-steps", file=sys.stderr)
        return 2
    cfg = cfg.resolved()
    try:
        tracker = open_tracker(cfg.track, cfg.out, dataclasses.asdict(cfg))
    except (ValueError, RuntimeError) as e:
        print(f"botarena.train: --track: {e}", file=sys.stderr)
        return 2
    try:
        return _run(args, cfg, pathlib.Path(args.evaluate) if args.evaluate else None, tracker)
    finally:
        tracker.close()


def _run(args: argparse.Namespace, cfg: TrainConfig, policy: pathlib.Path | None, tracker: Tracker) -> int:
    """Trains (unless policy is given), evaluates and plays, as main's arguments say."""
    step = 0
    if policy is None:
        policy = train(cfg, tracker)
        rows = read_curve(pathlib.Path(cfg.out) / "curve.csv") if (pathlib.Path(cfg.out) / "curve.csv").exists() else []
        step = int(rows[-1]["env_steps"]) if rows else 0
    groups = cfg.groups()
    if cfg.eval_games > 0 and cfg.mix:
        mixed = {"mix": cfg.mix, "policy": str(policy), "groups": {g.name: _evaluate_group(args, cfg, g, policy, step, tracker) for g in groups}}
        with open(pathlib.Path(cfg.out) / "eval.json", "w") as f:
            json.dump(mixed, f, indent=2)
            f.write("\n")
    elif cfg.eval_games > 0:
        mixture = cfg.opponents()
        seats = game_info(cfg.game, cfg.address or None).spec.seats
        games = cfg.eval_games * seats
        # Evaluation is on the unshaped game: the config's shaping terms are dropped. The policy is
        # evaluated as trained (sampling from its action distribution, policy:PATH?sample in Go)
        # and by its arg-max (policy:PATH), which can be much weaker: a deterministic bot can loop.
        # A mixture's agents are each evaluated alone.
        eval_cfg = cfg.unshaped_config()
        modes: list[tuple[str, bool, float]] = [("sample", True, 1.0), ("argmax", False, 1.0)]
        if args.eval_temperature > 0:
            modes.append((f"temp={args.eval_temperature:g}", True, args.eval_temperature))
        reports: dict[str, dict[str, Any]] = {}
        for opp, _ in mixture:
            reports[opp] = {}
            for mode, sample, temp in modes:
                print(f"evaluating {policy} against {opp} over {games} games, {cfg.eval_games} from each seat ({mode}) ...", flush=True)
                r = evaluate(
                    policy, cfg.game, opp, games=games, address=cfg.address or None, config=eval_cfg, sample=sample, temperature=temp
                )
                print(
                    f"eval ({mode}): {r.wins} wins, {r.draws} draws, {r.losses} losses in {r.games} games against {opp}: "
                    f"win rate {r.win_rate:.1%}; by seat (W/D/L): "
                    + ", ".join(f"{k}: {w}/{d}/{l}" for k, (w, d, l) in sorted(r.by_seat.items())),
                    flush=True,
                )
                reports[opp][mode] = {**dataclasses.asdict(r), "win_rate": r.win_rate}
                tag = f"eval/{opp}/{mode}"
                tracker.scalars(
                    step,
                    {f"{tag}/win_rate": r.win_rate, f"{tag}/wins": r.wins, f"{tag}/draws": r.draws, f"{tag}/losses": r.losses, f"{tag}/games": r.games},
                )
        report: dict[str, Any] = {"game": cfg.game, "policy": str(policy), "opponent": cfg.resolved_opponent()}
        if len(mixture) == 1:
            report.update(reports[mixture[0][0]])
        else:
            report["opponents"] = reports
        with open(pathlib.Path(cfg.out) / "eval.json", "w") as f:
            json.dump(report, f, indent=2)
            f.write("\n")
    if cfg.gauntlet_games > 0:
        # With --mix, each group's gauntlet in OUT/gauntlet-NAME (its game and config).
        for g in groups if cfg.mix else [MixGroup(game=cfg.game, config=cfg.config)]:
            out = pathlib.Path(cfg.out) / ("gauntlet-" + g.name.replace("/", "-").replace("#", "-") if cfg.mix else "")
            out.mkdir(parents=True, exist_ok=True)
            print(f"playing {policy} against the {g.game} gauntlet, {cfg.gauntlet_games} games per pairing and seating ...", flush=True)
            unshaped = {k: v for k, v in g.config.items() if not k.endswith("_reward")}
            try:
                table = run_gauntlet(policy, g.game, str(out), games=cfg.gauntlet_games, seed=cfg.seed, config=unshaped)
            except RuntimeError as e:
                print(f"botarena.train: gauntlet: {e}", file=sys.stderr)
                return 1
            print((out / "gauntlet.md").read_text(), end="", flush=True)
            scalars = gauntlet_scalars(table)
            if cfg.mix:
                scalars = {k.replace("gauntlet/", f"gauntlet/{g.name}/", 1): v for k, v in scalars.items()}
            tracker.scalars(step, scalars)
    if args.play:
        play_match(policy, groups[0].game, parse_opponents(groups[0].opponent)[0][0], seed=cfg.seed)
    return 0


def _evaluate_group(args: argparse.Namespace, cfg: TrainConfig, g: MixGroup, policy: pathlib.Path, step: int, tracker: Tracker) -> dict[str, Any]:
    """--mix's evaluation of one group: the policy against each of the group's opponents alone, in
    its game and unshaped config, --eval-games from each seat, sampling and arg-max (and
    --eval-temperature); the report of eval.json's ``groups[NAME]``."""
    seats = game_info(g.game, cfg.address or None).spec.seats
    games = cfg.eval_games * seats
    unshaped = {k: v for k, v in g.config.items() if not k.endswith("_reward")}
    modes: list[tuple[str, bool, float]] = [("sample", True, 1.0), ("argmax", False, 1.0)]
    if args.eval_temperature > 0:
        modes.append((f"temp={args.eval_temperature:g}", True, args.eval_temperature))
    reports: dict[str, dict[str, Any]] = {}
    for opp, _ in parse_opponents(g.opponent):
        reports[opp] = {}
        for mode, sample, temp in modes:
            print(f"evaluating {policy} in {g.name} against {opp} over {games} games, {cfg.eval_games} from each seat ({mode}) ...", flush=True)
            r = evaluate(policy, g.game, opp, games=games, address=cfg.address or None, config=unshaped, sample=sample, temperature=temp)
            print(
                f"eval {g.name} ({mode}): {r.wins} wins, {r.draws} draws, {r.losses} losses in {r.games} games against {opp}: "
                f"win rate {r.win_rate:.1%}; by seat (W/D/L): " + ", ".join(f"{k}: {w}/{d}/{l}" for k, (w, d, l) in sorted(r.by_seat.items())),
                flush=True,
            )
            reports[opp][mode] = {**dataclasses.asdict(r), "win_rate": r.win_rate}
            tag = f"eval/{g.name}/{opp}/{mode}"
            tracker.scalars(step, {f"{tag}/win_rate": r.win_rate, f"{tag}/wins": r.wins, f"{tag}/draws": r.draws, f"{tag}/losses": r.losses, f"{tag}/games": r.games})
    return {"game": g.game, "config": unshaped, "opponent": g.opponent, "opponents": reports}
