"""sharpen.py IN OUT T: write a copy of a botarena policy file whose policy head (every tensor of the
last `policy` linear layer) is divided by T, so that sampling OUT at temperature 1 draws from IN's
probabilities at temperature T (softmax(z/T) over the legal actions), exactly up to float32 rounding.
Standard library only; the value head, trunk and metadata are kept (the metadata records T in "trained")."""
import json, struct, sys
from array import array

src, dst, T = sys.argv[1], sys.argv[2], float(sys.argv[3])
raw = open(src, 'rb').read()
n = struct.unpack('<Q', raw[:8])[0]
hdr = json.loads(raw[8:8 + n])
data = bytearray(raw[8 + n:])
meta = hdr['__metadata__']
arch = json.loads(meta['botarena.policy'])
last = [l for l in arch['policy'] if l['op'] == 'linear'][-1]
for name in (last['weight'], last['bias']):
    t = hdr[name]
    assert t['dtype'] == 'F32', t
    b, e = t['data_offsets']
    a = array('f'); a.frombytes(bytes(data[b:e]))
    a = array('f', (x / T for x in a))
    data[b:e] = a.tobytes()
arch.setdefault('trained', {})['sharpened'] = f"policy head divided by {T} (sharpen.py, from {src.split('/')[-1]})"
meta['botarena.policy'] = json.dumps(arch)
h = json.dumps(hdr, separators=(',', ':')).encode()
h += b' ' * (-len(h) % 8)
open(dst, 'wb').write(struct.pack('<Q', len(h)) + h + bytes(data))
