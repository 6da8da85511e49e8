"""Runs inside vLLM's worker processes: load new weights from a safetensors file in place.

vLLM mixes this class into its workers (`worker_extension_cls`), so `collective_rpc` can call
`mars2_reload_weights` by name, with no pickled function. Imports nothing from vLLM itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


class WeightSyncExtension:
    """Worker mix-in; `self.model_runner` is the vLLM worker's model runner."""

    model_runner: Any

    def mars2_reload_weights(self, path: str) -> int:
        """Load every tensor of the safetensors file at `path`; return how many were read."""
        from safetensors import safe_open

        names: list[str] = []

        def weights() -> Iterator[tuple[str, Any]]:
            with safe_open(path, framework="pt", device="cpu") as f:
                for name in f.keys():  # noqa: SIM118 - safe_open has no __iter__
                    names.append(name)
                    yield name, f.get_tensor(name)

        runner = self.model_runner
        if hasattr(runner, "reload_weights"):
            # In-place reload: also the path that works on the CPU build.
            runner.reload_weights(weights_iterator=weights())
        else:  # older vLLM
            runner.model.load_weights(weights=weights())
        return len(names)
