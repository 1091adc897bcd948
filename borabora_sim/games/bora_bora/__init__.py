"""Bora Bora (Stefan Feld, alea 2013): the game (`new_game`, its compiled `State`, compiled `random_playouts`) and
everything of it the shared layers use, named in its RECORD: its component data, heuristic styles and tuned weights
(game.py, data/), its picture and the things a click picks (picture.py, click_targets.py), its observation encoder
(observation.py), its questions (questions.py and the question files in questions/: fishing and priest
are its studies), its policy-and-value network (data/network.npz, made by the command in data/network.json),
and its samples for the tests every game runs (samples.py)."""

from borabora_sim._engine import SOURCES, State, random_playouts
from borabora_sim.games import GameRecord
from borabora_sim.games.bora_bora.components import ComponentError, Components, load_components
from borabora_sim.games.bora_bora.game import NUM_ACTIONS, BoraBora, new_game, rules_for

RECORD = GameRecord(
    name="bora_bora",
    game="borabora_sim.games.bora_bora.game:BoraBora",
    picture="borabora_sim.games.bora_bora.picture:draw",
    click_targets="borabora_sim.games.bora_bora.click_targets:click_targets",
    encoder="borabora_sim.games.bora_bora.observation:ENCODER",
    studies=("fishing", "priest"),
    network="borabora_sim.games.bora_bora:data/network.npz",
    questions="borabora_sim.games.bora_bora.questions:QUESTIONS",
    samples="borabora_sim.games.bora_bora.samples",
)

__all__ = [
    "NUM_ACTIONS", "RECORD", "SOURCES", "BoraBora", "ComponentError", "Components", "State", "load_components",
    "new_game", "random_playouts", "rules_for",
]
