package main

import (
	"errors"
	"fmt"

	"github.com/divergo/divergo/compare"
	"github.com/divergo/divergo/internal/trace"
)

// sameProgram refuses, in one line, traces that do not all record the
// program the first records: comparing them would only say that nothing
// matched.
func sameProgram(names []string, traces []compare.Trace) error {
	for i := 1; i < len(traces); i++ {
		err := compare.SameProgram(traces[0], traces[i])
		var dp *compare.DifferentPrograms
		switch {
		case errors.As(err, &dp):
			return fmt.Errorf("%s and %s are %w", names[0], names[i], err)
		case err != nil:
			return fmt.Errorf("%s and %s: %w", names[0], names[i], err)
		}
	}
	return nil
}

// sameProgramFiles is sameProgram for trace files, before anything reads
// their events.
func sameProgramFiles(paths []string) error {
	traces := make([]compare.Trace, len(paths))
	for i, p := range paths {
		r, err := trace.Open(p)
		if err != nil {
			return err
		}
		defer r.Close()
		traces[i] = compare.FromReader(r)
	}
	return sameProgram(paths, traces)
}
