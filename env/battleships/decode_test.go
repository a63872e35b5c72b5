package battleships

import "testing"

// TestGridRecips checks that decode's multiplications by gridRecips give
// the divisions' parts for every command action of every map side.
func TestGridRecips(t *testing.T) {
	for n := range MaxSize + 1 {
		g := grid(n)
		for a := 1; a <= 8*g*g; a++ {
			i := a - 1
			want := decoded{kind: actCommand, code: i/(g*g) + 1, x: i%(g*g)/g - Margin, y: i%g - Margin}
			if d := decode(n, int32(a)); d != want {
				t.Fatalf("n %d: decode(%d) = %+v, want %+v", n, a, d, want)
			}
		}
	}
}
