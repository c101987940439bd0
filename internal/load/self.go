package load

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"slices"
	"strings"
)

// elfBuildID is the Go build ID of the ELF executable at path, "" when it
// has none that hashes its content: not ELF, no note, or an ID set by
// hand (-ldflags=-buildid=...), which is not of the linker's form
// action/action/content/content.
func elfBuildID(path string) string {
	f, err := elf.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	s := f.Section(".note.go.buildid")
	if s == nil {
		return ""
	}
	data, err := s.Data()
	if err != nil || len(data) < 16 {
		return ""
	}
	// An ELF note: name size, description size, type, the name "Go\0\0",
	// then the ID.
	nameSize, descSize := binary.LittleEndian.Uint32(data), binary.LittleEndian.Uint32(data[4:])
	if f.ByteOrder == binary.BigEndian {
		nameSize, descSize = binary.BigEndian.Uint32(data), binary.BigEndian.Uint32(data[4:])
	}
	if nameSize != 4 || !bytes.Equal(data[12:16], []byte("Go\x00\x00")) || uint64(len(data)) < 16+uint64(descSize) {
		return ""
	}
	id := string(data[16 : 16+descSize])
	parts := strings.Split(id, "/")
	if len(parts) != 4 || slices.Contains(parts, "") {
		return ""
	}
	return id
}
