"""Joining a Ray cluster, and where tasks and actors may run."""

import contextlib
import logging
import os
from pathlib import Path

from wordvec.distributed import require_ray
from wordvec.errors import WordvecError

log = logging.getLogger(__name__)
LOCAL = "local"  # ``--ray`` without an address: a private cluster on this machine


@contextlib.contextmanager
def connect(address=LOCAL):
    """Connected to the cluster at ``address`` (``HOST:PORT``, ``auto``) or, for ``local``,
    to a fresh private cluster on this machine; disconnects (and stops a private cluster)
    on leaving.  Already connected (a test, a notebook): uses that connection as it is."""
    ray = require_ray()
    if ray.is_initialized():
        yield ray
        return
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # never phone home
    # workers import wordvec from where this process does (a source checkout included)
    source_root = str(Path(__file__).resolve().parents[2])
    path = os.pathsep.join(p for p in (source_root, os.environ.get("PYTHONPATH")) if p)
    options = dict(runtime_env={"env_vars": {"PYTHONPATH": path}}, logging_level=logging.WARNING,
                   log_to_driver=True)
    try:
        if address in (None, LOCAL):
            ray.init(include_dashboard=False, **options)
        else:
            ray.init(address=address, **options)
    except (ConnectionError, RuntimeError, ValueError) as error:
        where = "a local Ray cluster" if address in (None, LOCAL) else f"the Ray cluster at {address}"
        message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise WordvecError(f"cannot connect to {where}: {message}") from None
    try:
        yield ray
    finally:
        ray.shutdown()


def get(refs):
    """``ray.get``, re-raising a ``WordvecError`` that a task or actor raised as itself, so
    that bad input still ends in one sentence rather than a remote traceback."""
    ray = require_ray()
    from ray.exceptions import RayTaskError

    try:
        return ray.get(refs)
    except RayTaskError as error:
        cause = getattr(error, "cause", None)
        if isinstance(cause, WordvecError):
            raise cause from None
        raise


def worker_nodes():
    """(node id, CPUs) of every live node that offers CPUs, in a stable order."""
    ray = require_ray()
    nodes = [(node["NodeID"], int(node["Resources"].get("CPU", 0)))
             for node in ray.nodes() if node.get("Alive") and node["Resources"].get("CPU", 0) >= 1]
    if not nodes:
        raise WordvecError("the Ray cluster has no live node with a CPU to run on")
    return sorted(nodes)


def total_cpus():
    return sum(cpus for _, cpus in worker_nodes())


def on_node(node_id, soft=False):
    """A scheduling strategy that pins an actor to ``node_id`` (``soft``: or elsewhere if it died)."""
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    return NodeAffinitySchedulingStrategy(node_id=node_id, soft=soft)
