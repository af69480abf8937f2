"""A torchrun worker: `torchrun --nproc_per_node=2 torchrun_worker.py`; each
worker runs the extension on its LOCAL_RANK's GPU (modulo the GPUs there)."""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402

torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", "0")) % torch.cuda.device_count())
run.main(3)
