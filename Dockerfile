# chabudai: the Discord bot in a small image.
#   docker build -t chabudai .
#   docker run -d --name chabudai -e DISCORD_TOKEN=... -v chabudai-data:/data chabudai
# /healthz and /metrics on port 8080 inside the container (publish it with
# -p 127.0.0.1:8080:8080 for a local Prometheus); Docker asks /healthz itself.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    CHABUDAI_DB=/data/chabudai.sqlite3 \
    CHABUDAI_HTTP=:8080

WORKDIR /app
# The colour emoji font the pictures draw names' emoji with (bot/render/_base.py).
RUN apt-get update && apt-get install -y --no-install-recommends fonts-noto-color-emoji \
    && rm -rf /var/lib/apt/lists/*
# Dependencies first, so a code change does not reinstall them.
COPY pyproject.toml README.md ./
RUN mkdir -p games bot && touch games/__init__.py bot/__init__.py \
    && pip install . && pip uninstall -y chabudai && rm -rf games bot build *.egg-info
# The code and the assets (the renderers load the shipped Japanese + Latin
# font from /app/assets); installed in place so the paths hold.
COPY games ./games
COPY bot ./bot
COPY assets ./assets
RUN pip install --no-deps -e . \
    && useradd --system --uid 10001 --home-dir /data chabudai \
    && mkdir -p /data && chown chabudai /data

USER chabudai
VOLUME ["/data"]
EXPOSE 8080
# `python -m bot healthcheck` asks /healthz (where CHABUDAI_HTTP or
# CHABUDAI_METRICS_PORT says) with Python's urllib — a slim image has no curl;
# unhealthy while Discord or the database does not answer, or the endpoint is off.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot", "healthcheck"]
CMD ["python", "-m", "bot"]
