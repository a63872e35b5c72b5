"""Game configs are discoverable: ListGames describes every config field."""

from __future__ import annotations

import pytest

import botarena

JSON_TYPES = {"integer": int, "number": (int, float), "boolean": bool, "string": str, "array": list, "object": dict}


def test_every_game_describes_its_config(client: botarena.Client) -> None:
    games = client.list_games()
    assert {"battlebots", "battlecube", "battleships", "bomberman", "portalbomber"} <= {g.name for g in games}
    for g in games:
        assert g.config_fields, f"{g.name}: no config fields"
        assert [f.name for f in g.config_fields] == list(g.default_config), g.name
        for f in g.config_fields:
            assert isinstance(f, botarena.ConfigField)
            assert f.doc, f"{g.name}: config field {f.name!r} has no doc"
            assert f.type in JSON_TYPES, f"{g.name}: config field {f.name!r} has type {f.type!r}"
            assert f.default == g.default_config[f.name], f"{g.name}: {f.name}"
            if f.default is not None:
                assert isinstance(f.default, JSON_TYPES[f.type]), f"{g.name}: {f.name} = {f.default!r} is not {f.type}"


def test_config_field_details(client: botarena.Client) -> None:
    info = {g.name: g for g in client.list_games()}["bomberman/8p"]
    players = info.config_field("players")
    assert (players.type, players.default, players.allowed) == ("integer", 8, "2..12")
    assert "players" in players.doc
    assert info.config_field("powerups").default == "auto"
    assert info.config_field("names").default is None
    with pytest.raises(KeyError):
        info.config_field("nope")
    with pytest.raises(AttributeError):
        players.doc = "changed"  # type: ignore[misc]


@pytest.mark.parametrize("game", ["bomberman", "battleships", "battlecube", "battlebots", "portalbomber"])
def test_unknown_config_field_lists_the_valid_ones(client: botarena.Client, game: str) -> None:
    info = {g.name: g for g in client.list_games()}[game]
    with pytest.raises(botarena.InvalidArgumentError) as e:
        client.create_pool(game, 1, config={"nope": 1})
    valid = ", ".join(f.name for f in info.config_fields)
    assert f'unknown field "nope" (valid: {valid})' in str(e.value)


def test_every_game_brings_its_agents_reference_bot_and_training_defaults(client: botarena.Client) -> None:
    """What a game's Go package says of itself (env.Kit) comes with its spec, for every name."""
    for g in client.list_games():
        assert set(g.agent_summaries) == set(g.agents), g.name
        assert all(g.agent_summaries.values()), g.name
        assert g.reference_agent in g.agents, g.name
        assert g.training_opponents and set(g.training_opponents) <= set(g.agents), g.name
        assert isinstance(g.training, botarena.TrainingDefaults), g.name
        assert g.training.hidden > 0 and len(g.training.strides) == len(g.training.channels) > 0, g.name
    info = {g.name: g for g in client.list_games()}
    assert info["battlecube/2p"].reference_agent == "teebot"
    assert info["battlebots"].training_opponents == ("huggy", "sniper", "nop")
    bomberman = info["bomberman/2p"].training
    assert bomberman is not None
    assert (bomberman.channels, bomberman.strides, bomberman.hidden, bomberman.config) == ((16, 32), (1, 2), 256, {"points_reward": 0.002})


@pytest.mark.parametrize(
    "game, trained, config, reads",
    [
        ("battlebots", {}, {"history": 2}, True),  # raising a field from zero appends its segment
        ("battlebots", {"history": 2}, {"history": 4}, True),  # a longer history extends the shorter one
        ("battlebots", {"history": 4}, {"history": 2}, False),  # lowering it cuts the policy's own elements
        ("battlebots", {"history": 2}, {"history": 2, "hp_reward": 0.5}, True),  # other fields are for the shapes to tell
        ("battlecube", {"history": True}, {"history": True, "tasks_scalar": True}, True),  # later field raised
        ("battlecube", {"tasks_scalar": True}, {"history": True, "tasks_scalar": True}, False),  # earlier one shifts it
        ("battlecube", {"history": True, "tasks_scalar": True}, {"tasks_scalar": True}, False),
        ("battleships/small", {}, {"density_plane": True}, True),  # planes, not scalars
    ],
)
def test_append_only_fields_decide_which_configs_a_policy_reads_by_prefix(
    client: botarena.Client, game: str, trained: dict[str, object], config: dict[str, object], reads: bool
) -> None:
    info = {g.name: g for g in client.list_games()}[game]
    assert info.obs_prefix(trained, config) is reads


def test_config_fields_name_the_tensor_they_only_append_to(client: botarena.Client) -> None:
    info = {g.name: g for g in client.list_games()}
    assert info["battlebots"].config_field("history").appends == "scalars"
    assert info["battleships/small"].config_field("density_plane").appends == "planes"
    assert info["battlebots"].config_field("arena").appends == ""
    assert [f.name for f in info["battlecube"].config_fields if f.appends] == ["history", "cycle_marks", "tasks_scalar"]
    assert [(f.name, f.appends) for f in info["bomberman/2p"].config_fields if f.appends] == [
        ("touched_planes", "planes"),
        ("opponent_scalars", "scalars"),
    ]
