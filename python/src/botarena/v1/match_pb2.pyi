import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class MatchSeat(_message.Message):
    __slots__ = ("name", "spec")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    name: str
    spec: str
    def __init__(self, name: _Optional[str] = ..., spec: _Optional[str] = ...) -> None: ...

class PlayRequest(_message.Message):
    __slots__ = ("game", "config_json", "seats", "seed", "max_rounds", "index", "record")
    GAME_FIELD_NUMBER: _ClassVar[int]
    CONFIG_JSON_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    MAX_ROUNDS_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    RECORD_FIELD_NUMBER: _ClassVar[int]
    game: str
    config_json: str
    seats: _containers.RepeatedCompositeFieldContainer[MatchSeat]
    seed: int
    max_rounds: int
    index: int
    record: bool
    def __init__(self, game: _Optional[str] = ..., config_json: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[MatchSeat, _Mapping]]] = ..., seed: _Optional[int] = ..., max_rounds: _Optional[int] = ..., index: _Optional[int] = ..., record: _Optional[bool] = ...) -> None: ...

class MatchStanding(_message.Message):
    __slots__ = ("seat", "agent", "rank", "score", "alive", "faults", "actions", "death")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    AGENT_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    ALIVE_FIELD_NUMBER: _ClassVar[int]
    FAULTS_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    DEATH_FIELD_NUMBER: _ClassVar[int]
    seat: int
    agent: str
    rank: int
    score: float
    alive: bool
    faults: SeatFaults
    actions: _containers.RepeatedCompositeFieldContainer[ActionCount]
    death: str
    def __init__(self, seat: _Optional[int] = ..., agent: _Optional[str] = ..., rank: _Optional[int] = ..., score: _Optional[float] = ..., alive: _Optional[bool] = ..., faults: _Optional[_Union[SeatFaults, _Mapping]] = ..., actions: _Optional[_Iterable[_Union[ActionCount, _Mapping]]] = ..., death: _Optional[str] = ...) -> None: ...

class ActionCount(_message.Message):
    __slots__ = ("kind", "count")
    KIND_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    kind: str
    count: int
    def __init__(self, kind: _Optional[str] = ..., count: _Optional[int] = ...) -> None: ...

class ActionMean(_message.Message):
    __slots__ = ("kind", "mean")
    KIND_FIELD_NUMBER: _ClassVar[int]
    MEAN_FIELD_NUMBER: _ClassVar[int]
    kind: str
    mean: float
    def __init__(self, kind: _Optional[str] = ..., mean: _Optional[float] = ...) -> None: ...

class SeatFaults(_message.Message):
    __slots__ = ("timed_out", "crashed", "invalid")
    TIMED_OUT_FIELD_NUMBER: _ClassVar[int]
    CRASHED_FIELD_NUMBER: _ClassVar[int]
    INVALID_FIELD_NUMBER: _ClassVar[int]
    timed_out: int
    crashed: int
    invalid: int
    def __init__(self, timed_out: _Optional[int] = ..., crashed: _Optional[int] = ..., invalid: _Optional[int] = ...) -> None: ...

class PlayResponse(_message.Message):
    __slots__ = ("index", "seed", "rounds", "winner", "draw", "standings", "forfeit", "data")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    DRAW_FIELD_NUMBER: _ClassVar[int]
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    FORFEIT_FIELD_NUMBER: _ClassVar[int]
    DATA_FIELD_NUMBER: _ClassVar[int]
    index: int
    seed: int
    rounds: int
    winner: int
    draw: bool
    standings: _containers.RepeatedCompositeFieldContainer[MatchStanding]
    forfeit: int
    data: MatchData
    def __init__(self, index: _Optional[int] = ..., seed: _Optional[int] = ..., rounds: _Optional[int] = ..., winner: _Optional[int] = ..., draw: _Optional[bool] = ..., standings: _Optional[_Iterable[_Union[MatchStanding, _Mapping]]] = ..., forfeit: _Optional[int] = ..., data: _Optional[_Union[MatchData, _Mapping]] = ...) -> None: ...

class MatchData(_message.Message):
    __slots__ = ("steps", "agents", "obs", "mask", "action", "reward", "terminated", "truncated", "label")
    STEPS_FIELD_NUMBER: _ClassVar[int]
    AGENTS_FIELD_NUMBER: _ClassVar[int]
    OBS_FIELD_NUMBER: _ClassVar[int]
    MASK_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    REWARD_FIELD_NUMBER: _ClassVar[int]
    TERMINATED_FIELD_NUMBER: _ClassVar[int]
    TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    steps: int
    agents: _containers.RepeatedScalarFieldContainer[str]
    obs: _containers.RepeatedScalarFieldContainer[bytes]
    mask: bytes
    action: _containers.RepeatedScalarFieldContainer[int]
    reward: _containers.RepeatedScalarFieldContainer[float]
    terminated: _containers.RepeatedScalarFieldContainer[bool]
    truncated: _containers.RepeatedScalarFieldContainer[bool]
    label: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, steps: _Optional[int] = ..., agents: _Optional[_Iterable[str]] = ..., obs: _Optional[_Iterable[bytes]] = ..., mask: _Optional[bytes] = ..., action: _Optional[_Iterable[int]] = ..., reward: _Optional[_Iterable[float]] = ..., terminated: _Optional[_Iterable[bool]] = ..., truncated: _Optional[_Iterable[bool]] = ..., label: _Optional[_Iterable[int]] = ...) -> None: ...

class PlayBatchRequest(_message.Message):
    __slots__ = ("matches",)
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    matches: _containers.RepeatedCompositeFieldContainer[PlayRequest]
    def __init__(self, matches: _Optional[_Iterable[_Union[PlayRequest, _Mapping]]] = ...) -> None: ...

class MatchError(_message.Message):
    __slots__ = ("code", "message")
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    code: str
    message: str
    def __init__(self, code: _Optional[str] = ..., message: _Optional[str] = ...) -> None: ...

class PlayOutcome(_message.Message):
    __slots__ = ("result", "error")
    RESULT_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    result: PlayResponse
    error: MatchError
    def __init__(self, result: _Optional[_Union[PlayResponse, _Mapping]] = ..., error: _Optional[_Union[MatchError, _Mapping]] = ...) -> None: ...

class PlayBatchResponse(_message.Message):
    __slots__ = ("outcomes",)
    OUTCOMES_FIELD_NUMBER: _ClassVar[int]
    outcomes: _containers.RepeatedCompositeFieldContainer[PlayOutcome]
    def __init__(self, outcomes: _Optional[_Iterable[_Union[PlayOutcome, _Mapping]]] = ...) -> None: ...

class LeagueInfo(_message.Message):
    __slots__ = ("league", "game", "config_json", "seed", "created", "agents", "games")
    LEAGUE_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    CONFIG_JSON_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    AGENTS_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    league: str
    game: str
    config_json: str
    seed: int
    created: _timestamp_pb2.Timestamp
    agents: int
    games: int
    def __init__(self, league: _Optional[str] = ..., game: _Optional[str] = ..., config_json: _Optional[str] = ..., seed: _Optional[int] = ..., created: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., agents: _Optional[int] = ..., games: _Optional[int] = ...) -> None: ...

class CreateLeagueRequest(_message.Message):
    __slots__ = ("league", "game", "config_json", "seed", "open_existing")
    LEAGUE_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    CONFIG_JSON_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    OPEN_EXISTING_FIELD_NUMBER: _ClassVar[int]
    league: str
    game: str
    config_json: str
    seed: int
    open_existing: bool
    def __init__(self, league: _Optional[str] = ..., game: _Optional[str] = ..., config_json: _Optional[str] = ..., seed: _Optional[int] = ..., open_existing: _Optional[bool] = ...) -> None: ...

class CreateLeagueResponse(_message.Message):
    __slots__ = ("league", "created")
    LEAGUE_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    league: LeagueInfo
    created: bool
    def __init__(self, league: _Optional[_Union[LeagueInfo, _Mapping]] = ..., created: _Optional[bool] = ...) -> None: ...

class GetLeagueRequest(_message.Message):
    __slots__ = ("league",)
    LEAGUE_FIELD_NUMBER: _ClassVar[int]
    league: str
    def __init__(self, league: _Optional[str] = ...) -> None: ...

class GetLeagueResponse(_message.Message):
    __slots__ = ("league",)
    LEAGUE_FIELD_NUMBER: _ClassVar[int]
    league: LeagueInfo
    def __init__(self, league: _Optional[_Union[LeagueInfo, _Mapping]] = ...) -> None: ...

class LeagueAgent(_message.Message):
    __slots__ = ("name", "spec", "tag", "added")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    TAG_FIELD_NUMBER: _ClassVar[int]
    ADDED_FIELD_NUMBER: _ClassVar[int]
    name: str
    spec: str
    tag: str
    added: _timestamp_pb2.Timestamp
    def __init__(self, name: _Optional[str] = ..., spec: _Optional[str] = ..., tag: _Optional[str] = ..., added: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class AddLeagueAgentRequest(_message.Message):
    __slots__ = ("league", "name", "spec", "tag")
    LEAGUE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    TAG_FIELD_NUMBER: _ClassVar[int]
    league: str
    name: str
    spec: str
    tag: str
    def __init__(self, league: _Optional[str] = ..., name: _Optional[str] = ..., spec: _Optional[str] = ..., tag: _Optional[str] = ...) -> None: ...

class AddLeagueAgentResponse(_message.Message):
    __slots__ = ("agent",)
    AGENT_FIELD_NUMBER: _ClassVar[int]
    agent: LeagueAgent
    def __init__(self, agent: _Optional[_Union[LeagueAgent, _Mapping]] = ...) -> None: ...

class RemoveLeagueAgentRequest(_message.Message):
    __slots__ = ("league", "name")
    LEAGUE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    league: str
    name: str
    def __init__(self, league: _Optional[str] = ..., name: _Optional[str] = ...) -> None: ...

class RemoveLeagueAgentResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListLeagueAgentsRequest(_message.Message):
    __slots__ = ("league",)
    LEAGUE_FIELD_NUMBER: _ClassVar[int]
    league: str
    def __init__(self, league: _Optional[str] = ...) -> None: ...

class ListLeagueAgentsResponse(_message.Message):
    __slots__ = ("agents",)
    AGENTS_FIELD_NUMBER: _ClassVar[int]
    agents: _containers.RepeatedCompositeFieldContainer[LeagueAgent]
    def __init__(self, agents: _Optional[_Iterable[_Union[LeagueAgent, _Mapping]]] = ...) -> None: ...

class LeagueRow(_message.Message):
    __slots__ = ("rank", "agent", "spec", "tag", "rating", "rd", "volatility", "elo", "games", "wins", "draws", "losses", "lower", "upper", "win_rate", "mean_actions")
    RANK_FIELD_NUMBER: _ClassVar[int]
    AGENT_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    TAG_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    RD_FIELD_NUMBER: _ClassVar[int]
    VOLATILITY_FIELD_NUMBER: _ClassVar[int]
    ELO_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    DRAWS_FIELD_NUMBER: _ClassVar[int]
    LOSSES_FIELD_NUMBER: _ClassVar[int]
    LOWER_FIELD_NUMBER: _ClassVar[int]
    UPPER_FIELD_NUMBER: _ClassVar[int]
    WIN_RATE_FIELD_NUMBER: _ClassVar[int]
    MEAN_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    rank: int
    agent: str
    spec: str
    tag: str
    rating: float
    rd: float
    volatility: float
    elo: float
    games: int
    wins: int
    draws: int
    losses: int
    lower: float
    upper: float
    win_rate: float
    mean_actions: _containers.RepeatedCompositeFieldContainer[ActionMean]
    def __init__(self, rank: _Optional[int] = ..., agent: _Optional[str] = ..., spec: _Optional[str] = ..., tag: _Optional[str] = ..., rating: _Optional[float] = ..., rd: _Optional[float] = ..., volatility: _Optional[float] = ..., elo: _Optional[float] = ..., games: _Optional[int] = ..., wins: _Optional[int] = ..., draws: _Optional[int] = ..., losses: _Optional[int] = ..., lower: _Optional[float] = ..., upper: _Optional[float] = ..., win_rate: _Optional[float] = ..., mean_actions: _Optional[_Iterable[_Union[ActionMean, _Mapping]]] = ...) -> None: ...

class LeagueTableRequest(_message.Message):
    __slots__ = ("league", "png")
    LEAGUE_FIELD_NUMBER: _ClassVar[int]
    PNG_FIELD_NUMBER: _ClassVar[int]
    league: str
    png: bool
    def __init__(self, league: _Optional[str] = ..., png: _Optional[bool] = ...) -> None: ...

class LeagueTableResponse(_message.Message):
    __slots__ = ("game", "games", "rows", "text", "live", "as_of", "png")
    GAME_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    ROWS_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    LIVE_FIELD_NUMBER: _ClassVar[int]
    AS_OF_FIELD_NUMBER: _ClassVar[int]
    PNG_FIELD_NUMBER: _ClassVar[int]
    game: str
    games: int
    rows: _containers.RepeatedCompositeFieldContainer[LeagueRow]
    text: str
    live: bool
    as_of: _timestamp_pb2.Timestamp
    png: bytes
    def __init__(self, game: _Optional[str] = ..., games: _Optional[int] = ..., rows: _Optional[_Iterable[_Union[LeagueRow, _Mapping]]] = ..., text: _Optional[str] = ..., live: _Optional[bool] = ..., as_of: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., png: _Optional[bytes] = ...) -> None: ...

class LeagueGamesRequest(_message.Message):
    __slots__ = ("league", "last", "start", "limit")
    LEAGUE_FIELD_NUMBER: _ClassVar[int]
    LAST_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    league: str
    last: int
    start: int
    limit: int
    def __init__(self, league: _Optional[str] = ..., last: _Optional[int] = ..., start: _Optional[int] = ..., limit: _Optional[int] = ...) -> None: ...

class LeagueGame(_message.Message):
    __slots__ = ("index", "seed", "rounds", "winner", "draw", "standings", "forfeit", "run", "seats", "time")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    DRAW_FIELD_NUMBER: _ClassVar[int]
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    FORFEIT_FIELD_NUMBER: _ClassVar[int]
    RUN_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    index: int
    seed: int
    rounds: int
    winner: int
    draw: bool
    standings: _containers.RepeatedCompositeFieldContainer[MatchStanding]
    forfeit: int
    run: int
    seats: _containers.RepeatedCompositeFieldContainer[MatchSeat]
    time: _timestamp_pb2.Timestamp
    def __init__(self, index: _Optional[int] = ..., seed: _Optional[int] = ..., rounds: _Optional[int] = ..., winner: _Optional[int] = ..., draw: _Optional[bool] = ..., standings: _Optional[_Iterable[_Union[MatchStanding, _Mapping]]] = ..., forfeit: _Optional[int] = ..., run: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[MatchSeat, _Mapping]]] = ..., time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class LeagueGamesResponse(_message.Message):
    __slots__ = ("games", "total")
    GAMES_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[LeagueGame]
    total: int
    def __init__(self, games: _Optional[_Iterable[_Union[LeagueGame, _Mapping]]] = ..., total: _Optional[int] = ...) -> None: ...

class RunLeagueRequest(_message.Message):
    __slots__ = ("league", "games", "match", "target", "workers", "envs_per_worker", "max_rounds", "fresh", "png", "request_id")
    LEAGUE_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    WORKERS_FIELD_NUMBER: _ClassVar[int]
    ENVS_PER_WORKER_FIELD_NUMBER: _ClassVar[int]
    MAX_ROUNDS_FIELD_NUMBER: _ClassVar[int]
    FRESH_FIELD_NUMBER: _ClassVar[int]
    PNG_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    league: str
    games: int
    match: str
    target: str
    workers: int
    envs_per_worker: int
    max_rounds: int
    fresh: bool
    png: bool
    request_id: str
    def __init__(self, league: _Optional[str] = ..., games: _Optional[int] = ..., match: _Optional[str] = ..., target: _Optional[str] = ..., workers: _Optional[int] = ..., envs_per_worker: _Optional[int] = ..., max_rounds: _Optional[int] = ..., fresh: _Optional[bool] = ..., png: _Optional[bool] = ..., request_id: _Optional[str] = ...) -> None: ...

class LeagueRunProgress(_message.Message):
    __slots__ = ("run", "done", "total", "played", "seconds")
    RUN_FIELD_NUMBER: _ClassVar[int]
    DONE_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    SECONDS_FIELD_NUMBER: _ClassVar[int]
    run: int
    done: int
    total: int
    played: int
    seconds: float
    def __init__(self, run: _Optional[int] = ..., done: _Optional[int] = ..., total: _Optional[int] = ..., played: _Optional[int] = ..., seconds: _Optional[float] = ...) -> None: ...

class LeagueRunSummary(_message.Message):
    __slots__ = ("run", "match", "target", "start", "games", "resumed", "skipped", "played", "seconds", "png", "duplicate")
    RUN_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    RESUMED_FIELD_NUMBER: _ClassVar[int]
    SKIPPED_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    SECONDS_FIELD_NUMBER: _ClassVar[int]
    PNG_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_FIELD_NUMBER: _ClassVar[int]
    run: int
    match: str
    target: str
    start: int
    games: int
    resumed: bool
    skipped: int
    played: int
    seconds: float
    png: str
    duplicate: bool
    def __init__(self, run: _Optional[int] = ..., match: _Optional[str] = ..., target: _Optional[str] = ..., start: _Optional[int] = ..., games: _Optional[int] = ..., resumed: _Optional[bool] = ..., skipped: _Optional[int] = ..., played: _Optional[int] = ..., seconds: _Optional[float] = ..., png: _Optional[str] = ..., duplicate: _Optional[bool] = ...) -> None: ...

class RunLeagueResponse(_message.Message):
    __slots__ = ("progress", "summary")
    PROGRESS_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    progress: LeagueRunProgress
    summary: LeagueRunSummary
    def __init__(self, progress: _Optional[_Union[LeagueRunProgress, _Mapping]] = ..., summary: _Optional[_Union[LeagueRunSummary, _Mapping]] = ...) -> None: ...
