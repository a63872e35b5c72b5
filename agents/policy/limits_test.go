package policy

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestErrorsDoNotEchoTheFile: a file that is not a policy (policy:/etc/shadow
// on a server) gives an error that shows none of its bytes: not as text, not
// as the number its first 8 bytes make.
func TestErrorsDoNotEchoTheFile(t *testing.T) {
	const secret = "root:$6$s3cr3tSALT$hash:19000:0:99999:7:::\n"
	withLen := func(n uint64, rest string) []byte {
		return append(binary.LittleEndian.AppendUint64(nil, n), rest...)
	}
	for _, tc := range []struct {
		name string
		file []byte
	}{
		{"shadow_text", []byte(secret + secret)},
		{"short_text", []byte("s3cr3t")},
		{"json_secret", []byte(`{"token":"s3cr3t-token-value"}`)},
		{"binary_small_length_then_text", withLen(12, "s3cr3t-token-value")},
		{"binary_length_past_end", withLen(4000, "s3cr3t")},
		{"binary_bad_json", withLen(14, `{"s3cr3t":x}  `)},
		{"binary_json_unterminated", withLen(10, `{"s3cr3t":`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "shadow")
			if err := os.WriteFile(path, tc.file, 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := Load(path)
			if err == nil {
				t.Fatal("Load accepted it")
			}
			msg := strings.TrimPrefix(err.Error(), "policy "+path+": ")
			if len(tc.file) >= 8 {
				n := binary.LittleEndian.Uint64(tc.file)
				if strings.Contains(msg, strconv.FormatUint(n, 10)) {
					t.Errorf("error %q shows the first 8 bytes as the number %d", err, n)
				}
			}
			for _, bit := range []string{"s3cr3t", "root", "token", "19000", `\x`} {
				if strings.Contains(msg, bit) {
					t.Errorf("error %q quotes the file (%q)", err, bit)
				}
			}
		})
	}
}

// TestFileSizeLimit: a file over MaxFileBytes is refused from its Stat,
// without reading it (a sparse file of 8 GiB costs nothing).
func TestFileSizeLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.policy.safetensors")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(8 << 30); err != nil {
		f.Close()
		t.Skipf("no sparse file here: %v", err)
	}
	f.Close()
	for _, load := range []func(string) (*Model, error){Load, Open} {
		_, err := load(path)
		if err == nil || !strings.Contains(err.Error(), "8589934592 bytes, over the 268435456-byte limit") {
			t.Errorf("huge file: %v", err)
		}
	}
}
