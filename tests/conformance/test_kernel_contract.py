"""The kernel contract (``qipan.fast.Kernel``), checked on the kernel of every preset that has
one, and the check itself shown to fail on kernels that break it."""

from __future__ import annotations

import pytest

import qipan
from qipan.fast import HAVE_NUMBA, OPTIONAL_MEMBERS, Kernel, check_kernel, contract_errors

needs_kernels = pytest.mark.skipif(not HAVE_NUMBA, reason="the kernels need qipan[fast] (numba)")

IDS = [s.id for s in qipan.specs()]


def kernels():
    """The kernel of every preset that has one, by preset."""
    found = {}
    for preset in IDS:
        kernel = qipan.load(preset).kernel()
        if kernel is not None:
            found[preset] = kernel
    return found


@needs_kernels
def test_every_family_with_a_kernel_is_covered():
    families = {qipan.load(p).family for p in kernels()}
    assert {"morris", "pente", "tantrix", "trax"} <= families


@needs_kernels
@pytest.mark.parametrize("preset", IDS)
def test_the_kernel_keeps_the_contract(preset):
    kernel = qipan.load(preset).kernel()
    if kernel is None:
        pytest.skip(f"{preset} has no kernel")
    assert isinstance(kernel, Kernel)
    assert contract_errors(kernel) == []
    assert kernel.provides <= OPTIONAL_MEMBERS


class Minimal:
    """A kernel with the common members only, as the contract words them."""

    searches: tuple[str, ...] = ()
    provides: frozenset[str] = frozenset()

    def state(self, ref):
        return ref

    def legal(self, s):
        return []

    def play(self, s, code):
        pass

    def code(self, move):
        return 0

    def move(self, code):
        return None

    def snapshot(self, s):
        return ()

    def outcome(self, s):
        return None

    def warm_up(self, ref):
        pass


def test_a_minimal_kernel_keeps_the_contract():
    assert isinstance(Minimal(), Kernel) and contract_errors(Minimal()) == []


def broken(**members):
    """A ``Minimal`` kernel with ``members`` added or replaced."""
    return type("Broken", (Minimal,), members)()


class Missing(Minimal):
    outcome = None  # no callable outcome


@pytest.mark.parametrize(
    ("kernel", "complaint"),
    [
        (Missing(), "Missing lacks outcome"),
        (broken(perft=lambda self, ref, depth: 0), "Broken.perft is not declared in provides"),
        (broken(provides=frozenset({"perft"})), "Broken.perft is declared but absent"),
        (broken(provides=frozenset({"teleport"})), "names teleport, which is no optional kernel member"),
        (broken(provides={"perft"}, perft=lambda self, ref, depth: 0), "provides is set, not a frozenset"),
        (broken(searches=("mcts",)), "Broken runs mcts but does not provide mcts, uct"),
        (broken(searches=("minimax",)), "names 'minimax', which is no search a kernel runs"),
        (broken(play=lambda self, s: None), "Broken.play(s) differs from the contract's"),
        (broken(legal=lambda self, s, fast: []), "Broken.legal(s, fast) differs from the contract's"),
        (broken(code=lambda self, mv: 0), "Broken.code(mv) differs from the contract's"),
    ],
)
def test_the_check_names_what_breaks_the_contract(kernel, complaint):
    errors = contract_errors(kernel)
    assert any(complaint in e for e in errors), errors


def test_extra_parameters_with_defaults_are_allowed():
    kernel = broken(legal=lambda self, s, limit=0: [])
    assert contract_errors(kernel) == []


def test_check_kernel_refuses_a_kernel_that_breaks_the_contract():
    game = qipan.load(IDS[0])
    with pytest.raises(TypeError, match="breaks the kernel contract: Broken.perft is declared but absent"):
        check_kernel(game, 1, kernel=broken(provides=frozenset({"perft"})))
