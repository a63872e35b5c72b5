"""Writes OUT/checkpoints/update_00001.pt: battlebots-seat0's weights, a fresh Adam, update 1, so that
`botarena.train --resume auto --imitate warden --imitate-coef C` starts PPO from battlebots-seat0 with the
warden's opening decisions (OUT/imitation, copied from the warden run's step 1) as the imitation term."""
import sys, torch
from botarena.policy import load_policy
policy, out = sys.argv[1], sys.argv[2]
net = load_policy(policy)
arch = {**net.arch, "game": "battlebots", "config": {"hp_reward": 0.1}}
opt = torch.optim.Adam(net.parameters(), lr=2.5e-4, eps=1e-5)
torch.save({"arch": arch, "model": net.state_dict(), "optimizer": opt.state_dict(), "update": 1, "env_steps": 0,
            "seconds": 0.0, "config": {}, "train_record": {}}, f"{out}/checkpoints/update_00001.pt")
print("wrote", f"{out}/checkpoints/update_00001.pt", "from", policy)
