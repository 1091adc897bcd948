"""The games of a gift question, played in worker processes: each game as played, and from each moment at
which the gift can be made, the game continued twice by the same players with the same seeds, with and without it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from borabora_sim.games import get_game
from borabora_sim.protocol import Game, GameState
from borabora_sim.questions.forms.common import studied_in_seat, studied_seats
from borabora_sim.questions.question import Question
from borabora_sim.questions.work import Rows
from borabora_sim.simulate import seated_players
from borabora_sim.vocabulary import Edit, Moment


def _play_out(state: GameState, specs: Sequence[str], seeds: Sequence[int], game: Game) -> GameState:
    from borabora_sim.players import make_player

    players = [make_player(spec, seed, game) for spec, seed in zip(specs, seeds, strict=True)]
    while not state.is_terminal():
        state.apply(players[state.current_player].choose(state))
    return state


def _moments(game: Game, edit: Edit, state: GameState, players: Sequence[Any]
             ) -> tuple[GameState, dict[int, GameState], dict[int, int]]:
    """Plays the game; the final state, the state of each round's moment (`Edit`) and the number of decisions
    before it (the replay's index)."""
    moments: dict[int, GameState] = {}
    decisions: dict[int, int] = {}
    played = 0
    while not state.is_terminal():
        if not edit.after_phase and state.round not in moments and edit.at(state):
            moments[state.round] = state.clone()
            decisions[state.round] = played
        phase, round_ = state.phase, state.round
        state.apply(players[state.current_player].choose(state))
        played += 1
        if edit.after_phase and phase == edit.after_phase != state.phase and round_ not in moments:
            moments[round_] = state.clone()
            decisions[round_] = played
    return state, moments, decisions


def _gift_task(question: Question, label: str, ids: Sequence[int], seed: int, components: str | None = None) -> Rows:
    """For rung `label` and the games `ids`: one row per (game, moment, kind) with the studied seat's score and
    first place (shared or not) with and without the gift (`with` is the edited state, or with an edit that
    `removes`, the state as it stands), and one row per game and studied seat (`real`) with its score and first
    place in the game as played. Where
    several studied seats could take the gift, one is taken (by the game's id), so that a game gives at most one
    pair per moment and kind."""
    game = get_game(question.game, components)
    edit = question.vocabulary.edits[question.edit]
    kinds = edit.kind_names(game) or ("",)
    count = question.players
    spec = question.vocabulary.rung(label).spec
    rows: Rows = []
    for game_id in ids:
        game_seed = int(game.derive_seed(seed, game_id))
        specs = studied_in_seat(question, spec, game_id % count)
        seats = studied_seats(question, specs, game_id % count)
        start = game.new_initial_state(players=count, seed=game_seed)
        final, moments, decisions = _moments(game, edit, start.clone(), seated_players(specs, game_seed, game))
        rows += [{"rung": label, "game_id": game_id, "real": True, "seat": seat, "score": final.scores()[seat],
                  "win": final.ranks()[seat] == 1} for seat in seats]
        before = start
        for round_, moment in sorted(moments.items()):
            seeds = [int(game.derive_seed(game_seed, 100 * round_ + s)) for s in range(count)]
            as_it_stands: GameState | None = None
            for kind, kind_name in enumerate(kinds):
                edited = {s: edit.apply(Moment(moment.clone(), s, kind, before, game)) for s in seats}
                ready = [s for s in seats if edited[s] is not None]
                if not ready:
                    continue
                seat = ready[game_id % len(ready)]
                if as_it_stands is None:
                    as_it_stands = _play_out(moment.clone(), specs, seeds, game)
                changed = _play_out(edited[seat], specs, seeds, game)   # type: ignore[arg-type]
                with_, without = (as_it_stands, changed) if edit.removes else (changed, as_it_stands)
                rows.append({"rung": label, "game_id": game_id, "real": False, "round": round_,
                             **({"kind": kind_name} if edit.kinds is not None else {}),
                             "score_without": without.scores()[seat], "score_with": with_.scores()[seat],
                             "win_without": without.ranks()[seat] == 1, "win_with": with_.ranks()[seat] == 1,
                             **({"own": with_.score_breakdown()[seat][edit.own_source]
                                 - without.score_breakdown()[seat][edit.own_source]} if edit.own_source else {}),
                             "seat": seat, "game_seed": game_seed, "decision": decisions[round_],
                             "players_by_seat": "|".join(specs),
                             **({"direct": edit.direct(moment)} if edit.direct is not None else {})})
            before = moment
    return rows


__all__: list[str] = []
