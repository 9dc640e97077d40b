#!/usr/bin/env python3
"""Differential check of a C trace program: run it against Debian's
libode.so.8 and against ours (only LD_LIBRARY_PATH changes) and compare the
two outputs line by line.

Rules (the same as tests/common/mod.rs::compare_traces):
  * both runs must exit with status 0;
  * the traces must have the same number of lines and of tokens per line;
  * a token that does not parse as a number is a label and must match exactly;
  * numbers x (ours) and y (reference) match when |x-y| <= abs or
    |x-y| <= rel*max(|x|,|y|); NaN matches NaN.
The tolerance comes from a comment on the first line of the source file,
  /* DIFF-TOL rel=1e-9 abs=1e-12 */   (or // DIFF-TOL ...),
and defaults to exact equality.

Usage:
  compare.py --src FILE.c --ref-bin BIN --ref-libdir DIR --bin BIN --libdir DIR
             [--args ...]
  compare.py --traces REF.txt OURS.txt [--rel R] [--abs A]
"""
import argparse
import math
import os
import re
import subprocess
import sys

TOL_RE = re.compile(r"DIFF-TOL\b(.*)")


def read_tolerance(src):
    rel, abs_ = 0.0, 0.0
    declared = False
    if src:
        with open(src, encoding="utf-8", errors="replace") as f:
            first = f.readline()
        m = TOL_RE.search(first)
        if m:
            declared = True
            for key, val in re.findall(r"(rel|abs)\s*=\s*([-+0-9.eE]+)", m.group(1)):
                if key == "rel":
                    rel = float(val)
                else:
                    abs_ = float(val)
    return rel, abs_, declared


def run(binary, libdir, args, timeout):
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = libdir
    try:
        p = subprocess.run([binary] + args, env=env, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "", f"timed out after {timeout} s"
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def as_number(tok):
    try:
        return float(tok)
    except ValueError:
        return None


def compare(ours, ref, rel, abs_, max_report=10):
    """Returns (problems, worst_rel, worst_abs, lines_compared)."""
    problems = []
    a = ours.splitlines()
    b = ref.splitlines()
    if len(a) != len(b):
        problems.append(f"trace lengths differ: ours {len(a)} lines, reference {len(b)} lines")
    worst_rel = 0.0
    worst_abs = 0.0
    for i, (la, lb) in enumerate(zip(a, b), start=1):
        ta, tb = la.split(), lb.split()
        if len(ta) != len(tb):
            problems.append(f"line {i}: different shape\n   ours: {la}\n    ref: {lb}")
            continue
        for x, y in zip(ta, tb):
            fx, fy = as_number(x), as_number(y)
            if fx is None or fy is None:
                if x != y:
                    problems.append(f"line {i}: label '{x}' vs reference '{y}'\n   ours: {la}\n    ref: {lb}")
                continue
            if math.isnan(fx) or math.isnan(fy):
                if not (math.isnan(fx) and math.isnan(fy)):
                    problems.append(f"line {i}: {x} vs reference {y}\n   ours: {la}\n    ref: {lb}")
                continue
            if math.isinf(fx) or math.isinf(fy):
                if fx != fy:
                    problems.append(f"line {i}: {x} vs reference {y}\n   ours: {la}\n    ref: {lb}")
                continue
            d = abs(fx - fy)
            scale = max(abs(fx), abs(fy))
            if not (d <= abs_ or d <= rel * scale):
                problems.append(
                    f"line {i}: {x} vs reference {y} (abs diff {d:.3e}, rel {d / scale if scale else 0:.3e})"
                    f"\n   ours: {la}\n    ref: {lb}")
            worst_abs = max(worst_abs, d)
            if scale > 0 and d > abs_:
                worst_rel = max(worst_rel, d / scale)
    return problems, worst_rel, worst_abs, min(len(a), len(b))


def report(name, problems, worst_rel, worst_abs, n, rel, abs_, declared):
    tol = f"rel={rel:g} abs={abs_:g}" + ("" if declared else " (no DIFF-TOL line: exact)")
    if problems:
        print(f"{name}: MISMATCH ({len(problems)} problem(s), tolerance {tol})")
        for p in problems[:10]:
            print("  " + p)
        if len(problems) > 10:
            print(f"  ... {len(problems) - 10} more")
        return 1
    print(f"{name}: {n} lines match Debian's ODE (tolerance {tol}; "
          f"largest rel diff above abs {worst_rel:.3e}, largest abs diff {worst_abs:.3e})")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src")
    ap.add_argument("--ref-bin")
    ap.add_argument("--ref-libdir")
    ap.add_argument("--bin")
    ap.add_argument("--libdir")
    ap.add_argument("--timeout", type=float, default=240)
    ap.add_argument("--traces", nargs=2, metavar=("REF", "OURS"))
    ap.add_argument("--rel", type=float)
    ap.add_argument("--abs", type=float)
    ap.add_argument("--args", nargs=argparse.REMAINDER, default=[])
    o = ap.parse_args()

    rel, abs_, declared = read_tolerance(o.src)
    if o.rel is not None:
        rel, declared = o.rel, True
    if o.abs is not None:
        abs_, declared = o.abs, True

    if o.traces:
        with open(o.traces[0]) as f:
            ref = f.read()
        with open(o.traces[1]) as f:
            ours = f.read()
        return report(os.path.basename(o.traces[1]), *compare(ours, ref, rel, abs_), rel, abs_, declared)

    for need in ("ref_bin", "ref_libdir", "bin", "libdir"):
        if getattr(o, need) is None:
            ap.error(f"--{need.replace('_', '-')} is required")
    name = os.path.basename(o.src or o.bin)

    rc, ref, err = run(o.ref_bin, o.ref_libdir, o.args, o.timeout)
    if rc != 0:
        print(f"{name}: the REFERENCE run (Debian's library in {o.ref_libdir}) failed with status {rc}")
        print(err[-4000:])
        return 1
    rc, ours, err = run(o.bin, o.libdir, o.args, o.timeout)
    if rc != 0:
        missing = sorted(set(re.findall(r"undefined symbol: (\w+)", err)))
        print(f"{name}: our run (library in {o.libdir}) failed with status {rc}")
        if missing:
            print(f"  our library does not export: {', '.join(missing)}")
        print(err[-4000:])
        if ours:
            print("  stdout so far:\n" + "\n".join("    " + l for l in ours.splitlines()[-20:]))
        return 1
    return report(name, *compare(ours, ref, rel, abs_), rel, abs_, declared)


if __name__ == "__main__":
    sys.exit(main())
