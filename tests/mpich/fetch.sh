#!/bin/sh
# Fetches MPICH's test suite (test/mpi of Debian's mpich source package) into
# DEST, once. apt-get source needs a deb-src entry: a private apt
# configuration under DEST adds Debian's own archive without touching the
# system's sources.
# usage: fetch.sh DEST        (DEST/test/mpi is the suite afterwards)
set -e
DEST=$1
[ -n "$DEST" ] || { echo "usage: fetch.sh DEST" >&2; exit 2; }
[ -f "$DEST/test/mpi/testlist.in" ] && exit 0
SUITE=${GPUMPI_MPICH_SUITE:-bookworm}
APT="$DEST/.apt"
mkdir -p "$APT/lists/partial" "$APT/cache/archives/partial" "$DEST/pkg"
echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $SUITE main" > "$APT/sources.list"
set -- -o Dir::Etc::SourceList="$APT/sources.list" -o Dir::Etc::SourceParts=/dev/null \
       -o Dir::State::Lists="$APT/lists" -o Dir::Cache="$APT/cache" -o APT::Sandbox::User=root -qq
apt-get "$@" update
(cd "$DEST/pkg" && apt-get "$@" source --download-only mpich)
ORIG=$(ls "$DEST"/pkg/mpich_*.orig.tar.* | head -1)
[ -f "$ORIG" ] || { echo "fetch.sh: no mpich source tarball was downloaded" >&2; exit 1; }
TOP=$(tar tf "$ORIG" | head -1 | cut -d/ -f1)
tar xf "$ORIG" -C "$DEST" --strip-components=1 "$TOP/test/mpi"
echo "MPICH test suite from $(basename "$ORIG") in $DEST/test/mpi"
