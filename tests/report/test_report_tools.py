"""Unit tests of the report's parsers and checker (ctest report_tools): real_runs.py on
outputs in the two formats the real-run benchmarks print, check_report.py's PNG decoder
on a PNG written here by hand (zlib and the chunk layout of the PNG specification), and the
headline of the simulated adaptive scenario."""
import struct
import tempfile
import unittest
import zlib
from pathlib import Path

import check_report
import real_runs
from figures import SimulatedAdaptation

GEMM_SLOWED = """N=2000 ranks=2 reps=3 results checked
variant               nb   median_s   GFLOP/s
scalapack_pdgemm      64      2.400      6.67
hetscal_cyclic       128      2.300      6.96
hetscal_planned       96      1.250     12.80
ratio hetscal_cyclic/scalapack   1.043
"""
LU_HOMOGENEOUS = """sweep scalapack_1xP            nb=64       0.548 s
N=2000 reps=3 results checked
variant                   grid    nb   median_s   GFLOP/s
scalapack_1xP              1x2    64      0.500      10.67
scalapack_Px1              2x1   128      0.450      11.85
hetscal_1xP                1x2    64      0.400      13.33
hetscal_Px1                2x1   128      0.420      12.70
flops hetscal_1xP 1e9 1e9  balance 1.0000 for speeds 1 1
"""


def png(width, height, declared_height=None):
    """A grey PNG of the given size, chunk by chunk; IHDR may declare another height."""

    def chunk(kind, body):
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    return (
        check_report.SIGNATURE
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, declared_height or height, 8, 0, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


class RealRuns(unittest.TestCase):
    def saved(self, directory, name, text):
        path = Path(directory) / name
        path.write_text(text)
        return path

    def test_slowed_gemm_takes_the_planned_variant_against_the_ideal_of_the_speeds(self):
        with tempfile.TemporaryDirectory() as d:
            row = real_runs.row_of(
                self.saved(d, "real_gemm_slowed_2000.txt", GEMM_SLOWED), [1, 1 / 3]
            )
        self.assertEqual(row[:4], ["GEMM", "1:3 slowed", 2000, "scalapack_pdgemm"])
        self.assertEqual(row[6:9], ["hetscal_planned", 96, "1.2500"])
        self.assertAlmostEqual(float(row[9]), 2.4 / 1.25, places=4)
        self.assertAlmostEqual(float(row[10]), (4 / 3) / (2 / 3), places=4)  # 2

    def test_homogeneous_lu_takes_the_fastest_grid_of_each_side(self):
        with tempfile.TemporaryDirectory() as d:
            row = real_runs.row_of(
                self.saved(d, "real_lu_homogeneous_2000.txt", LU_HOMOGENEOUS), [1, 1]
            )
        self.assertEqual(
            [row[3], row[4], row[6], row[7]], ["scalapack_Px1", 128, "hetscal_1xP", 64]
        )
        self.assertAlmostEqual(float(row[9]), 0.45 / 0.4, places=4)
        self.assertEqual(row[10], "1.0000")

    def test_unchecked_or_misnamed_outputs_are_refused(self):
        with tempfile.TemporaryDirectory() as d:
            unchecked = self.saved(
                d, "real_lu_homogeneous_2000.txt", LU_HOMOGENEOUS.replace("checked", "WRONG")
            )
            with self.assertRaisesRegex(ValueError, "results checked"):
                real_runs.row_of(unchecked, [1, 1])
            with self.assertRaisesRegex(ValueError, "not named"):
                real_runs.row_of(self.saved(d, "lu.txt", LU_HOMOGENEOUS), [1, 1])
            no_planned = self.saved(d, "real_lu_slowed_2000.txt", LU_HOMOGENEOUS)
            with self.assertRaisesRegex(ValueError, "no hetscal variant"):
                real_runs.row_of(no_planned, [1, 1 / 3])


class PngDecoder(unittest.TestCase):
    def test_a_valid_png_gives_its_size(self):
        self.assertEqual(check_report.png_size(png(120, 101)), (120, 101))

    def test_damaged_pngs_are_refused(self):
        good = png(120, 101)
        flipped = bytearray(good)
        flipped[60] ^= 0xFF  # inside IDAT: its CRC no longer matches
        for damaged in (good[:50], bytes(flipped), b"GIF89a" + good[6:]):
            with self.assertRaises((ValueError, zlib.error)):
                check_report.png_size(damaged)

    def test_image_data_must_match_the_header(self):
        with self.assertRaisesRegex(ValueError, "does not match"):
            check_report.png_size(png(120, 101, declared_height=102))


class SimulatedAdaptationHeadline(unittest.TestCase):
    """Rows as csv_table reads them: 4 calls, rank 1 a third as fast from call 2."""

    @staticmethod
    def rows(adaptive_plan):
        seconds = {"static": [1, 3, 3, 3], "oracle": [1, 2, 2, 2], "2dbc": [4, 4, 4, 4]}
        seconds["adaptive"] = [1, 3] + [2 if p < 90e6 else 3 for p in adaptive_plan[2:]]
        plans = {"static": [100e6] * 4, "oracle": [100e6] + [33e6] * 3, "2dbc": [""] * 4}
        plans["adaptive"] = adaptive_plan
        return [
            {"routine": "gemm", "n": 1000.0, "scenario": scenario, "change_call": 2.0,
             "call": float(call + 1), "seconds": float(seconds[scenario][call]),
             "planned_speed": plans[scenario][call], "actual_speed": 100e6 if call == 0 else 33e6}
            for scenario in ("static", "adaptive", "oracle", "2dbc")
            for call in range(4)
        ]

    def test_the_call_that_re_planned_and_the_ratios(self):
        headline = SimulatedAdaptation("s", "T", "x").headline(self.rows([100e6, 100e6, 33e6, 33e6]))
        self.assertIn("re-planned at call 3", headline)
        self.assertIn("after the change 1.17x the oracle's time (static plan 1.50x)", headline)
        self.assertIn("whole loop 2.00x faster than 2DBC, 1.25x than the static plan", headline)

    def test_a_loop_that_never_re_planned_says_so(self):
        headline = SimulatedAdaptation("s", "T", "x").headline(self.rows([100e6] * 4))
        self.assertIn("never re-planned", headline)


if __name__ == "__main__":
    unittest.main()
