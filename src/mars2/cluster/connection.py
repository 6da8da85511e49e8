"""Connecting to a Ray cluster (or starting one on this machine) and waiting on actor calls
with a bound, so a dead or stuck actor becomes an InfraError instead of a hang."""

from __future__ import annotations

import asyncio
import logging
from types import ModuleType
from typing import Any

from mars2.config import ClusterConfig
from mars2.errors import InfraError, UserError

log = logging.getLogger(__name__)

RESUME_HINT = "the run can continue from its last checkpoint with `mars2 train --resume RUN_DIR`"


def require_ray() -> ModuleType:
    """The `ray` module, or a UserError saying how to install it."""
    try:
        import ray
    except ImportError as err:
        raise UserError(
            f"cluster.backend=ray needs Ray: pip install 'mars2[ray]' ({err})"
        ) from None
    return ray


def connect(cluster: ClusterConfig) -> bool:
    """Join the cluster of `cluster.address` (`auto`, `ray://host:port`, ...) or, when it is null,
    start a local one sized to this machine. Reuses a connection this process already has.
    Returns True when this call connected (so the caller disconnects when done)."""
    ray = require_ray()
    if ray.is_initialized():
        return False
    try:
        if cluster.address is None:
            ray.init(include_dashboard=False)
        else:
            ray.init(address=cluster.address)
    except ConnectionError as err:
        raise InfraError(
            f"cluster.address={cluster.address!r}: cannot reach a Ray cluster: {err}{_auth_hint(err)}"
        ) from err
    except Exception as err:  # Ray raises a plain Exception when a local node fails to start
        raise InfraError(
            f"cluster.address={cluster.address!r}: Ray did not start: {_first_line(err)}; on a busy "
            "machine try again, or start a cluster once (`ray start --head`) and set "
            "cluster.address=auto"
        ) from err
    log.info("ray cluster resources: %s", ray.cluster_resources())
    return True


def _auth_hint(err: BaseException) -> str:
    """What to do when the cluster refused this driver's (missing) token: a head started by
    `ray start --head` uses token authentication by default since Ray 2.5x, and Ray sends the
    token only to `address=auto`, never to an explicit address unless RAY_AUTH_MODE=token."""
    causes = f"{err} {err.__cause__} {err.__context__}"
    if "InvalidAuthToken" not in causes and "Unauthenticated" not in causes:
        return ""
    return (
        "; the cluster uses Ray token authentication and this driver sent no token: run with "
        "RAY_AUTH_MODE=token and the cluster's token in ~/.ray/auth_token (or RAY_AUTH_TOKEN), "
        "or use cluster.address=auto on a node of the cluster "
        "(https://docs.ray.io/en/latest/ray-security/token-auth.html)"
    )


def get(refs: Any, timeout_s: float, what: str) -> Any:
    """`ray.get` bounded by `timeout_s`; actor deaths and timeouts raise InfraError naming `what`."""
    ray = require_ray()
    try:
        return ray.get(refs, timeout=timeout_s)
    except ray.exceptions.GetTimeoutError:
        raise InfraError(f"{what}: no answer within cluster.timeout_s={timeout_s:g} s") from None
    except ray.exceptions.RayActorError as err:
        raise InfraError(f"{what}: the actor died ({_death(err)}); {RESUME_HINT}") from err


async def wait(ref: Any, timeout_s: float, what: str) -> Any:
    """Await an ObjectRef on the event loop, with the same bound and errors as `get`."""
    ray = require_ray()
    try:
        return await asyncio.wait_for(ref, timeout_s)
    except TimeoutError:
        ray.cancel(ref)
        raise InfraError(f"{what}: no answer within cluster.timeout_s={timeout_s:g} s") from None
    except ray.exceptions.RayActorError as err:
        raise InfraError(f"{what}: the actor died ({_death(err)}); {RESUME_HINT}") from err


def _death(err: BaseException) -> str:
    """Ray's account of an actor's death on one line: its first line, the actor's class, pid
    and node address, and why (e.g. 'its node has died. Node Id: ...'), without the rest."""
    lines = str(err).strip().splitlines()
    if not lines:
        return type(err).__name__
    fields = dict(
        line.strip().split(": ", 1) for line in lines[1:] if line.startswith("\t") and ": " in line
    )
    where = ", ".join(f"{k} {fields[k]}" for k in ("class_name", "pid", "ip") if k in fields)
    why = [line.strip() for line in lines[1:] if line.strip() and not line.startswith("\t")]
    return "; ".join(filter(None, [lines[0].strip().rstrip("."), where, *why]))


def _first_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__
