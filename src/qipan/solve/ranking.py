"""Perfect indices of stone sets: combinatorial ranking reduced by a symmetry group.

A position of a placement game is an ordered pair of disjoint point sets (the mover's ``X``
of size ``p``, the other side's ``Y`` of size ``q``). Its index is

    id(canonical form of X) * C(n - p, q) + rank(Y mapped alike, among the points X leaves)

where the canonical form of ``X`` is the member of its orbit with the smallest rank, found by
a table over all C(n, p) sets. Every orbit of ``X`` is stored once, so a segment holds about
1/|G| of the boards; the few boards whose ``X`` has a non-trivial stabiliser are stored more
than once, with equal values. Sets are int bitmasks over at most 24 points, mapped through a
permutation table by 8-bit chunks."""

from __future__ import annotations

from .jit import njit, np, popcount

MAX_POINTS = 24


def binomials(n: int) -> np.ndarray:
    """``C[i, k]`` = i choose k for 0 <= i, k <= n (int64)."""
    c = np.zeros((n + 1, n + 2), dtype=np.int64)
    for i in range(n + 1):
        c[i, 0] = 1
        for k in range(1, i + 1):
            c[i, k] = c[i - 1, k - 1] + c[i - 1, k]
    return c


def permutation_table(perms: list[tuple[int, ...]]) -> np.ndarray:
    """``T[g, k, byte]``: the image under permutation ``g`` of the points of 8-bit chunk
    ``k`` set in ``byte``; a set's image is the OR of its three chunks' entries."""
    table = np.zeros((len(perms), 3, 256), dtype=np.int64)
    for g, perm in enumerate(perms):
        for k in range(3):
            for byte in range(256):
                out = 0
                for j in range(8):
                    i = 8 * k + j
                    if byte >> j & 1 and i < len(perm):
                        out |= 1 << perm[i]
                table[g, k, byte] = out
    return table


@njit
def rank_set(m, C):
    """Combinatorial rank (colex) of the set ``m`` among the sets of its size."""
    r = 0
    k = 0
    i = 0
    while m:
        if m & 1:
            k += 1
            r += C[i, k]
        m >>= 1
        i += 1
    return r


@njit
def unrank_set(r, k, C, n):
    """The ``k``-point set of rank ``r`` (inverse of :func:`rank_set`)."""
    m = 0
    p = n - 1
    while k > 0:
        while C[p, k] > r:
            p -= 1
        r -= C[p, k]
        m |= 1 << p
        k -= 1
        p -= 1
    return m


@njit
def compress(m, free, n):
    """``m`` (a subset of ``free``) written over the points of ``free`` only, renumbered."""
    out = 0
    j = 0
    for i in range(n):
        if free >> i & 1:
            if m >> i & 1:
                out |= 1 << j
            j += 1
    return out


@njit
def expand(z, free, n):
    """Inverse of :func:`compress`."""
    out = 0
    j = 0
    for i in range(n):
        if free >> i & 1:
            if z >> j & 1:
                out |= 1 << i
            j += 1
    return out


@njit
def apply_perm(T, g, m):
    return T[g, 0, m & 255] | T[g, 1, (m >> 8) & 255] | T[g, 2, (m >> 16) & 255]


@njit
def _canonical_tables(n, p, T, C, canon_id, canon_g):
    """Fill, for every p-set of rank r, the id of its orbit and a permutation taking it to
    the orbit's canonical (smallest-rank) member; return the canonical members in id order."""
    total = C[n, p]
    reps = np.zeros(total, dtype=np.int64)
    orbit = np.zeros(total, dtype=np.int64)
    count = 0
    first = np.full(total, -1, dtype=np.int64)  # rank of a canonical set -> its id
    for r in range(total):
        m = unrank_set(r, p, C, n)
        best = r
        best_g = 0
        for g in range(T.shape[0]):
            rg = rank_set(apply_perm(T, g, m), C)
            if rg < best:
                best = rg
                best_g = g
        if best == r:
            first[r] = count
            reps[count] = m
            count += 1
        canon_id[r] = first[best]
        canon_g[r] = best_g
        orbit[first[best]] += 1
    return reps[:count], orbit[:count]


class SetPairIndex:
    """The index tables of one board and symmetry group, for the set sizes up to
    ``max_size`` (default ``n``; the canonical-set table of size p has C(n, p) entries)."""

    def __init__(self, n: int, perms: list[tuple[int, ...]], max_size: int | None = None):
        if n > MAX_POINTS:
            raise ValueError(f"at most {MAX_POINTS} points, not {n}")
        self.n = n
        self.group = len(perms)
        self.C = binomials(n)
        self.T = permutation_table(perms)
        # Flat arrays with per-size offsets, so compiled kernels take them as plain arguments.
        self.rank_off = np.zeros(n + 2, dtype=np.int64)
        self.rep_off = np.zeros(n + 2, dtype=np.int64)
        ids, gs, reps, orbits = [], [], [], []
        top = n if max_size is None else max_size
        for p in range(n + 1):
            total = int(self.C[n, p]) if p <= top else 0
            canon_id = np.zeros(total, dtype=np.int64)
            canon_g = np.zeros(total, dtype=np.int64)
            if p <= top:
                r, o = _canonical_tables(n, p, self.T, self.C, canon_id, canon_g)
            else:
                r = o = np.zeros(0, dtype=np.int64)
            ids.append(canon_id)
            gs.append(canon_g)
            reps.append(r)
            orbits.append(o)
            self.rank_off[p + 1] = self.rank_off[p] + total
            self.rep_off[p + 1] = self.rep_off[p] + len(r)
        self.canon_id = np.concatenate(ids)
        self.canon_g = np.concatenate(gs)
        self.reps = np.concatenate(reps)
        self.orbit = np.concatenate(orbits)

    def orbits(self, p: int) -> int:
        """Number of canonical p-sets."""
        return int(self.rep_off[p + 1] - self.rep_off[p])

    def size(self, p: int, q: int) -> int:
        """Number of indices of the (p, q) segment."""
        return self.orbits(p) * int(self.C[self.n - p, q])

    def index(self, x: int, y: int) -> int:
        return int(
            pair_index(
                x,
                y,
                self.n,
                self.C,
                self.T,
                self.canon_id,
                self.canon_g,
                self.rank_off,
                self.reps,
                self.rep_off,
            )
        )

    def position(self, p: int, q: int, i: int) -> tuple[int, int]:
        """The (X, Y) sets stored at index ``i`` of segment (p, q)."""
        nb = int(self.C[self.n - p, q])
        x = int(self.reps[self.rep_off[p] + i // nb])
        y = int(expand(unrank_set(i % nb, q, self.C, self.n), ((1 << self.n) - 1) ^ x, self.n))
        return x, y

    def weights(self, p: int, q: int) -> np.ndarray:
        """For each index of segment (p, q), how many boards it stands for (the orbit size of
        its X, shared by the C(n-p, q) indices of that X): counts over all boards are
        ``sum(weights * (value == v))``."""
        nb = int(self.C[self.n - p, q])
        orbit = self.orbit[self.rep_off[p] : self.rep_off[p + 1]]
        return np.repeat(orbit, nb)


@njit
def pair_index(x, y, n, C, T, canon_id, canon_g, rank_off, reps, rep_off):
    """Index of the position (X = x, Y = y) in the segment (|x|, |y|)."""
    p = popcount(x)
    q = popcount(y)
    r = rank_off[p] + rank_set(x, C)
    cid = canon_id[r]
    g = canon_g[r]
    xc = reps[rep_off[p] + cid]
    yc = apply_perm(T, g, y)
    full = (1 << n) - 1
    return cid * C[n - p, q] + rank_set(compress(yc, full ^ xc, n), C)
