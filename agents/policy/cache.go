package policy

import (
	"fmt"
	"path/filepath"
	"sync"
)

// cacheKey identifies one version of a file.
type cacheKey struct {
	size  int64
	mtime int64 // Unix nanoseconds
}

// cacheEntry is a model being loaded or loaded; done is closed once m or
// err is set.
type cacheEntry struct {
	key  cacheKey
	done chan struct{}
	m    *Model
	err  error
}

var cache struct {
	mu      sync.Mutex
	entries map[string]*cacheEntry // by absolute path; only the newest version is kept
	loads   int                    // files read, for tests
}

// Open returns the model in the policy file at path, loading it once per
// version of the file: calls with the same file (by absolute path, size and
// modification time) share one [Model], so a pool of 1024 envs making 1024
// agents reads the file once. Concurrent calls for a file being loaded
// wait for that load. A file that changed is loaded again and replaces the
// old version in the cache; errors are not cached. It is safe for
// concurrent use.
func Open(path string) (*Model, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("policy: %w", err)
	}
	// The key comes from the open file, so that what is cached under it is
	// what was read, even if the file is replaced meanwhile.
	f, fi, err := openFile(abs)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	key := cacheKey{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	cache.mu.Lock()
	if cache.entries == nil {
		cache.entries = map[string]*cacheEntry{}
	}
	e := cache.entries[abs]
	if e != nil && e.key == key {
		cache.mu.Unlock()
		<-e.done
		return e.m, e.err
	}
	e = &cacheEntry{key: key, done: make(chan struct{})}
	cache.entries[abs] = e
	cache.loads++
	cache.mu.Unlock()

	e.m, e.err = readFile(path, f, fi)
	if e.err != nil {
		cache.mu.Lock()
		if cache.entries[abs] == e {
			delete(cache.entries, abs)
		}
		cache.mu.Unlock()
	}
	close(e.done)
	return e.m, e.err
}

// cacheLoads returns how many times Open has read a file.
func cacheLoads() int {
	cache.mu.Lock()
	defer cache.mu.Unlock()
	return cache.loads
}
