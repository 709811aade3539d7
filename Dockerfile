# One image for all six nodes; the command picks the node (`twin serve <node>`).
FROM python:3.11-slim AS base
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 UV_LINK_MODE=copy UV_PROJECT_ENVIRONMENT=/venv
RUN pip install --no-cache-dir uv==0.13.9
WORKDIR /app
COPY pyproject.toml uv.lock README.md ./
RUN uv sync --frozen --no-dev --no-install-project
COPY contracts ./contracts
COPY services ./services
RUN uv sync --frozen --no-dev
# Bound beyond loopback, so `twin` refuses to start without TWIN_NODE_TOKEN, as compose.yaml
# requires it (`docker run -e TWIN_NODE_TOKEN=… -p …`); TWIN_ALLOW_OPEN=1 serves it open anyway.
ENV PATH=/venv/bin:$PATH TWIN_HOST=0.0.0.0 TWIN_CACHE=/opt/twin-cache
# The embedder's model files (float32 and int8, weights memory-mapped), built once here
# rather than at every container's first start (`nobody` has no writable home).
RUN python -c "from services.core.minilm import MiniLMEmbedder; MiniLMEmbedder().embed_sync(['ok'])"
# pulse-decay 8101, graph-hydrator 8102, rag-gate 8103, envelope-validator 8104,
# reflection-writer 8105, memory-upserter 8106 (compose.yaml probes each on /readyz)
EXPOSE 8101-8106
USER nobody
ENTRYPOINT ["twin"]
CMD ["up"]
