"""Every benchmark in bench/ runs: its `--smoke --json` mode (tiny-random or the smallest sizes,
seconds) exits cleanly and prints one JSON object, so a bench that breaks fails CI instead of
the next person who runs it. gpu_check.py needs GPU runs and vllm_smoke.py needs vllm: only
their argument parsing is checked here (tests/cluster/test_gpu_smoke_script.py covers more of
gpu_check.py and gpu_smoke.sh). A new bench must support `--smoke` (or be listed below)."""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
# bench/_*.py are helpers the benches share, not benches
BENCHES = sorted(p.name for p in (ROOT / "bench").glob("*.py") if not p.name.startswith("_"))
HELP_ONLY = {"gpu_check.py", "vllm_smoke.py"}  # need a GPU / vllm to do anything
# several fresh processes, each loading torch + a model (grpo_step.py: also TRL, ~25 s)
SLOW = {"train_step.py", "memory.py", "grpo_step.py"}


def run(bench: str, *args: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]),
    }
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / bench), *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=600,
        check=False,
    )


def test_every_bench_is_listed() -> None:
    assert {"rollout.py", "generation.py", "gpu_check.py"} <= set(BENCHES)


@pytest.mark.parametrize(
    "bench",
    [
        pytest.param(b, marks=pytest.mark.slow) if b in SLOW else b
        for b in BENCHES
        if b not in HELP_ONLY
    ],
)
def test_bench_smoke_runs(bench: str, tmp_path: Path) -> None:
    done = run(bench, "--smoke", "--json", tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert isinstance(figures, dict) and figures


@pytest.mark.parametrize("bench", sorted(HELP_ONLY & set(BENCHES)))
def test_bench_arguments_parse(bench: str, tmp_path: Path) -> None:
    done = run(bench, "--help", tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "usage:" in done.stdout


@pytest.fixture
def learning() -> Iterator[ModuleType]:
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        yield importlib.import_module("_learning")
    finally:
        sys.path.remove(str(ROOT / "bench"))


def test_learning_effect_by_hand(learning: ModuleType) -> None:
    # sample 1 (A > 0): mean change (+0.2 + 0.4) / 2 = +0.3; sample 2 (A < 0): mean -0.1, signed
    # +0.1; sample 3 (A = 0): 0. Mean over the three samples: 0.4 / 3
    before = [[-1.0, -2.0], [-0.5], [-3.0]]
    after = [[-0.8, -1.6], [-0.6], [-1.0]]
    effect = learning.learning_effect(before, after, [1.5, -0.7, 0.0])
    assert effect == pytest.approx(0.4 / 3)
    # an update that moves every sample the wrong way has a negative effect
    assert learning.learning_effect(before, after, [-1.0, 1.0, 0.0]) == pytest.approx(-0.4 / 3)


def test_learning_check_flags_a_learner_below_the_reference(learning: ModuleType) -> None:
    effects = {"mars2-lora": 0.7e-4, "trl-lora-fp32": 1.0e-4, "mars2-lora-fp32": 0.9e-4}
    lines = learning.check_lines(
        effects, [("mars2-lora", "trl-lora-fp32"), ("mars2-lora-fp32", "trl-lora-fp32")]
    )
    assert lines[0].startswith("mars2-lora / trl-lora-fp32") and "0.70x" in lines[0]
    assert "LEARNS LESS" in lines[0]
    assert "0.90x" in lines[1] and lines[1].endswith(": ok")
    assert learning.effect_ratio(1.0, -2.0) is None  # a reference that does not learn
    assert (
        "reference does not learn"
        in learning.check_lines({"a": 1.0, "b": -1.0}, [("a", "b"), ("a", "missing")])[0]
    )


def test_trained_change_of_a_lora_layer(learning: ModuleType) -> None:
    import torch
    from peft import LoraConfig, get_peft_model

    class Tiny(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.proj = torch.nn.Linear(3, 2, bias=False)

    torch.manual_seed(0)
    model = get_peft_model(Tiny(), LoraConfig(r=2, lora_alpha=4, target_modules=["proj"]))
    layer = model.base_model.model.proj
    with torch.no_grad():
        layer.lora_A["default"].weight.copy_(torch.tensor([[1.0, 0.0, 2.0], [0.0, 1.0, 0.0]]))
        layer.lora_B["default"].weight.copy_(torch.tensor([[1.0, 0.0], [0.0, 3.0]]))
    factors = learning.trained_change(model)["lora"]
    assert list(factors) == ["proj.weight"]  # the base model's own name
    # scaling alpha / r = 2: 2 * B @ A
    delta = learning.lora_delta(factors["proj.weight"])
    assert delta.tolist() == [[2.0, 0.0, 4.0], [0.0, 6.0, 0.0]]


@pytest.fixture
def llamacpp() -> Iterator[ModuleType]:
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        yield importlib.import_module("_llamacpp")
    finally:
        sys.path.remove(str(ROOT / "bench"))


def test_llama_cpp_rows_skip_with_the_install_command(
    llamacpp: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "llama_cpp" else real(name)
    )
    why = llamacpp.missing()
    assert why is not None and "pip install llama-cpp-python" in why


def test_llama_cpp_sampling_keeps_the_top_p_nucleus(llamacpp: ModuleType) -> None:
    import numpy as np

    logits = np.log(np.array([0.5, 0.3, 0.2]))
    rng = np.random.default_rng(0)
    # top-p 0.4: the first token alone reaches it; its log-prob is of the uncut distribution
    assert [llamacpp.sample(logits, 1.0, 0.4, rng)[0] for _ in range(20)] == [0] * 20
    assert llamacpp.sample(logits, 1.0, 0.4, rng)[1] == pytest.approx(np.log(0.5))
    # top-p 0.6: tokens 0 and 1 (0.5 + 0.3 >= 0.6), never token 2
    assert {llamacpp.sample(logits, 1.0, 0.6, rng)[0] for _ in range(200)} == {0, 1}
    # temperature 0.5 squares the odds: p = [25, 9, 4] / 38
    assert llamacpp.sample(logits, 0.5, 0.4, rng)[1] == pytest.approx(np.log(25 / 38))


def test_f16_copy_of_a_gguf(llamacpp: ModuleType, tmp_path: Path) -> None:
    import gguf
    import numpy as np

    source = tmp_path / "tiny.gguf"
    writer = gguf.GGUFWriter(source, "llama")
    writer.add_file_type(7)  # Q8_0
    weight = np.linspace(-1.0, 1.0, 64, dtype=np.float32).reshape(2, 32)
    quantized = gguf.quants.quantize(weight, gguf.GGMLQuantizationType.Q8_0)
    writer.add_tensor("w", quantized, raw_dtype=gguf.GGMLQuantizationType.Q8_0)
    writer.add_tensor("norm", np.ones(32, dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    out = llamacpp.f16_gguf(source, tmp_path / "tiny.F16.gguf")
    reader = gguf.GGUFReader(out)
    assert reader.fields["general.file_type"].contents() == 1  # F16
    tensors = {t.name: t for t in reader.tensors}
    assert tensors["w"].tensor_type == gguf.GGMLQuantizationType.F16
    assert tensors["norm"].tensor_type == gguf.GGMLQuantizationType.F32
    expected = gguf.quants.dequantize(quantized, gguf.GGMLQuantizationType.Q8_0)
    assert np.array(tensors["w"].data).reshape(2, 32) == pytest.approx(expected, abs=1e-3)
