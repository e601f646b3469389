"""One declaration of an optimizer's hyperparameters, and what is derived from it.

Each optimizer module declares its hyperparameters once, as a :class:`Table` of names,
defaults and the checks its optimizer's constructor makes::

    _HYPERPARAMS = _hyperparams.Table(lr=0.01, momentum=0.9, non_negative=('lr',))
    _default_hyperparam = _HYPERPARAMS.defaults

From the table come:

- ``table.defaults``: the :class:`~chainer.optimizer.Hyperparameter` holding the
  defaults, which a rule created without a parent falls back on (and which the public
  constructors name as their default values);
- the update rule's constructor (:class:`DeclaredRule`, whose ``_table`` is the table):
  each value given sets the rule's own hyperparameter, ``None`` keeps the parent's;
- the optimizer's constructor, checks and ``create_update_rule``, and its hyperparameter
  properties, one :class:`~chainer.optimizer.HyperparameterProxy` a name
  (:class:`DeclaredOptimizer`, whose ``_rule_class`` is the rule).

The public constructors keep their v7 signatures, written out (a reader and a type
checker see them) and passed on by keyword in one call.

The scalars of a rule's kernel (see :mod:`chainer.optimizers._fused_update`) are a
NamedTuple of the rule's module, built by keyword by the rule's ``_scalars`` and read by
name by its NumPy kernel and its CuPy kernel alike.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from chainer import optimizer
from chainer.optimizers import _checks, _fused_update


class Table:
    """The hyperparameters of one optimizer: names, defaults and constructor checks.

    Args:
        non_negative: names whose value the optimizer's constructor requires to be at
            least 0 (learning rates).
        positive: names whose value it requires to be above 0 (an ``eps`` that guards a
            division).
        **defaults: every hyperparameter's name and default value, in the order of the
            optimizer's constructor.

    Raises:
        ValueError: for a check naming no declared hyperparameter.
    """

    __slots__ = ('names', 'defaults', '_checks')

    def __init__(self, *, non_negative: Iterable[str] = (), positive: Iterable[str] = (),
                 **defaults: Any) -> None:
        self.names: tuple[str, ...] = tuple(defaults)
        self.defaults = optimizer.Hyperparameter()
        for name, value in defaults.items():
            setattr(self.defaults, name, value)
        checks = [(name, _checks.non_negative) for name in non_negative]
        checks += [(name, _checks.positive) for name in positive]
        unknown = [name for name, _ in checks if name not in defaults]
        if unknown:
            raise ValueError(f'checks of undeclared hyperparameters: {unknown}')
        self._checks = tuple(checks)

    def check(self, values: dict[str, Any]) -> None:
        """Raise ValueError for a value that fails its declared check."""
        for name, check in self._checks:
            check(name, values[name])

    def _known(self, values: dict[str, Any]) -> None:
        unknown = [name for name in values if name not in self.names]
        if unknown:
            raise TypeError(f'undeclared hyperparameters: {unknown}')


class DeclaredRule(_fused_update.ElementwiseRule):
    """An elementwise update rule whose hyperparameters its module's :class:`Table` declares.

    Args:
        parent_hyperparam: the hyperparameter to fall back on (the table's defaults when
            None).
        **values: values set on this rule's own hyperparameter; ``None`` leaves a name to
            the parent.
    """

    #: The declaration of the rule's hyperparameters (set by each rule class).
    _table: ClassVar[Table]

    def __init__(self, parent_hyperparam: optimizer.Hyperparameter | None = None,
                 **values: Any) -> None:
        table = self._table
        super().__init__(parent_hyperparam or table.defaults)
        table._known(values)
        hp = self.hyperparam
        for name, value in values.items():
            if value is not None:
                setattr(hp, name, value)


class DeclaredOptimizer(optimizer.GradientMethod):
    """A gradient method whose rule class (``_rule_class``) declares its hyperparameters.

    A subclass setting ``_rule_class`` gets a
    :class:`~chainer.optimizer.HyperparameterProxy` for each declared name it does not
    define itself, and :meth:`create_update_rule` makes rules of that class.

    Args:
        **values: every hyperparameter's value (checked, then set on
            :attr:`hyperparam`).

    Raises:
        ValueError: for a value that fails its declared check.
    """

    #: The update rule class, whose ``_table`` declares the hyperparameters.
    _rule_class: ClassVar[type[DeclaredRule]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        rule_class = cls.__dict__.get('_rule_class')
        if rule_class is None:
            return
        for name in rule_class._table.names:
            if name not in cls.__dict__:
                setattr(cls, name, optimizer.HyperparameterProxy(name))

    def __init__(self, **values: Any) -> None:
        super().__init__()
        table = self._rule_class._table
        table._known(values)
        table.check(values)
        hp = self.hyperparam
        for name, value in values.items():
            setattr(hp, name, value)

    def create_update_rule(self) -> DeclaredRule:
        """Return a new update rule that follows this optimizer's hyperparameters."""
        return self._rule_class(self.hyperparam)
