// Package divergo holds the sources of the recorder that instrumented
// programs link: the runtime package and the parts of internal/trace and
// internal/tbb it encodes traces with. The instrumenter writes a copy of
// them into the instrumented module's overlay, as a package of that module
// (docs/INSTRUMENT.md, "What divergo adds to a build"), so that recording
// needs no requirement in the user's go.mod, no network and no dependency
// of its own: the sources travel inside the divergo binary.
package divergo

import "embed"

// RecorderSources are the recorder's files, test files included (the
// instrumenter leaves those out).
//
//go:embed runtime/*.go runtime/*.s internal/trace/*.go internal/tbb/*.go
var RecorderSources embed.FS

// RecorderDirs are the directories of RecorderSources, the recorder's
// package first: the instrumenter writes each as a package below the
// recorder's own import path.
var RecorderDirs = []string{"runtime", "internal/trace", "internal/tbb"}
