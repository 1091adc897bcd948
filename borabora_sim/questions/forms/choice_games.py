"""The games of a choice question, played in worker processes: every decision of the studied seat with an
option of the group beside others, each legal option judged by paired rollouts (`counterfactual.judge_game`, with
the rechecked advantage free of selection bias) or, with no judge, the decision counted; and the judges, with the
files they read."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from borabora_sim.counterfactual import RolloutJudge, judge_game
from borabora_sim.games import get_game
from borabora_sim.protocol import Game, GameState
from borabora_sim.questions.forms.common import studied_in_seat, studied_seats
from borabora_sim.questions.question import NETWORK_JUDGE, NO_JUDGE, Question, Size
from borabora_sim.questions.work import Rows
from borabora_sim.simulate import seated_players


def choice_judge(judge: str, rollouts: int = RolloutJudge.rollouts) -> RolloutJudge:
    """The judge of a choice question's options, over `rollouts` samples of what the mover cannot see: the game's
    network's win chance right after each option ("expert"), or paired rollouts played to the end by the heuristic
    of style `judge`."""
    if judge == NETWORK_JUDGE:
        return RolloutJudge(rollouts=rollouts, rollout="random", rollout_depth=0, network=True)
    return RolloutJudge(rollouts=rollouts, rollout="heuristic", style=judge)


def judge_files(question: Question, size: Size) -> list[tuple[Path, ...]]:
    """The files the judges of a choice question (not of parts) read at this size (RolloutJudge.files_read): one
    entry for each judge that reads any, its judge first, then its second judge where the size has it judge
    games. A judge's style read from a data file (a tuned style, every style of Pig) is one; a style written in code,
    a choice counted (judge none) and the other forms read none."""
    if question.form != "choice" or question.judge == NO_JUDGE:
        return []
    judges = [question.judge, *([question.second_judge] if question.second_judge and size.second_judge_games else [])]
    game = get_game(question.game)
    read = [choice_judge(style).files_read(game) for style in judges]
    return [files for files in read if files]


def _choice_players(question: Question, label: str, game_id: int) -> tuple[list[str], list[int]]:
    """The specs by seat of game `game_id` and the seats studied: the rung's player in one seat (rotating with the
    game) among the opponents; with `seats = "all"`, every seat it plays is studied."""
    seat = game_id % question.players
    specs = studied_in_seat(question, question.vocabulary.rung(label).spec, seat)
    return specs, studied_seats(question, specs, seat)


ROW_COLUMNS = frozenset({"game_id", "game_seed", "seat", "spec", "phase", "decision", "option", "value", "chosen",
                         "group", "option_words", "best", "advantage"})      # a judged row's own columns


def _situation(question: Question, game: Game) -> Callable[[GameState, int], dict[str, Any]]:
    situations = question.vocabulary.situations
    groups = {action: name for name in question.groups
              for action in question.vocabulary.groups[name].actions(game)}

    recorded = {name: of for name, of in situations.items() if name in question.by or name not in ROW_COLUMNS}

    def situation(state: GameState, action: int) -> dict[str, Any]:
        """Every situation of the game's vocabulary, not only the question's `by` (but those named like a column of
        the row itself): the situation in which an option is best most often is searched over all of them
        (`when.find_situation`)."""
        return {"group": groups.get(action, ""), **{name: of.of(state, action) for name, of in recorded.items()},
                "option_words": game.describe_action(state, action)}

    return situation


def _choice_task(question: Question, label: str, game_id: int, rollouts: int, style: str,
                 components: str | None = None) -> Rows:
    """The rows of one game: every option of the groups judged by rollouts of heuristic `style` at each decision
    of a studied seat where it is legal beside others; or, with no judge, every such decision counted."""
    game = get_game(question.game, components)
    groups = [question.vocabulary.groups[name] for name in question.groups]
    studied = frozenset().union(*(group.actions(game) for group in groups))
    specs, focus = _choice_players(question, label, game_id)
    situation = _situation(question, game)
    extra = {"rung": label, "player": question.vocabulary.rung(label).words, "players_by_seat": "|".join(specs)}
    if style == NO_JUDGE:
        alternatives = frozenset().union(*(group.alternative_actions(game) for group in groups))
        return [{**extra, **row} for row in _counted(game, question, game_id, specs, focus, studied, alternatives,
                                                    situation)]
    rows = judge_game(game, game_id, specs, question.seed, studied.__contains__, situation, focus=focus,
                      judge=choice_judge(style, rollouts), recheck=True)
    return [{**extra, **row, "best": row["advantage"] > 0, "tied": row["advantage"] == 0,
             "confirmed": row["advantage"] > 0 and row["recheck_advantage"] > 0} for row in rows]


def _counted(game: Game, question: Question, game_id: int, specs: Sequence[str], focus: Sequence[int],
             studied: frozenset[int], alternatives: frozenset[int],
             situation: Callable[[GameState, int], dict[str, Any]]) -> Rows:
    """Every decision of a studied seat at which an action of the groups is legal and the player takes it or one
    of its alternatives: its situation (of the move taken) and whether the player took an action of the groups."""
    game_seed = int(game.derive_seed(question.seed, game_id))
    actors = seated_players(specs, game_seed, game)
    state = game.new_initial_state(players=len(specs), seed=game_seed)
    rows: Rows = []
    while not state.is_terminal():
        seat = state.current_player
        action = actors[seat].choose(state)
        if seat in focus and action in alternatives and not studied.isdisjoint(state.legal_actions()):
            rows.append({"game_id": game_id, "seat": seat, **situation(state, action), "chosen": action in studied})
        state.apply(action)
    return rows


__all__ = ["ROW_COLUMNS", "choice_judge", "judge_files"]
