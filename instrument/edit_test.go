package instrument

import "testing"

func TestEditBuffer(t *testing.T) {
	type op struct {
		start, end, prio int
		text             string
	}
	tests := []struct {
		name    string
		src     string
		ops     []op
		want    string
		wantErr bool
	}{
		{"none", "abc", nil, "abc", false},
		{"insert", "abc", []op{{1, 1, 0, "X"}}, "aXbc", false},
		{"insert at end", "abc", []op{{3, 3, 0, "X"}}, "abcX", false},
		{"prio orders same offset", "abc", []op{{1, 1, 5, "B"}, {1, 1, -5, "A"}}, "aABbc", false},
		{"seq orders equal prio", "abc", []op{{1, 1, 0, "A"}, {1, 1, 0, "B"}}, "aABbc", false},
		{"replace", "abcdef", []op{{1, 3, 0, "X"}}, "aXdef", false},
		{"insert before replace at same offset", "abcdef", []op{{1, 3, 0, "X"}, {1, 1, 0, "I"}}, "aIXdef", false},
		{"insert at replace end", "abcdef", []op{{3, 3, 0, "I"}, {1, 3, 0, "X"}}, "aXIdef", false},
		{"adjacent replaces", "abcdef", []op{{1, 3, 0, "X"}, {3, 4, 0, "Y"}}, "aXYef", false},
		{"keeps newlines", "a(\nb)", []op{{1, 3, 0, ", "}}, "a, \nb)", false},
		{"overlap", "abcdef", []op{{1, 3, 0, "X"}, {2, 4, 0, "Y"}}, "", true},
		{"insert inside replace", "abcdef", []op{{1, 4, 0, "X"}, {2, 2, 0, "Y"}}, "", true},
		{"range past the end", "abc", []op{{2, 9, 0, "X"}}, "", true},
		{"range backwards", "abc", []op{{2, 1, 0, "X"}}, "", true},
		{"insert past the end", "abc", []op{{4, 4, 0, "X"}}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newEditBuffer([]byte(tt.src))
			for _, o := range tt.ops {
				if o.start == o.end {
					b.insert(o.start, o.prio, o.text)
				} else {
					b.replace(o.start, o.end, o.text)
				}
			}
			got, err := b.bytes()
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if err == nil && string(got) != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
