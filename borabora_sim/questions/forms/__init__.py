"""The four forms of a question, one module each, each turned into `Findings`: the tables (each effect's verdict read
from the interval printed beside it, `stats.paired_table`), the plain-language answer and the evidence, every
sentence worded from the verdicts of the tables it stands beside.

- policy (`policy`): the studied player's arms on the same seeds and seat rotations (`stats.paired_compare`);
- choice (`choice`, its games in `choice_games`): every decision of the studied seat with an option of the group
  beside others, each legal option judged by paired rollouts (`counterfactual.judge_game`, with the rechecked
  advantage free of selection bias);
- gift (`gift`, its games in `gift_games`): the game from the first decision of each round, continued with and
  without the edit on common seeds (`stats.paired_outcomes`);
- setup (`setup`): every seat played by the same player; each place in the turn order's win rate against a fair
  share (exact binomial tests and the intervals that invert them), and whether the seats' chances differ between
  setups (chi-square test of homogeneity).

What several forms share is in `common`; `FORM_RUNNERS` names each form's runner.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from borabora_sim.questions.forms import choice, gift, policy, setup
from borabora_sim.questions.forms.choice_games import judge_files
from borabora_sim.questions.forms.common import Findings, played_specs
from borabora_sim.questions.question import Question, Size
from borabora_sim.questions.work import Work

FORM_RUNNERS: dict[str, Callable[[Question, Size, Work, Path | None], Findings]] = {
    "policy": policy.policy, "choice": choice.choice, "gift": gift.gift, "setup": setup.setup}

__all__ = ["FORM_RUNNERS", "Findings", "judge_files", "played_specs"]
