"""What the engine needs to be compiled by mypyc (``bench/engine.py --mypyc``) and to run
the same uncompiled: ``mypyc_attr`` from ``mypy_extensions`` when installed (it comes with
mypy), else a decorator that does nothing. No engine class needs it now (``queries.Field``
and ``moves.LimitCounts`` no longer subclass ``list``: they are native classes); kept for
a class that must stay an ordinary Python class when compiled (``native_class=False``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # not compiled (mypy not installed): the classes are plain Python

    def mypyc_attr(*args: Any, **kwargs: Any) -> Callable[[type], type]:  # type: ignore[misc]
        return lambda cls: cls


__all__ = ["mypyc_attr"]
