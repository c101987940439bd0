package trace

import (
	"bytes"
	"sync"

	"github.com/divergo/divergo/internal/tbb"
)

// A readGraph is a trace's embedded graph, decoded, with what the reader
// derives from it.
type readGraph struct {
	raw       []byte // the encoding it was decoded from
	g         *tbb.Graph
	packs     map[uint32]packLoop
	siteBlock []uint32
}

// lastGraph is the graph the latest header embedded. The traces of one
// program embed the same graph, and decoding it (JSON, then its hash
// checked by encoding it again) was most of opening a short run's trace:
// divergo test opens each of its runs' traces twice, 80 decodings of one
// graph for -n 40 (docs/PERFORMANCE.md). A header embedding the same bytes
// takes the graph as it is; readers share it, since nothing changes a
// graph once read.
var lastGraph struct {
	sync.Mutex
	rg *readGraph
}

// decodeGraph decodes raw, the graph encoding of a trace header, or
// returns the last graph decoded when raw is its encoding.
func decodeGraph(raw []byte) (*readGraph, error) {
	lastGraph.Lock()
	rg := lastGraph.rg
	lastGraph.Unlock()
	if rg != nil && bytes.Equal(rg.raw, raw) {
		return rg, nil
	}
	g, err := tbb.Unmarshal(raw)
	if err != nil {
		return nil, err
	}
	rg = &readGraph{raw: raw, g: g, packs: packLoops(g), siteBlock: make([]uint32, len(g.Sites))}
	for i, s := range g.Sites {
		rg.siteBlock[i] = uint32(s.Block)
	}
	lastGraph.Lock()
	lastGraph.rg = rg
	lastGraph.Unlock()
	return rg, nil
}
