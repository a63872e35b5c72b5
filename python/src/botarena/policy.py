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
    "widen_inputs",
    "write_safetensors",
]

FORMAT = "botarena.policy"
VERSION = 1
_METADATA_KEY = "botarena.policy"
_MAX_HEADER = 100 << 20

Architecture = dict[str, Any]


def _is_v1_layout(spec: GameSpec) -> bool:
    """Whether the spec's observations are the version-1 layout that Go's forward pass computes:
    a uint8 image named ``planes`` ([C,H,W] or [C,D,H,W]) and a float32 vector named ``scalars``."""
    obs = spec.observations
    return (
        len(obs) == 2
        and (obs[0].name, obs[1].name) == ("planes", "scalars")
        and obs[0].dtype == np.dtype(np.uint8)
        and len(obs[0].shape) in (3, 4)
        and obs[1].dtype == np.dtype(np.float32)
        and len(obs[1].shape) == 1
    )


def encoder_layers(shape: Sequence[int], prefix: str, channels: Sequence[int], strides: Sequence[int]) -> list[dict[str, Any]]:
    """The encoder of one observation tensor, by its rank (the observation contract,
    docs/policy-format.md): a [C,H,W] tensor gets one 3×3 ``conv2d`` (and ReLU) per entry of
    ``channels``, a [C,D,H,W] tensor 3×3×3 ``conv3d`` layers, each with its stride and padding 1;
    every tensor then ends with ``flatten`` (tensors of rank 1 or 2 get ``flatten`` alone).
    Weights are named ``<prefix>.<layer index>.weight`` and ``.bias``."""
    layers: list[dict[str, Any]] = []
    if len(shape) in (3, 4):
        conv = "conv2d" if len(shape) == 3 else "conv3d"
        for c, st in zip(channels, strides):
            i = len(layers)
            layers.append({"op": conv, "weight": f"{prefix}.{i}.weight", "bias": f"{prefix}.{i}.bias", "out": int(c), "kernel": 3, "stride": int(st), "padding": 1})
            layers.append({"op": "relu"})
    elif len(shape) not in (1, 2):
        raise ValueError(f"{prefix}: an observation tensor of shape {list(shape)}: the contract takes ranks 1 to 4")
    layers.append({"op": "flatten"})
    return layers


def default_architecture(
    spec: GameSpec,
    *,
    config: Mapping[str, Any] | None = None,
    channels: Sequence[int] = (32, 32),
    strides: Sequence[int] | None = None,
    hidden: int = 256,
    scales: Mapping[str, Sequence[float]] | None = None,
    planes_scale: Sequence[float] | None = None,
    scalars_scale: Sequence[float] | None = None,
    head: str = "flat",
) -> Architecture:
    """The standard botarena network for ``spec``: an encoder per observation tensor, a trunk, two heads.

    The network walks the observation tensors the spec declares, in its order (the observation
    contract, docs/policy-format.md): each tensor of rank 3 ([C,H,W]) gets 3×3 ``conv2d`` layers,
    of rank 4 ([C,D,H,W], Battle³) 3×3×3 ``conv3d`` layers, one per entry of ``channels``, each
    followed by ReLU (``strides``: one stride per layer, default 1; a stride of 2 halves the
    feature map, padding 1 keeps the border); tensors of rank 1 or 2 are flattened as they are. The
    flattened features of every tensor, concatenated in the spec's order, go through a
    ``hidden``-unit linear layer with ReLU into the policy head (one logit per action) and the
    value head. ``scales`` gives a tensor's per-channel input scales (one per entry of its first
    dimension; default 1); ``planes_scale`` and ``scalars_scale`` are the same for tensors named
    planes and scalars.

    A spec whose observations are a uint8 ``planes`` image and a float32 ``scalars`` vector (every
    game botarena ships) gets the version-1 layout that Go plays (``planes`` layer list at the top
    level); any other spec gets ``encoders``, one layer list per tensor (Python trains and plays it;
    Go's forward pass refuses it by name, docs/policy-format.md).

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
    if not spec.observations:
        raise ValueError(f"{spec.game}: the spec declares no observation tensor")
    if strides is None:
        strides = [1] * len(channels)
    if len(strides) != len(channels):
        raise ValueError(f"strides: {len(strides)} given for {len(channels)} conv layers")
    given = dict(scales or {})
    if planes_scale is not None:
        given["planes"] = planes_scale
    if scalars_scale is not None:
        given["scalars"] = scalars_scale
    inputs: dict[str, Any] = {}
    for t in spec.observations:
        sc = given.get(t.name)
        inputs[t.name] = {"shape": list(t.shape), "scale": [float(x) for x in (sc if sc is not None else [1.0] * t.shape[0])]}
    arch: Architecture = {
        "format": FORMAT,
        "version": VERSION,
        "game": spec.game,
        "config": dict(config) if config else None,
        "actions": spec.actions,
        "inputs": inputs,
    }
    if _is_v1_layout(spec):
        arch["planes"] = encoder_layers(spec.observations[0].shape, "planes", channels, strides)
    else:
        arch["encoders"] = {t.name: encoder_layers(t.shape, f"encoders.{t.name}", channels, strides) for t in spec.observations}
    arch.update(
        {
            "trunk": [{"op": "linear", "weight": "trunk.0.weight", "bias": "trunk.0.bias", "out": int(hidden)}, {"op": "relu"}],
            "head": head_json,
            "policy": [{"op": "linear", "weight": "policy.0.weight", "bias": "policy.0.bias", "out": outputs}],
            "value": [{"op": "linear", "weight": "value.0.weight", "bias": "value.0.bias", "out": 1}],
            "trained": {},
        }
    )
    return arch


class _Conv2d(nn.Conv2d):
    """``nn.Conv2d`` that, as the last convolution before a ``flatten``, gives its output in the
    standard (contiguous, channels-first) layout.

    On the CPU the trainer lays the inputs and convolution weights out channels-last
    (:meth:`PolicyNet.prepare`), so oneDNN's convolutions give channels-last outputs, while
    ``flatten`` reads the channels-first order of docs/policy-format.md and so copies. Left there,
    that copy's backward hands the ReLU between them a channels-first gradient for a channels-last
    output: its backward pass and the convolution's then ran on mixed layouts, several times
    slower (half of a BattleBots update's CPU time; docs/training.md). Converting right after the
    convolution keeps every elementwise layer after it in one layout. The numbers are the same
    either way; on a GPU, or with channels-first inputs, the output is already contiguous and
    nothing is copied.
    """

    flat_after = False  # set by _build on the last convolution before a flatten

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = super().forward(x)
        return y.contiguous() if self.flat_after else y


def _build(layers: Sequence[Mapping[str, Any]], prefix: str, in_shape: tuple[int, ...]) -> tuple[nn.Sequential, tuple[int, ...]]:
    """Builds a layer list as an ``nn.Sequential`` whose parameter names are those the list gives."""
    mods: list[nn.Module] = []
    last_conv2d: _Conv2d | None = None  # since the last flatten
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
            if dims == 2:
                mod = last_conv2d = _Conv2d(shape[0], int(layer["out"]), k, stride=s, padding=p)
            else:
                mod = nn.Conv3d(shape[0], int(layer["out"]), k, stride=s, padding=p)
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
            if last_conv2d is not None:
                last_conv2d.flat_after = True
                last_conv2d = None
            mod = nn.Flatten()
            shape = (int(np.prod(shape)),)
        else:
            raise ValueError(f"{prefix}[{i}]: unknown op {op!r} (conv2d, conv3d, linear, relu, tanh, flatten)")
        mods.append(mod)
    return nn.Sequential(*mods), shape


class PolicyNet(nn.Module):
    """The network an architecture (docs/policy-format.md) describes.

    ``forward(*inputs)`` takes a batch of raw observations, one tensor per entry of the
    architecture's ``inputs`` in that order (:attr:`input_names`: the spec's observation tensors,
    ``planes`` and ``scalars`` for every shipped game), in their wire dtypes, and returns
    ``(logits, value)``; the per-channel scales are applied inside, so trainers feed observations
    as the server sends them. :meth:`prepare` and :meth:`forward_prepared` split that in two, so
    that a trainer converts a whole batch once and indexes the converted tensors.
    """

    head_action_pair: torch.Tensor  # factored heads: each action's (command, cell) pair index
    head_pair_action: torch.Tensor  # factored heads: each pair's action (Actions where none)

    def __init__(self, arch: Architecture) -> None:
        super().__init__()
        if arch.get("format") != FORMAT or arch.get("version") != VERSION:
            raise ValueError(f"not a {FORMAT} version {VERSION} architecture: format={arch.get('format')!r} version={arch.get('version')!r}")
        self.arch: Architecture = json.loads(json.dumps(arch))
        inputs = arch.get("inputs") or {}
        if not isinstance(inputs, dict) or not inputs:
            raise ValueError("inputs: an object with one entry per observation tensor")
        #: The observation tensors forward() takes, in order (the architecture's inputs).
        self.input_names: list[str] = list(inputs)
        self.input_shapes: list[tuple[int, ...]] = []
        encoders = arch.get("encoders")
        if encoders is None:
            # Version-1 layout: conv layers over "planes", then "scalars" as they are.
            if self.input_names != ["planes", "scalars"] and sorted(self.input_names) == ["planes", "scalars"]:
                self.input_names = ["planes", "scalars"]
            if self.input_names != ["planes", "scalars"]:
                raise ValueError(f"inputs {self.input_names}: without encoders, the inputs must be planes and scalars")
            if not arch["planes"] or arch["planes"][-1]["op"] != "flatten":
                raise ValueError("planes: the layer list must end with flatten")
        elif not isinstance(encoders, dict) or list(encoders) != self.input_names:
            raise ValueError(f"encoders: one layer list per input, in the inputs' order {self.input_names}")
        else:
            self.encoders = nn.ModuleDict()
        widths: list[int] = []
        self._encoder_modules: list[nn.Module] = []
        for k, name in enumerate(self.input_names):
            spec_in = inputs[name]
            shape = tuple(int(x) for x in spec_in["shape"])
            if not shape or len(spec_in["scale"]) != shape[0]:
                raise ValueError(f"inputs.{name}: one scale per entry of its first dimension")
            self.input_shapes.append(shape)
            pad = (1,) * (len(shape) - 1)
            self.register_buffer(f"input_scale_{k}", torch.tensor(spec_in["scale"], dtype=torch.float32).reshape(-1, *pad), persistent=False)
            if encoders is None:
                if name == "planes":
                    if len(shape) not in (3, 4):
                        raise ValueError(f"planes must be [C,H,W] or [C,D,H,W], got shape {list(shape)}")
                    self.planes, out = _build(arch["planes"], "planes", shape)
                    mod: nn.Module = self.planes
                else:
                    if len(shape) != 1:
                        raise ValueError(f"scalars must be [S], got shape {list(shape)}")
                    mod, out = nn.Flatten(), shape
            else:
                seq, out = _build(encoders[name], f"encoders.{name}", shape)
                self.encoders[name] = seq
                mod = seq
                if len(out) != 1:
                    raise ValueError(f"encoders.{name}: gives shape {list(out)}, want a flat vector (end with flatten)")
            widths.append(out[0])
            self._encoder_modules.append(mod)
        self.trunk, tshape = _build(arch["trunk"], "trunk", (sum(widths),))
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

    def _scale(self, k: int) -> torch.Tensor:
        t = getattr(self, f"input_scale_{k}")
        assert isinstance(t, torch.Tensor)
        return t

    def prepare(self, *inputs: torch.Tensor, dtype: torch.dtype = torch.float32) -> list[torch.Tensor]:
        """The network's inputs for a batch of raw observations (one tensor per input): scaled, in
        ``dtype`` (float32; bfloat16 for :meth:`forward_prepared` under autocast), and for a [C,H,W]
        input on the CPU laid out channels-last, which oneDNN's convolutions run faster on
        (docs/training.md).

        A channels-last batch stays channels-last when rows are taken from it with
        :meth:`take`, so a trainer prepares a whole rollout once and indexes minibatches from it.
        """
        if len(inputs) != len(self.input_names):
            raise ValueError(f"{len(inputs)} inputs given, the network takes {len(self.input_names)}: {self.input_names}")
        out = []
        for k, x in enumerate(inputs):
            if x.dim() == 4 and x.device.type == "cpu":
                out.append(self._prepare_channels_last(x, self._scale(k), dtype))
                continue
            y = x.to(torch.float32) * self._scale(k)
            if dtype != torch.float32:
                y = y.to(dtype)
            out.append(y)
        return out

    @staticmethod
    def _prepare_channels_last(x: torch.Tensor, scale: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
        """``(x * scale)`` in ``dtype``, channels-last, for a [B,C,H,W] batch on the CPU: one
        transposing pass in blocks of rows (the float32 products of a block stay in the cache
        until they are rounded to ``dtype``), rather than three passes over the whole batch. The
        values are those of ``(x.float() * scale).to(dtype)``."""
        rows = x.permute(0, 2, 3, 1)  # [B,H,W,C], a view
        per_channel = scale.reshape(-1)  # broadcasts along the last (channel) dimension
        y = torch.empty(rows.shape, dtype=dtype)
        block = max(1, (1 << 18) // max(1, rows[0].numel()))  # about 1 MiB of float32 a block
        for lo in range(0, rows.shape[0], block):
            y[lo : lo + block] = rows[lo : lo + block] * per_channel
        return y.permute(0, 3, 1, 2)

    @staticmethod
    def take(prepared: Sequence[torch.Tensor], idx: torch.Tensor) -> list[torch.Tensor]:
        """Rows ``idx`` of prepared inputs (:meth:`prepare`), channels-last ones kept channels-last.

        Rows are gathered from a two-dimensional view (one row per observation) where there is
        one: index_select copies whole rows there, 4× faster than on the 4-D tensor on the CPU.
        """
        out = []
        for x in prepared:
            if x.dim() == 4 and x.is_contiguous(memory_format=torch.channels_last) and not x.is_contiguous():
                rows = x.permute(0, 2, 3, 1)  # contiguous [B,H,W,C]
                picked = rows.reshape(rows.shape[0], -1).index_select(0, idx).view(-1, *rows.shape[1:])
                out.append(picked.permute(0, 3, 1, 2))
            elif x.dim() > 2 and x.is_contiguous():
                out.append(x.reshape(x.shape[0], -1).index_select(0, idx).view(-1, *x.shape[1:]))
            else:
                out.append(x.index_select(0, idx))
        return out

    def forward_prepared(self, prepared: Sequence[torch.Tensor], autocast: torch.dtype | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """forward() on inputs already prepared (:meth:`prepare`).

        With ``autocast`` (``torch.bfloat16``), the encoders and the trunk run under
        ``torch.autocast`` in that dtype (on CPUs with AMX or AVX-512 BF16, and on GPUs, its matrix
        products are several times faster) and the policy and value heads in float32 on the
        trunk's output, so that the logits keep float32's precision in their last layer.
        """
        if autocast is None:
            feats = [enc(x) for enc, x in zip(self._encoder_modules, prepared)]
            h = self.trunk(torch.cat(feats, dim=1))
        else:
            with torch.autocast(prepared[0].device.type, dtype=autocast):
                feats = [enc(x) for enc, x in zip(self._encoder_modules, prepared)]
                h = self.trunk(torch.cat(feats, dim=1))
            h = h.float()
        return self.policy(h), self.value(h).squeeze(-1)

    def forward(self, *inputs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.forward_prepared(self.prepare(*inputs))

    def observe(self, obs: Mapping[str, Any], prefix: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
        """forward() on a dict of observation arrays by tensor name (numpy or torch), on the network's device.

        With ``prefix``, a tensor longer than the network's input along its leading axis (the
        second of the batch) gives its first elements: for a config that raises append-only fields
        of the one the network was trained with (:meth:`botarena.GameInfo.obs_prefix` says when).
        Any other difference of shape raises ValueError.
        """
        dev = next(self.parameters()).device
        xs = []
        for k, n in enumerate(self.input_names):
            x = torch.as_tensor(np.asarray(obs[n]), device=dev)
            want = self.input_shapes[k]
            got = tuple(x.shape[1:])
            if got != want:
                if not (prefix and len(got) == len(want) and got[0] > want[0] and got[1:] == want[1:]):
                    raise ValueError(
                        f"observation {n!r} has shape {list(got)}, the network takes {list(want)}"
                        + ("" if prefix else " (a config raising append-only fields needs prefix=True)")
                    )
                x = x[:, : want[0]]
            xs.append(x)
        return self(*xs)

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
    def probabilities(self, *inputs_and_mask: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """Action probabilities for a batch of observations, as docs/policy-format.md defines them:
        ``probabilities(*inputs, mask)``, the inputs in :attr:`input_names`' order, the mask last."""
        *inputs, mask = inputs_and_mask
        dev = next(self.parameters()).device
        logits, _ = self(*(torch.as_tensor(np.asarray(x), device=dev) for x in inputs))
        return self.log_probs(logits, torch.as_tensor(np.asarray(mask), device=dev)).exp().cpu().numpy()


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


def widen_inputs(net: PolicyNet, shapes: Mapping[str, Sequence[int]]) -> tuple[PolicyNet, list[str]]:
    """A copy of ``net`` for observations of ``shapes`` (tensor name → shape), in which a vector
    input (rank 1, fed to the trunk as it is: version-1 ``scalars``, or an encoder that is a bare
    ``flatten``) may be longer than ``net``'s, with the new entries at its end (e.g. Battle³'s
    ``history`` scalars after the four it always has).

    Every other input must keep its shape. The new entries get input scale 1 and all-zero columns
    in the trunk's first linear layer, so the copy computes exactly ``net``'s logits and value
    whatever the new entries hold, and training then learns their weights. Returns the copy (in
    ``net``'s mode, on the CPU) and one line per widened input naming what changed (empty when
    the shapes are ``net``'s); raises ValueError for any other difference.
    """
    arch = json.loads(json.dumps(net.arch))
    inputs = arch["inputs"]
    if list(shapes) != list(inputs) and sorted(shapes) != sorted(inputs):
        raise ValueError(f"observations {sorted(shapes)}, the policy takes {sorted(inputs)}")
    trunk = arch["trunk"]
    widened: list[tuple[int, int, int]] = []  # (column where the new entries go, how many, input index)
    notes: list[str] = []
    col = 0
    for k, name in enumerate(net.input_names):
        old, new = [int(x) for x in inputs[name]["shape"]], [int(x) for x in shapes[name]]
        width = int(np.prod(net.input_shapes[k])) if len(old) == 1 else 0
        if new != old:
            bare = (arch.get("encoders") is None and name == "scalars") or arch.get("encoders", {}).get(name) == [{"op": "flatten"}]
            if len(old) != 1 or len(new) != 1 or new[0] < old[0] or not bare:
                raise ValueError(f"input {name!r}: shape {new}, the policy's is {old}: only a vector input fed to the trunk as it is may grow")
            if not trunk or trunk[0].get("op") != "linear":
                raise ValueError(f"input {name!r}: the trunk does not start with a linear layer, so it cannot grow")
            widened.append((col + old[0], new[0] - old[0], k))
            inputs[name]["shape"] = new
            inputs[name]["scale"] = list(inputs[name]["scale"]) + [1.0] * (new[0] - old[0])
            notes.append(
                f"input {name!r} widened from {old[0]} to {new[0]} entries: {new[0] - old[0]} zero columns "
                f"({col + old[0]}..{col + new[0] - 1}) in {trunk[0]['weight']}, scale 1"
            )
        if len(old) == 1:
            col += width
        else:
            col += _flat_width(net, k)
    out = PolicyNet(arch)
    state = {k: v.detach().to("cpu").clone() for k, v in net.state_dict().items()}
    w = state[trunk[0]["weight"]]
    for at, n, _ in sorted(widened, reverse=True):
        w = torch.cat([w[:, :at], w.new_zeros(w.shape[0], n), w[:, at:]], dim=1)
    state[trunk[0]["weight"]] = w
    out.load_state_dict(state)
    out.train(net.training)
    return out, notes


def _flat_width(net: PolicyNet, k: int) -> int:
    """The width of input ``k``'s flattened encoder output."""
    with torch.no_grad():
        x = torch.zeros(1, *net.input_shapes[k], device=next(net.parameters()).device)
        return int(net._encoder_modules[k](x).shape[1])


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
