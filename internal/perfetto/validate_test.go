package perfetto

import (
	"strings"
	"testing"
)

// meta names process 1 and its threads 1 and 2.
const meta = `{"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"p"}},
{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"main"}},
{"ph":"M","name":"thread_name","pid":1,"tid":2,"args":{"name":"w"}}`

func traceOf(events ...string) string {
	return `{"displayTimeUnit":"ns","traceEvents":[` + strings.Join(append([]string{meta}, events...), ",\n") + `]}`
}

func TestValidateAccepts(t *testing.T) {
	tests := []struct {
		name string
		data string
	}{
		{"metadata only", traceOf()},
		{"nested B/E and X", traceOf(
			`{"ph":"B","name":"a","pid":1,"tid":1,"ts":0}`,
			`{"ph":"X","name":"b","pid":1,"tid":1,"ts":1,"dur":2}`,
			`{"ph":"X","name":"c","pid":1,"tid":1,"ts":3,"dur":0}`,
			`{"ph":"E","pid":1,"tid":1,"ts":3}`)},
		{"E named like its B, same times", traceOf(
			`{"ph":"B","name":"a","pid":1,"tid":1,"ts":1}`,
			`{"ph":"B","name":"b","pid":1,"tid":1,"ts":1}`,
			`{"ph":"E","name":"b","pid":1,"tid":1,"ts":2}`,
			`{"ph":"E","pid":1,"tid":1,"ts":2}`)},
		{"flow across threads", traceOf(
			`{"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":5}`,
			`{"ph":"X","name":"b","pid":1,"tid":2,"ts":2,"dur":5}`,
			`{"ph":"s","name":"r","cat":"c","id":7,"pid":1,"tid":1,"ts":1}`,
			`{"ph":"f","name":"r","cat":"c","id":7,"pid":1,"tid":2,"ts":3,"bp":"e"}`,
			`{"ph":"s","name":"r","cat":"c","id":"0x8","pid":1,"tid":1,"ts":1}`,
			`{"ph":"f","name":"r","cat":"c","id":"0x8","pid":1,"tid":2,"ts":1.5}`)},
		{"same id in another category", traceOf(
			`{"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":5}`,
			`{"ph":"s","name":"r","cat":"c","id":7,"pid":1,"tid":1,"ts":1}`,
			`{"ph":"f","name":"r","cat":"c","id":7,"pid":1,"tid":1,"ts":3,"bp":"e"}`,
			`{"ph":"s","name":"r","cat":"d","id":7,"pid":1,"tid":1,"ts":1}`,
			`{"ph":"f","name":"r","cat":"d","id":7,"pid":1,"tid":1,"ts":3,"bp":"e"}`)},
		{"instant", traceOf(`{"ph":"i","name":"go","pid":1,"tid":1,"ts":4,"s":"t"}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Validate([]byte(tt.data)); err != nil {
				t.Errorf("rejected: %v", err)
			}
		})
	}
}

func TestValidateRejects(t *testing.T) {
	slice := `{"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":10}`
	tests := []struct {
		name string
		data string
		want string // in the error
	}{
		{"not JSON", `{"traceEvents":[`, "decoding trace JSON"},
		{"array form", `[{"ph":"i","name":"x","pid":1,"tid":1,"ts":0}]`, "decoding trace JSON"},
		{"no traceEvents", `{"displayTimeUnit":"ns"}`, "no traceEvents"},
		{"unknown field", `{"traceEvents":[],"extra":1}`, "unknown field"},
		{"unknown event field", traceOf(`{"ph":"i","name":"x","pid":1,"tid":1,"ts":0,"tss":1}`), "unknown field"},
		{"data after the object", traceOf() + `{}`, "data after"},
		{"bad time unit", `{"displayTimeUnit":"s","traceEvents":[]}`, "displayTimeUnit"},
		{"no ph", traceOf(`{"name":"x","pid":1,"tid":1,"ts":0}`), "no ph"},
		{"unknown ph", traceOf(`{"ph":"Q","name":"x","pid":1,"tid":1,"ts":0}`), "unknown phase"},
		{"no pid", traceOf(`{"ph":"i","name":"x","tid":1,"ts":0}`), "no pid"},
		{"no tid", traceOf(`{"ph":"i","name":"x","pid":1,"ts":0}`), "no tid"},
		{"pid not an integer", traceOf(`{"ph":"i","name":"x","pid":1.5,"tid":1,"ts":0}`), "decoding"},
		{"no ts", traceOf(`{"ph":"i","name":"x","pid":1,"tid":1}`), "no ts"},
		{"negative ts", traceOf(`{"ph":"i","name":"x","pid":1,"tid":1,"ts":-1}`), "non-negative"},
		{"ts a string", traceOf(`{"ph":"i","name":"x","pid":1,"tid":1,"ts":"0"}`), "decoding"},
		{"ts too large to be finite", traceOf(`{"ph":"i","name":"x","pid":1,"tid":1,"ts":1e999}`), "decoding"},
		{"no name", traceOf(`{"ph":"B","pid":1,"tid":1,"ts":0}`, `{"ph":"E","pid":1,"tid":1,"ts":1}`), "no name"},
		{"X without dur", traceOf(`{"ph":"X","name":"a","pid":1,"tid":1,"ts":0}`), "without dur"},
		{"X with negative dur", traceOf(`{"ph":"X","name":"a","pid":1,"tid":1,"ts":5,"dur":-1}`), "dur -1"},
		{"dur on B", traceOf(`{"ph":"B","name":"a","pid":1,"tid":1,"ts":0,"dur":1}`, `{"ph":"E","pid":1,"tid":1,"ts":1}`), "not complete"},
		{"E without B", traceOf(`{"ph":"E","pid":1,"tid":1,"ts":1}`), "no open B"},
		{"E before its B", traceOf(`{"ph":"B","name":"a","pid":1,"tid":1,"ts":5}`, `{"ph":"E","pid":1,"tid":1,"ts":1}`), "no open B"},
		{"B never ends", traceOf(`{"ph":"B","name":"a","pid":1,"tid":1,"ts":0}`), "never ends"},
		{"E ends another thread's B", traceOf(`{"ph":"B","name":"a","pid":1,"tid":1,"ts":0}`, `{"ph":"E","pid":1,"tid":2,"ts":1}`), "never ends"},
		{"E named unlike its B", traceOf(`{"ph":"B","name":"a","pid":1,"tid":1,"ts":0}`, `{"ph":"E","name":"b","pid":1,"tid":1,"ts":1}`), "ends B"},
		{"E of another category", traceOf(`{"ph":"B","name":"a","cat":"x","pid":1,"tid":1,"ts":0}`, `{"ph":"E","cat":"y","pid":1,"tid":1,"ts":1}`), "category"},
		{"X overlapping X", traceOf(slice, `{"ph":"X","name":"b","pid":1,"tid":1,"ts":5,"dur":10}`), "without nesting"},
		{"X overlapping B/E", traceOf(`{"ph":"B","name":"a","pid":1,"tid":1,"ts":0}`, `{"ph":"E","pid":1,"tid":1,"ts":4}`,
			`{"ph":"X","name":"b","pid":1,"tid":1,"ts":3,"dur":2}`), "without nesting"},
		{"B/E crossing", traceOf(`{"ph":"B","name":"a","pid":1,"tid":1,"ts":0}`, `{"ph":"X","name":"b","pid":1,"tid":1,"ts":1,"dur":5}`,
			`{"ph":"E","pid":1,"tid":1,"ts":2}`), "without nesting"},
		{"child before its parent at the same time", traceOf(`{"ph":"X","name":"b","pid":1,"tid":1,"ts":1,"dur":1}`,
			`{"ph":"B","name":"a","pid":1,"tid":1,"ts":1}`, `{"ph":"E","pid":1,"tid":1,"ts":5}`), "without nesting"},
		{"flow without finish", traceOf(slice, `{"ph":"s","name":"r","cat":"c","id":1,"pid":1,"tid":1,"ts":1}`), "never finishes"},
		{"flow without start", traceOf(slice, `{"ph":"f","name":"r","cat":"c","id":1,"pid":1,"tid":1,"ts":1,"bp":"e"}`), "no start"},
		{"flow finished in another category", traceOf(slice, `{"ph":"s","name":"r","cat":"c","id":1,"pid":1,"tid":1,"ts":1}`,
			`{"ph":"f","name":"r","cat":"d","id":1,"pid":1,"tid":1,"ts":2,"bp":"e"}`), "never finishes"},
		{"flow finished under another name", traceOf(slice, `{"ph":"s","name":"r","cat":"c","id":1,"pid":1,"tid":1,"ts":1}`,
			`{"ph":"f","name":"q","cat":"c","id":1,"pid":1,"tid":1,"ts":2,"bp":"e"}`), "never finishes"},
		{"flow started twice", traceOf(slice, `{"ph":"s","name":"r","cat":"c","id":1,"pid":1,"tid":1,"ts":1}`,
			`{"ph":"s","name":"r","cat":"c","id":1,"pid":1,"tid":1,"ts":2}`, `{"ph":"f","name":"r","cat":"c","id":1,"pid":1,"tid":1,"ts":3,"bp":"e"}`), "starts twice"},
		{"flow finished twice", traceOf(slice, `{"ph":"s","name":"r","cat":"c","id":1,"pid":1,"tid":1,"ts":1}`,
			`{"ph":"f","name":"r","cat":"c","id":1,"pid":1,"tid":1,"ts":2,"bp":"e"}`, `{"ph":"f","name":"r","cat":"c","id":1,"pid":1,"tid":1,"ts":3,"bp":"e"}`), "finishes twice"},
		{"flow backwards in time", traceOf(slice, `{"ph":"s","name":"r","cat":"c","id":1,"pid":1,"tid":1,"ts":5}`,
			`{"ph":"f","name":"r","cat":"c","id":1,"pid":1,"tid":1,"ts":2,"bp":"e"}`), "before it starts"},
		{"flow without id", traceOf(slice, `{"ph":"s","name":"r","cat":"c","pid":1,"tid":1,"ts":1}`), "without id"},
		{"flow without cat", traceOf(slice, `{"ph":"s","name":"r","id":1,"pid":1,"tid":1,"ts":1}`), "without cat"},
		{"flow start in no slice", traceOf(slice, `{"ph":"s","name":"r","cat":"c","id":1,"pid":1,"tid":2,"ts":1}`,
			`{"ph":"f","name":"r","cat":"c","id":1,"pid":1,"tid":1,"ts":2,"bp":"e"}`), "inside no slice"},
		{"flow end with no next slice", traceOf(slice, `{"ph":"s","name":"r","cat":"c","id":1,"pid":1,"tid":1,"ts":1}`,
			`{"ph":"f","name":"r","cat":"c","id":1,"pid":1,"tid":1,"ts":2}`), "no slice starting"},
		{"bad binding point", traceOf(slice, `{"ph":"s","name":"r","cat":"c","id":1,"pid":1,"tid":1,"ts":1}`,
			`{"ph":"f","name":"r","cat":"c","id":1,"pid":1,"tid":1,"ts":2,"bp":"n"}`), "binding point"},
		{"bp on a slice", traceOf(`{"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":1,"bp":"e"}`), "not a flow"},
		{"bad instant scope", traceOf(`{"ph":"i","name":"x","pid":1,"tid":1,"ts":0,"s":"x"}`), "scope"},
		{"thread without name", traceOf(`{"ph":"i","name":"x","pid":1,"tid":3,"ts":0}`), "no thread_name"},
		{"process without name", traceOf(`{"ph":"M","name":"thread_name","pid":2,"tid":1,"args":{"name":"t"}}`,
			`{"ph":"i","name":"x","pid":2,"tid":1,"ts":0}`), "no process_name"},
		{"thread named twice", traceOf(`{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"other"}}`), "named twice"},
		{"process named twice", traceOf(`{"ph":"M","name":"process_name","pid":1,"args":{"name":"q"}}`), "named twice"},
		{"unknown metadata", traceOf(`{"ph":"M","name":"thread_colour","pid":1,"tid":1,"args":{"name":"red"}}`), "unknown metadata"},
		{"metadata without args", traceOf(`{"ph":"M","name":"thread_name","pid":1,"tid":5}`), "without args.name"},
		{"sort index not a number", traceOf(`{"ph":"M","name":"thread_sort_index","pid":1,"tid":1,"args":{"sort_index":"1"}}`), "not a number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Validate([]byte(tt.data))
			if err == nil {
				t.Fatalf("accepted:\n%s", tt.data)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not say %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is more than one line: %q", err)
			}
		})
	}
}
