"""Builds ext.cu with torch.utils.cpp_extension.load (-g -lineinfo), once per
TORCH_EXTENSIONS_DIR; every script here imports the module through it."""
import os

import torch.utils.cpp_extension as cpp

HERE = os.path.dirname(os.path.abspath(__file__))


def load():
    return cpp.load(name="streamlint_torch_ext", sources=[os.path.join(HERE, "ext.cu")],
                    extra_cflags=["-g", "-O1"], extra_cuda_cflags=["-g", "-lineinfo", "-O1"],
                    extra_ldflags=["-lcublas"], verbose=False)
