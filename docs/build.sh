#!/usr/bin/env bash
# Build the documentation site into site/ with MkDocs in strict mode: a broken link, a missing page or
# an API reference that does not resolve fails the build (exit status non-zero). CI runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
export NO_MKDOCS_2_WARNING=1
exec .venv/bin/mkdocs build --strict "$@"
