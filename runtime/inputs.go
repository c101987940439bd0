package runtime

import (
	"os"
	goruntime "runtime"
	"sort"
	"strings"

	"github.com/divergo/divergo/internal/trace"
)

// The program's inputs are recorded once, in the trace's header, as they
// were when recording started: the analyzer takes them to be the same in
// the two runs it compares (docs/SOUNDNESS.md), so divergo diff says first
// when they were not (docs/FORMAT.md, "Inputs").
var inputs *trace.Inputs

// readInputs takes the command line, GOMAXPROCS, NumCPU and the
// environment. Of the environment it keeps each variable's name and a
// keyed hash of its value, under the user's key (trace.LoadEnvKey): the
// values may be secrets, and the names and hashes are enough to say which
// variables differed between two runs of the same user, while the hashes
// are worth nothing to whoever gets the trace without the key. With no
// key to be had (no configuration directory to read or write) only the
// names are kept, silently: the program must run as it does plain.
// divergo's own variables are left out: divergo run and check give every
// run its own DIVERGO_TRACE and DIVERGO_PERTURB.
func readInputs() *trace.Inputs {
	in := &trace.Inputs{
		Args:       append([]string{}, os.Args[min(1, len(os.Args)):]...),
		GOMAXPROCS: goruntime.GOMAXPROCS(0),
		NumCPU:     goruntime.NumCPU(),
		EnvScheme:  trace.EnvNames,
	}
	key, err := trace.LoadEnvKey()
	if err == nil {
		in.EnvScheme, in.EnvKeyID = trace.EnvKeyed, trace.EnvKeyID(key)
	}
	for _, kv := range os.Environ() {
		name, value, _ := strings.Cut(kv, "=")
		if name == "" || strings.HasPrefix(name, "DIVERGO_") {
			continue // "" is Windows' "=C:" kind: per-drive directories, not variables
		}
		v := trace.EnvVar{Name: name}
		if key != nil {
			v.Hash = trace.HashEnvKeyed(key, value)
		}
		in.Env = append(in.Env, v)
	}
	sort.Slice(in.Env, func(i, j int) bool { return in.Env[i].Name < in.Env[j].Name })
	return in
}
