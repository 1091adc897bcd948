"""Where a question's games are played and kept: paired arms through the simulator (a resumable run directory
each) and game-by-game tasks in worker processes (each task's rows kept as a file), so that an interrupted
question continues where it stopped; a progress bar with the time left; and the CPU seconds the games took."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from borabora_sim import experiments, files
from borabora_sim.runs import RunDirectory
from borabora_sim.studies.progress import step_bar

Rows = list[dict[str, Any]]
BATCH_ID_STRIDE = 1_000_000          # game ids of batch b start at b * BATCH_ID_STRIDE, so batches concatenate


def fingerprint(settings: object) -> str:
    """A short name for settings (a JSON-able object): the folder its work is kept in."""
    return hashlib.sha256(json.dumps(settings, sort_keys=True, default=str).encode()).hexdigest()[:12]


class Work:
    """Plays a question's games: `folder` keeps them (None: in memory only), `jobs` worker processes on the
    joblib `backend` ("loky", or "dask" with `scheduler`), `deadline` (a `time.monotonic()` value, or None) bounds
    the batches added for precision; with `kept_only`, a batch beyond the first is used only if it is kept.
    `cpu` sums the seconds the games took, kept or played now; `played` says whether any game was played now (not
    only read from those kept)."""

    def __init__(self, folder: Path | None, jobs: int = -1, backend: str = "loky", scheduler: str | None = None,
                 progress: bool | None = None, deadline: float | None = None, kept_only: bool = False) -> None:
        self.folder = folder
        self.kept_only = kept_only
        self.jobs = jobs
        self.backend = backend
        self.scheduler = scheduler
        self.progress = progress
        self.deadline = deadline
        self.cpu = 0.0
        self.cpu_unknown = False            # some games were kept by an older run that did not record their CPU
        self.played = False
        if folder is not None:
            files.make_directory(folder)

    def may_play(self, names: Sequence[str]) -> bool:
        """Whether a batch of these games (arms or tasks by name) may be played: always, unless only the games kept
        may be used (`kept_only`, to write a report again), and then only if they are all kept."""
        return not self.kept_only or (self.folder is not None and all((self.folder / name).exists()
                                                                        for name in names))

    def time_left(self, shares: int = 1) -> float:
        """The seconds until the deadline divided among `shares` parts still to run (infinite without one, or when
        only the games kept are used)."""
        if self.deadline is None or self.kept_only:
            return float("inf")
        return max(0.0, self.deadline - time.monotonic()) / max(1, shares)

    def arm(self, key: str, players: Sequence[str], games: int, seed: int, batch: int = 0,
            components: str | None = None, game: str = "bora_bora") -> pd.DataFrame:
        """The player rows of `games` games of `players` (seats rotating; `position` is the index into `players`)
        from the batch seed of (`seed`, `batch`), game ids offset by batch; kept under `key` and resumed."""
        out = None if self.folder is None else self.folder / f"{key}-b{batch}"
        extra: dict[str, Any] = {"backend": self.backend}
        if self.scheduler is not None:
            extra["scheduler"] = self.scheduler
        if out is not None:
            extra.update(out=str(out), resume=(out / "manifest.json").exists())
        self.played = self.played or out is None or not _all_kept(out)
        frame = experiments.simulate_arm(players, games, experiments.batch_seed(seed, batch), n_jobs=self.jobs,
                                         simulate_fn=self._simulate, components=components, game=game, **extra)
        self.cpu += float(frame.drop_duplicates("game_id")["wall_time"].sum())
        return frame.assign(game_id=frame["game_id"] + batch * BATCH_ID_STRIDE)

    def _simulate(self, *args: Any, **kwargs: Any) -> pd.DataFrame:
        """The simulator with this work's progress bar (an arm's run is long enough to want one)."""
        from borabora_sim.simulate import simulate

        kwargs["progress"] = self.progress
        frame = simulate(*args, **kwargs)
        assert frame is not None, "the rows are loaded"
        return frame

    def tasks(self, key: str, function: Callable[..., Rows], arguments: Sequence[tuple[Any, ...]],
              label: str) -> Rows:
        """The rows of `function(*args)` for each of `arguments`, in their order, run on the workers; each task's
        rows are kept under `key` so that a rerun plays only what is missing."""
        folder = None if self.folder is None else self.folder / key
        if folder is not None:
            files.make_directory(folder)
            files.remove_temporaries(folder)
        done: dict[int, Rows] = {}
        for index in range(len(arguments)):
            path = None if folder is None else folder / f"task{index}.json"
            if path is not None and path.exists():
                kept = files.read_json(path, "the rows of a finished task", "delete the file to replay it")
                if isinstance(kept, dict):                      # {"seconds": CPU, "rows": [...]}
                    self.cpu += float(kept["seconds"])
                    kept = kept["rows"]
                else:                                           # rows kept without their CPU time
                    self.cpu_unknown = True
                done[index] = kept
        todo = [i for i in range(len(arguments)) if i not in done]
        self.played = self.played or bool(todo)
        with step_bar(len(arguments), label, "task", self.progress) as bar:
            bar.update(len(done))
            for index, seconds, rows in self._run(function, [(i, arguments[i]) for i in todo]):
                self.cpu += seconds
                done[index] = rows
                if folder is not None:
                    text = json.dumps({"seconds": seconds, "rows": rows}, default=_plain).encode()
                    files.write_bytes(folder / f"task{index}.json", text)
                bar.update(1)
        return [row for index in range(len(arguments)) for row in done[index]]

    def _run(self, function: Callable[..., Rows], indexed: list[tuple[int, tuple[Any, ...]]]
             ) -> Iterable[tuple[int, float, Rows]]:
        if self.jobs == 1 or len(indexed) <= 1:
            return (_timed(function, index, args) for index, args in indexed)
        from joblib import Parallel, delayed, effective_n_jobs, parallel_config

        if self.backend == "dask":
            from dask.distributed import Client, LocalCluster

            cluster = None if self.scheduler else LocalCluster(n_workers=min(effective_n_jobs(self.jobs),
                                                                             len(indexed)),
                                                               threads_per_worker=1, processes=True,
                                                               dashboard_address=None)
            client = Client(self.scheduler) if self.scheduler else Client(cluster)
            try:
                with parallel_config(backend="dask"):
                    return list(Parallel(n_jobs=self.jobs)(delayed(_timed)(function, index, args)
                                                           for index, args in indexed))
            finally:
                client.close()              # only the client of a user's scheduler: the cluster stays up
                if cluster is not None:
                    cluster.close()
        return Parallel(n_jobs=self.jobs, backend=self.backend, return_as="generator_unordered")(
            delayed(_timed)(function, index, args) for index, args in indexed)


def _all_kept(out: Path) -> bool:
    """Whether the simulation run in `out` was started and has every chunk of its games in place."""
    run = RunDirectory(out)
    config = run.read_manifest()
    return config is not None and len(run.done_chunks()) == len(config.chunks())


def _timed(function: Callable[..., Rows], index: int, args: tuple[Any, ...]) -> tuple[int, float, Rows]:
    began = time.process_time()
    rows = function(*args)
    return index, time.process_time() - began, rows


def _plain(value: object) -> object:
    """numpy scalars as plain numbers, for the JSON of a task's rows."""
    item = getattr(value, "item", None)
    if callable(item):
        return item()
    raise TypeError(f"cannot keep a {type(value).__name__} in a task's rows")


__all__ = ["BATCH_ID_STRIDE", "Work", "fingerprint"]
