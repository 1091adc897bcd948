"""Bora Bora in the rulebook's words: what a person reads of an action, a decision, a phase, a task, a person tile,
a jewelry tile, a God, a region and a score source, and a one-line rules hint per decision kind. The engine's
names (`State.action_to_string`) stay what programs read; everything shown to a person (logs, replays, browser
play, the terminal, `explain()`) goes through here (borabora_sim.protocol.Game.describe_action and the rest).

>>> from borabora_sim.games.bora_bora import new_game
>>> state = new_game(players=3, seed=7)
>>> describe_decision(state)
'Place a first hut on a region next to a 1-fish tile'
>>> describe_actions(state, state.legal_actions()[:1])
['Place a first hut on the Central beach (taking its sand)']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from borabora_sim import _engine
from borabora_sim.games.bora_bora.components import (
    GOD_COLOURS,
    HELPER_ACTIONS,
    MATERIALS,
    PERSON_TYPES,
    RESOURCES,
    SEXES,
    TASK_REQUIREMENT_KINDS,
    TERRAINS,
    Components,
)

NO_TILE = 255
DONE = "done"

# The action tiles of phase A (engine DIE_ACTIONS) as the rulebook names them.
DIE_ACTION_WORDS = {
    "fishing": "Fishing", "helper": "Helper", "temple": "Temple", "build": "Build", "man": "Man", "woman": "Woman",
    "land_path": "Land Path", "water_path": "Water Path",
}
# The man and woman actions (PERSON_TYPES), as the rulebook's list "The Individual Woman (and Man) Actions".
PERSON_TYPE_WORDS = {
    "land_path": "Land Path", "water_path": "Water Path", "woman": "Woman", "man": "Man", "build": "Build",
    "material": "Building materials", "move_hut": "Move hut", "victory_points": "Victory points",
    "god_card": "God card", "offering": "Offering", "status": "Status", "shell": "Shell",
}
# The Gods (engine GOD_EFFECTS): the God and what playing it does.
GOD_WORDS = {
    "blue": ("Blue God", "the next die may go on a tile even if it is not lower"),
    "white": ("White God", "the next die acts as a 6"),
    "red": ("Red God", "score the fish tile of the new region"),
    "green_double": ("Green God", "double the effect of the next person action used"),
    "green_extra": ("Green God", "use a second, different person action"),
    "yellow": ("Yellow God", "a task needs one requirement less and scores 4 VP"),
}
PHASE_WORDS = {
    "setup": "set-up", "A": "phase A: dice and actions", "B": "phase B: men and women",
    "C_jewelry": "phase C: jewelry", "C_task": "phase C: tasks", "C_take_task": "phase C: new tasks",
    "final": "game end: the remaining tasks", "end": "game over",
}
SOURCE_WORDS = {
    "start": "starting points", "fishing": "fishing", "helper": "Helper", "person": "men and women",
    "temple": "priests in the temple", "status": "status track", "buildings": "buildings", "tasks": "tasks",
    "red_god": "fish scored with the Red God", "jewelry": "jewelry", "fish_tiles": "fish tiles at the end",
    "god_tiles": "unused God tiles", "goal_tasks": "goal: 9 tasks", "goal_jewelry": "goal: 6 jewelry",
    "goal_ceremony": "goal: 12 ceremony spaces", "goal_buildings": "goal: 6 buildings",
    "goal_regions": "goal: huts in 12 regions", "goal_persons": "goal: 12 men and women",
}
DECISION_WORDS = {
    "setup_hut": "Place a first hut on a region next to a 1-fish tile",
    "die": "Place a die on an action tile",
    "helper": "Helper: spend the die points",
    "expand": "Expand: choose the region for the new hut",
    "red_god": "Score the new region's fish tile with a Red God?",
    "material": "Put the building material on a ceremony space",
    "material_any": "Building materials: choose a material",
    "person": "Take a man or woman tile from the display",
    "temple": "Temple: choose the space for the priest",
    "build_tile": "Build: choose a building tile",
    "build_pair": "Build: choose the two ceremony spaces it covers",
    "fire_bonus_god": "Fire Bonus: a God card or an offering",
    "fire_bonus_status": "Fire Bonus: a status step or a shell",
    "take_god_card": "Take a God card",
    "phase_b": "Phase B: use a man action and a woman action",
    "jewelry": "Buy a jewelry tile?",
    "task": "Complete a task",
    "take_task": "Take a new task tile",
    "final_tasks": "Game end: complete the remaining tasks",
}
RULES_HINTS = {
    "setup_hut": "In reverse turn order, each player puts a hut on an empty building space of a region next to a "
                 "1-fish tile and takes that region's building material or offering.",
    "die": "The die must show less than the lowest die already on that action tile (a Blue God lifts this, a White "
           "God makes it act as a 6); Fishing takes any die for 2 VP.",
    "helper": "Each die point buys a tattoo (man), a woman's shells or 1 VP; two points buy an offering, a God card, "
              "a building material or a hut moved to the 12th space. Points not spent are lost.",
    "expand": "Put a hut in a region next to one of yours, along a path no higher than your die (or your persons' "
              "strength); no diagonals, one hut per region.",
    "red_god": "A Red God (paid with an offering) scores the new region's fish tile now; each fish tile scores once "
               "per player.",
    "material": "A building material goes on a free ceremony space of its own kind on your player board.",
    "material_any": "Take a building material of your choice for a matching free ceremony space (beside your board "
                    "if none is free).",
    "person": "Take a tile from a position no higher than your die; it fills a free space of your board and acts "
              "from phase B on.",
    "temple": "Put a priest on a temple space no higher than your die; priests there shift along the arrows. A new "
              "priest gives the Fire Bonus.",
    "build_tile": "Build a tile of value no higher than your die on two adjacent ceremony spaces with materials: 10, "
                  "7 or 4 VP by round, and the Fire Bonus.",
    "build_pair": "The building covers two horizontally or vertically adjacent ceremony spaces holding materials.",
    "fire_bonus_god": "Fire Bonus: first a God card or an offering, then a status step or a shell.",
    "fire_bonus_status": "Fire Bonus: first a God card or an offering, then a status step or a shell.",
    "take_god_card": "Take the top card of the draw pile or one of the five face-up God cards.",
    "phase_b": "In turn order, use at most one man action and one woman action (identical tiles act together); a "
               "Green God doubles one or adds a second kind.",
    "jewelry": "In the new turn order, buy at most one jewelry tile of this round's column for its cost in shells; "
               "it scores its VP at the end.",
    "task": "Complete one of your three tasks for 6 VP (4 VP with a Yellow God replacing one requirement); if none "
            "can be completed, surrender one for 0 VP.",
    "take_task": "Take a new task tile from the display for the freed space (also in round 6).",
    "final_tasks": "After round 6, complete your remaining tasks: 6 VP each, 4 VP with a Yellow God.",
}
_REQUIREMENTS = {               # TASK_REQUIREMENT_KINDS: (one, many) with {n} the count and {p} the parameter
    "men": ("a man tile", "{n} man tiles"),
    "women": ("a woman tile", "{n} woman tiles"),
    "priests": ("a priest in the temple", "{n} priests in the temple"),
    "jewelry": ("a jewelry tile", "{n} jewelry tiles"),
    "first_player": ("turn order tile #1", "turn order tile #1"),
    "regions": ("a hut in a region", "huts in {n} regions"),
    "islands": ("a hut on an island", "huts on {n} islands"),
    "god_cards_of_colour": ("a {p} God card", "{n} {p} God cards"),
    "god_cards_one_colour": ("a God card", "{n} God cards of one colour"),
    "god_colours": ("a God card", "{n} different God cards"),
    "man_types": ("a man tile", "{n} different man tiles"),
    "woman_types": ("a woman tile", "{n} different woman tiles"),
    "jewelry_kinds": ("a jewelry tile", "{n} different jewelry tiles"),
    "buildings": ("a building built", "{n} buildings built"),
    "jewelry_of_kind": ("a {p} jewelry tile", "{n} {p} jewelry tiles"),
    "god_tiles": ("a God tile", "{n} God tiles"),
    "offerings": ("an offering", "{n} offerings"),
    "shells": ("a shell", "{n} shells"),
    "material": ("a {p}", "{n} {p}"),
    "materials": ("a building material", "{n} building materials"),
    "terrain_regions": ("a hut in a {p} region", "huts in {n} {p} regions"),
    "fish_type_regions": ("a hut by a type-{p} fish tile", "huts in {n} regions with type-{p} fish tiles"),
    "huts_on_12th_space": ("a hut on the 12th space", "{n} huts on the 12th space"),
    "men_shifted": ("a tattooed man", "{n} tattooed men"),
    "women_shifted": ("a woman shifted down", "{n} women shifted down"),
    "persons_shifted": ("a person tile shifted down", "{n} person tiles shifted down"),
    "persons_of_type": ("a person tile with {p}", "{n} person tiles with {p}"),
}
assert set(_REQUIREMENTS) == set(TASK_REQUIREMENT_KINDS) and set(DECISION_WORDS) == set(_engine.DECISIONS)
assert set(RULES_HINTS) == set(_engine.DECISIONS) and set(PHASE_WORDS) == set(_engine.PHASES)
assert set(SOURCE_WORDS) == set(_engine.SOURCES) and set(GOD_WORDS) == set(_engine.GOD_EFFECTS)
assert set(DIE_ACTION_WORDS) == set(_engine.DIE_ACTIONS) and set(PERSON_TYPE_WORDS) == set(PERSON_TYPES)


def plural(count: int, one: str, many: str | None = None) -> str:
    """"1 shell", "3 shells"."""
    return f"{count} {one if count == 1 else many or one + 's'}"


def region_name(c: Components, region: int) -> str:
    """A region as the map shows it, its island and terrain ("North beach"); where a component file gives an
    island two regions of one terrain, they are told apart by their place on the island."""
    island = c.island_names[int(c.region_island[region])]
    terrain = TERRAINS[int(c.region_terrain[region])]
    twins = [r for r in range(len(c.region_ids)) if int(c.region_island[r]) == int(c.region_island[region])
             and int(c.region_terrain[r]) == int(c.region_terrain[region])]
    name = f"{island.capitalize()} {terrain}"
    return name if len(twins) == 1 else f"{name} {twins.index(region) + 1}"


def tile_face(c: Components, tile: int) -> str:
    """What a man or woman tile shows: its action and its printed symbols ("action Land Path, 2 shells")."""
    symbols = int(c.person_symbols[tile])
    printed = plural(symbols, "status symbol") if SEXES[int(c.person_sex[tile])] == "man" else plural(symbols, "shell")
    return f"action {PERSON_TYPE_WORDS[PERSON_TYPES[int(c.person_type[tile])]]}, {printed}"


def action_tiles(players: int) -> list[tuple[int, str]]:
    """The action tiles beside the board for `players` players, by their slot in the engine's lowest-die table
    (Helper, Temple, Build, Man, Woman, Land Path, Water Path): with 2 and 3 players some are combined."""
    names = ["Helper", "Temple", "Build", "Man", "Woman", "Land Path", "Water Path"]
    if players <= 3:
        names[5:7] = ["Land / Water Path", ""]
    if players <= 2:
        names[3:5] = ["Man / Woman", ""]
    return [(slot, name) for slot, name in enumerate(names) if name]


def person_words(c: Components, tile: int) -> str:
    """A man or woman tile: "woman (action Land Path, 2 shells)"."""
    return f"{SEXES[int(c.person_sex[tile])]} ({tile_face(c, tile)})"


def requirement_words(c: Components, task: int) -> list[str]:
    """A task's requirements, one phrase each ("huts in 3 mountain regions")."""
    tables: dict[str, Sequence[str]] = {
        "god_cards_of_colour": GOD_COLOURS, "jewelry_of_kind": c.jewelry_kind_names, "material": MATERIALS,
        "terrain_regions": TERRAINS, "fish_type_regions": c.fish_type_names,
        "persons_of_type": [PERSON_TYPE_WORDS[t] for t in PERSON_TYPES]}
    parts = []
    for kind, count, param in zip(c.task_req_kind[task], c.task_req_count[task], c.task_req_param[task],
                                  strict=True):
        if kind < 0:
            continue
        name = TASK_REQUIREMENT_KINDS[int(kind)]
        one, many = _REQUIREMENTS[name]
        value = tables[name][int(param)] if name in tables and param >= 0 else ""
        parts.append((one if int(count) == 1 else many).format(n=int(count), p=value))
    return parts


def task_words(c: Components, task: int) -> str:
    """A task tile's requirements in one phrase: "a man tile and a woman tile"."""
    return " and ".join(requirement_words(c, task))


def jewelry_words(c: Components, tile: int) -> str:
    """A jewelry tile: "necklace: 3 shells, 4 VP"."""
    kind = c.jewelry_kind_names[int(c.jewelry_kind[tile])]
    return f"{kind}: {plural(int(c.jewelry_cost[tile]), 'shell')}, {int(c.jewelry_vp[tile])} VP"


def god_payment(payment: int, colour: str) -> str:
    """How a God is paid (payment 0: a card of its colour, 1-5: a pair of a colour, 6: a God tile)."""
    if payment == 0:
        return f"a {colour} God card and an offering"
    if payment <= len(GOD_COLOURS):
        return f"two {GOD_COLOURS[payment - 1]} God cards and an offering"
    return "a God tile"


def phase_words(phase: str) -> str:
    return PHASE_WORDS.get(phase, phase.replace("_", " "))


def describe_phase(state: _engine.State) -> str:
    """The round and phase: "Round 2, phase A: dice and actions"."""
    if state.is_terminal():
        return "Game over"
    return f"Round {state.round}, {phase_words(state.phase)}"


def describe_decision(state: _engine.State) -> str:
    """The decision the state waits on, as a question to its player ("Helper: spend your die points (4
    left)")."""
    decision = state.decision
    if decision is None:
        return "The game is over"
    top = _top(state.observation(state.current_player))
    if decision == "helper":
        return f"Helper: spend the die points ({plural(top['a'], 'point')} left)"
    if decision == "person":
        return f"Take a {SEXES[top['b']]} tile from the display (position {top['a']} or lower)"
    if decision == "take_god_card":
        return f"Take a God card ({top['a']} to take)" if top["a"] > 1 else "Take a God card"
    return DECISION_WORDS.get(decision, decision.replace("_", " "))


def rules_hint(decision: str) -> str:
    """One line of the rulebook on a decision kind (a name of `State.decision`)."""
    return RULES_HINTS.get(decision, "")


def source_words(source: str) -> str:
    return SOURCE_WORDS.get(source, source.replace("_", " "))


def _top(view: Mapping[str, Any]) -> dict[str, int]:
    """The pending decision: its kind's arguments a and b."""
    frame = view["stack"][view["sp"] - 1]
    return {"a": int(frame["a"]), "b": int(frame["b"])}


def describe_actions(state: _engine.State, actions: Sequence[int]) -> list[str]:
    """Each of `actions` (legal in `state`) in words, as its player reads it at the decision pending."""
    if not actions:
        return []
    seat = state.current_player
    view = state.observation(seat) if seat >= 0 else None
    return [_describe(state, view, int(action)) for action in actions]


def describe_action(state: _engine.State, action: int) -> str:
    return describe_actions(state, [action])[0]


def _describe(state: _engine.State, view: Mapping[str, Any] | None, action: int) -> str:
    c = state.components
    name = state.rules.action_names[action]
    decision = state.decision or ""
    words = name.split()
    if view is None:                    # a terminal state: no decision to read the action in
        return name[0].upper() + name[1:].replace("_", " ")
    seat = state.current_player
    board = view["pl"][seat]
    top = _top(view)
    helper = decision == "helper"

    def cost(item: str) -> str:
        points = int(c.helper_cost[HELPER_ACTIONS.index(item)])
        return f" ({plural(points, 'die point')})" if helper else ""

    if words[0] == "place":
        value, tile = int(words[1]), DIE_ACTION_WORDS[words[3]]
        extra = f" ({int(c.fishing_vp)} VP)" if words[3] == "fishing" else ""
        if view["white"] and words[3] != "fishing":
            extra = " (White God: it acts as a 6)"
        return f"Place a {value} on the {tile} action{extra}"
    if words[0] == "play":
        effect = _engine.GOD_EFFECTS[(action - 48) // 7]
        payment = (action - 48) % 7
        god, does = GOD_WORDS[effect]
        return f"Play the {god} ({does}), paying {god_payment(payment, effect.split('_')[0])}"
    if words[0] == "region":
        region = c.region_ids.index(words[1])
        where = region_name(c, region)
        resource = RESOURCES[int(c.region_resource[region])]
        fish = int(c.fish_value[view["fish_at"][region]])
        if decision == "setup_hut":
            return f"Place a first hut on the {where} (taking its {resource})"
        return f"Expand to the {where} ({resource}, fish tile {fish})"
    if words[0] == "ceremony" and words[1] == "space":
        space, material = int(words[2]), words[3].strip("()")
        if helper:
            return f"Buy a building material{cost('material')}: {material} on ceremony space {space}"
        if decision == "material_any":
            return f"Take {material} for ceremony space {space}"
        return f"Put the {material} on ceremony space {space}"
    if name.endswith("beside board"):
        material = words[0]
        if helper:
            return f"Buy a building material{cost('material')}: {material} beside the board (no free {material} space)"
        return f"Take {material}, beside the board (no free {material} space)"
    if name.startswith("take person at position"):
        position = int(words[-1])
        tile = view["person_display"][top["b"]][position - 1]
        if tile == NO_TILE:
            return f"Take the {SEXES[top['b']]} at position {position}"
        return f"Take the {SEXES[top['b']]} at position {position} ({tile_face(c, tile)})"
    if words[0] == "temple":
        return f"Put a priest on temple space {words[2]} (value {words[-1].strip(')')})"
    if words[0] == "building":
        return f"Build the building tile of value {words[-1].strip(')')}"
    if name.startswith("ceremony pair"):
        first, second = words[2].split("+")
        return f"Build on ceremony spaces {first} and {second}"
    if name == "god card from pile":
        return f"Take a God card from the draw pile{cost('god_card')}"
    if name.startswith("god card from display"):
        index = int(words[-1])
        card = view["god_display"][index - 1]
        colour = f"{GOD_COLOURS[card]} " if card != NO_TILE else ""
        return f"Take the face-up {colour}God card at display {index}{cost('god_card')}"
    if name == "offering":
        return f"Take an offering{cost('offering')}"
    if name == "status step":
        return "Move one step up the status track"
    if name == "shell":
        return "Take a shell"
    if name == "victory point":
        return f"Take 1 VP{cost('victory_point')}"
    if name.startswith("move hut"):
        return f"Move a hut from the player board to its 12th space{cost('move_hut')}"
    if name.startswith("shift down person"):
        slot = int(words[-1])
        tile = board["persons"][slot - 1]
        if SEXES[int(c.person_sex[tile])] == "man":
            return (f"Tattoo the man in space {slot} (+{plural(int(c.person_symbols[tile]), 'status step')})"
                    f"{cost('tattoo')}")
        return f"Collect {plural(int(c.person_symbols[tile]), 'shell')} from the woman in space {slot}{cost('shells')}"
    if words[0] == "use":
        sex, kind = words[1], words[2]
        count = sum(1 for tile in board["persons"][:board["n_persons"]]
                    if SEXES[int(c.person_sex[tile])] == sex and PERSON_TYPES[int(c.person_type[tile])] == kind)
        tiles = f" ({count} tiles together)" if count > 1 else ""
        return f"Use the {sex} action {PERSON_TYPE_WORDS[kind]}{tiles}"
    if name.startswith("buy jewelry row"):
        row = int(words[-1])
        tile = view["jewelry_display"][view["round"] - 1][row - 1]
        return f"Buy the jewelry tile of row {row}" + (f" ({jewelry_words(c, tile)})" if tile != NO_TILE else "")
    if words[0] in ("complete", "surrender"):
        slot = int(words[-1])
        task = board["tasks"][slot - 1]
        what = task_words(c, task) if task != NO_TILE else ""
        if words[0] == "surrender":
            return f"Surrender task {slot} (0 VP): {what}"
        points = "4 VP, with the Yellow God" if view["yellow"] else "6 VP"
        return f"Complete task {slot} ({points}): {what}"
    if name.startswith("take task"):
        task = view["task_display"][int(words[2]) - 1]
        return "Take the task: " + (task_words(c, task) if task != NO_TILE else f"task {words[2]}")
    if name == DONE:
        return _done(decision, top)
    return name[0].upper() + name[1:].replace("_", " ")


def _done(decision: str, top: Mapping[str, int]) -> str:
    """The words of `done`, by what it ends or declines."""
    if decision == "helper":
        return f"End the Helper action ({plural(top['a'], 'point')} left unused)"
    return {"red_god": "Do not score the fish tile", "phase_b": "End the phase B turn",
            "jewelry": "Buy no jewelry this round", "final_tasks": "Complete no more tasks"}.get(decision, "Done")


__all__ = ["describe_action", "describe_actions", "describe_decision", "describe_phase", "rules_hint", "source_words"]
