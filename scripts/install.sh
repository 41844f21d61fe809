#!/usr/bin/env bash
# Installs a release build of rdtools under PREFIX (default /usr/local): bin/rdcc with its other
# names (rdclang, rdc++, rdclang++, rdflang), bin/rda-report, lib/librdruntime.a (rdcc finds it
# at ../lib relative to itself) and include/rdtrace.h (the region-of-interest markers).
# Usage: bash scripts/install.sh [PREFIX]
set -euo pipefail
cd "$(dirname "$0")/.."
PREFIX="${1:-/usr/local}"
cargo build --release -p rdcc -p rda-report -p rdruntime
install -d "$PREFIX/bin" "$PREFIX/lib" "$PREFIX/include"
install -m 755 target/release/rdcc target/release/rda-report "$PREFIX/bin/"
install -m 644 target/release/librdruntime.a "$PREFIX/lib/"
install -m 644 runtime/include/rdtrace.h "$PREFIX/include/"
bash scripts/aliases.sh "$PREFIX/bin"
echo "installed rdcc, rdclang, rdc++, rdclang++, rdflang, rda-report under $PREFIX/bin"
