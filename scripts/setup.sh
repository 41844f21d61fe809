#!/usr/bin/env bash
# Installs what rdtools needs on Debian 12 (clang/LLVM 19, libomp) unless it is already there.
# Idempotent: a second run checks and does nothing. Needs root or sudo for apt-get.
set -euo pipefail

# chromium: the HTML report's browser test; cmake, valgrind: the CMake and cachegrind checks;
# mesa-vulkan-drivers + libvulkan1: lavapipe, the Vulkan CPU driver the `gpu` feature's tests use.
# libopenmpi-dev + openmpi-bin: OpenMPI (headers, mpicc, mpirun) for the `mpi` feature's
# parda-mpi engine (rsmpi's bindgen finds libclang-19.so.1, which clang-19 already brings).
PACKAGES=(clang-19 llvm-19-dev libomp-19-dev flang-19 libpolly-19-dev zlib1g-dev libzstd-dev make chromium cmake valgrind mesa-vulkan-drivers libvulkan1 libopenmpi-dev openmpi-bin)

missing=()
for p in "${PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}"
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null; then SUDO=sudo; else
            echo "setup: need root (or sudo) to install: ${missing[*]}" >&2
            exit 1
        fi
    fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -q
    $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Sanity checks that name the missing piece instead of failing later in a build.
command -v clang-19 >/dev/null || { echo "setup: clang-19 not on PATH after install" >&2; exit 1; }
[ -x /usr/lib/llvm-19/bin/llvm-config ] || { echo "setup: /usr/lib/llvm-19/bin/llvm-config missing" >&2; exit 1; }
command -v cargo >/dev/null || { echo "setup: cargo not found; install the Rust toolchain first" >&2; exit 1; }
echo "setup: clang-19, LLVM 19 and libomp are present"
