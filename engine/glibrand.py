"""GLib's GRand random number generator (MT19937), reproduced so that deals match GNOME AisleRiot.

AisleRiot draws every shuffle from a GLib ``GRand``; this module gives the same numbers from the
same seed in pure Python (it must run in Pyodide, so there is no binding to GLib itself).
"""

from __future__ import annotations

__all__ = ["GRand"]

# MT19937 parameters (Matsumoto and Nishimura, 1998), as GLib's glib/grand.c uses them.
_N = 624
_M = 397
_MATRIX_A = 0x9908B0DF
_UPPER_MASK = 0x80000000
_LOWER_MASK = 0x7FFFFFFF
_MASK32 = 0xFFFFFFFF
# Multiplier of the seeding recurrence (Knuth, TAOCP vol. 2, 3rd ed., p. 106).
_SEED_MULTIPLIER = 1812433253


class GRand:
    """A ``GRand`` seeded as ``g_rand_new_with_seed(seed)`` does, with GLib's default algorithm version 2.2.

    ``seed`` is a ``guint32``: an int in ``0 <= seed < 2**32`` (``ValueError`` otherwise). GLib
    selects older (2.0) behaviour only when the environment variable ``G_RANDOM_VERSION`` is
    ``2.0``; AisleRiot never sets it, so only version 2.2 is reproduced here.

    Source: GLib ``glib/grand.c``: ``g_rand_set_seed`` (seeding), ``g_rand_int`` (MT19937
    ``genrand_int32`` with tempering), ``g_rand_int_range`` (rejection sampling, version 2.2).
    """

    __slots__ = ("_mt", "_mti")

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= _MASK32:
            raise ValueError(f"a GRand seed is an unsigned 32-bit integer, not {seed!r}")
        mt = [0] * _N
        mt[0] = seed
        for i in range(1, _N):
            prev = mt[i - 1]
            mt[i] = (_SEED_MULTIPLIER * (prev ^ (prev >> 30)) + i) & _MASK32
        self._mt = mt
        self._mti = _N

    def copy(self) -> "GRand":
        """An independent generator in the same state (``g_rand_copy``)."""
        other = GRand.__new__(GRand)
        other._mt = list(self._mt)
        other._mti = self._mti
        return other

    def _refill(self) -> None:
        """Generate the next 624 state words at once (the block at the top of ``g_rand_int``)."""
        mt = self._mt
        for kk in range(_N):
            y = (mt[kk] & _UPPER_MASK) | (mt[(kk + 1) % _N] & _LOWER_MASK)
            mt[kk] = mt[(kk + _M) % _N] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
        self._mti = 0

    def int(self) -> int:
        """The next ``guint32`` (``g_rand_int``), uniform over ``0 .. 2**32 - 1``."""
        if self._mti >= _N:
            self._refill()
        y = self._mt[self._mti]
        self._mti += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        y ^= y >> 18
        return y & _MASK32

    def int_range(self, begin: int, end: int) -> int:
        """A number in ``begin .. end - 1`` (``g_rand_int_range``, GLib 2.2 algorithm).

        ``begin`` and ``end`` are ``gint32`` with ``end > begin`` (``ValueError`` otherwise; GLib
        would log a critical warning and return ``begin``). Draws ``g_rand_int`` values until one is
        below the largest multiple of the distance that fits in 32 bits, then takes it modulo
        the distance, so every result is equally likely; most calls use exactly one draw.
        """
        if not (-2**31 <= begin < end <= 2**31 - 1):
            raise ValueError(f"g_rand_int_range needs gint32 bounds with end > begin, not {begin}, {end}")
        dist = (end - begin) & _MASK32
        if dist <= 0x80000000:
            # 2**32 mod dist, computed as GLib does without 64-bit arithmetic.
            leftover = (0x80000000 % dist) * 2
            if leftover >= dist:
                leftover -= dist
            maxvalue = _MASK32 - leftover
        else:
            maxvalue = dist - 1
        while True:
            value = self.int()
            if value <= maxvalue:
                break
        return begin + value % dist
