#!/usr/bin/env bash
# Makes rdcc's other names beside a built or installed rdcc, as symbolic links to it (as clang++
# is a link to clang): rdclang (for makefiles that pick flags by $(CC)'s name), rdc++ and
# rdclang++ (a drop-in clang++ that links the C++ standard library), rdflang (a drop-in flang).
# Usage: bash scripts/aliases.sh DIR...   (each DIR holds rdcc; safe to run again)
set -euo pipefail
for dir in "$@"; do
    if [ ! -x "$dir/rdcc" ]; then
        echo "aliases: no rdcc in $dir" >&2
        exit 1
    fi
    for name in rdclang rdc++ rdclang++ rdflang; do
        ln -sfn rdcc "$dir/$name"
    done
done
