"""Compiling the C files of one extension at once, on several cores (the accelerator's build).

setuptools compiles the sources of an extension one after another. The accelerator is one
extension of 22 C files (mypyc's `multi_file` mode), so its generated setup script calls
`compile_at_once(jobs)` before `setup()`: from then on a compiler compiles up to `jobs` files
at a time, the biggest first, and stops at the first that fails as before. Standard library
and setuptools only; the build copies this file next to the script it runs.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

# what a compiler class needs for this (every setuptools since 60 has them)
NEEDED = ("_setup_compile", "_get_cc_args", "_compile")


def compile_sources(compiler: Any, jobs: int, sources: list[str], output_dir: str | None = None,
                    macros: Any = None, include_dirs: Any = None, debug: bool = False,
                    extra_preargs: Any = None, extra_postargs: Any = None,
                    depends: Any = None) -> list[str]:
    """What `CCompiler.compile` does, with `jobs` compiler processes at once."""
    macros, objects, extra_postargs, pp_opts, build = compiler._setup_compile(
        output_dir, macros, include_dirs, sources, depends, extra_postargs)
    cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)
    todo = sorted((obj for obj in objects if obj in build),
                  key=lambda obj: -os.path.getsize(build[obj][0]))

    def one(obj: str) -> None:
        src, ext = build[obj]
        compiler._compile(obj, src, ext, cc_args, extra_postargs, pp_opts)

    with ThreadPoolExecutor(max(1, jobs)) as pool:
        for done in [pool.submit(one, obj) for obj in todo]:
            done.result()  # the first failure ends the build, as compiling one by one would
    return list(objects)


def compile_at_once(jobs: int, base: Any = None) -> bool:
    """Make `base` (setuptools' CCompiler by default) compile `jobs` files at once; False when
    there is nothing to gain (one job) or this setuptools lacks what it needs."""
    if base is None:
        try:
            from setuptools._distutils import ccompiler
        except ImportError:
            return False
        base = getattr(ccompiler, "CCompiler", None)
    if jobs <= 1 or base is None or not all(hasattr(base, name) for name in NEEDED):
        return False

    def compile(self: Any, sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
        return compile_sources(self, jobs, sources, *args, **kwargs)

    base.compile = compile
    return True
