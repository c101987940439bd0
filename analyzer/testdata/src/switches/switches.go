package switches

var mode int
var val any

func tag() {
	switch mode { // want `trace change point \(switch\): mode depends on package variable mode read at .*switches.go:7; converges at .*switches.go:12`
	case 1:
		println("one")
	default:
		println("other")
	}
}

func cases(a int) {
	switch { // want `\(switch\): mode depends on package variable mode`
	case a > 3:
		println()
	case mode > 2:
		println()
	}
}

func typeSwitch() {
	switch v := val.(type) { // want `\(switch\): type of val depends on package variable val`
	case int:
		println(v)
	case string:
		println(v)
	}
}

func local() {
	m := 2
	switch m {
	case 1:
		println()
	}
}

func setMode(v int) { mode = v }

// setVal makes val shared: other goroutines may call it.
func setVal(v any) { val = v }
