"""The app's physics worker: one process, used like an executor, that outlives its own death.

Why: the worker is a separate process, so the system can kill it on its own (the out-of-memory killer, a
user's ``kill``); the pool is then broken and every job in it fails with BrokenProcessPool, which stopped the
app with an internal error in the middle of a match. The physics is deterministic, so a job whose worker
died is simply run again in a new worker: its result is the one the dead worker would have given. A job
whose worker dies a second time raises BrokenProcessPool (the job itself kills it; running it a third time
would not help).

The new worker is started from the thread that looks at the job (``done()``, ``result()``): the screens do
that from the app's main thread, the one the worker's parent-death signal is tied to
(``scenes.app.die_with_parent``).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from typing import Any


class PhysicsWorker:
    """``submit(fn, *args, **kwargs)`` like an executor; a dead worker is replaced (see the module)."""

    def __init__(self, new_pool: Callable[[], Executor]) -> None:
        self._new_pool = new_pool
        self._pool = new_pool()
        self.restarts = 0  # workers replaced so far

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Job:
        return Job(self, fn, args, kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._pool.shutdown(wait=wait, cancel_futures=cancel_futures)

    def _run(
        self, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[Executor, Future[Any]]:
        try:
            return self._pool, self._pool.submit(fn, *args, **kwargs)
        except BrokenProcessPool:  # the worker died between two jobs
            pool = self._replace(self._pool)
            return pool, pool.submit(fn, *args, **kwargs)

    def _replace(self, broken: Executor) -> Executor:
        if self._pool is broken:  # the first job to notice starts the new worker; the others use it
            broken.shutdown(wait=False, cancel_futures=True)
            self._pool = self._new_pool()
            self.restarts += 1
        return self._pool


class Job:
    """One job of :class:`PhysicsWorker`: ``done``, ``result``, ``cancel``, ``cancelled`` as a Future's."""

    def __init__(
        self, worker: PhysicsWorker, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> None:
        self._worker = worker
        self._call = (fn, args, kwargs)
        self._pool, self._future = worker._run(fn, args, kwargs)
        self._rerun = False

    def _again_if_the_worker_died(self) -> None:
        f = self._future
        if self._rerun or not f.done() or f.cancelled() or not isinstance(f.exception(), BrokenProcessPool):
            return
        self._rerun = True
        self._worker._replace(self._pool)
        self._pool, self._future = self._worker._run(*self._call)

    def done(self) -> bool:
        self._again_if_the_worker_died()
        return self._future.done()

    def result(self, timeout: float | None = None) -> Any:
        self._again_if_the_worker_died()
        try:
            return self._future.result(timeout)
        except BrokenProcessPool:
            if self._rerun:
                raise
        self._again_if_the_worker_died()
        return self._future.result(timeout)

    def cancel(self) -> bool:
        return self._future.cancel()

    def cancelled(self) -> bool:
        return self._future.cancelled()
