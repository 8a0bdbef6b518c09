# gupai-bot as a container: `docker compose up` (see docs/hosting.md, "In a container").
# Two stages: the first installs the package and its pinned dependencies into a virtual
# environment, the second copies only that environment onto a clean slim image, so no compiler,
# pip cache or source tree ends up in the image.
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
WORKDIR /src
RUN python -m venv /opt/gupai
# Unset (as by `docker compose build`), pip installs from PyPI. The project's own container test
# builds without a network: it mounts a folder of wheels and points PIP_FIND_LINKS at it, with
# PIP_NO_INDEX=1, so pip looks nowhere else.
ARG PIP_NO_INDEX
ARG PIP_FIND_LINKS
# Every dependency at the version in docker/constraints.txt: the same sources build the same image.
# They come first, in a layer of their own, which a change to the sources leaves as it is.
COPY docker/constraints.txt docker/constraints.txt
RUN /opt/gupai/bin/pip install --requirement docker/constraints.txt
COPY pyproject.toml README.md LICENSE ./
COPY bot bot
COPY faces faces
COPY games games
COPY rendering rendering
COPY storage storage
COPY words words
# pip and setuptools are not needed to run it: 24 MB less.
RUN /opt/gupai/bin/pip install --constraint docker/constraints.txt . \
    && /opt/gupai/bin/pip uninstall --yes --quiet pip setuptools \
    && /opt/gupai/bin/python -m compileall -q /opt/gupai/lib

FROM ${PYTHON_IMAGE}
ENV PATH=/opt/gupai/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    GUPAI_DB=/data/gupai.sqlite3 \
    GUPAI_HTTP_HOST=0.0.0.0 \
    GUPAI_HTTP_PORT=8080 \
    GUPAI_LOG_FORMAT=json
RUN groupadd --system --gid 10001 gupai \
    && useradd --system --uid 10001 --gid gupai --home-dir /data --no-create-home gupai \
    && mkdir /data && chown gupai:gupai /data
COPY --from=build /opt/gupai /opt/gupai
USER gupai
WORKDIR /data
VOLUME /data
EXPOSE 8080
# The bot answers for itself: its database and every platform it runs (GET /healthz).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 CMD ["gupai", "health"]
# `docker stop` sends SIGTERM: the bot stops taking updates, finishes what is in flight and
# exits 0 within 10 s, keeping every post it owes a chat for the next start.
STOPSIGNAL SIGTERM
CMD ["gupai", "run"]
