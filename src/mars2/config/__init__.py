"""Typed configuration: one frozen dataclass per concern, composed into `Config`
(`mars2.config.schema`; the sections in `agent`, `search` and `run`, their field helpers in
`fields`), read from YAML with dotted overrides (`mars2.config.loading`).

`load_config(path, overrides)` reads YAML and applies dotted `key=value` overrides
(`search.budget=16`, `agents.0.temperature=0.7`, `agents=[{model: tiny-random}]`). Every value is
type-checked; invalid values and unknown keys raise `ConfigError` naming the field. Each field
documents itself through `metadata["doc"]` (`mars2 config show --docs`, docs/config.md).
"""

from mars2.config.agent import AgentConfig
from mars2.config.loading import (
    MOVED,
    apply_overrides,
    build,
    dump_yaml,
    field_docs,
    load_config,
    load_yaml,
    migrate,
    to_dict,
)
from mars2.config.run import ClusterConfig, DataConfig, EvalConfig, OutputConfig, TrainConfig
from mars2.config.schema import SHARED_SETTINGS, Config
from mars2.config.search import CreditConfig, LossConfig, SandboxConfig, SearchConfig

__all__ = [
    "MOVED",
    "SHARED_SETTINGS",
    "AgentConfig",
    "ClusterConfig",
    "Config",
    "CreditConfig",
    "DataConfig",
    "EvalConfig",
    "LossConfig",
    "OutputConfig",
    "SandboxConfig",
    "SearchConfig",
    "TrainConfig",
    "apply_overrides",
    "build",
    "dump_yaml",
    "field_docs",
    "load_config",
    "load_yaml",
    "migrate",
    "to_dict",
]
