"""rescale.py IN OUT FIRST SCALE: a copy of policy IN whose scalar inputs from index FIRST on get input
scale SCALE and their trunk columns divided by SCALE, so OUT computes exactly IN's logits and value
(pytest-free check below) while Adam, whose steps do not depend on a gradient's size, moves those
inputs' contributions SCALE times faster. Used to speed up learning the 14 cycle-mark scalars that
`--init` widened in with zero columns."""
import sys

import torch

from botarena.policy import PolicyNet, load_policy, save_policy


def main() -> None:
    src, dst, first, scale = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    net = load_policy(src)
    arch = net.arch
    sc = arch["inputs"]["scalars"]["scale"]
    n = len(sc)
    k = net.input_names.index("scalars")
    col = sum(int(m(torch.zeros(1, *net.input_shapes[i])).shape[1]) for i, m in enumerate(net._encoder_modules) if i < k)
    arch["inputs"]["scalars"]["scale"] = sc[:first] + [s * scale for s in sc[first:]]
    out = PolicyNet(arch)
    state = {key: v.clone() for key, v in net.state_dict().items()}
    w = state[arch["trunk"][0]["weight"]]
    w[:, col + first:col + n] /= scale
    out.load_state_dict(state)
    out.eval()
    g = torch.Generator().manual_seed(0)
    planes = (torch.rand(64, *net.input_shapes[0], generator=g) < 0.1).to(torch.uint8)
    scalars = torch.rand(64, n, generator=g)
    with torch.no_grad():
        a, b = net(planes, scalars), out(planes, scalars)
    err = max((a[0] - b[0]).abs().max().item(), (a[1] - b[1]).abs().max().item())
    print(f"{src} -> {dst}: scalars {first}..{n - 1} scale x{scale}, columns {col + first}..{col + n - 1} / {scale}; max |logit or value difference| {err:.2e}")
    save_policy(out, dst, trained=arch.get("trained"))


if __name__ == "__main__":
    main()
