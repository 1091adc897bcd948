"""Bamboo (Germán P. Millán, Devir 2023): the game (`new_game`, its compiled `State`, compiled `random_playouts`),
its component data with provenance and the balance-pattern language, and everything of it the shared layers use,
named in its RECORD: heuristic styles and tuned weights (game.py, data/), its picture and the things a click picks
(picture.py, click_targets.py), its observation encoder (observation.py), its pieces for the question engine and
its built-in questions, the spirits study among them (questions.py, questions/), its policy-and-value network
(data/network.npz, made by the command in data/network.json), and its samples for the tests every game runs
(samples.py)."""

from borabora_sim._bamboo import SOURCES, State, random_playouts
from borabora_sim.games import GameRecord
from borabora_sim.games.bamboo.components import (
    BalancePattern,
    BambooComponents,
    ComponentError,
    load_components,
    pattern_fulfilled,
)
from borabora_sim.games.bamboo.game import Bamboo, new_game, rules_for

RECORD = GameRecord(
    name="bamboo",
    game="borabora_sim.games.bamboo.game:Bamboo",
    picture="borabora_sim.games.bamboo.picture:draw",
    click_targets="borabora_sim.games.bamboo.click_targets:click_targets",
    encoder="borabora_sim.games.bamboo.observation:ENCODER",
    studies=("spirits",),
    network="borabora_sim.games.bamboo:data/network.npz",
    questions="borabora_sim.games.bamboo.questions:QUESTIONS",
    samples="borabora_sim.games.bamboo.samples",
)

__all__ = [
    "RECORD", "SOURCES", "BalancePattern", "Bamboo", "BambooComponents", "ComponentError", "State", "load_components",
    "new_game", "pattern_fulfilled", "random_playouts", "rules_for",
]
