"""Specs, the one-line names of configured things: "name:key=value,..." for players ("mcts:iterations=500")
and games ("bamboo:mode=advanced")."""

from __future__ import annotations


def split_spec(spec: str, kind: str = "player", example: str = "heuristic:style=builder") -> tuple[str, dict[str, str]]:
    """'mcts:iterations=1000,rollout=heuristic' -> ('mcts', {'iterations': '1000', 'rollout': 'heuristic'}).
    `kind` and `example` word the errors ("player spec ...", "game spec ...")."""
    if not isinstance(spec, str):
        raise TypeError(f"a {kind} spec must be a string such as {example!r}, got {spec!r}")
    name, _, rest = spec.strip().partition(":")
    options: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"{kind} spec {spec!r}: option {item!r} must look like key=value")
        key, value = key.strip(), value.strip()
        if key in options:
            raise ValueError(f"{kind} spec {spec!r}: option {key!r} given twice")
        options[key] = value
    return name.strip(), options


def with_options(spec: str, options: str) -> str:
    """The player spec with more options: each added at the end, or replacing the option of the same name
    ('heuristic:style=hold20' with 'style=keep_pace' -> 'heuristic:style=keep_pace')."""
    name, merged = split_spec(spec)
    merged.update(split_spec(f"{name}:{options}")[1])
    return f"{name}:{','.join(f'{key}={value}' for key, value in merged.items())}" if merged else name


__all__ = ["split_spec", "with_options"]
