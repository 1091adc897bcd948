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


__all__ = ["split_spec"]
