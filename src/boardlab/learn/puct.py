"""Self-play's network for inference: the search it feeds is agents/puct.py's `ArrayForest`
(the agent's search too, issue 33), which moved there from this module; what stays here is
learn's own part, the network traced by TorchScript for self-play and the bench."""

from __future__ import annotations

import copy
import warnings
from collections.abc import Collection
from typing import Any


def traced_for_inference(network: Any, shape: Collection[int], bfloat16: bool = False) -> Any:
    """The network traced by TorchScript, for inference only: batch norms folded into the
    convolutions and oneDNN kernels (measured 1.8-2x the module on two games' nets at batch
    64; the outputs agree to float rounding). `bfloat16` computes in bfloat16 inside (another
    1.3-1.5x where the CPU has bfloat16 units, outputs within ~5e-4), float32 in and out.
    `shape`: one input's (planes, height, width)."""
    import torch
    from torch import nn

    class BFloat16(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.inner = copy.deepcopy(network).to(torch.bfloat16)

        def forward(self, planes: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            logits, values = self.inner(planes.to(torch.bfloat16))
            return logits.float(), values.float()

    network.eval()
    module = BFloat16().eval() if bfloat16 else network
    # TorchScript is deprecated in favour of torch.compile, which needs a C++ compiler at run
    # time and compiles again for each batch size; this still works and is what we measured.
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        traced = torch.jit.trace(module, torch.zeros((2, *shape)))
        return torch.jit.optimize_for_inference(torch.jit.freeze(traced))
