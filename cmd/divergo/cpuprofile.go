package main

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"

	"github.com/google/pprof/profile"
)

// readCPUProfile reads the CPU samples the runtime writes beside a trace:
// one gzipped profile, or several in sequence when the program ran a
// profile of its own in between (runtime/cpuprofile.go), merged into one.
func readCPUProfile(r io.Reader) (*profile.Profile, error) {
	br := bufio.NewReader(r)
	var ps []*profile.Profile
	for {
		if _, err := br.Peek(1); errors.Is(err, io.EOF) && len(ps) > 0 {
			break
		}
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("segment %d: %w", len(ps)+1, err)
		}
		zr.Multistream(false)
		data, err := io.ReadAll(zr)
		if err != nil {
			return nil, fmt.Errorf("segment %d: %w", len(ps)+1, err)
		}
		p, err := profile.ParseData(data)
		if err != nil {
			return nil, fmt.Errorf("segment %d: %w", len(ps)+1, err)
		}
		ps = append(ps, p)
	}
	if len(ps) == 1 {
		return ps[0], nil
	}
	p, err := profile.Merge(ps)
	if err != nil {
		return nil, fmt.Errorf("merging %d segments: %w", len(ps), err)
	}
	return p, nil
}
