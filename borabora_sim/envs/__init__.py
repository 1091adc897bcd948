"""Bora Bora for other game and learning libraries, as thin adapters over the compiled engine.

- ``borabora_sim.envs.observation``: the observation tensor (numpy only; docs/observation.md).
- ``borabora_sim.envs.openspiel``: the OpenSpiel game ``python_bora_bora`` (``pip install 'borabora_sim[openspiel]'``).
- ``borabora_sim.envs.pettingzoo``: a PettingZoo AEC environment (``pip install 'borabora_sim[rl]'``).
- ``borabora_sim.envs.gymnasium``: a single-agent Gymnasium environment (``pip install 'borabora_sim[rl]'``).

The adapters are imported only when asked for (``import borabora_sim.envs.openspiel`` or the attribute
``borabora_sim.envs.openspiel``); without their library the import raises ImportError saying what to install.
See docs/interop.md.
"""

from __future__ import annotations

import importlib
from types import ModuleType

_ADAPTERS = ("observation", "openspiel", "pettingzoo", "gymnasium")

__all__ = list(_ADAPTERS)


def __getattr__(name: str) -> ModuleType:
    if name in _ADAPTERS:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
