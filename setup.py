"""Only the compiled search lives here; the project's metadata is in pyproject.toml.

The extension is optional: where it cannot be compiled the native solver runs its Python engine."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("patience.native._search", ["patience/native/_search.c"],
                             extra_compile_args=["-O3", "-std=c99"], optional=True)])
