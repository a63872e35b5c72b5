from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AutoReset(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    AUTO_RESET_UNSPECIFIED: _ClassVar[AutoReset]
    AUTO_RESET_NEXT_STEP: _ClassVar[AutoReset]
    AUTO_RESET_SAME_STEP: _ClassVar[AutoReset]

class Compression(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    COMPRESSION_UNSPECIFIED: _ClassVar[Compression]
    COMPRESSION_NONE: _ClassVar[Compression]
    COMPRESSION_ZSTD: _ClassVar[Compression]
AUTO_RESET_UNSPECIFIED: AutoReset
AUTO_RESET_NEXT_STEP: AutoReset
AUTO_RESET_SAME_STEP: AutoReset
COMPRESSION_UNSPECIFIED: Compression
COMPRESSION_NONE: Compression
COMPRESSION_ZSTD: Compression

class TensorSpec(_message.Message):
    __slots__ = ("name", "dtype", "shape", "layout", "shared")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DTYPE_FIELD_NUMBER: _ClassVar[int]
    SHAPE_FIELD_NUMBER: _ClassVar[int]
    LAYOUT_FIELD_NUMBER: _ClassVar[int]
    SHARED_FIELD_NUMBER: _ClassVar[int]
    name: str
    dtype: str
    shape: _containers.RepeatedScalarFieldContainer[int]
    layout: str
    shared: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, name: _Optional[str] = ..., dtype: _Optional[str] = ..., shape: _Optional[_Iterable[int]] = ..., layout: _Optional[str] = ..., shared: _Optional[_Iterable[int]] = ...) -> None: ...

class GameSpec(_message.Message):
    __slots__ = ("game", "seats", "observations", "actions", "action_names", "max_steps", "reward", "action_factors")
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    OBSERVATIONS_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    ACTION_NAMES_FIELD_NUMBER: _ClassVar[int]
    MAX_STEPS_FIELD_NUMBER: _ClassVar[int]
    REWARD_FIELD_NUMBER: _ClassVar[int]
    ACTION_FACTORS_FIELD_NUMBER: _ClassVar[int]
    game: str
    seats: int
    observations: _containers.RepeatedCompositeFieldContainer[TensorSpec]
    actions: int
    action_names: _containers.RepeatedScalarFieldContainer[str]
    max_steps: int
    reward: str
    action_factors: ActionFactors
    def __init__(self, game: _Optional[str] = ..., seats: _Optional[int] = ..., observations: _Optional[_Iterable[_Union[TensorSpec, _Mapping]]] = ..., actions: _Optional[int] = ..., action_names: _Optional[_Iterable[str]] = ..., max_steps: _Optional[int] = ..., reward: _Optional[str] = ..., action_factors: _Optional[_Union[ActionFactors, _Mapping]] = ...) -> None: ...

class ActionFactors(_message.Message):
    __slots__ = ("commands", "cells", "command", "cell")
    COMMANDS_FIELD_NUMBER: _ClassVar[int]
    CELLS_FIELD_NUMBER: _ClassVar[int]
    COMMAND_FIELD_NUMBER: _ClassVar[int]
    CELL_FIELD_NUMBER: _ClassVar[int]
    commands: _containers.RepeatedScalarFieldContainer[str]
    cells: int
    command: _containers.RepeatedScalarFieldContainer[int]
    cell: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, commands: _Optional[_Iterable[str]] = ..., cells: _Optional[int] = ..., command: _Optional[_Iterable[int]] = ..., cell: _Optional[_Iterable[int]] = ...) -> None: ...

class GameInfo(_message.Message):
    __slots__ = ("name", "summary", "spec", "agents", "default_config_json", "config_fields", "agent_summaries", "reference_agent", "training_opponents", "training")
    class AgentSummariesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    NAME_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    AGENTS_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_CONFIG_JSON_FIELD_NUMBER: _ClassVar[int]
    CONFIG_FIELDS_FIELD_NUMBER: _ClassVar[int]
    AGENT_SUMMARIES_FIELD_NUMBER: _ClassVar[int]
    REFERENCE_AGENT_FIELD_NUMBER: _ClassVar[int]
    TRAINING_OPPONENTS_FIELD_NUMBER: _ClassVar[int]
    TRAINING_FIELD_NUMBER: _ClassVar[int]
    name: str
    summary: str
    spec: GameSpec
    agents: _containers.RepeatedScalarFieldContainer[str]
    default_config_json: str
    config_fields: _containers.RepeatedCompositeFieldContainer[ConfigField]
    agent_summaries: _containers.ScalarMap[str, str]
    reference_agent: str
    training_opponents: _containers.RepeatedScalarFieldContainer[str]
    training: TrainingDefaults
    def __init__(self, name: _Optional[str] = ..., summary: _Optional[str] = ..., spec: _Optional[_Union[GameSpec, _Mapping]] = ..., agents: _Optional[_Iterable[str]] = ..., default_config_json: _Optional[str] = ..., config_fields: _Optional[_Iterable[_Union[ConfigField, _Mapping]]] = ..., agent_summaries: _Optional[_Mapping[str, str]] = ..., reference_agent: _Optional[str] = ..., training_opponents: _Optional[_Iterable[str]] = ..., training: _Optional[_Union[TrainingDefaults, _Mapping]] = ...) -> None: ...

class TrainingDefaults(_message.Message):
    __slots__ = ("channels", "strides", "hidden", "config_json", "gamma", "ent_coef")
    CHANNELS_FIELD_NUMBER: _ClassVar[int]
    STRIDES_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_FIELD_NUMBER: _ClassVar[int]
    CONFIG_JSON_FIELD_NUMBER: _ClassVar[int]
    GAMMA_FIELD_NUMBER: _ClassVar[int]
    ENT_COEF_FIELD_NUMBER: _ClassVar[int]
    channels: _containers.RepeatedScalarFieldContainer[int]
    strides: _containers.RepeatedScalarFieldContainer[int]
    hidden: int
    config_json: str
    gamma: float
    ent_coef: float
    def __init__(self, channels: _Optional[_Iterable[int]] = ..., strides: _Optional[_Iterable[int]] = ..., hidden: _Optional[int] = ..., config_json: _Optional[str] = ..., gamma: _Optional[float] = ..., ent_coef: _Optional[float] = ...) -> None: ...

class ConfigField(_message.Message):
    __slots__ = ("name", "type", "default_json", "allowed", "doc", "appends")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_JSON_FIELD_NUMBER: _ClassVar[int]
    ALLOWED_FIELD_NUMBER: _ClassVar[int]
    DOC_FIELD_NUMBER: _ClassVar[int]
    APPENDS_FIELD_NUMBER: _ClassVar[int]
    name: str
    type: str
    default_json: str
    allowed: str
    doc: str
    appends: str
    def __init__(self, name: _Optional[str] = ..., type: _Optional[str] = ..., default_json: _Optional[str] = ..., allowed: _Optional[str] = ..., doc: _Optional[str] = ..., appends: _Optional[str] = ...) -> None: ...

class ListGamesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListGamesResponse(_message.Message):
    __slots__ = ("games", "server_version")
    GAMES_FIELD_NUMBER: _ClassVar[int]
    SERVER_VERSION_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[GameInfo]
    server_version: str
    def __init__(self, games: _Optional[_Iterable[_Union[GameInfo, _Mapping]]] = ..., server_version: _Optional[str] = ...) -> None: ...

class CreatePoolRequest(_message.Message):
    __slots__ = ("game", "config_json", "num_envs", "seed", "learner_seats", "opponents", "auto_reset", "compression", "workers", "shared_planes", "batch_size", "default_opponent")
    class OpponentsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: int
        value: str
        def __init__(self, key: _Optional[int] = ..., value: _Optional[str] = ...) -> None: ...
    GAME_FIELD_NUMBER: _ClassVar[int]
    CONFIG_JSON_FIELD_NUMBER: _ClassVar[int]
    NUM_ENVS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    LEARNER_SEATS_FIELD_NUMBER: _ClassVar[int]
    OPPONENTS_FIELD_NUMBER: _ClassVar[int]
    AUTO_RESET_FIELD_NUMBER: _ClassVar[int]
    COMPRESSION_FIELD_NUMBER: _ClassVar[int]
    WORKERS_FIELD_NUMBER: _ClassVar[int]
    SHARED_PLANES_FIELD_NUMBER: _ClassVar[int]
    BATCH_SIZE_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_OPPONENT_FIELD_NUMBER: _ClassVar[int]
    game: str
    config_json: str
    num_envs: int
    seed: int
    learner_seats: _containers.RepeatedScalarFieldContainer[int]
    opponents: _containers.ScalarMap[int, str]
    auto_reset: AutoReset
    compression: Compression
    workers: int
    shared_planes: bool
    batch_size: int
    default_opponent: str
    def __init__(self, game: _Optional[str] = ..., config_json: _Optional[str] = ..., num_envs: _Optional[int] = ..., seed: _Optional[int] = ..., learner_seats: _Optional[_Iterable[int]] = ..., opponents: _Optional[_Mapping[int, str]] = ..., auto_reset: _Optional[_Union[AutoReset, str]] = ..., compression: _Optional[_Union[Compression, str]] = ..., workers: _Optional[int] = ..., shared_planes: _Optional[bool] = ..., batch_size: _Optional[int] = ..., default_opponent: _Optional[str] = ...) -> None: ...

class CreatePoolResponse(_message.Message):
    __slots__ = ("pool_id", "spec", "arrow_schema", "seed", "num_envs", "rows", "learner_seats", "auto_reset", "workers", "shared_planes", "batch_size", "opponents", "output_arrays")
    class OpponentsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: int
        value: str
        def __init__(self, key: _Optional[int] = ..., value: _Optional[str] = ...) -> None: ...
    POOL_ID_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    ARROW_SCHEMA_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    NUM_ENVS_FIELD_NUMBER: _ClassVar[int]
    ROWS_FIELD_NUMBER: _ClassVar[int]
    LEARNER_SEATS_FIELD_NUMBER: _ClassVar[int]
    AUTO_RESET_FIELD_NUMBER: _ClassVar[int]
    WORKERS_FIELD_NUMBER: _ClassVar[int]
    SHARED_PLANES_FIELD_NUMBER: _ClassVar[int]
    BATCH_SIZE_FIELD_NUMBER: _ClassVar[int]
    OPPONENTS_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_ARRAYS_FIELD_NUMBER: _ClassVar[int]
    pool_id: str
    spec: GameSpec
    arrow_schema: bytes
    seed: int
    num_envs: int
    rows: int
    learner_seats: _containers.RepeatedScalarFieldContainer[int]
    auto_reset: AutoReset
    workers: int
    shared_planes: bool
    batch_size: int
    opponents: _containers.ScalarMap[int, str]
    output_arrays: _containers.RepeatedCompositeFieldContainer[TensorSpec]
    def __init__(self, pool_id: _Optional[str] = ..., spec: _Optional[_Union[GameSpec, _Mapping]] = ..., arrow_schema: _Optional[bytes] = ..., seed: _Optional[int] = ..., num_envs: _Optional[int] = ..., rows: _Optional[int] = ..., learner_seats: _Optional[_Iterable[int]] = ..., auto_reset: _Optional[_Union[AutoReset, str]] = ..., workers: _Optional[int] = ..., shared_planes: _Optional[bool] = ..., batch_size: _Optional[int] = ..., opponents: _Optional[_Mapping[int, str]] = ..., output_arrays: _Optional[_Iterable[_Union[TensorSpec, _Mapping]]] = ...) -> None: ...

class ResetRequest(_message.Message):
    __slots__ = ("pool_id",)
    POOL_ID_FIELD_NUMBER: _ClassVar[int]
    pool_id: str
    def __init__(self, pool_id: _Optional[str] = ...) -> None: ...

class ResetResponse(_message.Message):
    __slots__ = ("batch",)
    BATCH_FIELD_NUMBER: _ClassVar[int]
    batch: bytes
    def __init__(self, batch: _Optional[bytes] = ...) -> None: ...

class StepRequest(_message.Message):
    __slots__ = ("pool_id", "actions")
    POOL_ID_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    pool_id: str
    actions: bytes
    def __init__(self, pool_id: _Optional[str] = ..., actions: _Optional[bytes] = ...) -> None: ...

class StepResponse(_message.Message):
    __slots__ = ("batch", "ended", "final_batch")
    BATCH_FIELD_NUMBER: _ClassVar[int]
    ENDED_FIELD_NUMBER: _ClassVar[int]
    FINAL_BATCH_FIELD_NUMBER: _ClassVar[int]
    batch: bytes
    ended: bytes
    final_batch: bytes
    def __init__(self, batch: _Optional[bytes] = ..., ended: _Optional[bytes] = ..., final_batch: _Optional[bytes] = ...) -> None: ...

class StepStreamRequest(_message.Message):
    __slots__ = ("pool_id", "actions", "reset")
    POOL_ID_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    RESET_FIELD_NUMBER: _ClassVar[int]
    pool_id: str
    actions: bytes
    reset: bool
    def __init__(self, pool_id: _Optional[str] = ..., actions: _Optional[bytes] = ..., reset: _Optional[bool] = ...) -> None: ...

class StepStreamResponse(_message.Message):
    __slots__ = ("batch", "ended", "final_batch")
    BATCH_FIELD_NUMBER: _ClassVar[int]
    ENDED_FIELD_NUMBER: _ClassVar[int]
    FINAL_BATCH_FIELD_NUMBER: _ClassVar[int]
    batch: bytes
    ended: bytes
    final_batch: bytes
    def __init__(self, batch: _Optional[bytes] = ..., ended: _Optional[bytes] = ..., final_batch: _Optional[bytes] = ...) -> None: ...

class RenderRequest(_message.Message):
    __slots__ = ("pool_id", "env", "format", "seat")
    POOL_ID_FIELD_NUMBER: _ClassVar[int]
    ENV_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    pool_id: str
    env: int
    format: str
    seat: int
    def __init__(self, pool_id: _Optional[str] = ..., env: _Optional[int] = ..., format: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class RenderResponse(_message.Message):
    __slots__ = ("format", "data", "width", "height")
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    DATA_FIELD_NUMBER: _ClassVar[int]
    WIDTH_FIELD_NUMBER: _ClassVar[int]
    HEIGHT_FIELD_NUMBER: _ClassVar[int]
    format: str
    data: bytes
    width: int
    height: int
    def __init__(self, format: _Optional[str] = ..., data: _Optional[bytes] = ..., width: _Optional[int] = ..., height: _Optional[int] = ...) -> None: ...

class StatsRequest(_message.Message):
    __slots__ = ("pool_id", "reset")
    POOL_ID_FIELD_NUMBER: _ClassVar[int]
    RESET_FIELD_NUMBER: _ClassVar[int]
    pool_id: str
    reset: bool
    def __init__(self, pool_id: _Optional[str] = ..., reset: _Optional[bool] = ...) -> None: ...

class SeatStats(_message.Message):
    __slots__ = ("seat", "episodes", "steps", "return_sum", "wins", "draws", "losses")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    EPISODES_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    RETURN_SUM_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    DRAWS_FIELD_NUMBER: _ClassVar[int]
    LOSSES_FIELD_NUMBER: _ClassVar[int]
    seat: int
    episodes: int
    steps: int
    return_sum: float
    wins: int
    draws: int
    losses: int
    def __init__(self, seat: _Optional[int] = ..., episodes: _Optional[int] = ..., steps: _Optional[int] = ..., return_sum: _Optional[float] = ..., wins: _Optional[int] = ..., draws: _Optional[int] = ..., losses: _Optional[int] = ...) -> None: ...

class OpponentStats(_message.Message):
    __slots__ = ("seat", "name", "weight", "episodes", "wins", "draws", "losses", "invalid")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    WEIGHT_FIELD_NUMBER: _ClassVar[int]
    EPISODES_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    DRAWS_FIELD_NUMBER: _ClassVar[int]
    LOSSES_FIELD_NUMBER: _ClassVar[int]
    INVALID_FIELD_NUMBER: _ClassVar[int]
    seat: int
    name: str
    weight: float
    episodes: int
    wins: int
    draws: int
    losses: int
    invalid: int
    def __init__(self, seat: _Optional[int] = ..., name: _Optional[str] = ..., weight: _Optional[float] = ..., episodes: _Optional[int] = ..., wins: _Optional[int] = ..., draws: _Optional[int] = ..., losses: _Optional[int] = ..., invalid: _Optional[int] = ...) -> None: ...

class StatsResponse(_message.Message):
    __slots__ = ("seats", "steps", "opponents", "invalid")
    SEATS_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    OPPONENTS_FIELD_NUMBER: _ClassVar[int]
    INVALID_FIELD_NUMBER: _ClassVar[int]
    seats: _containers.RepeatedCompositeFieldContainer[SeatStats]
    steps: int
    opponents: _containers.RepeatedCompositeFieldContainer[OpponentStats]
    invalid: int
    def __init__(self, seats: _Optional[_Iterable[_Union[SeatStats, _Mapping]]] = ..., steps: _Optional[int] = ..., opponents: _Optional[_Iterable[_Union[OpponentStats, _Mapping]]] = ..., invalid: _Optional[int] = ...) -> None: ...

class OpponentChoice(_message.Message):
    __slots__ = ("spec", "weight", "name")
    SPEC_FIELD_NUMBER: _ClassVar[int]
    WEIGHT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    spec: str
    weight: float
    name: str
    def __init__(self, spec: _Optional[str] = ..., weight: _Optional[float] = ..., name: _Optional[str] = ...) -> None: ...

class OpponentMix(_message.Message):
    __slots__ = ("choices",)
    CHOICES_FIELD_NUMBER: _ClassVar[int]
    choices: _containers.RepeatedCompositeFieldContainer[OpponentChoice]
    def __init__(self, choices: _Optional[_Iterable[_Union[OpponentChoice, _Mapping]]] = ...) -> None: ...

class SetOpponentsRequest(_message.Message):
    __slots__ = ("pool_id", "opponents")
    class OpponentsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: int
        value: OpponentMix
        def __init__(self, key: _Optional[int] = ..., value: _Optional[_Union[OpponentMix, _Mapping]] = ...) -> None: ...
    POOL_ID_FIELD_NUMBER: _ClassVar[int]
    OPPONENTS_FIELD_NUMBER: _ClassVar[int]
    pool_id: str
    opponents: _containers.MessageMap[int, OpponentMix]
    def __init__(self, pool_id: _Optional[str] = ..., opponents: _Optional[_Mapping[int, OpponentMix]] = ...) -> None: ...

class SetOpponentsResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class AsyncResetRequest(_message.Message):
    __slots__ = ("pool_id",)
    POOL_ID_FIELD_NUMBER: _ClassVar[int]
    pool_id: str
    def __init__(self, pool_id: _Optional[str] = ...) -> None: ...

class AsyncResetResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class SendRequest(_message.Message):
    __slots__ = ("pool_id", "env_ids", "actions")
    POOL_ID_FIELD_NUMBER: _ClassVar[int]
    ENV_IDS_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    pool_id: str
    env_ids: bytes
    actions: bytes
    def __init__(self, pool_id: _Optional[str] = ..., env_ids: _Optional[bytes] = ..., actions: _Optional[bytes] = ...) -> None: ...

class SendResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class RecvRequest(_message.Message):
    __slots__ = ("pool_id", "env_ids", "actions")
    POOL_ID_FIELD_NUMBER: _ClassVar[int]
    ENV_IDS_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    pool_id: str
    env_ids: bytes
    actions: bytes
    def __init__(self, pool_id: _Optional[str] = ..., env_ids: _Optional[bytes] = ..., actions: _Optional[bytes] = ...) -> None: ...

class RecvResponse(_message.Message):
    __slots__ = ("batch", "ended", "final_batch")
    BATCH_FIELD_NUMBER: _ClassVar[int]
    ENDED_FIELD_NUMBER: _ClassVar[int]
    FINAL_BATCH_FIELD_NUMBER: _ClassVar[int]
    batch: bytes
    ended: bytes
    final_batch: bytes
    def __init__(self, batch: _Optional[bytes] = ..., ended: _Optional[bytes] = ..., final_batch: _Optional[bytes] = ...) -> None: ...

class ClosePoolRequest(_message.Message):
    __slots__ = ("pool_id",)
    POOL_ID_FIELD_NUMBER: _ClassVar[int]
    pool_id: str
    def __init__(self, pool_id: _Optional[str] = ...) -> None: ...

class ClosePoolResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
