"""Reading a configuration: YAML, dotted `key=value` overrides, type checks and conversion of
plain data into the dataclasses of `mars2.config.schema`, renamed keys, and the field docs."""

from __future__ import annotations

import dataclasses
import difflib
import logging
import types
import typing
from pathlib import Path
from typing import Any, Literal

import yaml

from mars2.config.schema import Config
from mars2.errors import ConfigError, UserError

log = logging.getLogger("mars2.config")


def _is_config(tp: Any) -> bool:
    return isinstance(tp, type) and dataclasses.is_dataclass(tp)


def _convert(tp: Any, value: Any, path: str) -> Any:
    """Check and convert `value` (plain YAML data) to type `tp`, raising ConfigError at `path`."""
    origin = typing.get_origin(tp)
    if origin is Literal:
        choices = typing.get_args(tp)
        if value not in choices:
            close = difflib.get_close_matches(str(value), [str(c) for c in choices], n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ConfigError(path, value, f"allowed: {', '.join(map(str, choices))}{hint}")
        return value
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        if value is None and type(None) in args:
            return None
        *first, last = [a for a in args if a is not type(None)]
        reasons = []
        for inner in first:  # e.g. Literal["auto"] | float: the first type that takes the value
            try:
                return _convert(inner, value, path)
            except ConfigError as err:
                reasons.append(err.allowed)
        try:
            return _convert(last, value, path)
        except ConfigError as err:
            raise ConfigError(path, value, "; or ".join([*reasons, err.allowed])) from None
    if origin in (tuple, dict):
        return _convert_collection(tp, value, path)
    if _is_config(tp):
        if isinstance(value, tp):
            return value
        if not isinstance(value, dict):
            raise ConfigError(path, value, "expected a mapping of fields")
        return build(tp, value, path)
    if tp is bool:
        if isinstance(value, bool):
            return value
        raise ConfigError(path, value, "expected true or false")
    if tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise ConfigError(path, value, "expected an integer")
    if tp is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        if isinstance(value, str):  # YAML 1.1 reads `1e-5` (no dot) as a string
            try:
                return float(value)
            except ValueError:
                pass
        raise ConfigError(path, value, "expected a number")
    if tp is str:
        if isinstance(value, str):
            return value
        if isinstance(value, int | float) and not isinstance(value, bool):
            return str(value)
        raise ConfigError(path, value, "expected a string")
    raise AssertionError(f"unsupported config type {tp!r} at {path}")


def _convert_collection(tp: Any, value: Any, path: str) -> Any:
    """A `tuple[X, ...]` from a list, or a `dict[K, V]` from a mapping."""
    if typing.get_origin(tp) is tuple:
        (item, _) = typing.get_args(tp)
        if not isinstance(value, list | tuple):
            raise ConfigError(path, value, "expected a list")
        return tuple(_convert(item, v, f"{path}.{i}") for i, v in enumerate(value))
    key_type, item = typing.get_args(tp)
    if not isinstance(value, dict):
        raise ConfigError(path, value, "expected a mapping")
    return {_convert(key_type, k, path): _convert(item, v, f"{path}.{k}") for k, v in value.items()}


def _unknown_key(cls: type, key: str, path: str) -> ConfigError:
    names = [f.name for f in dataclasses.fields(cls)]
    close = difflib.get_close_matches(key, names, n=1)
    hint = f"did you mean '{close[0]}'? " if close else ""
    where = f"{path}.{key}" if path else key
    return ConfigError(where, key, f"unknown key; {hint}known: {', '.join(names)}")


def build(cls: type, data: dict[str, Any], path: str = "") -> Any:
    """Build config dataclass `cls` from a mapping, checking every key and value."""
    hints = typing.get_type_hints(cls)
    kwargs = {}
    for key, value in data.items():
        if key not in hints:
            raise _unknown_key(cls, str(key), path)
        kwargs[key] = _convert(hints[key], value, f"{path}.{key}" if path else key)
    try:
        return cls(**kwargs)
    except ConfigError as err:
        raise err.under(path) from None


def to_dict(config: Any) -> Any:
    """Plain data (dicts, lists, scalars) for YAML/JSON."""
    if dataclasses.is_dataclass(config) and not isinstance(config, type):
        return {f.name: to_dict(getattr(config, f.name)) for f in dataclasses.fields(config)}
    if isinstance(config, tuple | list):
        return [to_dict(v) for v in config]
    if isinstance(config, dict):
        return {k: to_dict(v) for k, v in config.items()}
    return config


def _parse_value(text: str) -> Any:
    try:
        return yaml.safe_load(text) if text != "" else ""
    except yaml.YAMLError:
        return text


def _set_dotted(data: dict[str, Any], cls: type, dotted: str, value: Any) -> None:
    """Set `dotted` (e.g. `agents.0.model`) in the plain mapping `data` of config class `cls`."""
    parts = dotted.split(".")
    node: Any = data
    tp: Any = cls
    path = ""
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if _is_config(tp):
            hints = typing.get_type_hints(tp)
            if part not in hints:
                raise _unknown_key(tp, part, path)
            tp = hints[part]
            if last:
                node[part] = value
                return
            node = node[part]
        elif typing.get_origin(tp) is tuple:
            if not part.isdigit() or int(part) >= len(node):
                raise ConfigError(path, part, f"index must be 0..{len(node) - 1}")
            (tp, _) = typing.get_args(tp)
            if last:
                node[int(part)] = value
                return
            node = node[int(part)]
        else:
            raise ConfigError(path, part, "this field has no sub-fields")
        path = f"{path}.{part}" if path else part


# Fields that moved to another section, and sections renamed whole: configs, run directories and
# overrides that use the old name keep working (with a warning naming the new key).
MOVED = {
    "data.eval": "eval.problems",
    "data.eval_limit": "eval.limit",
    "train.eval_budget": "eval.budget",
    "train.eval_every": "eval.every",
}
RENAMED_SECTIONS = {
    "dist": "cluster",  # named after the package that reads it, mars2.cluster
}


def _moved_key(key: str) -> str:
    section, dot, rest = key.partition(".")
    if section in RENAMED_SECTIONS:
        new = RENAMED_SECTIONS[section] + dot + rest
    else:
        new = MOVED.get(key, key)
    if new != key:
        log.warning("config key %s is now %s; please rename it", key, new)
    return new


def migrate(data: dict[str, Any], where: str = "config") -> dict[str, Any]:
    """Move sections of RENAMED_SECTIONS and fields of MOVED from their old place to their new one
    in a plain config mapping (in place; a value already at the new place wins)."""
    for old, new in RENAMED_SECTIONS.items():
        if old not in data:
            continue
        block, target = data.pop(old), data.get(new)
        if isinstance(block, dict) and isinstance(target, dict):
            data[new] = {**block, **target}
        elif target is None:
            data[new] = block  # not a mapping: the new section's check names the error
        log.warning("%s: section %s is now %s; please rename it", where, old, new)
    for old, new in MOVED.items():
        section, name = old.split(".")
        block = data.get(section)
        if not isinstance(block, dict) or name not in block:
            continue
        value = block.pop(name)
        new_section, new_name = new.split(".")
        target = data.setdefault(new_section, {})
        if isinstance(target, dict):
            target.setdefault(new_name, value)
        log.warning("%s: %s is now %s; please rename it", where, old, new)
    return data


def apply_overrides(data: dict[str, Any], overrides: list[str]) -> dict[str, Any]:
    """Apply `key=value` strings to a plain config mapping (values parsed as YAML)."""
    for item in overrides:
        key, sep, text = item.partition("=")
        if not sep or not key:
            raise UserError(
                f"override {item!r} is not of the form key=value (e.g. search.budget=16)"
            )
        _set_dotted(data, Config, _moved_key(key.strip()), _parse_value(text.strip()))
    return data


def load_yaml(path: str | Path) -> dict[str, Any]:
    """Read a YAML mapping, with a clear error for a missing or malformed file."""
    file = Path(path)
    if not file.is_file():
        raise UserError(f"config file not found: {file}")
    try:
        data = yaml.safe_load(file.read_text()) or {}
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f":{mark.line + 1}" if mark is not None else ""
        raise UserError(f"{file}{where}: not valid YAML ({err})") from None
    if not isinstance(data, dict):
        raise UserError(f"{file}: expected a mapping of config sections at the top level")
    return data


def load_config(path: str | Path | None = None, overrides: list[str] | None = None) -> Config:
    """The default config, updated by the YAML at `path`, then by dotted overrides."""
    data = to_dict(Config())
    if path is not None:
        file_data = migrate(load_yaml(path), str(path))
        try:
            build(Config, file_data)  # validate the file on its own, for errors that name it
        except ConfigError as err:
            raise UserError(f"{path}: {err}") from None
        _merge(data, file_data)
    apply_overrides(data, overrides or [])
    config: Config = build(Config, data)
    return config


def _merge(base: dict[str, Any], update: dict[str, Any]) -> None:
    for key, value in update.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _merge(base[key], value)
        else:
            base[key] = value


def dump_yaml(config: Config) -> str:
    return yaml.safe_dump(to_dict(config), sort_keys=False)


def field_docs(cls: type = Config, prefix: str = "") -> list[tuple[str, str, str, Any]]:
    """(dotted name, type, doc, default) for every leaf field, for docs and `config show --docs`."""
    rows: list[tuple[str, str, str, Any]] = []
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        name = f"{prefix}{f.name}"
        tp = hints[f.name]
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()  # type: ignore[misc,operator]
        inner = typing.get_args(tp)[0] if typing.get_origin(tp) is tuple else tp
        if _is_config(inner):
            rows.append((name, _type_name(tp), f.metadata["doc"], None))
            rows.extend(field_docs(inner, f"{name}{'.N' if inner is not tp else ''}."))
        else:
            rows.append((name, _type_name(tp), f.metadata["doc"], default))
    return rows


def _type_name(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if origin is Literal:
        return " | ".join(repr(a) for a in typing.get_args(tp))
    if origin in (typing.Union, types.UnionType):
        return " | ".join(_type_name(a) for a in typing.get_args(tp))
    if origin is tuple:
        return f"list[{_type_name(typing.get_args(tp)[0])}]"
    if origin is dict:
        return "dict[{}]".format(", ".join(_type_name(a) for a in typing.get_args(tp)))
    return "null" if tp is type(None) else getattr(tp, "__name__", str(tp))
