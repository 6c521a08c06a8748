# syntax=docker/dockerfile:1
#
# orderly's container image: a static Go binary (modernc.org/sqlite is pure
# Go, the web page is embedded) on distroless, run as a numeric non-root
# user, able to run with a read-only root filesystem: it writes only under
# /data (the SQLite file, when no PostgreSQL URL is given) and /tmp.
#
#   docker build -t orderly .
#
# One container on an SQLite file (mount a tmpfs on /tmp when the root
# filesystem is read-only):
#
#   docker run --read-only --tmpfs /tmp -v orderly-data:/data -p 8080:8080 \
#     -e ORDERLY_HOST_TOKEN=... orderly serve --addr 0.0.0.0:8080 --host club.example.org
#
# Several instances on PostgreSQL behind a proxy: see compose.yaml.
#
# The base images are pinned by tag. To pin by digest as well (a tag can be
# moved), look the digest up with
#   docker buildx imagetools inspect golang:1.26-bookworm
#   docker buildx imagetools inspect gcr.io/distroless/static-debian12:nonroot
# and write it after the tag, e.g.
#   FROM --platform=$BUILDPLATFORM golang:1.26-bookworm@sha256:<digest> AS build
# (Dependabot or Renovate can then keep the digests up to date.)

# The build runs on the builder's own platform and cross-compiles for the
# target one (the binary is pure Go), so a multi-platform build such as
#   docker buildx build --platform linux/amd64,linux/arm64 .
# never emulates the compiler.
FROM --platform=$BUILDPLATFORM golang:1.26-bookworm AS build
WORKDIR /src

# The module download is its own layer: it is redone only when go.mod or
# go.sum change, not at every change of the source.
COPY go.mod go.sum ./
RUN go mod download && go mod verify

COPY . .
ARG TARGETOS
ARG TARGETARCH
# Static (no cgo, so no libc and no dynamic loader), with no local paths
# (-trimpath) and no symbol tables (-s -w). The build cache is a cache
# mount: it speeds up rebuilds without entering the image.
RUN --mount=type=cache,target=/root/.cache/go-build \
    GOOS=$TARGETOS GOARCH=$TARGETARCH \
    CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o /out/orderly ./cmd/orderly

# The run stage has no shell to mkdir with: /data is made here and copied
# over with its owner.
RUN mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot

ARG VERSION=dev
ARG REVISION=unknown
LABEL org.opencontainers.image.title="orderly" \
      org.opencontainers.image.description="Umpire server for horse-and-musket wargames: the rules' dice and lookup tables, fog of war, and a web map for each side" \
      org.opencontainers.image.version="$VERSION" \
      org.opencontainers.image.revision="$REVISION" \
      org.opencontainers.image.base.name="gcr.io/distroless/static-debian12:nonroot"

# distroless/static has the CA certificates (for a PostgreSQL server over
# TLS), tzdata, /etc/passwd with the user nonroot (65532) and a /tmp.
COPY --from=build /out/orderly /orderly
COPY --from=build --chown=65532:65532 /out/data /data

# Numeric, so that a runtime which checks runAsNonRoot (Kubernetes) can
# tell that it is not root without reading /etc/passwd.
USER 65532:65532
WORKDIR /data
# Without --db or ORDERLY_DB the server would make orderly.db in its working
# directory: /data, the only place it may write. compose.yaml sets a
# postgres:// URL instead.
ENV ORDERLY_DB=/data/orderly.db
# A named volume mounted here takes the owner above (a bind mount keeps its
# host owner: chown it to 65532 there).
VOLUME ["/data"]

EXPOSE 8080
# No HEALTHCHECK: the image has no shell or HTTP client to run one. The
# proxy checks GET /readyz itself (deploy/Caddyfile); an orchestrator can
# probe GET /healthz (liveness) and GET /readyz (readiness) over HTTP.
# orderly handles SIGTERM (the default stop signal) and shuts down within
# 5 s.
ENTRYPOINT ["/orderly"]
CMD ["serve", "--addr", "0.0.0.0:8080"]
