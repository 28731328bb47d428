# Cartwise app image: one `cartwise serve` per container. Build: docker build -t cartwise .
# Replicas share Redis (STORE_BACKEND=redis), the catalog (INDEX_BACKEND=milvus, or one
# CARTWISE_HOME volume with FAISS) and AUTH_SECRET; see compose.yaml and the README.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    CARTWISE_HOME=/data \
    HOST=0.0.0.0 \
    PORT=8000

WORKDIR /app
COPY pyproject.toml README.md ./
COPY src ./src
RUN pip install '.[milvus]' \
    && useradd --system --uid 10001 --home-dir /data cartwise \
    && mkdir -p /data && chown cartwise /data

USER cartwise
VOLUME ["/data"]
EXPOSE 8000
# SIGTERM drains running turns for SHUTDOWN_GRACE_SECONDS, then exits 0.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=120s --retries=3 \
    CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"
CMD ["cartwise", "serve"]
