"""The smallest PyTorch CUDA program: import, one tensor on the GPU, exit.
Whole-process time under the probe minus without it is the probe's fixed
cost on a process with PyTorch's libraries loaded (docs/measurements/probe-vs-other-tools.md)."""
import torch

torch.ones(1, device="cuda").add_(1)
torch.cuda.synchronize()
