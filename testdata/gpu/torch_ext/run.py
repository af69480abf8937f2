"""The extension's calls, ITER times each, on a created torch.cuda.Stream;
prints a checksum so that a probed run's output can be compared."""
import sys

import torch

from load_ext import load


def main(iterations):
    ext = load()
    n = 256
    a = torch.rand(n, n, device="cuda")
    b = torch.rand(n, n, device="cuda")
    total = 0.0
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        for _ in range(iterations):
            x = torch.ones(1 << 16, device="cuda")
            ext.scale_default(x)
            ext.scale_current(x)
            y = torch.empty_like(x)
            ext.copy_default(y, x)
            c1 = ext.gemm_new_handle(a, b)
            c2 = ext.gemm_on_stream(a, b)
            torch.cuda.synchronize()
            total += float(y.sum()) + float((c1 - c2).abs().max() < 1e-3)
    print(f"checksum {total:.1f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
