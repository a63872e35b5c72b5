"""Policy networks and the policy file that Go plays as ``policy:PATH``.

The file format is documented in docs/policy-format.md: a safetensors file
whose tensors are the weights and whose ``__metadata__["botarena.policy"]``
is the architecture as JSON. :class:`PolicyNet` is built from that
architecture, so a network that is saved and loaded is the same network,
and Go's forward pass (agents/policy) computes the same probabilities.

This module needs PyTorch (``pip install -e 'python[train]'``).
"""

from __future__ import annotations

import json
import os
import pathlib
import struct
from typing import Any, Mapping, Sequence

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from botarena.spec import GameSpec

__all__ = [
    "FORMAT",
    "VERSION",
    "PolicyNet",
    "default_architecture",
    "load_policy",
    "read_safetensors",
    "save_policy",
    "write_safetensors",
]

FORMAT = "botarena.policy"
VERSION = 1
_METADATA_KEY = "botarena.policy"
_MAX_HEADER = 100 << 20

Architecture = dict[str, Any]


def default_architecture(
    spec: GameSpec,
    *,
    config: Mapping[str, Any] | None = None,
    channels: Sequence[int] = (32, 32),
    strides: Sequence[int] | None = None,
    hidden: int = 256,
    planes_scale: Sequence[float] | None = None,
    scalars_scale: Sequence[float] | None = None,
    head: str = "flat",
) -> Architecture:
    """The standard botarena network for ``spec``: convolutions over the planes, a trunk, two heads.

    Planes ``[C,H,W]`` get 3×3 ``conv2d`` layers, planes ``[C,D,H,W]`` (Battle³)
    3×3×3 ``conv3d`` layers, one per entry of ``channels``, each followed by
    ReLU (``strides``: one stride per layer, default 1; a stride of 2 halves
    the feature map, padding 1 keeps the border); then the flattened features and the scalars go through a
    ``hidden``-unit linear layer with ReLU into the policy head (one logit per
    action) and the value head. Scales default to 1.

    ``head`` chooses the policy head: ``"flat"`` (one softmax over the actions), or, for a spec
    with action factors (:class:`botarena.spec.ActionFactors`), ``"factored"`` (a softmax over the
    commands, then one over the cells of the chosen command; every command shares one set of
    cell logits) or ``"factored-per-command"`` (each command has its own cell logits); see
    docs/policy-format.md. ``"auto"`` is factored for a spec with action factors, flat otherwise.
    """
    if head == "auto":
        head = "factored" if spec.action_factors is not None else "flat"
    if head not in ("flat", "factored", "factored-per-command"):
        raise ValueError(f"head must be 'auto', 'flat', 'factored' or 'factored-per-command', got {head!r}")
    head_json: dict[str, Any] = {"type": "flat"}
    outputs = spec.actions
    if head != "flat":
        f = spec.action_factors
        if f is None:
            raise ValueError(f"head {head!r}: the spec of {spec.game} has no action factors")
        per_command = head == "factored-per-command"
        head_json = {
            "type": "factored",
            "cell_logits": "per_command" if per_command else "shared",
            "commands": list(f.commands),
            "cells": f.cells,
            "command": list(f.command),
            "cell": list(f.cell),
        }
        outputs = len(f.commands) + (len(f.commands) if per_command else 1) * f.cells
    planes = spec.observation("planes")
    scalars = spec.observation("scalars")
    dims = len(planes.shape) - 1
    if dims not in (2, 3):
        raise ValueError(f"planes must be [C,H,W] or [C,D,H,W], got shape {planes.shape}")
    conv = "conv2d" if dims == 2 else "conv3d"
    if strides is None:
        strides = [1] * len(channels)
    if len(strides) != len(channels):
        raise ValueError(f"strides: {len(strides)} given for {len(channels)} conv layers")
    layers: list[dict[str, Any]] = []
    for c, st in zip(channels, strides):
        i = len(layers)
        layers.append({"op": conv, "weight": f"planes.{i}.weight", "bias": f"planes.{i}.bias", "out": int(c), "kernel": 3, "stride": int(st), "padding": 1})
        layers.append({"op": "relu"})
    layers.append({"op": "flatten"})
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": spec.game,
        "config": dict(config) if config else None,
        "actions": spec.actions,
        "inputs": {
            "planes": {
                "shape": list(planes.shape),
                "scale": [float(x) for x in (planes_scale if planes_scale is not None else [1.0] * planes.shape[0])],
            },
            "scalars": {
                "shape": list(scalars.shape),
                "scale": [float(x) for x in (scalars_scale if scalars_scale is not None else [1.0] * scalars.shape[0])],
            },
        },
        "planes": layers,
        "trunk": [{"op": "linear", "weight": "trunk.0.weight", "bias": "trunk.0.bias", "out": int(hidden)}, {"op": "relu"}],
        "head": head_json,
        "policy": [{"op": "linear", "weight": "policy.0.weight", "bias": "policy.0.bias", "out": outputs}],
        "value": [{"op": "linear", "weight": "value.0.weight", "bias": "value.0.bias", "out": 1}],
        "trained": {},
    }


def _build(layers: Sequence[Mapping[str, Any]], prefix: str, in_shape: tuple[int, ...]) -> tuple[nn.Sequential, tuple[int, ...]]:
    """Builds a layer list as an ``nn.Sequential`` whose parameter names are those the list gives."""
    mods: list[nn.Module] = []
    shape = in_shape
    for i, layer in enumerate(layers):
        op = layer["op"]
        mod: nn.Module
        if op in ("conv2d", "conv3d"):
            want = f"{prefix}.{i}.weight"
            if layer["weight"] != want or layer["bias"] != f"{prefix}.{i}.bias":
                raise ValueError(f"{prefix}[{i}]: tensors must be named {want!r} and '{prefix}.{i}.bias'")
            dims = 2 if op == "conv2d" else 3
            if len(shape) != dims + 1:
                raise ValueError(f"{prefix}[{i}]: {op} needs a [C,{'D,' if dims == 3 else ''}H,W] input, got {list(shape)}")
            k, s, p = int(layer.get("kernel", 3)), int(layer.get("stride", 1)), int(layer.get("padding", 1))
            cls = nn.Conv2d if dims == 2 else nn.Conv3d
            mod = cls(shape[0], int(layer["out"]), k, stride=s, padding=p)
            shape = (int(layer["out"]), *[(d + 2 * p - k) // s + 1 for d in shape[1:]])
        elif op == "linear":
            if layer["weight"] != f"{prefix}.{i}.weight" or layer["bias"] != f"{prefix}.{i}.bias":
                raise ValueError(f"{prefix}[{i}]: tensors must be named '{prefix}.{i}.weight' and '{prefix}.{i}.bias'")
            if len(shape) != 1:
                raise ValueError(f"{prefix}[{i}]: linear needs a flat input, got {list(shape)}")
            mod = nn.Linear(shape[0], int(layer["out"]))
            shape = (int(layer["out"]),)
        elif op == "relu":
            mod = nn.ReLU()
        elif op == "tanh":
            mod = nn.Tanh()
        elif op == "flatten":
            mod = nn.Flatten()
            shape = (int(np.prod(shape)),)
        else:
            raise ValueError(f"{prefix}[{i}]: unknown op {op!r} (conv2d, conv3d, linear, relu, tanh, flatten)")
        mods.append(mod)
    return nn.Sequential(*mods), shape


class PolicyNet(nn.Module):
    """The network an architecture (docs/policy-format.md) describes.

    ``forward(planes, scalars)`` takes a batch of raw observations (planes as
    uint8 or float, scalars float32) and returns ``(logits, value)``; the
    per-channel scales are applied inside, so trainers feed observations as
    the server sends them.
    """

    planes_scale: torch.Tensor
    scalars_scale: torch.Tensor
    head_action_pair: torch.Tensor  # factored heads: each action's (command, cell) pair index
    head_pair_action: torch.Tensor  # factored heads: each pair's action (Actions where none)

    def __init__(self, arch: Architecture) -> None:
        super().__init__()
        if arch.get("format") != FORMAT or arch.get("version") != VERSION:
            raise ValueError(f"not a {FORMAT} version {VERSION} architecture: format={arch.get('format')!r} version={arch.get('version')!r}")
        self.arch: Architecture = json.loads(json.dumps(arch))
        pin = arch["inputs"]["planes"]
        sin = arch["inputs"]["scalars"]
        self.planes_shape = tuple(int(x) for x in pin["shape"])
        self.scalars_shape = tuple(int(x) for x in sin["shape"])
        if len(pin["scale"]) != self.planes_shape[0] or len(sin["scale"]) != self.scalars_shape[0]:
            raise ValueError("inputs: one scale per plane channel and per scalar")
        pad = (1,) * (len(self.planes_shape) - 1)
        self.register_buffer("planes_scale", torch.tensor(pin["scale"], dtype=torch.float32).reshape(-1, *pad), persistent=False)
        self.register_buffer("scalars_scale", torch.tensor(sin["scale"], dtype=torch.float32), persistent=False)
        if not arch["planes"] or arch["planes"][-1]["op"] != "flatten":
            raise ValueError("planes: the layer list must end with flatten")
        self.planes, fshape = _build(arch["planes"], "planes", self.planes_shape)
        self.trunk, tshape = _build(arch["trunk"], "trunk", (fshape[0] + self.scalars_shape[0],))
        self.policy, pshape = _build(arch["policy"], "policy", tshape)
        self.value, vshape = _build(arch["value"], "value", tshape)
        self.actions = int(arch["actions"])
        self.commands = 0  # factored head: the number of commands (0: a flat head)
        self.cells = 0  # factored head: the number of cells
        outputs = self.actions
        head = arch.get("head") or {"type": "flat"}
        if head.get("type") == "factored":
            outputs = _check_head(head, self.actions)
            self.commands, self.cells = len(head["commands"]), int(head["cells"])
            pair = [k * self.cells + c for k, c in zip(head["command"], head["cell"])]
            pair_action = [self.actions] * (self.commands * self.cells)  # no action: the always-illegal column
            for a, i in enumerate(pair):
                pair_action[i] = a
            # action → its (command, cell) pair's index, and pair → action.
            self.register_buffer("head_action_pair", torch.tensor(pair, dtype=torch.int64), persistent=False)
            self.register_buffer("head_pair_action", torch.tensor(pair_action, dtype=torch.int64), persistent=False)
        elif head.get("type") != "flat":
            raise ValueError(f"head: type {head.get('type')!r}, want 'flat' or 'factored'")
        if pshape != (outputs,):
            want = f"[{outputs}] (the factored head's commands and cells)" if self.commands else f"[{outputs}] actions"
            raise ValueError(f"policy: gives {list(pshape)} outputs, want {want}")
        if vshape != (1,):
            raise ValueError(f"value: gives {list(vshape)} outputs, want [1]")

    def features(self, planes: torch.Tensor, scalars: torch.Tensor) -> torch.Tensor:
        x = planes.to(torch.float32) * self.planes_scale
        if x.dim() == 4 and x.device.type == "cpu":
            # oneDNN's CPU convolutions run 20-30% faster on channels-last input (measured on the
            # 2-core machine, docs/training.md); the result is the same network.
            x = x.contiguous(memory_format=torch.channels_last)
        s = scalars.to(torch.float32) * self.scalars_scale
        return self.trunk(torch.cat([self.planes(x), s], dim=1))

    def forward(self, planes: torch.Tensor, scalars: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.features(planes, scalars)
        return self.policy(h), self.value(h).squeeze(-1)

    @staticmethod
    def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Logits with illegal actions at -1e9 (rows with no legal action are left as they are).

        exp(-1e9 - max) is exactly 0 in float32, so illegal actions get
        probability 0, while log-probabilities and their gradients stay finite
        (-inf would make the entropy's gradient NaN).
        """
        legal = mask.to(torch.bool)
        legal = legal | ~legal.any(dim=1, keepdim=True)
        return logits.masked_fill(~legal, -1e9)

    def log_probs(self, logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Log-probabilities ``[B, actions]`` of every action under ``mask`` (1 = legal), from the
        policy head's outputs, as docs/policy-format.md defines them.

        A flat head gives ``log_softmax`` of :meth:`masked_logits`. A factored head gives
        ``log p(command) + log p(cell | command)``: a softmax over the commands with a legal
        action, then one over the command's legal cells. Illegal actions get about −1e9, finite,
        so that ``exp`` gives exactly 0 and ``p * log p`` gives 0 without NaN gradients.
        """
        if not self.commands:
            return torch.log_softmax(self.masked_logits(logits, mask), dim=1)
        legal = mask.to(torch.bool)
        legal = legal | ~legal.any(dim=1, keepdim=True)
        B, K, C = logits.shape[0], self.commands, self.cells
        # Dense [B, K, C] tables: which (command, cell) pairs are legal actions, and the cell logits.
        pair_legal = torch.cat([legal, legal.new_zeros(B, 1)], dim=1).index_select(1, self.head_pair_action).view(B, K, C)
        logp_cmd = torch.log_softmax(logits[:, :K].masked_fill(~pair_legal.any(dim=2), -1e9), dim=1)
        z = logits[:, K:].view(B, -1, C).expand(B, K, C)  # shared: one row of cell logits for every command
        logp_cell = torch.log_softmax(z.masked_fill(~pair_legal, -1e9), dim=2)
        logp = (logp_cmd.unsqueeze(2) + logp_cell).view(B, K * C).index_select(1, self.head_action_pair)
        return logp.masked_fill(~legal, -1e9)

    @torch.no_grad()
    def probabilities(
        self, planes: npt.ArrayLike, scalars: npt.ArrayLike, mask: npt.ArrayLike
    ) -> npt.NDArray[np.float32]:
        """Action probabilities for a batch of observations, as docs/policy-format.md defines them."""
        dev = next(self.parameters()).device
        p = torch.as_tensor(np.asarray(planes), device=dev)
        s = torch.as_tensor(np.asarray(scalars), device=dev)
        m = torch.as_tensor(np.asarray(mask), device=dev)
        logits, _ = self(p, s)
        return self.log_probs(logits, m).exp().cpu().numpy()


def _check_head(head: Mapping[str, Any], actions: int) -> int:
    """Checks a factored head (docs/policy-format.md); returns the number of policy outputs."""
    commands, cells = head.get("commands"), head.get("cells")
    cmd, cell = head.get("command"), head.get("cell")
    mode = head.get("cell_logits")
    if not isinstance(commands, list) or not commands or not isinstance(cells, int) or cells < 1:
        raise ValueError("head: a factored head needs a list of commands and a number of cells")
    if mode not in ("shared", "per_command"):
        raise ValueError(f"head: cell_logits {mode!r}, want 'shared' or 'per_command'")
    if not isinstance(cmd, list) or not isinstance(cell, list) or len(cmd) != actions or len(cell) != actions:
        raise ValueError(f"head: command and cell must list one value per action ({actions})")
    K = len(commands)
    pairs: set[tuple[int, int]] = set()
    for a, (k, c) in enumerate(zip(cmd, cell)):
        if not (isinstance(k, int) and isinstance(c, int) and 0 <= k < K and 0 <= c < cells):
            raise ValueError(f"head: action {a} is command {k}, cell {c}: out of range ({K} commands, {cells} cells)")
        if (k, c) in pairs:
            raise ValueError(f"head: two actions are command {k}, cell {c}")
        pairs.add((k, c))
    if len({k for k, _ in pairs}) != K:
        raise ValueError("head: every command needs at least one action")
    return K + (K if mode == "per_command" else 1) * cells


_DTYPES: dict[np.dtype[Any], str] = {np.dtype("<f4"): "F32", np.dtype("<f8"): "F64"}
_NP_DTYPES: dict[str, np.dtype[Any]] = {"F32": np.dtype("<f4"), "F64": np.dtype("<f8")}


def write_safetensors(path: str | os.PathLike[str], tensors: Mapping[str, npt.NDArray[Any]], metadata: Mapping[str, str]) -> None:
    """Writes a safetensors file (float32/float64 tensors), atomically: a crash leaves the old file."""
    header: dict[str, Any] = {"__metadata__": dict(metadata)}
    blobs: list[bytes] = []
    offset = 0
    for name in sorted(tensors):
        a = np.ascontiguousarray(tensors[name])
        dt = a.dtype.newbyteorder("<") if a.dtype.byteorder == ">" else a.dtype
        if dt not in _DTYPES:
            raise TypeError(f"tensor {name!r}: dtype {a.dtype} (float32 or float64 only)")
        b = a.astype(dt, copy=False).tobytes()
        header[name] = {"dtype": _DTYPES[dt], "shape": list(a.shape), "data_offsets": [offset, offset + len(b)]}
        blobs.append(b)
        offset += len(b)
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)  # align the data to 8 bytes, as the reference writer does
    p = pathlib.Path(path)
    tmp = p.with_name(p.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, p)


def read_safetensors(path: str | os.PathLike[str]) -> tuple[dict[str, npt.NDArray[Any]], dict[str, str]]:
    """Reads a safetensors file written by :func:`write_safetensors` (or any F32/F64 one)."""
    data = pathlib.Path(path).read_bytes()
    if len(data) < 8:
        raise ValueError(f"{path}: not a safetensors file (shorter than its 8-byte header length)")
    (n,) = struct.unpack("<Q", data[:8])
    if n > _MAX_HEADER or 8 + n > len(data):
        raise ValueError(f"{path}: not a safetensors file (header length {n} for a {len(data)}-byte file)")
    header = json.loads(data[8 : 8 + n])
    meta = header.pop("__metadata__", {}) or {}
    body = memoryview(data)[8 + n :]
    out: dict[str, npt.NDArray[Any]] = {}
    for name, t in header.items():
        if t["dtype"] not in _NP_DTYPES:
            raise ValueError(f"{path}: tensor {name!r} has dtype {t['dtype']} (F32 or F64 only)")
        lo, hi = t["data_offsets"]
        dt = _NP_DTYPES[t["dtype"]]
        shape = tuple(t["shape"])
        if not 0 <= lo <= hi <= len(body) or (hi - lo) != int(np.prod(shape)) * dt.itemsize:
            raise ValueError(f"{path}: tensor {name!r} has offsets {lo}..{hi} that do not fit its shape {list(shape)}")
        out[name] = np.frombuffer(body[lo:hi], dtype=dt).reshape(shape).copy()
    return out, meta


def save_policy(net: PolicyNet, path: str | os.PathLike[str], *, trained: Mapping[str, Any] | None = None) -> None:
    """Writes ``net`` as a policy file (float32 weights, architecture in the metadata)."""
    arch = json.loads(json.dumps(net.arch))
    if trained is not None:
        arch["trained"] = dict(trained)
    tensors = {k: v.detach().to("cpu", torch.float32).numpy() for k, v in net.state_dict().items()}
    write_safetensors(path, tensors, {_METADATA_KEY: json.dumps(arch, separators=(",", ":"))})


def load_policy(path: str | os.PathLike[str], device: str | torch.device = "cpu") -> PolicyNet:
    """Reads a policy file into a :class:`PolicyNet` (eval mode)."""
    tensors, meta = read_safetensors(path)
    if _METADATA_KEY not in meta:
        raise ValueError(f"{path}: a safetensors file without {_METADATA_KEY!r} metadata is not a botarena policy")
    net = PolicyNet(json.loads(meta[_METADATA_KEY]))
    state = {k: torch.from_numpy(v) for k, v in tensors.items()}
    missing, unexpected = net.load_state_dict(state, strict=False)
    if missing or unexpected:
        raise ValueError(f"{path}: tensors missing {sorted(missing)}, unexpected {sorted(unexpected)}")
    return net.to(device).eval()
