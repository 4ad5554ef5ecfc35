"""``dataclass`` and ``field`` for the modules a hook process imports, without the
``dataclasses`` module: it imports ``inspect`` (with ``ast``, ``dis``, ``tokenize``) and builds
three functions a class from generated source — ~9 ms of each hook process here, which an
agent pays on every tool call (``bench/scale.py --agent-path``). The subset tether's classes
use, with the same meaning: fields from the class's annotations in order, defaults,
``field(default_factory=..., repr=...)``, ``slots``, ``eq``, ``frozen``, ``__post_init__``;
``replace``. One generated function a class (``__init__``); ``__repr__`` and ``__eq__`` are
shared. The rest of tether uses :mod:`dataclasses` itself."""

_MISSING = object()


class _Field:
    __slots__ = ("default", "factory", "repr")

    def __init__(self, default, factory, repr):
        self.default, self.factory, self.repr = default, factory, repr


def field(*, default=_MISSING, default_factory=_MISSING, repr=True):  # noqa: A002 — dataclasses' name
    return _Field(default, default_factory, repr)


def dataclass(cls=None, /, *, slots: bool = False, eq: bool = True, frozen: bool = False):
    def wrap(c):
        return _build(c, slots, eq, frozen)
    return wrap if cls is None else wrap(cls)


def replace(obj, **changes):
    """A copy of ``obj`` with ``changes`` (what :func:`dataclasses.replace` does for these classes)."""
    return type(obj)(**{**{n: getattr(obj, n) for n in obj.__record_fields__}, **changes})


def _build(cls, slots: bool, eq: bool, frozen: bool):
    names, shown, params, body, scope = [], [], [], [], {"_MISSING": _MISSING}
    own = {k: v for k, v in cls.__dict__.items() if k not in ("__dict__", "__weakref__")}
    for name, note in cls.__dict__.get("__annotations__", {}).items():
        if str(note).startswith(("ClassVar", "typing.ClassVar")):
            continue
        spec = own.pop(name, _MISSING)
        spec = spec if isinstance(spec, _Field) else _Field(spec, _MISSING, True)
        if spec.factory is not _MISSING:
            scope[f"_new_{name}"] = spec.factory
            params.append(f"{name}=_MISSING")
            body.append(f"{name} = _new_{name}() if {name} is _MISSING else {name}")
        elif spec.default is not _MISSING:
            scope[f"_default_{name}"] = spec.default
            params.append(f"{name}=_default_{name}")
            if not slots:  # as dataclasses leaves it: the default readable on the class
                own[name] = spec.default
        elif params and "=" in params[-1]:
            raise TypeError(f"{cls.__qualname__}: non-default argument {name!r} follows default argument")
        else:
            params.append(name)
        body.append(f"object.__setattr__(self, {name!r}, {name})" if frozen else f"self.{name} = {name}")
        names.append(name)
        if spec.repr:
            shown.append(name)
    if "__post_init__" in own:
        body.append("self.__post_init__()")
    exec(f"def __init__(self, {', '.join(params)}):\n" + "".join(f"    {line}\n" for line in body or ["pass"]), scope)
    scope["__init__"].__qualname__ = f"{cls.__qualname__}.__init__"
    own.update(__init__=scope["__init__"], __record_fields__=tuple(names), __record_shown__=tuple(shown))
    own.setdefault("__repr__", _repr)
    if eq:
        own.setdefault("__eq__", _eq)
        own["__hash__"] = _hash if frozen else None
    if frozen:
        own.update(__setattr__=_frozen, __delattr__=_frozen)
    if slots:
        own["__slots__"] = tuple(names)
    made = type(cls)(cls.__name__, cls.__bases__, own)
    made.__qualname__ = cls.__qualname__
    return made


def _repr(self) -> str:
    return f"{type(self).__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in self.__record_shown__)})"


def _eq(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    fields = self.__record_fields__
    return tuple(getattr(self, n) for n in fields) == tuple(getattr(other, n) for n in fields)


def _hash(self) -> int:
    return hash(tuple(getattr(self, n) for n in self.__record_fields__))


def _frozen(self, name, *_):
    raise AttributeError(f"cannot assign to field {name!r} of a frozen {type(self).__qualname__}")
