"""Pig (the folk dice game, Scarne 1945): the game (`new_game`, its compiled `State`, compiled `random_playouts`),
its component data with provenance (the goal and the die), and everything of it the shared layers use, named in its
RECORD: heuristic styles (game.py, data/), its picture and the things a click picks (picture.py, click_targets.py),
its observation encoder (observation.py), its pieces for the question engine and its built-in question, the hold
study (questions.py, questions/), its policy-and-value network (data/network.npz, made by the command in
data/network.json), and its samples for the tests every game runs (samples.py)."""

from borabora_sim._pig import SOURCES, State, random_playouts
from borabora_sim.games import GameRecord
from borabora_sim.games.pig.components import ComponentError, PigComponents, load_components
from borabora_sim.games.pig.game import Pig, new_game, rules_for

RECORD = GameRecord(
    name="pig",
    game="borabora_sim.games.pig.game:Pig",
    picture="borabora_sim.games.pig.picture:draw",
    click_targets="borabora_sim.games.pig.click_targets:click_targets",
    encoder="borabora_sim.games.pig.observation:ENCODER",
    studies=("hold",),
    network="borabora_sim.games.pig:data/network.npz",
    questions="borabora_sim.games.pig.questions:QUESTIONS",
    samples="borabora_sim.games.pig.samples",
)

__all__ = ["RECORD", "SOURCES", "ComponentError", "Pig", "PigComponents", "State", "load_components", "new_game",
           "random_playouts", "rules_for"]
