package runtime

import (
	"bytes"
	"compress/gzip"
	goruntime "runtime"
	"sort"
	"time"
)

// encodeProfile writes samples counted by stack (cpusampler.go) as a
// gzipped pprof profile, as pprof.StopCPUProfile would: values "samples"
// and "cpu" nanoseconds, one location per PC with its inlined calls
// innermost first, symbolized now, in the process whose PCs they are.
// Only the fields divergo wait and go tool pprof read are written
// (github.com/google/pprof's proto/profile.proto gives the numbers).
func encodeProfile(counts map[string]uint64, hz uint64, start, end time.Time) []byte {
	e := &profEncoder{strs: map[string]uint64{"": 0}, strList: []string{""}, locs: map[uintptr]uint64{}, funcs: map[funcKey]uint64{}}
	period := int64(1e9 / hz)
	var out protoBuf
	for _, vt := range [][2]string{{"samples", "count"}, {"cpu", "nanoseconds"}} {
		out.message(1, e.valueType(vt[0], vt[1]))
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys) // the same samples, the same bytes
	for _, k := range keys {
		var s protoBuf
		var ids []uint64
		for _, pc := range keyStack(k) {
			ids = append(ids, e.location(pc))
		}
		s.packed(1, ids)
		n := counts[k]
		s.packed(2, []uint64{n, uint64(int64(n) * period)})
		out.message(2, s.b)
	}
	var m protoBuf // one mapping, saying the functions and lines are there
	m.uint(1, 1)
	for f := 7; f <= 10; f++ {
		m.uint(f, 1)
	}
	out.message(3, m.b)
	out.b = append(out.b, e.locBuf.b...)
	out.b = append(out.b, e.funcBuf.b...)
	for _, s := range e.strList {
		out.bytes(6, []byte(s))
	}
	out.uint(9, uint64(start.UnixNano()))
	out.uint(10, uint64(end.Sub(start)))
	out.message(11, e.valueType("cpu", "nanoseconds"))
	out.uint(12, uint64(period))
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(out.b)
	zw.Close()
	return z.Bytes()
}

type funcKey struct{ name, file string }

// profEncoder holds a profile's tables: strings, locations (already
// encoded into locBuf) and functions (into funcBuf).
type profEncoder struct {
	strs    map[string]uint64
	strList []string
	locs    map[uintptr]uint64
	funcs   map[funcKey]uint64
	locBuf  protoBuf
	funcBuf protoBuf
}

func (e *profEncoder) str(s string) uint64 {
	if i, ok := e.strs[s]; ok {
		return i
	}
	i := uint64(len(e.strList))
	e.strs[s] = i
	e.strList = append(e.strList, s)
	return i
}

func (e *profEncoder) valueType(typ, unit string) []byte {
	var b protoBuf
	b.uint(1, e.str(typ))
	b.uint(2, e.str(unit))
	return b.b
}

// location is the id of pc's location, made at its first use. The
// profiler's PCs are return addresses (the Go runtime makes the leaf's
// one too), which runtime.CallersFrames expects.
func (e *profEncoder) location(pc uintptr) uint64 {
	if id, ok := e.locs[pc]; ok {
		return id
	}
	id := uint64(len(e.locs) + 1)
	e.locs[pc] = id
	var l protoBuf
	l.uint(1, id)
	l.uint(2, 1)
	l.uint(3, uint64(pc))
	frames := goruntime.CallersFrames([]uintptr{pc})
	for {
		f, more := frames.Next()
		if f.Function != "" || f.File != "" {
			var ln protoBuf
			ln.uint(1, e.function(f.Function, f.File))
			ln.uint(2, uint64(f.Line))
			l.message(4, ln.b)
		}
		if !more {
			break
		}
	}
	e.locBuf.message(4, l.b)
	return id
}

func (e *profEncoder) function(name, file string) uint64 {
	k := funcKey{name, file}
	if id, ok := e.funcs[k]; ok {
		return id
	}
	id := uint64(len(e.funcs) + 1)
	e.funcs[k] = id
	var f protoBuf
	f.uint(1, id)
	f.uint(2, e.str(name))
	f.uint(3, e.str(name))
	f.uint(4, e.str(file))
	e.funcBuf.message(5, f.b)
	return id
}

// protoBuf appends protocol buffer fields.
type protoBuf struct{ b []byte }

func (p *protoBuf) varint(x uint64) {
	for x >= 0x80 {
		p.b = append(p.b, byte(x)|0x80)
		x >>= 7
	}
	p.b = append(p.b, byte(x))
}

// uint writes a varint field, none for 0 (proto3's default).
func (p *protoBuf) uint(field int, x uint64) {
	if x == 0 {
		return
	}
	p.varint(uint64(field)<<3 | 0)
	p.varint(x)
}

func (p *protoBuf) bytes(field int, b []byte) {
	p.varint(uint64(field)<<3 | 2)
	p.varint(uint64(len(b)))
	p.b = append(p.b, b...)
}

func (p *protoBuf) message(field int, b []byte) { p.bytes(field, b) }

func (p *protoBuf) packed(field int, xs []uint64) {
	var q protoBuf
	for _, x := range xs {
		q.varint(x)
	}
	p.bytes(field, q.b)
}
