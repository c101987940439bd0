// Command dirwalk is a bounded concurrent directory walker in the shape of
// the usual examples: a goroutine per directory, at most three reading at
// a time (a semaphore channel), file sizes gathered into a map under a
// mutex, the total printed in path order. It walks a tree it writes
// itself, so every run sees the same: two unperturbed runs take the same
// paths (e2e TestSamePathsShapes), whichever directory is read first.
package main

//go:generate divergo instrument ./...

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

type walker struct {
	root  string
	sem   chan struct{}
	wg    sync.WaitGroup
	mu    sync.Mutex
	sizes map[string]int64
}

func (w *walker) walk(dir string) {
	defer w.wg.Done()
	w.sem <- struct{}{}
	ents, err := os.ReadDir(dir)
	<-w.sem
	if err != nil {
		return
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		if e.IsDir() {
			w.wg.Add(1)
			go w.walk(p)
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		rel, err := filepath.Rel(w.root, p) // the same in every run: the root is not
		if err != nil {
			continue
		}
		w.mu.Lock()
		w.sizes[rel] = info.Size()
		w.mu.Unlock()
	}
}

// tree writes a directory tree of depth levels, fan subdirectories and two
// files per directory.
func tree(dir string, depth, fan int) {
	for i := range 2 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.txt", i)), []byte(strings.Repeat("x", 10*(depth+i))), 0o666)
	}
	if depth == 0 {
		return
	}
	for i := range fan {
		sub := filepath.Join(dir, fmt.Sprintf("d%d", i))
		os.Mkdir(sub, 0o777)
		tree(sub, depth-1, fan)
	}
}

func main() {
	root, err := os.MkdirTemp("", "dirwalk-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(root)
	tree(root, 2, 3)
	w := &walker{root: root, sem: make(chan struct{}, 3), sizes: map[string]int64{}}
	w.wg.Add(1)
	go w.walk(root)
	w.wg.Wait()
	// Sorted keys, not a range over the map, whose order Go draws anew in
	// every run: that would be a real difference of path between two
	// runs, if one that the sort then erases.
	paths := slices.Sorted(maps.Keys(w.sizes))
	var total int64
	for _, p := range paths {
		total += w.sizes[p]
	}
	fmt.Println("files", len(paths), "bytes", total)
}
