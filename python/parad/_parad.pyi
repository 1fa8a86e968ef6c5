"""The native module of parad (see ``parad``)."""

from os import PathLike
from typing import Any, Optional, Sequence, Union

__version__: str

class Error(Exception):
    location: Optional[tuple[str, int, int]]

class CompileError(Error): ...
class ProgramError(Error): ...
class InputError(Error): ...
class UnsupportedError(Error): ...
class InternalError(Error): ...

class Record:
    """A record value; its fields are attributes."""

    @property
    def type_name(self) -> str: ...
    def keys(self) -> list[str]: ...
    def fields(self) -> dict[str, Any]: ...
    def __getattr__(self, name: str) -> Any: ...
    def __getitem__(self, name: str) -> Any: ...

class Opaque:
    """A value of an opaque type, passed back to the program."""

    @property
    def type_name(self) -> str: ...

class Program:
    """A compiled Futhark program."""

    @staticmethod
    def compile_file(
        path: Union[str, PathLike[str]],
        backend: str = "multicore",
        threads: Optional[int] = None,
        cache_dir: Optional[Union[str, PathLike[str]]] = None,
        differentiate: Sequence[str] = (),
        optimise: bool = True,
    ) -> Program: ...
    @staticmethod
    def compile_source(
        text: str,
        name: str = "<source>.fut",
        backend: str = "multicore",
        threads: Optional[int] = None,
        cache_dir: Optional[Union[str, PathLike[str]]] = None,
        differentiate: Sequence[str] = (),
        optimise: bool = True,
    ) -> Program: ...
    @property
    def backend(self) -> str: ...
    def entries(self) -> list[dict[str, Any]]: ...
    def call(self, name: str, args: Sequence[Any]) -> list[Any]: ...
    def vjp(self, name: str, args: Sequence[Any], seeds: Sequence[Any]) -> list[Any]: ...
    def jvp(self, name: str, args: Sequence[Any], tangents: Sequence[Any]) -> list[Any]: ...
