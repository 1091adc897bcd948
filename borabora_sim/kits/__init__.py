"""The kits a game's package plugs into: the shared pieces its picture, click targets and observation encoder are
built from, so that a game needs nothing of the layers above it (the viewer, the web game, the learning
environments) to draw itself or to say what a seat sees. A kit imports nothing but the foundation (the protocol,
errors, component data) and names no game; the layers above find each game's parts through its record
(borabora_sim.games).

- ``borabora_sim.kits.svg``: SVG elements, labels, panels, seat chips and click areas, and their writer;
- ``borabora_sim.kits.house_style``: the fonts, colours and least sizes every game's picture shares;
- ``borabora_sim.kits.click_targets``: the rules by which a click on a thing of a picture picks an action;
- ``borabora_sim.kits.encoding``: an observation encoder, its tensor's layout and writer, and the parts and texts
  every game's encoder shares.

Each kit is imported by its own path (``from borabora_sim.kits.svg import label``), so that a game's picture loads
no encoder and its encoder no picture.
"""

__all__: list[str] = []
