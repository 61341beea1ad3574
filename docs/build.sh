#!/usr/bin/env bash
# Build the documentation site into site/ with MkDocs in strict mode: a broken link, a missing page or
# an API reference that does not resolve fails the build (exit status non-zero). CI runs it.
# MkDocs comes from the active environment (`pip install ".[docs]"`), else from the checkout's .venv
# (setup.sh), else from PATH. The tour notebook is run into its page (a minute or two);
# PATIENCE_DOCS_RUN_NOTEBOOK=false shows it without running it.
set -euo pipefail
cd "$(dirname "$0")/.."
export NO_MKDOCS_2_WARNING=1
# the active environment's MkDocs first, then the checkout's .venv, then any on PATH
for mkdocs in "${VIRTUAL_ENV:+$VIRTUAL_ENV/bin/mkdocs}" .venv/bin/mkdocs "$(command -v mkdocs || true)"; do
    if [ -n "$mkdocs" ] && [ -x "$mkdocs" ]; then
        exec "$mkdocs" build --strict "$@"
    fi
done
echo 'error: no mkdocs: activate an environment with `pip install ".[docs]"` (or run `bash setup.sh`)' >&2
exit 2
