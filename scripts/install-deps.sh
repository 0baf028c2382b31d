#!/bin/sh
# Installs what gpumpi needs from Debian's packages, if anything is missing.
# The CUDA toolkit is not a Debian package here: without /usr/local/cuda the
# threads backend still builds and the GPU build tests say they were skipped.
PKGS="cmake make gcc g++ libclang-dev mpich libmpich-dev mpich-doc bear python3 csmith libcsmith-dev autoconf automake libtool"
missing=""
for p in $PKGS; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
echo "installing:$missing"
$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
