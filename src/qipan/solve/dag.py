"""The order of the components: each after every component its moves lead into."""

from __future__ import annotations

from ..core.errors import QipanError


def component_dependencies(space) -> dict[tuple[tuple, ...], set[tuple[tuple, ...]]]:
    """For each component, the other components its moves lead into."""
    components = [tuple(c) for c in space.components()]
    owner = {key: c for c in components for key in c}
    needs: dict[tuple, set[tuple]] = {}
    for c in components:
        deps = set()
        for key in c:
            for d in space.dependencies(key):
                if d not in owner:
                    raise QipanError(f"segment {key} leads into {d}, which the space does not contain")
                if owner[d] != c:
                    deps.add(owner[d])
        needs[c] = deps
    return needs


def component_layers(space) -> list[list[tuple[tuple, ...]]]:
    """Components in layers: a component's dependencies all lie in earlier layers, so the
    components of one layer can be solved at the same time (Ray) or in any order."""
    needs = component_dependencies(space)
    components = list(needs)
    layers: list[list[tuple[tuple, ...]]] = []
    done: set[tuple] = set()
    while len(done) < len(components):
        layer = [c for c in components if c not in done and needs[c] <= done]
        if not layer:
            raise QipanError("the components' dependencies have a cycle: not a DAG")
        layers.append(layer)
        done.update(layer)
    return layers


def component_order(space) -> list[tuple[tuple, ...]]:
    return [c for layer in component_layers(space) for c in layer]
