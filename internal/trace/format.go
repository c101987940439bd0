package trace

// Layout constants of the file format (docs/FORMAT.md).
const (
	// Magic opens every trace file.
	Magic = "DVGTRACE"
	// Version is the format version this package writes. Readers refuse a
	// newer version; fields added at the end of a length-prefixed body do not
	// change it. Version 2 names sync and spawn events by their site
	// (docs/FORMAT.md, "Sites"), and added the perturb event
	// ("Perturbation"), the outcome after a once event ("Once outcomes") and
	// the blocked flag of a wait still blocked ("Goroutines still blocked").
	// Version 3 added the pack event ("Packed loops"); a version 2 file is
	// a version 3 file without one. Version 4 lets a pack event stand for
	// the same word several times in a row ("Repeated words"); a version 3
	// file is a version 4 file without such a pack. Version 5 names the
	// creator of a goroutine started by code that is not instrumented
	// ("Creators"); a version 4 file is a version 5 file without one.
	// Version 6 gives a select the clause it chose ("Select cases"); a
	// version 5 file is a version 6 file whose selects do not say.
	// Version 7 ends the index with how the run ended ("The run's
	// ending"); a version 6 file is a version 7 file that does not say.
	Version = 7

	// oldestVersion is the oldest format version this package reads:
	// version 1 named a sync or spawn event by its block, not its site.
	oldestVersion = 2

	// trailerMagic closes a complete file, after the index offset.
	trailerMagic = "DVGINDEX"
	trailerSize  = 8 + len(trailerMagic)

	tagChunk = 'C'
	tagIndex = 'X'

	// Bounds checked before allocating, so that a corrupt length cannot make
	// a reader allocate without limit (each is also bounded by the file size).
	maxHeaderBytes = 1<<30 + 1<<20
	maxChunkBytes  = 64 << 20
	maxIndexBytes  = 1 << 30
	maxNameBytes   = 4 << 10

	// headerPerturbed is the header's flag of a perturbed run.
	headerPerturbed = 1 << 0

	// chunkFinal marks the last chunk of a goroutine: it carries the end time.
	chunkFinal = 1 << 0
	// chunkTest marks the first chunk of a test's root goroutine: the
	// test's name follows the origin (docs/FORMAT.md, "Tests").
	chunkTest = 1 << 1
	// chunkResult marks a final chunk that carries a test's result.
	chunkResult = 1 << 2
	// chunkCreator marks the first chunk of a goroutine started by code
	// that is not instrumented whose creator is known: the function that
	// started it follows (format version 5, docs/FORMAT.md, "Creators").
	chunkCreator = 1 << 3

	// indexEnded, indexTest, indexResult and indexCreator are the flags of
	// an index entry: the goroutine ended; a test name follows; a result
	// follows; a creator follows.
	indexEnded   = 1 << 0
	indexTest    = 1 << 1
	indexResult  = 1 << 2
	indexCreator = 1 << 3
)

// syncWaited is the flag bit of an encoded sync event that really waited.
const syncWaited = 1 << 0

// syncSends is the flag bit of an encoded select whose chosen case sends.
const syncSends = 1 << 1

// syncBlocked is the flag bit (format version 2) of an encoded sync event
// that had not completed when its chunk was written: the goroutine was
// still blocked in it. It comes with syncWaited.
const syncBlocked = 1 << 2

// syncCase is the flag bit (format version 6) of an encoded select that
// says which clause it chose: a uvarint follows the event, the clause from 1
// in source order (the default counted as a clause).
const syncCase = 1 << 3

// MaxCase is the highest clause a select event can say it chose; a select
// with more clauses records a later one as not recorded (Event.Case 0).
const MaxCase = 31

// PackRepeats is the flag bit (format version 4) of a pack event's length
// byte saying that a uvarint follows the codes: how many more times the
// same word follows ("Repeated words"). The length itself is the low four
// bits.
const PackRepeats = 1 << 4
