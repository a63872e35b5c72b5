# CPU time of one forward+backward pass of Battle³'s policy network (the layers of
# policies/battlecube-4p.policy.safetensors: conv3d 3->16, conv3d 16->32 stride 2, linear 2052->256,
# heads 519 and 1), float32 against torch.autocast bfloat16, one torch thread, interleaved A,B,A,B.
import time, torch, torch.nn as nn
torch.set_num_threads(1); torch.manual_seed(0)
class Net(nn.Module):
    def __init__(s):
        super().__init__()
        s.planes = nn.Sequential(nn.Conv3d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv3d(16, 32, 3, stride=2, padding=1), nn.ReLU(), nn.Flatten())
        s.trunk = nn.Sequential(nn.Linear(2052, 256), nn.ReLU()); s.policy = nn.Linear(256, 519); s.value = nn.Linear(256, 1)
    def forward(s, p, x):
        h = s.trunk(torch.cat([s.planes(p), x], 1)); return s.policy(h.float()), s.value(h.float())
net = Net()
def step(bf, n):
    p = (torch.rand(n, 3, 8, 8, 8) < 0.05).float(); x = torch.rand(n, 4)
    t = time.process_time()
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf):
        lo, v = net(p, x)
    (lo.logsumexp(1).mean() + v.pow(2).mean()).backward()
    return time.process_time() - t
for n in (512, 2048):
    step(False, n); step(True, n)  # warm-up
    for rep in range(2):
        a = sum(step(False, n) for _ in range(3)) / 3; b = sum(step(True, n) for _ in range(3)) / 3
        print(f"batch {n} rep {rep}: fp32 {a:.3f} s  bf16 {b:.3f} s  bf16/fp32 {b/a:.2f}")
