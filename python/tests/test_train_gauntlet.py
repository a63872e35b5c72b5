"""The gauntlet table of botarena.train (botarena.train.gauntlet), from a canned tournament: no PyTorch, no Go."""

from __future__ import annotations

import json

from botarena.train.gauntlet import (
    GAUNTLET_SEED_OFFSET,
    format_actions,
    format_deaths,
    gauntlet_command,
    gauntlet_scalars,
    gauntlet_seed,
    render_gauntlet_md,
)

# The output of `botarena tournament battlebots --agents sniper,huggy --games 2 --json --seed 1`: sniper fires a
# missile every round, huggy walks to it.
CANNED = json.loads(
    """{"game":"battlebots","seed":1,"seats":2,"games_per_seating":2,"max_rounds":0,"agents":[{"agent":"sniper","spec":"sniper"},{"agent":"huggy","spec":"huggy"}],"pairs":[{"agents":["sniper","huggy"],"games":4,"draws":0,"sides":[{"agent":"sniper","wins":4,"draws":0,"losses":0,"win_rate":1,"win_rate_95":[0.5101091635454027,1],"mean_points":9,"faults":0,"fault_kinds":{"timed_out":0,"crashed":0,"invalid":0},"forfeits":0,"mean_actions":{"nothing":0,"move":0,"bullet":0,"missile":6,"mine":0,"emp":0}},{"agent":"huggy","wins":0,"draws":0,"losses":4,"win_rate":0,"win_rate_95":[0,0.4898908364545973],"mean_points":-2,"faults":0,"fault_kinds":{"timed_out":0,"crashed":0,"invalid":0},"forfeits":0,"mean_actions":{"nothing":0,"move":6,"bullet":0,"missile":0,"mine":0,"emp":0}}],"distinct_endings":2,"mean_rounds":6,"seatings":[{"seats":["sniper","huggy"],"games":2,"wins":[2,0],"draws":0,"distinct_endings":1,"first_index":0,"first_seed":627405149472732430},{"seats":["huggy","sniper"],"games":2,"wins":[2,0],"draws":0,"distinct_endings":1,"first_index":2,"first_seed":16171810823986729605}]}]}"""
)


def test_the_table_has_a_row_per_pairing_of_the_trained_agent() -> None:
    md = render_gauntlet_md(CANNED, ["sniper"])
    lines = md.splitlines()
    assert lines[0] == "# battlebots: gauntlet"
    assert "Seed 1, 2 games per pairing and seating, 2 seats." in md
    assert lines[-2].startswith("|---")
    assert lines[-1] == (
        "| sniper | huggy | 4 | 4/0/0 | 100.0% | [51.0%, 100.0%] | 9.00 | -2.00 | 2 | 6.0 | "
        "nothing 0, move 0, bullet 0, missile 6, mine 0, emp 0 | nothing 0, move 6, bullet 0, missile 0, mine 0, emp 0 |"
    )


def test_the_table_shows_the_trained_agent_on_either_side_of_a_pairing() -> None:
    (row,) = [line for line in render_gauntlet_md(CANNED, ["huggy"]).splitlines() if line.startswith("| huggy")]
    assert row.startswith("| huggy | sniper | 4 | 0/0/4 | 0.0% | [0.0%, 49.0%] | -2.00 | 9.00 | 2 | 6.0 | nothing 0, move 6, bullet 0,")


def test_actions_show_every_kind_in_the_games_order() -> None:
    assert format_actions({"nothing": 3.25, "move": 40, "bomb": 0}) == "nothing 3.2, move 40, bomb 0"
    assert format_actions(None) == format_actions({}) == "-"


def test_a_table_from_before_actions_were_counted_still_renders() -> None:
    old = json.loads(json.dumps(CANNED))
    for pair in old["pairs"]:
        for side in pair["sides"]:
            del side["mean_actions"]
    assert render_gauntlet_md(old, ["sniper"]).splitlines()[-1].endswith("| 2 | 6.0 | - | - |")


def test_without_a_focus_the_first_agent_is_the_trained_one() -> None:
    assert render_gauntlet_md(CANNED) == render_gauntlet_md(CANNED, ["sniper"])
    assert render_gauntlet_md({**CANNED, "focus": ["huggy"]}) == render_gauntlet_md(CANNED, ["huggy"])


def test_the_tracker_gets_each_opponents_rates() -> None:
    assert gauntlet_scalars(CANNED, ["sniper"]) == {
        "gauntlet/sniper/huggy/win_rate": 1.0,
        "gauntlet/sniper/huggy/draw_rate": 0.0,
        "gauntlet/sniper/huggy/loss_rate": 0.0,
        "gauntlet/sniper/huggy/length": 6,
        **{f"gauntlet/sniper/huggy/actions/{k}": 6 if k == "missile" else 0 for k in ("nothing", "move", "bullet", "missile", "mine", "emp")},
    }


def test_the_command_plays_both_modes_against_the_gauntlet_on_a_seed_apart_from_training() -> None:
    cmd = gauntlet_command("botarena", "/runs/x/policy.safetensors", "bomberman/2p", games=50, seed=1, config={"a": 1})
    assert cmd[:4] == ["botarena", "tournament", "bomberman/2p", "--gauntlet"]
    flags = dict(zip(cmd[4::2], cmd[5::2]))
    assert flags["--agents"] == "trained=policy:/runs/x/policy.safetensors?sample,trained-argmax=policy:/runs/x/policy.safetensors"
    assert flags["--focus"] == "trained,trained-argmax"
    assert flags["--games"] == "50" and "--json" in cmd
    assert flags["--seed"] == str(1 + GAUNTLET_SEED_OFFSET) == str(gauntlet_seed(1))
    assert json.loads(cmd[cmd.index("--config") + 1]) == {"a": 1}
    assert gauntlet_seed(2**64 - 1) < 2**64


# The output of `botarena tournament bomberman/2p --agents hunter,reference --games 2 --json --seed 5`: a game that
# says how its players end (deaths, loser_deaths, seat_games).
CANNED_DEATHS = json.loads(
    r"""{"game":"bomberman/2p","seed":5,"seats":2,"games_per_seating":2,"max_rounds":0,"agents":[{"agent":"hunter","spec":"hunter"},{"agent":"reference","spec":"reference"}],"pairs":[{"agents":["hunter","reference"],"games":4,"draws":0,"sides":[{"agent":"hunter","wins":4,"draws":0,"losses":0,"win_rate":1,"win_rate_95":[0.5101091635454027,1],"mean_points":673,"faults":0,"fault_kinds":{"timed_out":0,"crashed":0,"invalid":0},"forfeits":0,"mean_actions":{"nothing":9,"move":117.75,"bomb":28.75,"trigger":7.25},"seat_games":4,"deaths":{"own bomb":0,"opponent's bomb":0,"own and opponent's bomb":0,"unknown":0},"loser_deaths":{"own bomb":3,"opponent's bomb":1,"own and opponent's bomb":0,"unknown":0}},{"agent":"reference","wins":0,"draws":0,"losses":4,"win_rate":0,"win_rate_95":[0,0.4898908364545973],"mean_points":-262.5,"faults":0,"fault_kinds":{"timed_out":0,"crashed":0,"invalid":0},"forfeits":0,"mean_actions":{"nothing":10,"move":121.5,"bomb":22,"trigger":9.25},"seat_games":4,"deaths":{"own bomb":3,"opponent's bomb":1,"own and opponent's bomb":0,"unknown":0},"loser_deaths":{"own bomb":0,"opponent's bomb":0,"own and opponent's bomb":0,"unknown":0}}],"distinct_endings":4,"mean_rounds":162.75,"seatings":[{"seats":["hunter","reference"],"games":2,"wins":[2,0],"draws":0,"distinct_endings":2,"first_index":0,"first_seed":4517933670823692284},{"seats":["reference","hunter"],"games":2,"wins":[2,0],"draws":0,"distinct_endings":2,"first_index":2,"first_seed":10754009927501035530}]}]}"""
)


def test_a_game_that_says_how_players_end_gets_deaths_columns() -> None:
    md = render_gauntlet_md(CANNED_DEATHS, ["hunter"])
    header, _, row = md.splitlines()[-3:]
    assert header.endswith("| died | its wins' losers died by |")
    # hunter never died; its 4 wins were reference's own bomb 3 times and hunter's bomb once.
    assert row.endswith("| 0 of 4 | own bomb 3, opponent's bomb 1 |")
    (ref,) = [line for line in render_gauntlet_md(CANNED_DEATHS, ["reference"]).splitlines() if line.startswith("| reference")]
    assert ref.endswith("| 4 of 4: own bomb 3, opponent's bomb 1 | none |")
    # A game that does not say (BattleBots) keeps the table as it was.
    assert "died" not in render_gauntlet_md(CANNED, ["sniper"])


def test_deaths_list_the_causes_that_happened_in_the_games_order() -> None:
    assert format_deaths({"own bomb": 2, "opponent's bomb": 0, "fire": 1}, 5) == "3 of 5: own bomb 2, fire 1"
    assert format_deaths({"own bomb": 0}) == "none"
    assert format_deaths(None, 4) == "-"


def test_the_tracker_gets_the_death_rates() -> None:
    got = gauntlet_scalars(CANNED_DEATHS, ["reference"])
    assert got["gauntlet/reference/hunter/died/own bomb"] == 0.75
    assert got["gauntlet/reference/hunter/died/unknown"] == 0.0
