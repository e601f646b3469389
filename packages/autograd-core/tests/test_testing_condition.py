"""chainer.testing.condition: retry, repeat, repeat_with_success_at_least."""

import unittest

import pytest

from chainer.testing import condition


def _flaky(outcomes):
    """A function failing or passing in the given order; records its calls."""
    calls = []

    def f():
        calls.append(None)
        if not outcomes[len(calls) - 1]:
            raise AssertionError(f'failure #{len(calls)}')
    return f, calls


def test_retry_passes_after_failures_and_stops_early():
    f, calls = _flaky([False, False, True, True])
    condition.retry(4)(f)()
    assert len(calls) == 3


def test_retry_fails_when_no_trial_succeeds():
    f, calls = _flaky([False] * 3)
    with pytest.raises(AssertionError, match='succeeded 0 time'):
        condition.retry(3)(f)()
    assert len(calls) == 3


def test_repeat_needs_every_trial():
    f, calls = _flaky([True, True, True])
    condition.repeat(3)(f)()
    assert len(calls) == 3
    f, calls = _flaky([True, False, True])
    with pytest.raises(AssertionError, match='failure #2'):
        condition.repeat(3)(f)()
    assert len(calls) == 2  # decided after the first failure


def test_repeat_with_success_at_least():
    f, calls = _flaky([False, True, False, True, True])
    condition.repeat_with_success_at_least(5, 2)(f)()
    assert len(calls) == 4
    f, calls = _flaky([False, False, False, True, True])
    with pytest.raises(AssertionError):
        condition.repeat_with_success_at_least(5, 3)(f)()
    assert len(calls) == 3  # three failures make three successes impossible
    with pytest.raises(ValueError):
        condition.repeat_with_success_at_least(2, 3)


def test_skip_propagates():
    @condition.retry(3)
    def f():
        raise unittest.SkipTest('not here')
    with pytest.raises(unittest.SkipTest):
        f()


def test_setup_runs_again_between_trials():
    class Case(unittest.TestCase):
        setups = 0

        def setUp(self):
            type(self).setups += 1
            self.fresh = True

        @condition.retry(3)
        def test_needs_fresh_state(self):
            assert self.fresh
            self.fresh = False
            assert type(self).setups >= 2

    result = unittest.TestResult()
    Case('test_needs_fresh_state').run(result)
    assert result.wasSuccessful(), result.failures
    assert Case.setups == 2


def test_failure_message_holds_the_first_error():
    f, _ = _flaky([False, False])
    with pytest.raises(AssertionError, match='(?s)The first error message:.*failure #1'):
        condition.retry(2)(f)()


def test_bad_counts_raise_an_assertion_error_too():
    # v7 checked them with assert: both classes are raised.
    with pytest.raises(AssertionError, match='min_success'):
        condition.repeat_with_success_at_least(10, 11)
    with pytest.raises(ValueError):
        condition.repeat_with_success_at_least(-1, 0)


def test_pytest_skip_becomes_a_unittest_skip():
    calls = []

    @condition.repeat(5)
    def f():
        calls.append(None)
        pytest.skip('no device here')

    with pytest.raises(unittest.SkipTest, match='no device here'):
        f()
    assert len(calls) == 1
