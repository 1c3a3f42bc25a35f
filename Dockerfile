# jaiph-go in a container: the static binaries on an empty base image.
# `make image` stages the build context in bin/image (the binaries of
# `make build`, this machine's CA certificates, /etc/passwd and /etc/group
# naming the user) and builds jaiph-go:dev; nothing is pulled from a
# registry. There is no shell and no other program in the image: workflows
# run in jaiph's embedded interpreter, and a step that calls an external
# program (git, curl, an agent CLI) fails with "command not found"
# (docs/deploy.md).
FROM scratch
# /usr/local/bin/jaiph and jaiph-full, /etc (passwd, group,
# ssl/certs/ca-certificates.crt) and an empty /tmp with mode 1777.
COPY root/ /
# The working directory, the home (key store: ~/.local/state/jaiph/keys)
# and /data (a broker's --store: a named volume mounted there takes its
# owner), empty and the user's.
COPY --chown=65532:65532 work/ /work/
COPY --chown=65532:65532 home/ /home/nonroot/
COPY --chown=65532:65532 data/ /data/
ENV HOME=/home/nonroot
USER 65532:65532
WORKDIR /work
ENTRYPOINT ["/usr/local/bin/jaiph"]
