#!/usr/bin/env bash
# Set everything up on a fresh Debian machine with Python 3.11: the solvers' Debian packages
# (SAT solvers, CBC, MiniZinc with Gecode; a JRE, a C compiler and Python's headers where missing), a virtual environment
# in .venv, and the project with its PyPI dependencies (Fast Downward, pyperplan, python-sat, clingo,
# pycsp3 with ACE/Choco, HiGHS). `bash setup.sh --browser` adds headless Chromium and its driver, which
# only the pages' browser tests need (they are skipped, with the reason, where it is missing; CI adds it).
# Safe to run again: it installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")"
browser=no
for argument in "$@"; do
    case "$argument" in
        --browser) browser=yes ;;
        *) echo "usage: bash setup.sh [--browser]" >&2; exit 2 ;;
    esac
done

debian_packages=(cadical minisat picosat cryptominisat coinor-cbc)
# MiniZinc 2.6.4 with Gecode 6.2 (the minizinc runner, and grading MiniZinc coursework)
debian_packages+=(minizinc)
# bubblewrap: `patience grade` runs each student's model in a sandbox that reads only its own files
debian_packages+=(bubblewrap)
# headless Chromium and its driver for the browser tests of the replay and report pages
[ "$browser" = no ] || debian_packages+=(chromium chromium-driver)
command -v java >/dev/null 2>&1 || debian_packages+=(default-jre-headless)
# the native solver's C search: a compiler and this Python's headers
command -v gcc >/dev/null 2>&1 || debian_packages+=(gcc libc6-dev)
python3 -c 'import os, sysconfig; os.stat(os.path.join(sysconfig.get_paths()["include"], "Python.h"))' 2>/dev/null \
    || debian_packages+=(python3-dev)
missing=()
for package in "${debian_packages[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[dev]'
