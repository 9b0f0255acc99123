"""Solved tables on disk: one memory-mapped byte file per segment and a hashed manifest.

``Database(directory, space).solve()`` solves the components children first, writing each
segment's file and then the manifest (both by atomic rename), so an interrupted run resumes
where it stopped: a segment already in the manifest whose file still has the recorded
SHA-256 is not solved again. The manifest's own ``hash`` covers the space's description and
every segment's hash, so two builds are identical exactly when their hashes are."""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable
from pathlib import Path

from ..core.errors import QipanError
from .codes import UNKNOWN
from .dag import component_order
from .jit import np
from .retrograde import retrograde, sweep
from .space import DRAW_NOW, WIN_NOW, PositionSpace

FORMAT = "qipan-solve/1"


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def tally(codes: np.ndarray, weights: np.ndarray | None = None) -> dict[str, int]:
    """Win/draw/loss counts of an array of codes (optionally weighted, e.g. by orbit size)."""
    codes = np.asarray(codes)
    w = np.ones(len(codes), dtype=np.int64) if weights is None else weights
    draw = codes == 0
    unknown = codes == UNKNOWN
    win = ~draw & ~unknown & (codes % 2 == 0)
    loss = ~draw & ~unknown & (codes % 2 == 1)
    return {"win": int(w[win].sum()), "draw": int(w[draw].sum()), "loss": int(w[loss].sum())}


class Database:
    def __init__(self, directory: str | os.PathLike, space: PositionSpace):
        self.directory = Path(directory)
        self.space = space
        self.segments = space.segments()
        self.number = {s.key: i for i, s in enumerate(self.segments)}
        self.by_key = {s.key: s for s in self.segments}
        self.description = space.describe()
        self.manifest = self._read_manifest()
        self._maps: dict[tuple, np.ndarray] = {}

    # -- manifest --------------------------------------------------------------------------
    @property
    def manifest_path(self) -> Path:
        return self.directory / "manifest.json"

    def _read_manifest(self) -> dict:
        path = self.manifest_path
        if not path.exists():
            return {"format": FORMAT, "space": self.description, "segments": {}}
        try:
            manifest = json.loads(path.read_text())
        except (OSError, ValueError) as exc:
            raise QipanError(f"{path} is not a readable manifest: {exc}") from None
        if manifest.get("format") != FORMAT or manifest.get("space") != self.description:
            raise QipanError(
                f"{self.directory} holds tables of another game or rule set; use another directory"
            )
        return manifest

    def _write_manifest(self) -> None:
        self.manifest["hash"] = self.hash()
        tmp = self.manifest_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.manifest, indent=1, sort_keys=True))
        os.replace(tmp, self.manifest_path)

    def hash(self) -> str:
        """SHA-256 over the space's description and every solved segment's hash."""
        entries = {label: e["sha256"] for label, e in sorted(self.manifest["segments"].items())}
        text = json.dumps({"format": FORMAT, "space": self.description, "segments": entries}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()

    def solved(self, key: tuple) -> bool:
        segment = self.by_key[key]
        entry = self.manifest["segments"].get(segment.label)
        return entry is not None and (self.directory / entry["file"]).exists()

    def complete(self) -> bool:
        return all(self.solved(s.key) for s in self.segments)

    # -- reading ---------------------------------------------------------------------------
    def values(self, key: tuple) -> np.ndarray:
        """The codes of segment ``key`` (read-only memory map)."""
        m = self._maps.get(key)
        if m is None:
            if not self.solved(key):
                raise QipanError(f"segment {self.by_key[key].label} is not solved in {self.directory}")
            segment = self.by_key[key]
            path = self.directory / self.manifest["segments"][segment.label]["file"]
            m = (
                np.memmap(path, dtype=np.uint8, mode="r", shape=(segment.size,))
                if segment.size
                else np.zeros(0, np.uint8)
            )
            self._maps[key] = m
        return m

    def probe(self, key: tuple, index: int) -> int:
        if key not in self.by_key:
            raise QipanError(f"no segment {key} in this space")
        return int(self.values(key)[index])

    # -- solving ---------------------------------------------------------------------------
    def solve(
        self,
        progress: Callable[[int, int, str, float], None] | None = None,
        check: bool = False,
    ) -> str:
        """Solve every segment not solved yet; return the manifest hash. ``progress(done,
        total, label, seconds)`` is called after each component. ``check``: also compute
        every component with the forward sweep and fail on any difference."""
        self.directory.mkdir(parents=True, exist_ok=True)
        self.verify()
        order = component_order(self.space)
        for done, component in enumerate(order, 1):
            if all(self.solved(k) for k in component):
                if progress:
                    progress(done, len(order), "+".join(self.by_key[k].label for k in component), 0.0)
                continue
            t0 = time.process_time()
            codes = self.solve_component(component, check=check)
            for key, values in zip(component, codes, strict=True):
                self.store(key, values)
            self._write_manifest()
            if progress:
                progress(
                    done,
                    len(order),
                    "+".join(self.by_key[k].label for k in component),
                    time.process_time() - t0,
                )
        self._write_manifest()
        return self.hash()

    def solve_component(self, component, check: bool = False) -> list[np.ndarray]:
        graph = self.component_graph(component)
        codes = retrograde(*graph)
        if check:
            forward = sweep(*graph)
            if not np.array_equal(codes, forward):
                bad = int(np.flatnonzero(codes != forward)[0])
                raise QipanError(f"retrograde and forward sweep disagree at position {bad} of {component}")
        out, offset = [], 0
        for key in component:
            size = self.by_key[key].size
            out.append(codes[offset : offset + size])
            offset += size
        return out

    def component_graph(self, component):
        """The component's move graph for the kernels: CSR start, internal destinations
        (-1 = external), external successors' codes, terminal marks."""
        offsets, total = {}, 0
        for key in component:
            offsets[self.number[key]] = total
            total += self.by_key[key].size
        starts, dests, exts, terms = [], [], [], []
        base = 0
        small = np.int32 if total < 2**31 else np.int64  # destinations of the component
        for key in component:
            e = self.space.expand(key)
            seg, idx = e.dest_segment, e.dest_index
            dest = np.full(len(seg), -1, dtype=small)
            ext = np.full(len(seg), UNKNOWN, dtype=np.uint8)
            ext[seg == WIN_NOW] = 1
            ext[seg == DRAW_NOW] = 0
            for s in np.unique(seg[seg >= 0]):
                s = int(s)
                mask = seg == s
                if s in offsets:
                    dest[mask] = offsets[s] + idx[mask]
                else:
                    ext[mask] = self.values(self.segments[s].key)[idx[mask]]
            starts.append(e.start[:-1] + base)
            base += len(seg)
            terms.append(e.terminal)
            del seg, idx, e  # the expansion's own arrays are the largest: free them early
            dests.append(dest)
            exts.append(ext)
        start = np.concatenate(starts + [np.array([base], dtype=np.int64)])
        return start, np.concatenate(dests), np.concatenate(exts), np.concatenate(terms)

    def store(self, key: tuple, values: np.ndarray) -> dict:
        """Write one segment's file and its manifest entry (in memory); return the entry."""
        segment = self.by_key[key]
        name = f"{segment.label}.u8"
        path = self.directory / name
        tmp = path.with_suffix(".tmp")
        np.ascontiguousarray(values, dtype=np.uint8).tofile(tmp)
        os.replace(tmp, path)
        self._maps.pop(key, None)
        self.manifest["segments"][segment.label] = {
            "key": list(key),
            "size": segment.size,
            "file": name,
            "sha256": file_sha256(path),
            "counts": tally(values),
        }
        return self.manifest["segments"][segment.label]

    def record(self, entries: dict) -> None:
        """Add manifest entries of segments stored by another process, and save the manifest."""
        self.manifest["segments"].update(entries)
        self._write_manifest()

    def verify(self, quick: bool = False) -> None:
        """Drop manifest entries whose file is missing or (unless ``quick``) whose hash no
        longer matches, so that :meth:`solve` recomputes them."""
        for label, entry in list(self.manifest["segments"].items()):
            path = self.directory / entry["file"]
            if (
                not path.exists()
                or path.stat().st_size != entry["size"]
                or (not quick and file_sha256(path) != entry["sha256"])
            ):
                del self.manifest["segments"][label]
