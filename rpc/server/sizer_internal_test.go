package server

import (
	"reflect"
	"testing"
)

func TestSizerCountsEachObjectOnce(t *testing.T) {
	t.Parallel()
	type node struct {
		name string
		next *node
		data []byte
		m    map[string]int
		any  any
	}
	shared := make([]byte, 1000) // 1024 bytes in its size class
	a := &node{name: "alpha", data: shared}
	b := &node{name: "bravo-bravo", next: a, data: shared, m: map[string]int{"k": 1}, any: &node{}}
	a.next = b // a cycle
	var z sizer
	n := sizeClass(int64(reflect.TypeFor[node]().Size()))
	mapBytes := 48 + sizeClass(9*(16+8+1)) + sizeClass(1) // one slot group, and the key's bytes
	want := 3*n + sizeClass(5) + sizeClass(11) + 1024 + mapBytes
	if got := z.of(a); got != want {
		t.Errorf("sizer: got %d bytes, want %d", got, want)
	}
	if got := z.of(b); got != 0 {
		t.Errorf("sizer counted %d bytes again", got)
	}
}
