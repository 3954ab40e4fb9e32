"""GRand against the system GLib: a small C program linked with libglib2.0-dev prints the numbers.

Part of the AisleRiot reference setup (scripts/aisleriot-reference.sh installs gcc, pkg-config and
libglib2.0-dev); when they are missing the test fails and names that script.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from patiencebook.engine.glibrand import GRand

from .harness import REPO_ROOT, SETUP_COMMAND

pytestmark = pytest.mark.aisleriot

SEEDS = (0, 1, 2, 99, 2**31, 2**32 - 1)
# (begin, end) pairs: shuffle sizes, a range just over 2**31 (half the draws rejected), negatives.
RANGES = [(0, n) for n in range(104, 0, -1)] + [(-2**31, 1)] * 20 + [(-7, 9), (0, 2**31 - 1)] * 5

PROGRAM = r"""
#include <glib.h>
#include <stdio.h>
int main (void)
{
  static const guint32 seeds[] = { %(seeds)s };
  static const gint32 ranges[][2] = { %(ranges)s };
  for (gsize s = 0; s < G_N_ELEMENTS (seeds); s++) {
    GRand *rand = g_rand_new_with_seed (seeds[s]);
    for (int i = 0; i < 1000; i++)
      printf ("%%u\n", g_rand_int (rand));
    for (gsize r = 0; r < G_N_ELEMENTS (ranges); r++)
      printf ("%%d\n", g_rand_int_range (rand, ranges[r][0], ranges[r][1]));
    g_rand_free (rand);
  }
  return 0;
}
"""


def glib_numbers(tmp_path) -> list[int]:
    if shutil.which("gcc") is None or shutil.which("pkg-config") is None:
        pytest.fail(f"gcc or pkg-config missing; run `{SETUP_COMMAND}` in {REPO_ROOT}", pytrace=False)
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "glib-2.0"], capture_output=True, text=True)
    if flags.returncode != 0:
        pytest.fail(f"GLib development files missing (libglib2.0-dev); run `{SETUP_COMMAND}` in {REPO_ROOT}",
                    pytrace=False)
    source = tmp_path / "grand.c"
    source.write_text(PROGRAM % {
        "seeds": ", ".join(f"{s}u" for s in SEEDS),
        "ranges": ", ".join(f"{{ {b if b != -2**31 else '-2147483647 - 1'}, {e} }}" for b, e in RANGES),
    })
    binary = tmp_path / "grand"
    subprocess.run(["gcc", str(source), "-o", str(binary), *flags.stdout.split()], check=True)
    out = subprocess.run([str(binary)], capture_output=True, text=True, check=True).stdout
    return [int(line) for line in out.split()]


def python_numbers() -> list[int]:
    out = []
    for seed in SEEDS:
        rand = GRand(seed)
        out.extend(rand.int() for _ in range(1000))
        out.extend(rand.int_range(b, e) for b, e in RANGES)
    return out


def test_grand_gives_the_numbers_of_the_system_glib(tmp_path):
    assert python_numbers() == glib_numbers(tmp_path)
