// Package deploy holds what runs orderly in containers besides
// ../Dockerfile and ../compose.yaml: the Caddyfile of the proxy in front of
// the instances. It has no code; its tests read the three files (and
// ../.dockerignore) and check that they agree with each other and with
// orderly: a static, non-root image whose command takes only flags orderly
// serve knows, instances that only the proxy reaches, with read-only root
// filesystems, one PostgreSQL database and one host token, and a proxy
// that checks /readyz on every instance and does not buffer event streams.
// Another test builds the binary as the Dockerfile does and checks that it
// is static.
package deploy
