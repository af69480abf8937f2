"""pytest over the extension: `streamlint-probe -- python3 -m pytest test_ext.py`
(and `-n 2` with pytest-xdist: each worker is a process of its own)."""
import pytest
import torch

from load_ext import load

ext = load()


@pytest.mark.parametrize("n", [64, 128])
def test_gemm_handles_agree(n):
    a = torch.rand(n, n, device="cuda")
    b = torch.rand(n, n, device="cuda")
    c1 = ext.gemm_new_handle(a, b)
    c2 = ext.gemm_on_stream(a, b)
    torch.cuda.synchronize()
    assert torch.allclose(c1, c2, atol=1e-3)


def test_scale_default_doubles():
    x = torch.ones(1000, device="cuda")
    ext.scale_default(x)
    torch.cuda.synchronize()
    assert float(x.sum()) == 2000.0
