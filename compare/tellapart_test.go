package compare

import "testing"

// TestTellApart: index and map-range sections whose sides took alike are
// told apart by the first recorded value in which they differ, or by how
// many values each recorded; other kinds, and sides already worded apart,
// keep their words.
func TestTellApart(t *testing.T) {
	for _, tt := range []struct {
		name, kind, ta, tb string
		a, b               []uint64
		wantA, wantB       string
	}{
		{"one index", "index", "another index", "another index", []uint64{3}, []uint64{5}, "index 3", "index 5"},
		{"second index", "index", "another index", "another index", []uint64{1, 2}, []uint64{1, 4}, "its 2nd index 2", "its 2nd index 4"},
		{"map order", "maprange", "3 iterations", "3 iterations", []uint64{7, 8, 9}, []uint64{7, 9, 8}, "3 iterations, its 2nd key 8", "3 iterations, its 2nd key 9"},
		{"counts differ", "maprange", "0 iterations", "4 iterations", nil, []uint64{1, 2, 3, 4}, "0 iterations", "4 iterations"},
		{"more keys", "maprange", "1 iteration", "1 iteration", []uint64{1}, []uint64{1, 1}, "1 iteration, 1 key", "1 iteration, 2 keys"},
		{"branch", "branch", "went on at line 3", "went on at line 3", []uint64{1}, []uint64{2}, "went on at line 3", "went on at line 3"},
	} {
		ma := &sideMeasure{outs: tt.a, nouts: int64(len(tt.a))}
		mb := &sideMeasure{outs: tt.b, nouts: int64(len(tt.b))}
		a, b := tellApart(tt.kind, tt.ta, tt.tb, ma, mb)
		if a != tt.wantA || b != tt.wantB {
			t.Errorf("%s: %q / %q, want %q / %q", tt.name, a, b, tt.wantA, tt.wantB)
		}
	}
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 22: "22nd", 101: "101st", 111: "111th"} {
		if got := ordinalWord(n); got != want {
			t.Errorf("ordinalWord(%d) = %q, want %q", n, got, want)
		}
	}
}
