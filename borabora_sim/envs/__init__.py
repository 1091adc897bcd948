"""The library's games for other game and learning libraries, as thin adapters over the compiled engines, for
every registered game with an observation encoder.

- ``borabora_sim.envs.encoders``: what the adapters need to know about a game, chosen by its name in one place
  (``encoder_for``): its observation tensor, its texts, its score unit (numpy only). Each game's encoder lives in
  its own package, built with the kit ``borabora_sim.kits.encoding`` and named by its record
  (``GameRecord.encoder``, borabora_sim.games).
- ``borabora_sim.envs.openspiel``: the OpenSpiel games ``python_<game>`` (``pip install 'borabora_sim[openspiel]'``).
- ``borabora_sim.envs.pettingzoo``: PettingZoo AEC environments ``<game>_v0``, ``env(game=...)``
  (``pip install 'borabora_sim[rl]'``).
- ``borabora_sim.envs.gymnasium``: single-agent Gymnasium environments ``borabora_sim/<Title>-v0``,
  ``GameEnv(game=...)`` (``pip install 'borabora_sim[rl]'``).

The adapters are written once over any game that has an encoder; each game's names (``python_<game>``,
``<game>_v0``, ``borabora_sim/<Title>-v0``) come from the same code. They are imported only when asked for
(``import borabora_sim.envs.openspiel`` or the attribute ``borabora_sim.envs.openspiel``); without their library
the import raises ImportError saying what to install. See docs/interop.md.
"""

from __future__ import annotations

import importlib
from types import ModuleType

_ADAPTERS = ("encoders", "openspiel", "pettingzoo", "gymnasium")

__all__ = list(_ADAPTERS)


def __getattr__(name: str) -> ModuleType:
    if name in _ADAPTERS:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
